// @ts-check
import { defineConfig } from 'tsup';

/**
 * The one build shape every AutoForge package uses: ESM only, declarations, Node 20.
 * @param {{ entry?: Record<string, string> | string[], external?: string[], banner?: { js: string } }} [options]
 */
export function packageConfig(options = {}) {
  return defineConfig({
    entry: options.entry ?? { index: 'src/index.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    clean: true,
    sourcemap: true,
    splitting: true,
    treeshake: true,
    external: options.external ?? [],
    ...(options.banner ? { banner: options.banner } : {}),
  });
}
