import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (env: Record<string, string>, ...args: string[]) => runAutoforge(args, env);

const benchmarks = BENCHMARKS;
const out = mkdtempSync(join(tmpdir(), 'autoforge-env-llm-'));

// The model always writes code that throws a TypeError: every tool goes back for repair and
// ends on its offline template; the run must still produce a working spec and say so.
let server: Awaited<ReturnType<typeof createScriptedChatServer>>;
beforeAll(async () => {
  server = await createScriptedChatServer({
    handler: () => ({
      type: 'reply',
      content: '```js\nfunction run(args, ctx) { return args.missing.field; }\n```',
    }),
  });
});
afterAll(async () => {
  await server.close();
});

describe('autoforge env synth --llm', () => {
  it('asks the configured OpenAI-compatible endpoint, repairs, falls back, and caches the answers', async () => {
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test', AUTOFORGE_MODEL: 'scripted' };
    const cache = join(out, 'cache');
    const args = [
      'env', 'synth', join(benchmarks, 'tau-bench/airline/tools.json'),
      '--db', join(benchmarks, 'tau-bench/airline/data'), '--llm', '--cache', cache, '--seed', '1',
    ];
    const first = await autoforge(env, ...args, '--out', join(out, 'a.json'));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/llm: scripted, \d+ request\(s\), state schema from sample, 0\/\d+ tools written by the model, offline fallback for /);
    const requestsAfterFirst = server.requests.length;
    expect(requestsAfterFirst).toBeGreaterThanOrEqual(14);
    expect(readdirSync(cache).length).toBeGreaterThan(0);

    // Same inputs: every answer comes from the cache, no request, the same bytes.
    const second = await autoforge(env, ...args, '--out', join(out, 'b.json'));
    expect(second.code).toBe(0);
    expect(server.requests.length).toBe(requestsAfterFirst);
    expect(readFileSync(join(out, 'b.json'), 'utf8')).toBe(readFileSync(join(out, 'a.json'), 'utf8'));
  });

  it('exits 2 when --llm has no model configured', async () => {
    const { code, stderr } = await autoforge(
      { AUTOFORGE_MODEL: '' },
      'env', 'synth', join(benchmarks, 'tau-bench/airline/tools.json'), '--llm', '--out', join(out, 'c.json'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/AUTOFORGE_MODEL/);
  });
});
