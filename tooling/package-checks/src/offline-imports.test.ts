import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishedPackages, root } from './workspace.js';

// Offline imports stay offline: importing a package's main entry (its built `dist/index.js`, as a
// user's `import … from '@autoforge/x'` does) loads neither the OpenAI client nor TensorFlow.js.
// Those load only behind the subpaths and calls that need them (`@autoforge/erpo/tfjs`, a model's
// first request). Each import runs in a fresh node with module hooks that report every heavy module.
// Packages that split their LLM parts into `./llm` keep even the LLM client package out of the
// main entry: the OpenAI SDK loads lazily, so that check sees a move the first one cannot.

const register = join(root, 'tooling', 'package-checks', 'fixtures', 'register-heavy-hooks.mjs');

function heavyModulesOf(entry: string): { heavy: string[]; llmClient: string[]; status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(entry).href)});`], { encoding: 'utf8', timeout: 60_000 });
  const heavy = [...new Set([...r.stderr.matchAll(/^HEAVY (.+)$/gm)].map((m) => m[1] as string))];
  const llmClient = [...new Set([...r.stderr.matchAll(/^LLM-CLIENT (.+)$/gm)].map((m) => m[1] as string))];
  return { heavy, llmClient, status: r.status, stderr: r.stderr };
}

// The packages whose LLM parts live behind a `./llm` subpath (judge, env-synth, depgraph, dag-blueprint).
const llmSplit = publishedPackages().filter((pkg) => pkg.manifest.exports?.['./llm'] !== undefined);

describe('offline imports', () => {
  it('the hooks see TensorFlow.js and the OpenAI client where they are imported (the check can fail)', () => {
    const tfjs = join(root, 'packages', 'erpo', 'dist', 'tfjs.js');
    expect(existsSync(tfjs), 'build first (pnpm build)').toBe(true);
    expect(heavyModulesOf(tfjs).heavy).toContain('@tensorflow/tfjs');
    // And the OpenAI client, imported as @autoforge/llm imports it on a model's first request.
    const openai = join(root, 'packages', 'llm', 'node_modules', 'openai', 'index.mjs');
    expect(existsSync(openai)).toBe(true);
    expect(heavyModulesOf(openai).heavy).toContain('openai');
  });

  for (const pkg of publishedPackages()) {
    it(`${pkg.manifest.name}: its main entry loads neither openai nor @tensorflow/*`, () => {
      const entry = join(pkg.dir, 'dist', 'index.js');
      expect(existsSync(entry), `${pkg.id}: build first (pnpm build)`).toBe(true);
      const { heavy, status, stderr } = heavyModulesOf(entry);
      expect(status, stderr).toBe(0);
      expect(heavy).toEqual([]);
    }, 60_000);
  }

  it('the packages with a ./llm subpath include judge and env-synth', () => {
    expect(llmSplit.map((p) => p.manifest.name)).toEqual(expect.arrayContaining(['@autoforge/judge', '@autoforge/env-synth']));
  });

  for (const pkg of llmSplit) {
    it(`${pkg.manifest.name}: the LLM client (@autoforge/llm) loads from ./llm only, never from the main entry`, () => {
      const main = join(pkg.dir, 'dist', 'index.js');
      const llm = join(pkg.dir, 'dist', 'llm.js');
      expect(existsSync(main) && existsSync(llm), `${pkg.id}: build first (pnpm build)`).toBe(true);
      const offline = heavyModulesOf(main);
      expect(offline.status, offline.stderr).toBe(0);
      expect(offline.llmClient).toEqual([]);
      // The control: the subpath does import it, so the hooks would see it in the main entry.
      const online = heavyModulesOf(llm);
      expect(online.status, online.stderr).toBe(0);
      expect(online.llmClient).toContain('@autoforge/llm');
      expect(online.heavy).toEqual([]);
    }, 60_000);
  }
});
