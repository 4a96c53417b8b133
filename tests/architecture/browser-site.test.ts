/**
 * One reading of the browser headers: `Origin` and `Sec-Fetch-Site` are read in
 * service/http/browser-site.ts and nowhere else, and each surface that takes a change from a
 * browser (the enquiry endpoint, the claim page, /mcp) asks it who sent a request. What each
 * surface answers for each row of the rule is in its own tests (tests/bookings/origin.test.ts,
 * tests/agent-auth/flows.test.ts and served.test.ts, tests/agents/handler.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/project.ts';

const theCheck = 'service/http/browser-site.ts';

/** The code that answers requests on either host: the library, the live functions, the site, the hosts. */
function sources(): string[] {
  const found = ['middleware.ts', 'server.ts'];
  for (const folder of ['service', 'functions', 'src', 'domain'])
    for (const entry of readdirSync(path.join(projectRoot, folder), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(ts|mjs|astro)$/.test(entry.name))
        found.push(path.relative(projectRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  return found;
}

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

describe('who sent a request is decided in one module', () => {
  it('no other module reads Origin or Sec-Fetch-Site of a request', () => {
    const readers = sources().filter(
      (file) =>
        file !== theCheck &&
        /\.get\(\s*['"`](origin|sec-fetch-site)['"`]\s*\)|['"`]sec-fetch-site['"`]/i.test(read(file)),
    );
    expect(readers).toEqual([]);
  });

  it('bookings, the claim page and /mcp each ask it', () => {
    for (const surface of ['service/bookings/index.ts', 'service/agent-auth/claim.ts', 'service/mcp/index.ts']) {
      const text = read(surface);
      expect(text, surface).toMatch(/import \{[^}]*\bsenderOf\b[^}]*\} from '\.\.\/http\/browser-site\.ts'/);
      expect(text, surface).toMatch(/\bsenderOf\(request, /);
    }
  });
});
