// @ts-check
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * The vitest project preset for a package folder. The root `vitest.config.ts` lists every
 * package's config in `projects`, so `pnpm vitest run` at the root runs them all.
 * @param {string} name project name (the package name)
 * @param {{ testTimeout?: number, include?: string[] }} [options]
 */
export function packageProject(name, options = {}) {
  return defineProject({
    test: {
      name,
      include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
      testTimeout: options.testTimeout ?? 30_000,
      // Set-up hooks synthesize runs and start servers in child processes: on a loaded machine
      // they outlast vitest's 10 s default. A ceiling against hangs, not a speed check.
      hookTimeout: 120_000,
      typecheck: { enabled: false },
      setupFiles: [fileURLToPath(new URL('./fast-check-setup.js', import.meta.url))],
    },
  });
}
