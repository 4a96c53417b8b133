/**
 * Deployment settings: every environment variable the site, the hosts, the live functions and
 * the operations tools read, in one schema, read once and checked here. Every name is
 * documented in .env.example (a test holds the two in step) and the README; a bad value stops
 * the server with a sentence saying which.
 *
 * The agent-registration settings (AGENT_*) are checked with the rest, but a mistake in them
 * does not stop the site: it is kept in `agentAuth`, and only agent registration answers 503
 * and says why in the log (docs/agent-auth.md).
 */
import { z } from 'astro/zod';
import { departuresReadMaxAgeMs } from './http/cache-policy.ts';
import { counterSettings, withoutTrailingSlash, type CounterSettings } from './middleware-settings.ts';

type Source = Record<string, string | undefined>;

/**
 * The longest anything waits on operational storage unless STORAGE_TIMEOUT_MS says otherwise:
 * the departures read a request waits for, bounded once (service/departures/recent-reads.ts),
 * each statement PostgreSQL runs (set inside each transaction, service/storage/postgres.ts), and
 * each connection the pool opens; the pool gives up on an answer shortly after, so a request
 * fails in 3 s and a hung server's connections come back.
 */
export const defaultStorageTimeoutMs = 3000;

/**
 * How long a stopping Node server lets the requests it has begun finish (SHUTDOWN_GRACE_MS):
 * with closing storage after it, the server is gone within Docker's and supervisord's 10 s
 * (service/host/shutdown.ts).
 */
const defaultShutdownGraceMs = 5000;

/** A value pasted with a newline or spaces around it; blank is the same as unset. */
const trimmed = z
  .string()
  .transform((value) => value.trim() || undefined)
  .optional();

const storageModes = ['embedded', 'postgres', 'off'] as const;

/**
 * A setting that is a URL of one of `schemes`, with a host. Checked here, so a mistyped address
 * stops the server at start with its name, instead of failing every call that uses it. A `#`, `@`
 * or `/` in a password is written percent-encoded (`%23`, `%40`, `%2F`), as in any URL.
 */
function urlSetting(schemes: readonly string[], example: string) {
  const accepted = `a ${schemes.map((scheme) => `${scheme}://`).join(' or ')} URL such as ${example}`;
  return z.string().superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `is not a URL; it must be ${accepted} (a #, @ or / in a password is written %23, %40 or %2F)`,
      });
      return;
    }
    // A host, or (libpq's form for a Unix socket) its folder as `?host=`.
    if (!schemes.includes(url.protocol.slice(0, -1)) || (url.hostname === '' && !url.searchParams.has('host')))
      ctx.addIssue({ code: 'custom', message: `must be ${accepted}` });
  });
}

/** A PostgreSQL connection string (DATABASE_URL and its direct twins). */
const postgresUrl = urlSetting(['postgres', 'postgresql'], 'postgres://user:password@db.example.com:5432/catalogue');

/** The deployment's settings, each with its default. */
const deploymentSettings = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  SITE_URL: urlSetting(['https', 'http'], 'https://example.com').optional(),
  CONTACT_EMAIL: z.email().optional(),
  DEPLOY_TARGET: z.enum(['node', 'vercel']).default('node'),
  /** Where the editors' files are; tests and benchmarks point it at generated catalogues. */
  CONTENT_DIR: z.string().min(1).default('content'),
  OPERATIONAL_STORAGE: z.enum(storageModes).default('embedded'),
  /** The address the site's requests use: on a host with a pooler, its pooled address (Neon's DATABASE_URL). */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * The direct address beside a pooled DATABASE_URL, for migrations and the operator's tools
   * (Neon names it DATABASE_URL_UNPOOLED; Vercel's older Postgres integration POSTGRES_URL_NON_POOLING).
   */
  DATABASE_URL_UNPOOLED: postgresUrl.optional(),
  POSTGRES_URL_NON_POOLING: postgresUrl.optional(),
  DATA_DIR: z.string().default('.data'),
  STORAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(defaultStorageTimeoutMs),
  DEPARTURES_FRESH_MS: z.coerce.number().int().min(0).max(departuresReadMaxAgeMs).default(departuresReadMaxAgeMs),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(defaultShutdownGraceMs),
  REDIS_URL: urlSetting(['redis', 'rediss'], 'redis://127.0.0.1:6379').optional(),
  /** Read as the request rules read them (middleware-settings.ts), pasted spaces dropped. */
  UPSTASH_REDIS_REST_URL: urlSetting(['https', 'http'], 'https://example.upstash.io').optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  KV_REST_API_URL: urlSetting(['https', 'http'], 'https://example.upstash.io').optional(),
  KV_REST_API_TOKEN: z.string().optional(),
  TRUST_PROXY: z.enum(['none', 'vercel']).optional(),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: urlSetting(['https', 'http'], 'https://api.resend.com').optional(),
  BOOKING_EMAIL_TO: z.email().optional(),
  BOOKING_EMAIL_FROM: z.string().optional(),
  /**
   * The secret Vercel Cron sends as `Authorization: Bearer …` to /alerts/run, the alert job's
   * route, which answers nothing else (docs/alerts.md). Unset, the route refuses every call.
   */
  CRON_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** How often the Node host runs the alert job (0: never, for a host that calls /alerts/run itself). */
  ALERT_JOB_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /** Set to 1 by Vercel in every build and function. */
  VERCEL: z.string().optional(),
});

export interface TrustedIssuer {
  /** The `iss` value an identity provider puts in its assertions. */
  issuer: string;
  /** Where its public keys are published (a JWK Set). */
  jwksUri: string;
}

export interface AgentAuthSettings {
  /** AGENT_ANONYMOUS: anonymous registration (with a person's confirmation) is accepted. */
  anonymousEnabled: boolean;
  /** AGENT_TRUSTED_ISSUERS: identity providers whose ID-JAGs and security events are accepted. */
  trustedIssuers: TrustedIssuer[];
  /** AGENT_SIGNING_KEY: the private JWK that signs, or null to generate one under DATA_DIR. */
  signingKey: string | null;
  /** AGENT_SIGNING_KEYS_PREVIOUS: retired keys, still published and accepted, never used to sign. */
  previousKeys: string | null;
}

/** Agent registration (docs/agent-auth.md); the trusted issuers are checked against the site's own origin below. */
const agentAuthSettings = z.object({
  AGENT_ANONYMOUS: z
    .string()
    .optional()
    .transform((value) => value?.trim().toLowerCase() || 'on')
    .pipe(z.enum(['on', 'off'], { error: 'must be on or off' })),
  AGENT_TRUSTED_ISSUERS: z.string().optional(),
  AGENT_SIGNING_KEY: trimmed,
  AGENT_SIGNING_KEYS_PREVIOUS: trimmed,
});

/**
 * The settings that hold secrets, for the warning about a .env file others can read
 * (service/env-file.ts): keys and tokens, and URLs that may carry a password.
 */
export const secretSettings: readonly { name: keyof z.infer<typeof settingsSchema>; kind: 'secret' | 'url' }[] = [
  { name: 'AGENT_SIGNING_KEY', kind: 'secret' },
  { name: 'AGENT_SIGNING_KEYS_PREVIOUS', kind: 'secret' },
  { name: 'RESEND_API_KEY', kind: 'secret' },
  { name: 'CRON_SECRET', kind: 'secret' },
  { name: 'UPSTASH_REDIS_REST_TOKEN', kind: 'secret' },
  { name: 'KV_REST_API_TOKEN', kind: 'secret' },
  { name: 'DATABASE_URL', kind: 'url' },
  { name: 'REDIS_URL', kind: 'url' },
];

/** Every setting there is: the one schema .env.example documents. */
export const settingsSchema = deploymentSettings.extend(agentAuthSettings.shape);

export type Settings = z.infer<typeof deploymentSettings> & {
  /** The public origin, without a trailing slash: SITE_URL, or http://localhost:$PORT. */
  siteUrl: string;
  /** The direct address of the database, when one is given beside DATABASE_URL (DATABASE_URL_UNPOOLED, else POSTGRES_URL_NON_POOLING). */
  directDatabaseUrl: string | undefined;
  /** Where the rate-limit counters are shared (REDIS_URL, UPSTASH_*, KV_*). */
  counters: CounterSettings;
  /** Agent registration's settings, or why they cannot be used. */
  agentAuth: AgentAuthSettings | SettingsError;
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

function invalid(lines: string[]): SettingsError {
  return new SettingsError(`Invalid settings:\n- ${lines.join('\n- ')}`);
}

function fail(name: string, message: string): never {
  throw invalid([`${name}: ${message}`]);
}

/** Unset and blank values alike are left to the defaults. */
function given(source: Source): Source {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
}

function parsed<T extends z.ZodType>(schema: T, source: Source): z.infer<T> {
  const result = schema.safeParse(given(source));
  if (!result.success) throw invalid(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return result.data;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

function checkedIssuer(issuer: string, jwksUri: string, siteUrl: string): TrustedIssuer {
  const name = 'AGENT_TRUSTED_ISSUERS';
  if (!issuer) fail(name, 'an issuer is empty');
  if (withoutTrailingSlash(issuer) === siteUrl) fail(name, 'this site cannot trust itself as an identity provider');
  let url: URL;
  try {
    url = new URL(jwksUri);
  } catch {
    return fail(name, `the key set address of ${issuer} is not a URL`);
  }
  // Keys fetched over plain HTTP could be swapped in transit; only loopback (tests, local IdPs) may skip TLS.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    fail(name, `the key set address of ${issuer} must use https`);
  }
  return { issuer, jwksUri: url.href };
}

/**
 * AGENT_TRUSTED_ISSUERS accepts either a JSON object `{"<issuer>": "<jwks url>"}` or a list of
 * `<issuer>=<jwks url>` pairs separated by commas or whitespace.
 */
export function parseTrustedIssuers(value: string | undefined, siteUrl: string): TrustedIssuer[] {
  const text = value?.trim() ?? '';
  if (!text) return [];
  let pairs: [string, string][];
  if (text.startsWith('{')) {
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(text);
    } catch {
      return fail('AGENT_TRUSTED_ISSUERS', 'is not valid JSON');
    }
    if (!parsedJson || typeof parsedJson !== 'object' || Array.isArray(parsedJson))
      fail('AGENT_TRUSTED_ISSUERS', 'must be a JSON object of issuer to key set address');
    pairs = Object.entries(parsedJson).map(([issuer, jwks]) => {
      if (typeof jwks !== 'string') fail('AGENT_TRUSTED_ISSUERS', `the key set address of ${issuer} must be a string`);
      return [issuer, jwks];
    });
  } else {
    pairs = text
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((pair) => {
        const match = /^(.+?)=(https?:\/\/.+)$/.exec(pair);
        if (!match?.[1] || !match[2])
          return fail('AGENT_TRUSTED_ISSUERS', `"${pair}" is not of the form <issuer>=<jwks url>`);
        return [match[1], match[2]];
      });
  }
  const issuers = pairs.map(([issuer, jwks]) => checkedIssuer(issuer, jwks, siteUrl));
  if (new Set(issuers.map((i) => i.issuer)).size !== issuers.length)
    fail('AGENT_TRUSTED_ISSUERS', 'lists an issuer twice');
  return issuers;
}

/** The agent-registration settings for a site at `siteUrl`; throws SettingsError naming the one at fault. */
export function readAgentAuthSettings(siteUrl: string, source: Source = process.env): AgentAuthSettings {
  const agent = parsed(agentAuthSettings, source);
  return {
    anonymousEnabled: agent.AGENT_ANONYMOUS === 'on',
    trustedIssuers: parseTrustedIssuers(agent.AGENT_TRUSTED_ISSUERS, siteUrl),
    signingKey: agent.AGENT_SIGNING_KEY ?? null,
    previousKeys: agent.AGENT_SIGNING_KEYS_PREVIOUS ?? null,
  };
}

export function readSettings(source: Source = process.env): Settings {
  const s = parsed(deploymentSettings, source);
  if (s.OPERATIONAL_STORAGE === 'postgres' && !s.DATABASE_URL) {
    throw invalid(['DATABASE_URL: required when OPERATIONAL_STORAGE=postgres']);
  }
  const siteUrl = withoutTrailingSlash(s.SITE_URL ?? `http://localhost:${s.PORT}`);
  let agentAuth: AgentAuthSettings | SettingsError;
  try {
    agentAuth = readAgentAuthSettings(siteUrl, source);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    agentAuth = error;
  }
  const directDatabaseUrl = s.DATABASE_URL_UNPOOLED ?? s.POSTGRES_URL_NON_POOLING;
  return { ...s, siteUrl, directDatabaseUrl, counters: counterSettings(source), agentAuth };
}
