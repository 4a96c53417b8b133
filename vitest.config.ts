import { defineConfig } from 'vitest/config';
import { tiers } from './tests/tiers.ts';

export default defineConfig({
  test: {
    // One project per tier (tests/tiers.ts, docs/testing.md): `npm test` runs them all,
    // `npm run test:<tier>` one of them.
    projects: tiers.map((tier) => ({
      test: {
        name: tier.name,
        include: tier.include,
        globalSetup: ['tests/helpers/global-setup.ts'],
        testTimeout: 30_000,
        hookTimeout: 180_000,
      },
    })),
    // Two cores: files run in parallel, two at a time, whatever their tier.
    maxWorkers: 2,
    // The tier check stops a run at once, naming every outside program its tiers need and miss.
    reporters: ['default', './tests/helpers/tier-check.ts'],
  },
});
