import { defineConfig } from 'vitest/config';

// One root config; each package contributes a project built from tooling/presets/vitest.js.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'tooling/*/vitest.config.ts'],
    pool: 'forks',
  },
});
