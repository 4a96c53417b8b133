/**
 * Deployment settings, read once from the environment. Every name here is documented in
 * .env.example and the README; a bad value stops the server with a sentence saying which.
 */
import { z } from 'astro/zod';
import { departuresReadMaxAgeMs } from './http/cache-policy.ts';

const storageModes = ['embedded', 'postgres', 'off'] as const;

const env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  SITE_URL: z.url().optional(),
  CONTACT_EMAIL: z.email().optional(),
  DEPLOY_TARGET: z.enum(['node', 'vercel']).default('node'),
  OPERATIONAL_STORAGE: z.enum(storageModes).default('embedded'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: z.string().optional(),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.url().optional(),
  BOOKING_EMAIL_TO: z.email().optional(),
  BOOKING_EMAIL_FROM: z.string().optional(),
  TRUST_PROXY: z.enum(['none', 'vercel']).optional(),
  DEPARTURES_FRESH_MS: z.coerce.number().int().min(0).max(departuresReadMaxAgeMs).default(departuresReadMaxAgeMs),
});

export type Settings = z.infer<typeof env> & { siteUrl: string };

export class SettingsError extends Error {
  override name = 'SettingsError';
}

export function readSettings(source: Record<string, string | undefined> = process.env): Settings {
  const blanksRemoved = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = env.safeParse(blanksRemoved);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new SettingsError(`Invalid settings:\n- ${lines.join('\n- ')}`);
  }
  const s = parsed.data;
  if (s.OPERATIONAL_STORAGE === 'postgres' && !s.DATABASE_URL) {
    throw new SettingsError('Invalid settings:\n- DATABASE_URL: required when OPERATIONAL_STORAGE=postgres');
  }
  const siteUrl = (s.SITE_URL ?? `http://localhost:${s.PORT}`).replace(/\/+$/, '');
  return { ...s, siteUrl };
}
