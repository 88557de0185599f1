import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAutoForgeError } from '@autoforge/core';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { checkEndpoints, createEndpointWatch, createRoleModel, EndpointError, modelConfig } from './llm-options.js';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'autoforge-llm-options-'));
const io = (env: Record<string, string> = {}): CliIo => ({ stdout: () => {}, stderr: () => {}, cwd: tmp, env });
const lines = (file: string): { id: string; termination: string }[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { id: string; termination: string });

/** A port nothing listens on: bound by the kernel, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let refused = '';
beforeAll(async () => {
  refused = `http://127.0.0.1:${await closedPort()}/v1`;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('modelConfig', () => {
  const env = {
    AUTOFORGE_MODEL: 'shared-env', OPENAI_BASE_URL: 'http://shared-env/v1', OPENAI_API_KEY: 'shared-key', AUTOFORGE_TEMPERATURE: '0.1',
    AUTOFORGE_USER_MODEL: 'user-env', AUTOFORGE_USER_BASE_URL: 'http://user-env/v1', AUTOFORGE_USER_API_KEY: 'user-key',
  };

  it('takes the role flag, then the shared flag, then the role variable, then the shared one', () => {
    expect(modelConfig('user', { userModel: 'user-flag', model: 'shared-flag' }, env)?.model).toBe('user-flag');
    expect(modelConfig('user', { model: 'shared-flag' }, env)?.model).toBe('shared-flag');
    expect(modelConfig('user', {}, env)).toEqual({ role: 'user', model: 'user-env', baseURL: 'http://user-env/v1', apiKey: 'user-key', temperature: 0.1 });
    expect(modelConfig('judge', {}, env)).toEqual({ role: 'judge', model: 'shared-env', baseURL: 'http://shared-env/v1', apiKey: 'shared-key', temperature: 0.1 });
    expect(modelConfig('agent', { baseUrl: 'http://flag:8000/v1/', temperature: '0.7' }, env)).toMatchObject({ model: 'shared-env', baseURL: 'http://flag:8000/v1', temperature: 0.7 });
    expect(modelConfig('user', { baseUrl: 'http://shared-flag/v1', userTemperature: '1' }, env)).toMatchObject({ baseURL: 'http://shared-flag/v1', temperature: 1 });
  });

  it('has no model without a model name anywhere, and an empty variable counts as unset', () => {
    expect(modelConfig('agent', { baseUrl: 'http://x/v1' }, { AUTOFORGE_MODEL: ' ' })).toBeUndefined();
  });

  it('refuses a temperature outside 0..2 and a base URL that is not http(s), naming where it came from', () => {
    expect(() => modelConfig('agent', { model: 'm', temperature: '3' }, {})).toThrow(/--temperature must be a number from 0 to 2, got "3"/);
    expect(() => modelConfig('judge', { model: 'm' }, { AUTOFORGE_JUDGE_TEMPERATURE: 'hot' })).toThrow(/AUTOFORGE_JUDGE_TEMPERATURE must be a number/);
    expect(() => modelConfig('user', { model: 'm', userBaseUrl: 'localhost:8000' }, {})).toThrow(/--user-base-url must be an http\(s\) URL/);
  });
});

describe('checkEndpoints (the real openai SDK path of @autoforge/llm)', () => {
  it('fails on a refused connection with the role, the model, the endpoint and the reason', async () => {
    const error = await checkEndpoints([{ role: 'user', model: 'm', baseURL: refused, apiKey: undefined, temperature: undefined }], io()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(isAutoForgeError(error) && error.code).toBe('E_ENDPOINT');
    expect((error as Error).message).toMatch(new RegExp(`^the user model "m" at ${refused} did not pass the check before the run: .*ECONNREFUSED.*\\(3 attempts\\)`));
  });

  it('passes an endpoint that answers, even with a 400 or a 429, and fails on 401 and 404 at once', async () => {
    const server = await createScriptedChatServer({
      script: ['OK', { type: 'error', status: 400 }, { type: 'error', status: 429 }, { type: 'error', status: 429 }, { type: 'error', status: 429 }, { type: 'error', status: 401 }, { type: 'error', status: 404 }],
    });
    try {
      const config = { role: 'agent' as const, model: 'm', baseURL: server.baseURL, apiKey: 'k', temperature: undefined };
      await checkEndpoints([config], io());
      await checkEndpoints([config], io());
      await checkEndpoints([config], io());
      await expect(checkEndpoints([config], io())).rejects.toThrow(/HTTP 401/);
      await expect(checkEndpoints([config], io())).rejects.toThrow(/HTTP 404/);
      expect(server.chatRequests()).toHaveLength(7);
      const first = server.chatRequests()[0]?.body as { max_tokens: number; model: string };
      expect(first).toMatchObject({ max_tokens: 1, model: 'm' });
    } finally {
      await server.close();
    }
  });

  it('checks an endpoint shared by two roles once', async () => {
    const server = await createScriptedChatServer({ handler: () => 'OK' });
    try {
      const agent = { role: 'agent' as const, model: 'm', baseURL: server.baseURL, apiKey: 'k', temperature: undefined };
      await checkEndpoints([agent, { ...agent, role: 'user' }, { ...agent, role: 'judge', model: 'other' }], io());
      expect(server.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['m', 'other']);
    } finally {
      await server.close();
    }
  });
});

describe('createRoleModel', () => {
  it('sends the configured temperature instead of the component\'s own, and none of its own when unset', async () => {
    const server = await createScriptedChatServer({ handler: () => 'hi' });
    try {
      const base = { role: 'agent' as const, model: 'm', baseURL: server.baseURL, apiKey: 'k' };
      await createRoleModel({ ...base, temperature: 0.6 }, { io: io() }).complete([{ role: 'user', content: 'a' }], { temperature: 0 });
      await createRoleModel({ ...base, temperature: undefined }, { io: io() }).complete([{ role: 'user', content: 'a' }], { temperature: 0 });
      expect(server.chatRequests().map((r) => (r.body as { temperature?: number }).temperature)).toEqual([0.6, 0]);
    } finally {
      await server.close();
    }
  });

  it('trips the watch on an endpoint failure: every later call of the run fails at once with the same error', async () => {
    const server = await createScriptedChatServer({ script: [{ type: 'error', status: 400 }, { type: 'error', status: 401 }], handler: () => 'never asked' });
    try {
      const watch = createEndpointWatch();
      const config = { role: 'judge' as const, model: 'm', baseURL: server.baseURL, apiKey: 'k', temperature: undefined };
      const model = createRoleModel(config, { io: io(), watch });
      const other = createRoleModel({ ...config, role: 'user' }, { io: io(), watch });
      // A 400 is this request's problem, not the endpoint's: the run goes on.
      await expect(model.complete([{ role: 'user', content: 'a' }])).rejects.toThrow(/HTTP 400/);
      expect(watch.failure).toBeUndefined();
      const failure = await model.complete([{ role: 'user', content: 'a' }]).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(EndpointError);
      expect(watch.failure).toBe(failure);
      await expect(other.complete([{ role: 'user', content: 'b' }])).rejects.toBe(failure);
      expect(() => watch.throwIfFailed()).toThrow(failure as Error);
      expect(server.chatRequests()).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

describe('the commands against a refused endpoint (exit 2, a clear message, nothing spoiled kept)', () => {
  const run = join(tmp, 'run');
  beforeAll(async () => {
    const synth = await runAutoforge(['synth', join(EXAMPLES, 'hotel.mcp.json'), '--out', run, '--tasks', '3', '--no-progress']);
    expect(synth.code, synth.stderr).toBe(0);
  }, 120_000);

  it('rollout --agent openai: the check before the run fails, no episode and no settings are written', async () => {
    const r = await runAutoforge(['rollout', run, '--agent', 'openai', '--model', 'm', '--base-url', refused, '--out', 'checked.jsonl', '--no-progress'], { AUTOFORGE_MODEL: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/autoforge: the agent model "m" at http:\/\/127\.0\.0\.1:\d+\/v1 did not pass the check before the run: .*ECONNREFUSED.* \[E_ENDPOINT\]/);
    expect(r.stdout).toBe('');
    expect(existsSync(join(run, 'checked.json'))).toBe(false);
    expect(existsSync(join(run, 'checked.jsonl'))).toBe(false);
  }, 60_000);

  // --no-cache: the response cache ignores the base URL (a rerun from it needs no server).
  it('rollout --no-check stops at the first connection failure, removes the spoiled episodes, and a rerun against a working endpoint runs them all', async () => {
    const dead = await runAutoforge(['rollout', run, '--agent', 'openai', '--model', 'm', '--base-url', refused, '--no-check', '--rollouts', '2', '--max-turns', '2', '--no-cache', '--no-progress'], { AUTOFORGE_MODEL: '' });
    expect(dead.code, dead.stdout + dead.stderr).toBe(2);
    expect(dead.stderr).toMatch(/failed during the run: .*ECONNREFUSED.*\(5 attempts\).*then rerun to resume \[E_ENDPOINT\]/);
    expect(dead.stderr).toMatch(/kept 0 finished episode\(s\)/);
    expect(lines(join(run, 'trajectories.jsonl'))).toEqual([]);

    const server = await createScriptedChatServer({ handler: () => 'Could you tell me more?' });
    try {
      const live = await runAutoforge(['rollout', run, '--agent', 'openai', '--model', 'm', '--base-url', server.baseURL, '--rollouts', '2', '--max-turns', '2', '--no-cache', '--no-progress'], { AUTOFORGE_MODEL: '', OPENAI_API_KEY: 'k' });
      expect(live.code, live.stderr).toBe(0);
      const tasks = readFileSync(join(run, 'tasks.jsonl'), 'utf8').trim().split('\n').length;
      const ran = Number(/(\d+) episodes run, 0 already done/.exec(live.stdout)?.[1]);
      expect(ran).toBe(2 * tasks);
      const episodes = lines(join(run, 'trajectories.jsonl'));
      expect(episodes).toHaveLength(ran);
      expect(episodes.filter((t) => t.termination === 'agent_error')).toEqual([]);
      const settings = JSON.parse(readFileSync(join(run, 'trajectories.json'), 'utf8')) as { models: unknown };
      expect(settings.models).toEqual({ agent: { model: 'm', baseURL: server.baseURL, temperature: null } });
      // Another model on the same file is refused, not "already done".
      const other = await runAutoforge(['rollout', run, '--agent', 'openai', '--model', 'other', '--base-url', server.baseURL, '--rollouts', '2', '--max-turns', '2', '--no-cache', '--no-progress'], { AUTOFORGE_MODEL: '', OPENAI_API_KEY: 'k' });
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/written with other options/);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('judge --judge llm and rollout --user llm fail before the run; serve --user llm before it listens', async () => {
    const oracle = await runAutoforge(['rollout', run, '--out', 'oracle.jsonl', '--no-progress']);
    expect(oracle.code, oracle.stderr).toBe(0);
    const env = { AUTOFORGE_MODEL: 'm', OPENAI_BASE_URL: refused };
    const judge = await runAutoforge(['judge', run, '--judge', 'llm', '--trajectories', 'oracle.jsonl', '--no-progress'], env);
    expect(judge.code).toBe(2);
    expect(judge.stderr).toMatch(/the judge model "m" at .* did not pass the check before the run: .*ECONNREFUSED/);
    // The judge is part of the verdicts' resume key: rule verdicts are not "done" for an LLM judge.
    const rule = await runAutoforge(['judge', run, '--trajectories', 'oracle.jsonl', '--out', 'rule.jsonl', '--no-progress']);
    expect(rule.code, rule.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(run, 'rule.json'), 'utf8'))).toEqual({ judge: 'rule', trajectories: 'oracle.jsonl', out: 'rule.jsonl' });
    const mixed = await runAutoforge(['judge', run, '--judge', 'llm', '--trajectories', 'oracle.jsonl', '--out', 'rule.jsonl', '--no-progress'], env);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/rule\.jsonl was written by another judge or model/);
    const user = await runAutoforge(['rollout', run, '--user', 'llm', '--user-model', 'u', '--out', 'user.jsonl', '--no-progress'], env);
    expect(user.code).toBe(2);
    expect(user.stderr).toMatch(/the user model "u" at .* did not pass the check/);
    const serve = await runAutoforge(['serve', run, '--port', '0', '--user', 'llm'], env);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(/the user model "m" at .* did not pass the check/);
    expect(serve.stdout).not.toMatch(/listening/);
  }, 120_000);

  it('bench eval --agent openai fails before the run, env synth --llm at its first request', async () => {
    const bench = await runAutoforge(['bench', 'eval', 'tau-bench/airline', '--agent', 'openai', '--tasks', '1', '--data', BENCHMARKS, '--out', join(tmp, 'bench'), '--model', 'm', '--base-url', refused]);
    expect(bench.code).toBe(2);
    expect(bench.stderr).toMatch(/the agent model "m" at .* did not pass the check/);
    const synth = await runAutoforge(['env', 'synth', join(EXAMPLES, 'hotel.mcp.json'), '--llm', '--no-cache', '--model', 'm', '--base-url', refused, '--out', join(tmp, 'env.json')]);
    expect(synth.code).toBe(2);
    expect(synth.stderr).toMatch(/the environment writer model "m" at .* failed during the run: .*ECONNREFUSED/);
  }, 120_000);
});
