import { defineConfig } from 'vitest/config';

// One Vitest run covers the pure shared rules, the server's API suite and the web's unit tests.
// The server suite runs again on PostgreSQL when TEST_DATABASE_URL is set (see scripts/test.mjs).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['apps/server/test/setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
    ],
  },
});
