import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, AgentContext, AssistantMessage, Task, Trajectory, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { Environment } from './environment.js';
import { outputsPresent } from '@autoforge/core';
import { rollout } from './rollout.js';
import { rolloutMany } from './rollout-many.js';
import { SHOP_NATIVES, shopSpec } from './shop-fixture.js';

let env: Environment;
let task: Task;

function call(id: string, name: string, args: object) {
  return { id, name, arguments: JSON.stringify(args) };
}

/** Plays a fixed list of assistant turns, then keeps saying "ok". */
function scriptedAgent(turns: AssistantMessage[], name = 'scripted'): Agent {
  let i = 0;
  return {
    name,
    act: async () => turns[i++] ?? { role: 'assistant', content: 'ok' },
  };
}

/** Opens with a request, then stops at its first reply. */
function scriptedUser(opening = 'Please cancel my order o1.', stopAfter = 1): UserSimulator {
  let replies = 0;
  return {
    name: 'scripted-user',
    start: async () => ({ content: opening, stop: false }),
    reply: async () => {
      replies += 1;
      return replies >= stopAfter ? { content: USER_STOP_TOKEN, stop: true } : { content: 'go on', stop: false };
    },
  };
}

const goldTurns = (): AssistantMessage[] => [
  {
    role: 'assistant',
    content: null,
    toolCalls: [call('c1', 'get_user', { user_id: 'ada' }), call('c2', 'cancel_order', { order_id: 'o1' })],
    usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
  },
  { role: 'assistant', content: 'Your order o1 is cancelled; the refund is 20.', usage: { promptTokens: 20, completionTokens: 7, totalTokens: 27 } },
];

beforeAll(async () => {
  env = await createEnvironment(shopSpec(), { natives: SHOP_NATIVES });
  const gold = env.createSession();
  gold.stepSync(call('g1', 'cancel_order', { order_id: 'o1' }));
  task = {
    id: 'cancel-o1',
    envId: env.id,
    intent: 'cancel order o1',
    userFacts: [],
    goldCalls: [{ name: 'cancel_order', arguments: { order_id: 'o1' } }],
    expectedFinalDigest: gold.digest(),
    requiredOutputs: ['refund is 20'],
    policy: 'You are a shop assistant.',
  };
});

afterAll(() => env.close());

describe('rollout', () => {
  it('offers only the task\'s tools, and shows held-out tools once a user message gives them back', async () => {
    const seen: string[][] = [];
    const agent: Agent = {
      name: 'probe',
      act: async (ctx: AgentContext) => {
        seen.push(ctx.tools.map((t) => t.name).sort());
        const n = seen.length;
        if (n === 1) return { role: 'assistant', content: null, toolCalls: [call('x1', 'list_orders', {})] };
        if (n === 2) return { role: 'assistant', content: 'I cannot cancel yet.' };
        if (n === 3) return { role: 'assistant', content: null, toolCalls: [call('x2', 'cancel_order', { order_id: 'o1' })] };
        return { role: 'assistant', content: 'Cancelled.' };
      },
    };
    let replies = 0;
    const user: UserSimulator = {
      name: 'turns',
      start: async () => ({ content: 'Cancel o1.', stop: false }),
      reply: async () => {
        replies += 1;
        return replies === 1 ? { content: 'I have given you more tools.', stop: false, revealTools: ['cancel_order'] } : { content: USER_STOP_TOKEN, stop: true };
      },
    };
    const offered = { ...task, tools: ['get_user', 'cancel_order'], heldOutTools: ['cancel_order'] };
    const t = await rollout({ environment: env, task: offered, agent, user });
    expect(seen[0]).toEqual(['get_user']);
    expect(seen[2]).toEqual(['cancel_order', 'get_user']);
    expect(t.steps.map((s) => [s.call.name, s.result.ok ? 'ok' : s.result.error.code])).toEqual([
      ['list_orders', 'unknown_tool'],
      ['cancel_order', 'ok'],
    ]);
    // A held-out tool is hidden, not refused: called before it is given back, it runs.
    const early: Agent = { name: 'early', act: async (ctx) => (ctx.messages.length < 3 ? { role: 'assistant', content: null, toolCalls: [call('e1', 'cancel_order', { order_id: 'o1' })] } : { role: 'assistant', content: 'ok' }) };
    const e = await rollout({ environment: env, task: offered, agent: early, user: scriptedUser() });
    expect(e.steps.map((s) => s.result.ok)).toEqual([true]);
    expect(t.reward).toBe(0); // the required output was never said
    expect(t.rewardInfo?.stateMatch).toBe(true);
  });

  it('runs user → agent → tools → agent → user stop, and rewards the exact final state plus outputs', async () => {
    const t = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: scriptedUser() });
    expect(t.termination).toBe('user_stop');
    expect(t.reward).toBe(1);
    expect(t.rewardInfo).toEqual({ stateMatch: true, outputs: { 'refund is 20': true } });
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
    expect(t.steps.map((s) => [s.call.name, s.result.ok, s.messageIndex])).toEqual([
      ['get_user', true, 2],
      ['cancel_order', true, 2],
    ]);
    expect(t.usage).toEqual({ promptTokens: 30, completionTokens: 12, totalTokens: 42 });
    expect(t.id).toBe('cancel-o1#0');
    expect(t.metadata).toEqual({ agent: 'scripted', user: 'scripted-user' });
  });

  it('gives reward 0 when the state matches but a required output was never said', async () => {
    const turns = goldTurns();
    turns[1] = { role: 'assistant', content: 'Done.' };
    const t = await rollout({ environment: env, task, agent: scriptedAgent(turns), user: scriptedUser() });
    expect(t.rewardInfo).toEqual({ stateMatch: true, outputs: { 'refund is 20': false } });
    expect(t.reward).toBe(0);
  });

  it('feeds agent mistakes back as error observations and goes on', async () => {
    const agent = scriptedAgent([
      { role: 'assistant', content: null, toolCalls: [call('x1', 'no_such_tool', {}), { id: 'x2', name: 'cancel_order', arguments: '{oops' }] },
      ...goldTurns(),
    ]);
    const t = await rollout({ environment: env, task, agent, user: scriptedUser() });
    expect(t.steps.slice(0, 2).map((s) => (s.result.ok ? 'ok' : s.result.error.code))).toEqual(['unknown_tool', 'unparsable_arguments']);
    const firstTool = t.messages[3];
    expect(firstTool).toMatchObject({ role: 'tool', toolCallId: 'x1', isError: true });
    expect(t.reward).toBe(1);
  });

  it('ends with agent_error or user_error when they throw, without throwing', async () => {
    const broken: Agent = { name: 'broken', act: async () => { throw new Error('model down'); } };
    const a = await rollout({ environment: env, task, agent: broken, user: scriptedUser() });
    expect(a.termination).toBe('agent_error');
    expect(a.metadata.error).toBe('model down');
    expect(a.reward).toBe(0);
    const badUser: UserSimulator = { name: 'bad', start: async () => { throw new Error('no'); }, reply: async () => ({ content: '', stop: true }) };
    const u = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: badUser });
    expect(u.termination).toBe('user_error');
  });

  it('enforces the turn, tool-call, token and wall-time limits', async () => {
    const looping: Agent = { name: 'loop', act: async () => ({ role: 'assistant', content: null, toolCalls: [call('l', 'get_user', { user_id: 'ada' })], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }) };
    expect((await rollout({ environment: env, task, agent: looping, user: scriptedUser(), limits: { maxTurns: 3 } })).termination).toBe('max_turns');
    const t = await rollout({ environment: env, task, agent: looping, user: scriptedUser(), limits: { maxToolCalls: 4 } });
    expect(t.termination).toBe('max_tool_calls');
    expect(t.steps).toHaveLength(4);
    expect((await rollout({ environment: env, task, agent: looping, user: scriptedUser(), limits: { maxTokens: 5 } })).termination).toBe('max_tokens');
    const waiting: Agent = {
      name: 'slow',
      act: (ctx: AgentContext) =>
        new Promise((_resolve, reject) => ctx.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    expect((await rollout({ environment: env, task, agent: waiting, user: scriptedUser(), limits: { maxWallTimeMs: 50 } })).termination).toBe('max_wall_time');
    await expect(rollout({ environment: env, task, agent: looping, user: scriptedUser(), limits: { maxTurns: 0 } })).rejects.toThrow(/maxTurns must be a positive number/);
  });

  it('ends with agent_transfer after a successful transfer tool call', async () => {
    const agent = scriptedAgent([{ role: 'assistant', content: null, toolCalls: [call('t', 'get_user', { user_id: 'ada' })] }]);
    const t = await rollout({ environment: env, task, agent, user: scriptedUser(), isTransferTool: (n) => n === 'get_user' });
    expect(t.termination).toBe('agent_transfer');
  });

  it('records injected user errors with the index of the message that carries them', async () => {
    const user: UserSimulator = {
      name: 'liar',
      start: async () => ({
        content: 'Cancel order o3.',
        stop: false,
        metadata: { injectedUserErrors: [{ kind: 'wrong_fact', messageIndex: -1, detail: { key: 'order_id', said: 'o3' } }] },
      }),
      reply: async () => ({ content: USER_STOP_TOKEN, stop: true }),
    };
    const t = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user });
    expect(t.injectedUserErrors).toEqual([{ kind: 'wrong_fact', messageIndex: 1, detail: { key: 'order_id', said: 'o3' } }]);
  });

  it('is deterministic: the same agent, user and task give the same final digest and messages', async () => {
    const a = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: scriptedUser() });
    const b = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: scriptedUser() });
    expect(b.finalDigest).toBe(a.finalDigest);
    expect(b.messages).toEqual(a.messages);
  });
});

describe('rollout: message budget and timings', () => {
  it('ends an episode whose agent sends a message past maxMessageBytes with message_limit', async () => {
    const big: AssistantMessage = { role: 'assistant', content: 'x'.repeat(5000) };
    const t = await rollout({ environment: env, task, agent: scriptedAgent([big]), user: scriptedUser(), limits: { maxMessageBytes: 4096 } });
    expect(t.termination).toBe('message_limit');
    expect(t.messages.some((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content.length === 5000)).toBe(false);
  });

  it('records wall-clock durations only when asked', async () => {
    const timed = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: scriptedUser(), timings: true });
    expect(timed.durationMs).toBeGreaterThan(0);
    const plain = await rollout({ environment: env, task, agent: scriptedAgent(goldTurns()), user: scriptedUser() });
    expect(plain.durationMs).toBe(0);
  });
});

describe('outputsPresent', () => {
  it('lower-cases and removes commas like tau-bench', () => {
    expect(outputsPresent(['1,000.50', 'Blue'], [{ role: 'assistant', content: 'It costs 1000.50 and it is blue' }])).toEqual({ '1,000.50': true, Blue: true });
    expect(outputsPresent(['x'], [{ role: 'user', content: 'x' }])).toEqual({ x: false });
  });
});

describe('rolloutMany', () => {
  const jobs = () => Array.from({ length: 12 }, (_, i) => ({ task: { ...task, id: `t${i % 4}` }, rollout: Math.floor(i / 4) }));
  const run = (out: string) =>
    rolloutMany({ jobs: jobs(), environmentFor: () => env, agentFor: () => scriptedAgent(goldTurns()), userFor: () => scriptedUser(), out, concurrency: 3 });
  const lines = (out: string) => readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Trajectory);

  it('streams every episode once to JSONL and skips finished ones on rerun', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rollouts-')), 'trajectories.jsonl');
    expect(await run(out)).toEqual({ ran: 12, skipped: 0, repairedBytes: 0 });
    expect(await run(out)).toEqual({ ran: 0, skipped: 12, repairedBytes: 0 });
    const ids = lines(out).map((t) => t.id).sort();
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('repairs a torn last line (crash mid-write) and finishes every episode exactly once', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rollouts-')), 'trajectories.jsonl');
    await run(out);
    const all = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    writeFileSync(out, `${all.slice(0, 5).join('\n')}\n${all[5]!.slice(0, 40)}`);
    const summary = await run(out);
    expect(summary.ran).toBe(7);
    expect(summary.repairedBytes).toBe(40);
    const ids = lines(out).map((t) => t.id);
    expect(new Set(ids).size).toBe(12);
    expect(ids).toHaveLength(12);
  });

  it('writes the same bytes for the same jobs whatever the concurrency (no wall-clock durations by default)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollouts-'));
    const slowAgent = (job: { rollout: number }): Agent => {
      const inner = scriptedAgent(goldTurns());
      // Later jobs finish first: the file must still be in job order.
      return { name: 'slow', act: async (c: AgentContext) => { await new Promise((r) => setTimeout(r, (3 - job.rollout) * 5)); return inner.act(c); } };
    };
    const outs = [1, 4].map((concurrency) => join(dir, `c${concurrency}.jsonl`));
    for (const [i, out] of outs.entries()) {
      await rolloutMany({ jobs: jobs(), environmentFor: () => env, agentFor: slowAgent, userFor: () => scriptedUser(), out, concurrency: i === 0 ? 1 : 4 });
    }
    expect(readFileSync(outs[1] as string, 'utf8')).toBe(readFileSync(outs[0] as string, 'utf8'));
    expect(lines(outs[0] as string).every((t) => t.durationMs === 0 && t.steps.every((s) => s.durationMs === 0))).toBe(true);
  });

  it('reports progress only for lines already in the file, when later jobs finish first', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rollouts-')), 'trajectories.jsonl');
    const slowAgent = (job: { rollout: number }): Agent => {
      const inner = scriptedAgent(goldTurns());
      return { name: 'slow', act: async (c: AgentContext) => { await new Promise((r) => setTimeout(r, (3 - job.rollout) * 5)); return inner.act(c); } };
    };
    const seen: Array<[number, number]> = [];
    await rolloutMany({
      jobs: jobs(), environmentFor: () => env, agentFor: slowAgent, userFor: () => scriptedUser(), out, concurrency: 4,
      onTrajectory: (_t, done) => { seen.push([done, readFileSync(out, 'utf8').split('\n').filter(Boolean).length]); },
    });
    expect(seen.map(([done]) => done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(seen.every(([done, onDisk]) => onDisk >= done)).toBe(true);
  });

  it('rejects duplicate jobs', async () => {
    const dup = [{ task, rollout: 0 }, { task, rollout: 0 }];
    await expect(
      rolloutMany({ jobs: dup, environmentFor: () => env, agentFor: () => scriptedAgent([]), userFor: () => scriptedUser(), out: join(tmpdir(), 'never.jsonl') }),
    ).rejects.toThrow(/listed twice/);
  });

  it('survives a killed process: rerunning yields every episode exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rollouts-kill-'));
    const out = join(dir, 'trajectories.jsonl');
    const script = join(dir, 'run.mjs');
    const dist = join(import.meta.dirname, '..', 'dist', 'index.js');
    // The child runs 40 slow episodes (an agent that waits 25 ms per turn) and is killed midway.
    writeFileSync(
      script,
      `import { createEnvironment, rolloutMany } from ${JSON.stringify(dist)};
const spec = JSON.parse(process.argv[2]);
const task = JSON.parse(process.argv[3]);
const env = await createEnvironment(spec);
const jobs = Array.from({ length: 40 }, (_, i) => ({ task: { ...task, id: 't' + i }, rollout: 0 }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let started = 0;
await rolloutMany({ jobs, out: process.argv[4], concurrency: 2, environmentFor: () => env,
  agentFor: () => { let n = 0; return { name: 'slow', act: async () => { await sleep(25); n++; return n === 1
    ? { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'get_user', arguments: '{"user_id":"ada"}' }] }
    : { role: 'assistant', content: 'done' }; } }; },
  userFor: () => ({ name: 'u', start: async () => ({ content: 'hi', stop: false }), reply: async () => ({ content: '###STOP###', stop: true }) }),
  onTrajectory: (_t, done) => { if (done === 8) process.stdout.write('half\\n'); } });
`,
    );
    const full = shopSpec();
    const jsSpec = { ...full, tools: full.tools.filter((t) => t.implementation.kind === 'js') };
    const child = spawn(process.execPath, [script, JSON.stringify(jsSpec), JSON.stringify(task), out], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('half')) { child.kill('SIGKILL'); resolve(); } }));
    await new Promise((resolve) => child.on('exit', resolve));
    const before = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
    expect(before).toBeGreaterThanOrEqual(8);
    expect(before).toBeLessThan(40);
    const jsEnv = await createEnvironment(jsSpec);
    const summary = await rolloutMany({
      jobs: Array.from({ length: 40 }, (_, i) => ({ task: { ...task, id: `t${i}` }, rollout: 0 })),
      out,
      environmentFor: () => jsEnv,
      agentFor: () => scriptedAgent([{ role: 'assistant', content: 'done' }]),
      userFor: () => scriptedUser('hi'),
    });
    jsEnv.close();
    expect(summary.skipped).toBe(before);
    const ids = lines(out).map((t) => t.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });
});
