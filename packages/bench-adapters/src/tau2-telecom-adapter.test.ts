import type { AgentContext, AssistantMessage, Task, Trajectory } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { rollout } from '@autoforge/env-runtime';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmark } from './run-benchmark.js';
import type { Tau2Action } from './tau2-bench-adapter.js';
import { createTau2TelecomAdapter } from './tau2-telecom-adapter.js';
import { TAU2_TELECOM_AGENT_TOOL_NAMES, TAU2_TELECOM_USER_TOOL_NAMES } from './tau2-telecom-tools.js';
import { createTau2TelecomOracleAgent, createTau2TelecomUser, tau2TelecomAsk } from './tau2-telecom-user.js';
import { BENCHMARKS } from './test-support.js';

const adapter = createTau2TelecomAdapter({ dataDir: BENCHMARKS });
const actionsOf = (task: Task): Tau2Action[] => task.metadata?.actions as unknown as Tau2Action[];

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('createTau2TelecomAdapter: dual control', () => {
  it('documents 13 agent tools and 30 user tools, and names the user tools for rollouts', () => {
    expect(adapter.toolDoc.tools.map((t) => t.name)).toEqual([...TAU2_TELECOM_AGENT_TOOL_NAMES, ...TAU2_TELECOM_USER_TOOL_NAMES]);
    expect(adapter.userTools).toEqual(TAU2_TELECOM_USER_TOOL_NAMES);
  });

  it('gives the oracle reward 1 on every base task with the scripted customer acting on the phone, the agent never seeing the phone tools', async () => {
    const seen = new Set<number>();
    const run = await runBenchmark(adapter, {
      agent: (task) => {
        const oracle = createTau2TelecomOracleAgent(task);
        return { name: oracle.name, act: (context: AgentContext) => (seen.add(context.tools.length), oracle.act(context)) };
      },
      user: (task) => createTau2TelecomUser(task),
      userTools: adapter.userTools,
    });
    expect(run.trials).toHaveLength(114);
    expect(run.trials.filter((t) => t.evaluation.reward !== 1).map((t) => t.task.id)).toEqual([]);
    expect([...seen]).toEqual([13]);
    for (const { task, trajectory } of run.trials) {
      const actions = actionsOf(task);
      expect((trajectory.userSteps ?? []).map((s) => s.call.name), task.id).toEqual(actions.filter((a) => a.requestor === 'user').map((a) => a.name));
      expect(trajectory.steps.map((s) => s.call.name), task.id).toEqual(actions.filter((a) => a.requestor !== 'user').map((a) => a.name));
      expect(trajectory.finalDigest, task.id).toBe(task.expectedFinalDigest);
    }
    // 393 of the 516 gold actions are the user's.
    expect(run.trials.reduce((n, t) => n + (t.trajectory.userSteps?.length ?? 0), 0)).toBe(393);
  });

  it('scores 0 when the customer is never asked: the assertions on the phone fail', async () => {
    const task = (await adapter.tasks()).find((t) => actionsOf(t).some((a) => a.requestor === 'user')) as Task;
    const idle = { name: 'idle', act: () => Promise.resolve({ role: 'assistant' as const, content: 'Have you tried waiting?' }) };
    const run = await runBenchmark(adapter, { agent: () => idle, user: (t) => createTau2TelecomUser(t), userTools: adapter.userTools, taskIds: [task.id] });
    const trial = run.trials[0]!;
    expect(trial.trajectory.userSteps).toBeUndefined();
    expect(trial.trajectory.messages.at(-1)).toEqual({ role: 'user', content: USER_STOP_TOKEN });
    expect(trial.evaluation).toMatchObject({ reward: 0, info: { reward_breakdown: { ENV_ASSERTION: 0 } } });
  });

  it("refuses the agent's calls of phone tools and the user's calls of agent tools as unknown tools, and changes nothing", async () => {
    const task = (await adapter.tasks())[0]!;
    const env = await adapter.environment();
    let turn = 0;
    const agent = {
      name: 'tries-the-phone',
      act: () => Promise.resolve<AssistantMessage>(
        turn++ === 0
          ? { role: 'assistant', content: null, toolCalls: [{ id: 'a1', name: 'toggle_data', arguments: '{}' }] }
          : { role: 'assistant', content: 'Please do this on your phone: toggle_data.' },
      ),
    };
    const user = {
      name: 'calls-the-agent-tools',
      start: () => Promise.resolve({ content: 'hi', stop: false }),
      reply: (context: { steps?: readonly unknown[] }) =>
        Promise.resolve(
          (context.steps ?? []).length === 0
            ? { content: '', stop: false, toolCalls: [{ id: 'u1', name: 'refuel_data', arguments: '{"customer_id":"C1001","line_id":"L1002","gb_amount":2.0}' }] }
            : { content: USER_STOP_TOKEN, stop: true },
        ),
    };
    const trajectory = await rollout({ environment: env, task, agent, user, userTools: adapter.userTools });
    expect(trajectory.steps[0]?.result).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(trajectory.userSteps?.[0]?.result).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(trajectory.finalDigest).toBe(task.initialDigest);
  });

  it('asks for a user action by its tool name and arguments', () => {
    expect(tau2TelecomAsk({ action_id: 'x', name: 'set_network_mode_preference', arguments: { mode: '4g_5g_preferred' } })).toBe(
      'Please do this on your phone: set_network_mode_preference with {"mode":"4g_5g_preferred"}.',
    );
  });

  it('needs every gold action of either side for ACTION, all or nothing (tau2 ActionEvaluator)', async () => {
    const task = (await adapter.tasks()).find((t) => (t.metadata?.reward_basis as string[]).includes('ACTION')) as Task;
    const base: Trajectory = {
      id: 'x', envId: task.envId, taskId: task.id, rollout: 0, seed: 0, messages: [], steps: [], termination: 'agent_finish',
      finalDigest: task.expectedFinalDigest, reward: 0, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, durationMs: 0, injectedUserErrors: [], metadata: {},
    };
    const result = await adapter.evaluate(base, task);
    expect(result.info.action_checks).toEqual(actionsOf(task).map(() => false));
    expect(result.reward).toBe(0);
  });
});

describe('createTau2TelecomAdapter: NL_ASSERTION through an LLM judge (scripted OpenAI-compatible server)', () => {
  it('multiplies the environment checks by the judge\'s verdict when a task has NL assertions', async () => {
    const server = await createScriptedChatServer({ handler: () => JSON.stringify({ results: [{ expectedOutcome: 'x', reasoning: 'r', metExpectation: false }] }) });
    servers.push(server);
    const judge = createOpenAIChatModel({ baseURL: server.baseURL, model: 'judge', env: {}, maxRetries: 0 });
    const judged = createTau2TelecomAdapter({ dataDir: BENCHMARKS, judge });
    const [task] = await judged.tasks();
    const withNl: Task = { ...task!, metadata: { ...task!.metadata, reward_basis: ['ENV_ASSERTION', 'NL_ASSERTION'], nl_assertions: ['The agent fixed the data.'] } };
    const run = await runBenchmark(judged, { agent: (t) => createTau2TelecomOracleAgent(t), user: (t) => createTau2TelecomUser(t), userTools: judged.userTools, taskIds: [task!.id] });
    const evaluation = await judged.evaluate(run.trials[0]!.trajectory, withNl);
    expect(evaluation).toMatchObject({ reward: 0, info: { reward_breakdown: { ENV_ASSERTION: 1, NL_ASSERTION: 0 } } });
    expect(server.chatRequests()).toHaveLength(1);
  });
});
