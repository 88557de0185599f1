import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS, CLI } from './test-support.js';

const exec = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'autoforge-startup-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A module resolve hook that writes down every package the process imports (bare specifiers;
// node's built-ins left out), registered before the CLI starts.
const HOOKS = `
import { appendFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  if (!/^(\\.|\\/|file:|data:|node:)/.test(specifier) && !isBuiltin(specifier)) {
    const parts = specifier.split('/');
    appendFileSync(file, (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/') + '\\n');
  }
  return next(specifier, context);
}`;

let runs = 0;
/** The packages `autoforge …args` imports, sorted, and its exit code. */
async function packagesLoaded(args: readonly string[]): Promise<{ packages: string[]; code: number; stderr: string }> {
  const file = join(dir, `loaded-${runs++}.txt`);
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)}, { data: { file: ${JSON.stringify(file)} } });`;
  let code = 0;
  let stderr = '';
  try {
    ({ stderr } = await exec(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI, ...args], {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, AUTOFORGE_BENCH_DATA: BENCHMARKS },
    }));
  } catch (error) {
    ({ code, stderr } = error as { code: number; stderr: string });
  }
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // nothing imported
  }
  return { packages: [...new Set(text.split('\n').filter((l) => l !== ''))].sort(), code, stderr };
}

/** What no command that does not need it may load (issue 18: it cost every command a second). */
const HEAVY = ['fastify', '@fastify/swagger', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', 'openai', 'bullmq', 'ioredis', '@dagrejs/dagre', 'graphology'];

describe('start-up: each command loads only what it uses', () => {
  it('`autoforge --version` loads no package at all (it needs no command parser)', async () => {
    const { packages, code } = await packagesLoaded(['--version']);
    expect(code).toBe(0);
    expect(packages).toEqual([]);
  });

  it.each(['--help', 'bench --help', 'serve --help'])('`autoforge %s` loads commander and nothing else', async (line) => {
    const { packages, code } = await packagesLoaded(line.split(' '));
    expect(code).toBe(0);
    expect(packages).toEqual(['commander']);
  });

  it('`autoforge bench replay` loads the benchmark ports and the runtime, not the server, tfjs, the OpenAI client, BullMQ or the graph libraries', async () => {
    const { packages, code } = await packagesLoaded(['bench', 'replay', 'tau-bench/retail']);
    expect(code).toBe(0);
    expect(packages).toEqual(expect.arrayContaining(['@autoforge/bench-adapters', '@autoforge/env-runtime']));
    expect(packages.filter((p) => HEAVY.includes(p) || /^@autoforge\/(env-server|env-synth|erpo|queue|dag-blueprint|depgraph|judge)$/.test(p))).toEqual([]);
  });

  it('bad input still exits 2 with a located message (the error classes load on the way out)', async () => {
    const missing = join(dir, 'no-such-tools.json');
    const { code, stderr } = await packagesLoaded(['parse', missing]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${missing} /: cannot read the file (ENOENT)`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
