import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One root config; each package contributes a project built from tooling/presets/vitest.js.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'tooling/*/vitest.config.ts'],
    pool: 'forks',
    // At least two test files at a time: vitest's default (one less than the cores) runs one at
    // a time on a 2-core machine, where most files wait on child processes they start and the
    // second core idles (measured here: 1015 s one at a time, 680 s two at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
