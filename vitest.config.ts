import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Two cores: files run in parallel, but builds and servers are shared through global setup.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
