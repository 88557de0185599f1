import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import pLimit from 'p-limit';
import { formatMessage } from 'publint/utils';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
const attwBin = join(import.meta.dirname, '..', 'node_modules', '.bin', 'attw');

const packageDirs = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')));

// attw packs and loads each package in its own processes (3–5 s each): they start together,
// two at a time, when the file loads, and each test awaits its own, so that the file takes
// about half the time it takes one package after another.
const attwLimit = pLimit(2);
const attwRuns = new Map(
  packageDirs.map((dir) => [
    dir,
    attwLimit(() =>
      run(attwBin, ['--pack', dir, '--profile', 'esm-only', '--format', 'ascii'], { cwd: dir }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout}${e.stderr}` }),
      ),
    ),
  ]),
);

describe.each(packageDirs.map((dir) => [dir.split('/').pop() as string, dir]))('package %s', (_name, dir) => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;

  it('is ESM-only, side-effect free, ships dist and declares the supported Node range', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.files).toEqual(['dist']);
    expect((pkg.engines as Record<string, string>).node).toBe('^20.19.0 || >=22.12.0');
    expect(existsSync(join(dir, 'README.md'))).toBe(true);
  });

  it('passes publint --strict', async () => {
    const { messages, pkg: linted } = await publint({ pkgDir: dir, strict: true, level: 'suggestion' });
    const text = messages.map((m) => `${m.type}: ${formatMessage(m, linted) ?? m.code}`);
    expect(text).toEqual([]);
  });

  it('passes attw --pack --profile esm-only', async () => {
    const result = await (attwRuns.get(dir) as Promise<{ code: number; out: string }>);
    expect(result.code, result.out).toBe(0);
  });
});
