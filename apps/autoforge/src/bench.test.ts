import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Task } from '@autoforge/core';
import { benchEvalCommand, benchListCommand, benchReplayCommand } from './commands/bench.js';
import { judgeCommand } from './commands/judge.js';
import { rolloutCommand } from './commands/rollout.js';
import { loadServeCatalog } from './commands/serve.js';
import { loadRun } from './report/load-run.js';
import type { CliIo } from './io.js';
import { BENCHMARKS } from './test-support.js';

// The bench commands, run in-process with captured output (the functions program.ts wires to
// `autoforge bench list|replay|eval`).
function captureIo(env: Record<string, string> = {}): CliIo & { out: () => string; err: () => string } {
  let stdout = '';
  let stderr = '';
  return {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: process.cwd(),
    env,
    out: () => stdout,
    err: () => stderr,
  };
}

interface ExpectedEntry {
  index: number;
  final_digest: string;
  actions: { output: string }[];
}

async function expected(name: string): Promise<ExpectedEntry[]> {
  return JSON.parse(await readFile(join(BENCHMARKS, 'expected', name), 'utf8')) as ExpectedEntry[];
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('autoforge bench list', () => {
  it('lists tau-bench and tau2-bench retail and airline, ACEBench agent and VitaBench delivery and in-store', () => {
    const io = captureIo();
    benchListCommand(io);
    for (const name of ['tau-bench/retail', 'tau-bench/airline', 'tau2-bench/airline', 'tau2-bench/retail', 'acebench/agent', 'vitabench/delivery', 'vitabench/instore']) {
      expect(io.out()).toContain(`${name}\t`);
    }
  });
});

describe('autoforge bench replay / eval: acebench/agent', () => {
  it('replays the milestone path of every multi-turn sample; all but one reach the ground truth (reward 1)', async () => {
    const io = captureIo();
    await benchReplayCommand('acebench/agent', { split: 'multi_turn', data: BENCHMARKS }, io);
    const lines = io.out().trim().split('\n').map((l) => JSON.parse(l) as { task: string; reward: number });
    expect(lines).toHaveLength(30);
    expect(lines.filter((l) => l.reward !== 1).map((l) => l.task)).toEqual(['agent_multi_turn_6']);
  });

  it('runs the oracle on multi-step samples with the executor user and prints pass^1', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-eval-ace-'));
    dirs.push(out);
    const io = captureIo();
    await benchEvalCommand('acebench/agent', { agent: 'oracle', k: '1', out, data: BENCHMARKS, split: 'multi_step', tasks: '4', concurrency: '1', maxTurns: '30' }, io);
    // agent_multi_step_0 and _1 cannot succeed: their milestones order a product that is not on the menu.
    expect(io.out()).toBe('pass^1\t0.5000\n');
    // The oracle makes the milestone calls, so its process accuracy is 1 even where they fail.
    const results = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { reward: number; info: { process_accuracy: number } });
    expect(results.map((r) => [r.reward, r.info.process_accuracy])).toEqual([
      [0, 1],
      [0, 1],
      [1, 1],
      [1, 1],
    ]);
  });
});

describe('autoforge bench replay / eval: vitabench', () => {
  it('replays without a judge: every task at reward 0, and says why on stderr', async () => {
    let stderr = '';
    const io = { ...captureIo(), stderr: (t: string) => void (stderr += t) };
    await benchReplayCommand('vitabench/instore', { data: BENCHMARKS }, io);
    const lines = io.out().trim().split('\n').map((l) => JSON.parse(l) as { reward: number; outputs: string[] });
    expect(lines).toHaveLength(100);
    expect(lines.every((l) => l.reward === 0 && l.outputs.length === 0)).toBe(true);
    expect(stderr).toMatch(/vitabench\/instore: no AUTOFORGE_MODEL, so the rubrics are not judged/);
  });

  it('evaluates an OpenAI agent and judges the rubrics with the configured model (one scripted server for both)', async () => {
    const { createScriptedChatServer } = await import('@autoforge/llm/testing');
    const server = await createScriptedChatServer({
      handler: (request) => {
        const body = request.body as { tools?: unknown[]; messages: { content: string }[] };
        if (body.tools !== undefined) return 'I ordered the rice noodles for you.';
        const rubrics = JSON.parse(/<current_rubrics>\n([\s\S]*)\n<\/current_rubrics>/.exec(body.messages[1]?.content ?? '')?.[1] ?? '[]') as { rubric_idx: string }[];
        return JSON.stringify(rubrics.map((r) => ({ rubric_idx: r.rubric_idx, justification: 'ok', meetExpectation: true })));
      },
    });
    try {
      const out = await mkdtemp(join(tmpdir(), 'bench-eval-vita-'));
      dirs.push(out);
      const io = captureIo({ AUTOFORGE_MODEL: 'scripted', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'x' });
      await benchEvalCommand('vitabench/delivery', { agent: 'openai', k: '1', out, data: BENCHMARKS, tasks: '1', concurrency: '1', maxTurns: '10', cache: false }, io);
      expect(io.out()).toBe('pass^1\t1.0000\n');
      const bodies = server.chatRequests().map((r) => r.body as { tools?: unknown[] });
      expect(bodies.filter((b) => b.tools !== undefined)).toHaveLength(1);
      expect(bodies.find((b) => b.tools !== undefined)?.tools).toHaveLength(20);
      expect(bodies.filter((b) => b.tools === undefined)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('autoforge bench replay (acceptance: the reference digests of every task)', () => {
  it.each([
    ['tau-bench/retail', 'test', 'taubench_retail_test.expected.json'],
    ['tau-bench/retail', 'dev', 'taubench_retail_dev.expected.json'],
    ['tau-bench/airline', 'test', 'taubench_airline_test.expected.json'],
  ])('%s --split %s prints one line per task with the expected final digest and reward 1', async (name, split, file) => {
    const io = captureIo();
    await benchReplayCommand(name, { split, data: BENCHMARKS }, io);
    const lines = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task: string; final_digest: string; outputs: string[]; reward: number });
    const want = await expected(file);
    expect(lines).toHaveLength(want.length);
    lines.forEach((line, i) => {
      expect(line.task).toBe(`${split}/${i}`);
      expect(line.final_digest).toBe(want[i]?.final_digest);
      expect(line.outputs).toHaveLength(want[i]?.actions.length ?? -1);
      expect(line.reward).toBe(1);
    });
  });

  it.each([
    ['tau2-bench/airline', 'tau2_airline.expected.json'],
    ['tau2-bench/retail', 'tau2_retail.expected.json'],
  ])('%s --split base matches the reference final digest of every task', async (name, file) => {
    const io = captureIo();
    await benchReplayCommand(name, { split: 'base', data: BENCHMARKS }, io);
    const lines = io.out().trim().split('\n').map((l) => JSON.parse(l) as { task: string; final_digest: string; reward: number });
    const want = (await expected(file)) as unknown as { id: string; final_digest: string }[];
    expect(lines.map((l) => [l.task, l.final_digest, l.reward])).toEqual(want.map((w) => [w.id, w.final_digest, 1]));
  });

  it('reads the data folder from AUTOFORGE_BENCH_DATA and refuses an unknown benchmark or split', async () => {
    const io = captureIo({ AUTOFORGE_BENCH_DATA: BENCHMARKS });
    await expect(benchReplayCommand('tau-bench/nope', {}, io)).rejects.toThrow(/unknown benchmark "tau-bench\/nope"/);
    await expect(benchReplayCommand('tau-bench/airline', { split: 'train' }, io)).rejects.toThrow(/has no split "train" \(test\)/);
    await expect(benchReplayCommand('tau-bench/airline', {}, captureIo())).rejects.toThrow(/--data <dir> is required/);
  });
});

describe('autoforge bench eval', () => {
  it('runs the oracle k times per task, writes the run files and prints pass^1..pass^k = 1', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-eval-'));
    dirs.push(out);
    const io = captureIo();
    await benchEvalCommand('tau-bench/airline', { agent: 'oracle', k: '2', out, data: BENCHMARKS, tasks: '5', concurrency: '2', maxTurns: '30' }, io);
    expect(io.out()).toBe('pass^1\t1.0000\npass^2\t1.0000\n');
    const results = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(results).toHaveLength(10);
    const trajectories = (await readFile(join(out, 'trajectories.jsonl'), 'utf8')).trim().split('\n');
    expect(trajectories).toHaveLength(10);
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ benchmark: 'tau-bench/airline', k: 2, tasks: 5, pass_hat_k: { 'pass^1': 1, 'pass^2': 1 } });
  });

  it('runs the (untrained) reference policy and says so, and says that openai needs a model', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-eval-ref-'));
    dirs.push(out);
    const base = { k: '1', out, data: BENCHMARKS, concurrency: '1', maxTurns: '8' };
    const io = captureIo();
    await benchEvalCommand('tau-bench/airline', { ...base, agent: 'reference', tasks: '2' }, io);
    expect(io.out()).toMatch(/^pass\^1\t[01]\.\d{4}\n$/);
    expect(io.err()).toMatch(/untrained policy/);
    const trajectories = (await readFile(join(out, 'trajectories.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { messages: unknown[] });
    expect(trajectories).toHaveLength(2);
    expect(trajectories.every((t) => t.messages.length > 1)).toBe(true);
    await expect(benchEvalCommand('tau-bench/airline', { ...base, agent: 'reference', checkpoint: join(out, 'missing.json') }, captureIo())).rejects.toThrow(/no such file/);
    await expect(benchEvalCommand('tau-bench/airline', { ...base, agent: 'openai' }, captureIo())).rejects.toThrow(/AUTOFORGE_MODEL/);
  });
});

describe('autoforge bench eval --agent openai (scripted OpenAI-compatible server)', () => {
  it('drives the real openai SDK with native tool calls and scores the episode with the benchmark', async () => {
    const { createScriptedChatServer } = await import('@autoforge/llm/testing');
    const { createTauBenchAdapter } = await import('@autoforge/bench-adapters/tau-bench');
    const [task] = await createTauBenchAdapter({ domain: 'airline', dataDir: BENCHMARKS }).tasks('test');
    const calls = (task?.goldCalls ?? []).filter((c) => c.name !== 'transfer_to_human_agents');
    const server = await createScriptedChatServer({
      script: [
        ...calls.map((c) => ({ type: 'reply' as const, toolCalls: [{ name: c.name, arguments: c.arguments }] })),
        `All done. ${(task?.requiredOutputs ?? []).join(' ')}`,
      ],
    });
    try {
      const out = await mkdtemp(join(tmpdir(), 'bench-eval-openai-'));
      dirs.push(out);
      const io = captureIo({ AUTOFORGE_MODEL: 'scripted', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'x' });
      await benchEvalCommand('tau-bench/airline', { agent: 'openai', k: '1', out, data: BENCHMARKS, tasks: '1', concurrency: '1', maxTurns: '30', cache: false }, io);
      expect(io.out()).toBe('pass^1\t1.0000\n');
      expect(server.chatRequests()).toHaveLength(calls.length + 1);
      const body = server.chatRequests()[0]?.body as { tools: unknown[]; messages: { role: string }[] };
      expect(body.tools).toHaveLength(14);
      expect(body.messages[0]?.role).toBe('system');
    } finally {
      await server.close();
    }
  });
});

describe('autoforge bench eval bfcl/<category>: BFCL multi-turn, and its out directory as a run directory', () => {
  it('scores the oracle 1 on miss_func entries (held-out functions given back at their turn), and the out directory opens with serve, rollout, judge and report', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-bfcl-'));
    dirs.push(out);
    const io = captureIo();
    await benchEvalCommand('bfcl/miss_func', { agent: 'oracle', k: '1', out, data: BENCHMARKS, tasks: '4', concurrency: '2', maxTurns: '60' }, io);
    expect(io.out()).toBe('pass^1\t1.0000\n');
    const info = JSON.parse(await readFile(join(out, 'bench.json'), 'utf8')) as { benchmark: string };
    expect(info.benchmark).toBe('bfcl/miss_func');
    // serve: the catalog loads, the natives come from the benchmark, the expert is its oracle.
    const catalog = await loadServeCatalog(out, io);
    expect(catalog.tasks).toHaveLength(4);
    expect(Object.keys(catalog.natives ?? {}).length).toBeGreaterThan(100);
    expect(catalog.expertFor?.(catalog.tasks[0] as Task)?.name).toBe('oracle');
    // rollout (the benchmark's own user and oracle), judge and report.
    const rio = captureIo();
    await rolloutCommand(out, { agent: 'oracle', user: 'scripted', userErrorRate: '0', rollouts: '1', concurrency: '2', seed: '0', maxTurns: '60', out: 'again.jsonl', progress: false }, rio);
    expect(rio.out()).toContain('success 4/4');
    const jio = captureIo();
    await judgeCommand(out, { judge: 'rule', concurrency: '2', trajectories: 'again.jsonl', out: 'verdicts.jsonl', progress: false }, jio);
    expect(jio.out()).toContain('4 verdicts');
    const run = await loadRun(out, out);
    expect(run.tasks.length).toBe(4);
  }, 120_000);
});

describe('autoforge bench eval tau2-bench/telecom: dual control (the customer acts on their own phone)', () => {
  it('offline: the oracle asks, the scripted customer makes the user-side gold calls on the phone (userSteps), reward 1', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-eval-telecom-'));
    dirs.push(out);
    const io = captureIo();
    await benchEvalCommand('tau2-bench/telecom', { agent: 'oracle', k: '1', out, data: BENCHMARKS, tasks: '4', concurrency: '2', maxTurns: '60' }, io);
    expect(io.out()).toContain('pass^1\t1.0000');
    const trajectories = (await readFile(join(out, 'trajectories.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { steps: { call: { name: string } }[]; userSteps?: { call: { name: string } }[] });
    expect(trajectories).toHaveLength(4);
    const { createTau2TelecomAdapter } = await import('@autoforge/bench-adapters/tau2');
    const adapter = createTau2TelecomAdapter({ dataDir: BENCHMARKS, nlAssertions: 'skip' });
    const userTools = new Set(adapter.userTools);
    for (const t of trajectories) {
      expect((t.userSteps ?? []).length).toBeGreaterThan(0);
      // The agent never ran a phone tool itself; every phone call is the customer's.
      expect(t.steps.every((s) => !userTools.has(s.call.name))).toBe(true);
      expect((t.userSteps ?? []).every((s) => userTools.has(s.call.name))).toBe(true);
    }
    expect(io.err()).not.toContain('not comparable');
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')).user).toBe("the benchmark's offline user");
    // The run directory's tasks carry the user's tools: `autoforge rollout` plays dual control too.
    const tasks = (await readFile(join(out, 'tasks.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Task);
    expect(tasks.every((t) => t.userTools?.length === 30)).toBe(true);
    const rio = captureIo();
    await rolloutCommand(out, { agent: 'oracle', user: 'scripted', userErrorRate: '0', rollouts: '1', concurrency: '2', seed: '0', maxTurns: '60', out: 'again.jsonl', progress: false }, rio);
    expect(rio.out()).toContain('success 4/4');
    const again = (await readFile(join(out, 'again.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { userSteps?: unknown[] });
    expect(again.every((t) => (t.userSteps ?? []).length > 0)).toBe(true);
    // serve: the agent is shown 13 tools, the scripted customer acts on the phone inside the
    // user turns, and the trajectory records the user's calls.
    const { createEnvironmentServer } = await import('@autoforge/env-server');
    const catalog = await loadServeCatalog(out, captureIo());
    const server = await createEnvironmentServer(catalog, { environment: { natives: catalog.natives ?? {} } });
    try {
      const task = tasks[0] as Task;
      const opened = (await server.app.inject({ method: 'POST', url: '/sessions', payload: { taskId: task.id, user: { kind: 'scripted' } } })).json() as { sessionId: string; tools: { function: { name: string } }[] };
      expect(opened.tools.map((t) => t.function.name).some((n) => userTools.has(n))).toBe(false);
      expect(opened.tools).toHaveLength(13);
      const phone = (await server.app.inject({ method: 'POST', url: `/sessions/${opened.sessionId}/step`, payload: { name: 'toggle_data', arguments: {} } })).json() as { ok: boolean; error?: { code: string } };
      expect(phone).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
      const turns: { userSteps?: { call: { name: string }; result: { ok: boolean } }[] }[] = [];
      for (let i = 0; i < 60; i++) {
        // The expert (the benchmark's oracle) answers as an OpenAI assistant message.
        const expert = ((await server.app.inject({ method: 'GET', url: `/sessions/${opened.sessionId}/expert` })).json() as { message: { content: string | null; tool_calls?: { function: { name: string; arguments: string } }[] } }).message;
        const call = expert.tool_calls?.[0]?.function;
        if (call) {
          await server.app.inject({ method: 'POST', url: `/sessions/${opened.sessionId}/step`, payload: { name: call.name, arguments: call.arguments } });
          continue;
        }
        const turn = (await server.app.inject({ method: 'POST', url: `/sessions/${opened.sessionId}/user`, payload: { content: expert.content ?? '' } })).json() as { done: boolean; userSteps?: { call: { name: string }; result: { ok: boolean } }[] };
        turns.push(turn);
        if (turn.done) break;
      }
      expect(turns.some((t) => (t.userSteps ?? []).some((s) => userTools.has(s.call.name) && s.result.ok))).toBe(true);
      const trajectory = (await server.app.inject({ method: 'GET', url: `/sessions/${opened.sessionId}/trajectory` })).json() as { userSteps?: unknown[]; reward: number };
      expect((trajectory.userSteps ?? []).length).toBeGreaterThan(0);
      const reward = (await server.app.inject({ method: 'GET', url: `/sessions/${opened.sessionId}/reward` })).json() as { reward: number };
      expect(reward.reward).toBe(1);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('--user llm: the user model gets the 30 phone tools through native tool calling, sees its own calls and results, and solves it with the oracle', async () => {
    const { createScriptedChatServer } = await import('@autoforge/llm/testing');
    type Sent = { role: string; content: string | null; tool_calls?: { function: { name: string } }[] };
    // A model that plays the customer: opens, performs on its phone what the agent asks for (a
    // native tool call), reports what the phone shows after seeing the result, and stops at the end.
    const server = await createScriptedChatServer({
      handler: (request) => {
        const body = request.body as { messages: Sent[]; tools?: { function: { name: string } }[] };
        const last = body.messages[body.messages.length - 1] as Sent;
        if (last.role === 'tool') return `I did it. My phone shows: ${String(last.content).slice(0, 80)}`;
        if (body.messages.length === 2) return 'My mobile data does not work.';
        const ask = /on your phone: ([a-z_]+)(?: with (\{.*\}))?\./.exec(String(last.content));
        if (ask && (body.tools ?? []).some((t) => t.function.name === ask[1])) {
          return { type: 'reply', toolCalls: [{ name: ask[1] as string, arguments: ask[2] ?? '{}' }] };
        }
        return '###STOP###';
      },
    });
    try {
      const out = await mkdtemp(join(tmpdir(), 'bench-eval-telecom-llm-'));
      dirs.push(out);
      const io = captureIo({ AUTOFORGE_MODEL: 'scripted', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'x' });
      await benchEvalCommand('tau2-bench/telecom', { agent: 'oracle', user: 'llm', k: '1', out, data: BENCHMARKS, tasks: '2', concurrency: '1', maxTurns: '60', cache: false }, io);
      expect(io.out()).toContain('pass^1\t1.0000');
      const requests = server.chatRequests().map((r) => r.body as { messages: Sent[]; tools?: { function: { name: string } }[]; tool_choice?: unknown });
      // tau2's guidelines for a user with tools, the scenario inside.
      expect(requests[0]?.messages[0]?.content).toMatch(/^# User Simulation Guidelines\n[\s\S]*You have some tools to perform the actions on your end/);
      expect(requests[0]?.messages[0]?.content).toMatch(/<scenario>\n[\s\S]+\n<\/scenario>$/);
      expect(requests.every((r) => r.tools?.length === 30)).toBe(true);
      // After a call, the user model sees its own call and the phone's answer before it speaks.
      const seen = requests.find((r) => r.messages[r.messages.length - 1]?.role === 'tool');
      expect(seen).toBeDefined();
      const at = (seen as { messages: Sent[] }).messages.length - 2;
      expect((seen as { messages: Sent[] }).messages[at]?.tool_calls?.[0]?.function.name).toMatch(/^[a-z_]+$/);
      const trajectories = (await readFile(join(out, 'trajectories.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { userSteps?: unknown[]; messages: { role: string; content: string }[] });
      for (const t of trajectories) expect((t.userSteps ?? []).length).toBeGreaterThan(0);
      // The text of a reply that calls tools is not shown to the agent.
      expect(trajectories[0]?.messages.filter((m) => m.role === 'user').every((m) => m.content.trim() !== '')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('autoforge bench eval --user llm: the benchmark’s own user simulator (scripted OpenAI-compatible server)', () => {
  it('tau-bench: its user prompt and greeting, the instruction inside; the offline user is named as not comparable', async () => {
    const { createScriptedChatServer } = await import('@autoforge/llm/testing');
    const server = await createScriptedChatServer({ script: ['I need to book a flight, my user id is mia_li_3668.', '###STOP###'] });
    try {
      const out = await mkdtemp(join(tmpdir(), 'bench-eval-llm-user-'));
      dirs.push(out);
      const io = captureIo({ AUTOFORGE_MODEL: 'scripted', OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'x' });
      await benchEvalCommand('tau-bench/airline', { agent: 'oracle', user: 'llm', k: '1', out, data: BENCHMARKS, tasks: '1', concurrency: '1', maxTurns: '30', cache: false }, io);
      const first = server.chatRequests()[0]?.body as { messages: { role: string; content: string }[] };
      expect(first.messages[0]?.content).toMatch(/^You are a user interacting with an agent\.\n\nInstruction: Your user id is mia_li_3668\./);
      expect(first.messages[0]?.content).toContain("- Do not give away all the instruction at once.");
      expect(first.messages[1]).toEqual({ role: 'user', content: 'Hi! How can I help you today?' });
      const trajectory = JSON.parse((await readFile(join(out, 'trajectories.jsonl'), 'utf8')).trim()) as { messages: { role: string; content: string }[] };
      expect(trajectory.messages.find((m) => m.role === 'user')?.content).toBe('I need to book a flight, my user id is mia_li_3668.');
      expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ user: "llm (the benchmark's own user simulator)" });
      // The offline instruction user says what it is.
      const offline = await mkdtemp(join(tmpdir(), 'bench-eval-offline-'));
      dirs.push(offline);
      const oio = captureIo();
      await benchEvalCommand('tau-bench/airline', { agent: 'oracle', k: '1', out: offline, data: BENCHMARKS, tasks: '1', concurrency: '1', maxTurns: '30' }, oio);
      expect(oio.err()).toContain('pass^k is not comparable');
      expect(JSON.parse(await readFile(join(offline, 'summary.json'), 'utf8')).user).toMatch(/^instruction \(offline/);
    } finally {
      await server.close();
    }
  });

  it('tau2: the guidelines from the data folder around the scenario; a benchmark without its own LLM user is refused', async () => {
    const { createTau2BenchAdapter } = await import('@autoforge/bench-adapters/tau2');
    const adapter = createTau2BenchAdapter({ domain: 'airline', dataDir: BENCHMARKS, nlAssertions: 'skip' });
    const [task] = await adapter.tasks();
    const prompt = adapter.userPrompt?.(task as Task);
    expect(prompt?.system).toMatch(/^# User Simulation Guidelines\n/);
    expect(prompt?.system).toContain(`<scenario>\n${task?.intent}\n</scenario>`);
    const out = await mkdtemp(join(tmpdir(), 'bench-eval-nouser-'));
    dirs.push(out);
    const io = captureIo({ AUTOFORGE_MODEL: 'scripted', OPENAI_BASE_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: 'x' });
    await expect(benchEvalCommand('acebench/agent', { agent: 'oracle', user: 'llm', k: '1', out, data: BENCHMARKS, tasks: '1', concurrency: '1', maxTurns: '30', cache: false }, io)).rejects.toThrow(/has no LLM user simulator/);
  });
});
