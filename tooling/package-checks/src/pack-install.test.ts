import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryPoints, type EntryPoint } from './entry-points.js';
import { run, runPnpm, workspaceStoreDir, type RunResult } from './pnpm.js';
import { scratchProject, type Lockfile, type PackedPackage } from './scratch-lockfile.js';
import { packedManifest, tarballFiles } from './tarball.js';
import { publishedPackages, root, type Manifest } from './workspace.js';

// Packs every published package, installs the tarballs in a project outside the workspace,
// offline, from the store the workspace install filled, and imports them there as a user would.

interface SmokeReport {
  entries: Record<string, { missing: string[]; count: number } | { error: string }>;
  checks: Record<string, { ok: true; value: unknown } | { ok: false; error: string }>;
}

const published = publishedPackages();
const entries = new Map<string, EntryPoint[]>(published.map((p) => [p.manifest.name, entryPoints(p.dir, p.manifest)]));
const tmp = mkdtempSync(join(tmpdir(), 'autoforge-pack-'));
const tarballDir = join(tmp, 'tarballs');
const scratchDir = join(tmp, 'scratch');

let packed: PackedPackage[] = [];
let install: RunResult | undefined;
let smoke: { result: RunResult; report?: SmokeReport } | undefined;

const explain = (result: RunResult | undefined) => (result ? `exit ${result.code}\n${result.stdout}\n${result.stderr}` : 'did not run');

beforeAll(async () => {
  mkdirSync(tarballDir);
  mkdirSync(scratchDir);
  const filters = published.flatMap((p) => ['--filter', `./${p.id}`]);
  const pack = await runPnpm(['-r', ...filters, 'pack', '--pack-destination', tarballDir, '--json'], { cwd: root });
  if (pack.code !== 0) throw new Error(`pnpm pack failed: ${explain(pack)}`);
  const listed = JSON.parse(pack.stdout) as { name: string; filename: string }[] | { name: string; filename: string };
  const byName = new Map((Array.isArray(listed) ? listed : [listed]).map((p) => [p.name, p.filename]));
  packed = published.map((p) => {
    const tarball = byName.get(p.manifest.name);
    if (!tarball) throw new Error(`pnpm pack made no tarball for ${p.manifest.name}`);
    return { importer: p.id, tarball, manifest: packedManifest<Manifest>(tarball) };
  });

  const workspaceLock = parse(readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8')) as Lockfile;
  const project = scratchProject(workspaceLock, packed, scratchDir);
  writeFileSync(
    join(scratchDir, 'package.json'),
    `${JSON.stringify({ name: 'autoforge-scratch', private: true, type: 'module', dependencies: project.dependencies, pnpm: { overrides: project.dependencies } }, null, 2)}\n`,
  );
  writeFileSync(join(scratchDir, 'pnpm-lock.yaml'), stringify(project.lockfile));
  install = await runPnpm(
    [
      'install',
      '--offline',
      '--frozen-lockfile',
      '--ignore-scripts',
      '--config.auto-install-peers=false',
      `--store-dir=${await workspaceStoreDir()}`,
      '--reporter=append-only',
    ],
    { cwd: scratchDir, timeoutMs: 120_000 },
  );
  if (install.code !== 0) return;

  const expected = [...entries.values()].flat().map(({ specifier, values }) => ({ specifier, values }));
  writeFileSync(join(scratchDir, 'entries.json'), JSON.stringify(expected));
  copyFileSync(join(import.meta.dirname, 'scratch-smoke.mjs'), join(scratchDir, 'smoke.mjs'));
  const result = await run(process.execPath, ['smoke.mjs', 'entries.json'], { cwd: scratchDir, timeoutMs: 60_000 });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  smoke = { result, ...(result.code === 0 && line.startsWith('{') ? { report: JSON.parse(line) as SmokeReport } : {}) };
}, 240_000);

afterAll(() => rm(tmp, { recursive: true, force: true }), 120_000);

describe('pnpm pack', () => {
  it('packs every published package with real version ranges instead of workspace: ones', () => {
    expect(packed.map((p) => p.manifest.name)).toEqual(published.map((p) => p.manifest.name));
    for (const { manifest } of packed) {
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
        const ranges = Object.entries(manifest[field] ?? {}).filter(([, range]) => range.startsWith('workspace:'));
        expect(ranges, `${manifest.name} ${field}`).toEqual([]);
      }
    }
  });

  it('ships every file the exports map names, the README and no sources or tests', () => {
    for (const { tarball, manifest } of packed) {
      const files = [...tarballFiles(tarball).keys()].map((path) => path.replace(/^[^/]+\//, ''));
      const targets = Object.values(manifest.exports ?? {}).flatMap((target) =>
        typeof target === 'string' ? [target] : [target.types, target.default].filter((t): t is string => t !== undefined),
      );
      for (const target of targets) expect(files, `${manifest.name} → ${target}`).toContain(target.replace(/^\.\//, ''));
      expect(files, manifest.name).toContain('README.md');
      expect(files.filter((f) => f.startsWith('src/') || /\.test\.|\.bench\./.test(f)), manifest.name).toEqual([]);
    }
  });
});

describe('the scratch project', () => {
  it('lies outside the workspace', () => {
    expect(relative(root, scratchDir).startsWith('..')).toBe(true);
  });

  it('installs every tarball offline from the store with a frozen lockfile', () => {
    expect(install?.code, explain(install)).toBe(0);
  });

  it('runs the import script', () => {
    expect(smoke?.report, explain(smoke?.result)).toBeDefined();
  });
});

describe.each(published.map((p) => [p.manifest.name]))('%s, installed from its tarball', (name) => {
  it('imports every entry point, each with every value export of its source', () => {
    for (const { specifier, values } of entries.get(name) ?? []) {
      const entry = smoke?.report?.entries[specifier];
      expect(entry, specifier).toBeDefined();
      if (entry && 'error' in entry) expect.fail(`${specifier}: ${entry.error}`);
      expect(entry && 'missing' in entry ? entry.missing : values, specifier).toEqual([]);
      expect(values.length, `${specifier} exports values`).toBeGreaterThan(0);
    }
  });
});

describe('the installed packages work', () => {
  const check = (name: string): unknown => {
    const result = smoke?.report?.checks[name];
    if (!result) return expect.fail(`check "${name}" did not run: ${explain(smoke?.result)}`);
    if (!result.ok) return expect.fail(`check "${name}" threw: ${result.error}`);
    return result.value;
  };

  it('core: digest({ a: 1 }) is the SHA-256 of {"a":1}', () => {
    expect(check('core digest')).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  });

  it('tooldoc-parser: parses a one-tool OpenAI document', () => {
    expect(check('tooldoc-parser parseToolDoc')).toEqual({ format: 'openai-chat', tools: ['get_order'] });
  });

  it('erpo: ERPO advantages of two task groups in one environment', () => {
    // cancel [1, 0]: ±0.5 / population std of the environment's rewards [1, 0, 1, 1] (0.433); refund [1, 1]: 0.
    expect(check('erpo computeAdvantages')).toEqual([1.155, -1.155, 0, 0]);
  });

  it('env-runtime: a sandboxed tool answers from the seed state (the QuickJS wasm loads)', () => {
    expect(check('env-runtime sandboxed step')).toEqual({ ok: true, output: { status: 'pending', total: 20 } });
  });

  it('llm and llm/testing: completeJson through the openai SDK against the scripted server', () => {
    expect(check('llm completeJson against the scripted server')).toMatchObject({ ok: true, value: { city: 'Paris' } });
  });

  it('erpo/tfjs: the WebAssembly backend initializes from the installed files', () => {
    expect(check('erpo/tfjs wasm backend')).toBe('wasm');
  });
});
