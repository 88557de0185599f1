import type { Message, Task, Trajectory } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOracleAgent } from './oracle-agent.js';
import { runBenchmark } from './run-benchmark.js';
import { createTau2BenchAdapter, tau2ActionMatches, tau2Instructions } from './tau2-bench-adapter.js';
import { judgeTranscript } from './tau2-nl-judge.js';
import { BENCHMARKS } from './test-support.js';

const airline = createTau2BenchAdapter({ domain: 'airline', dataDir: BENCHMARKS });

function trajectory(task: Task, messages: Message[], termination: Trajectory['termination'] = 'user_stop', finalDigest = task.expectedFinalDigest): Trajectory {
  return {
    id: `${task.id}#0`,
    envId: task.envId,
    taskId: task.id,
    rollout: 0,
    seed: 0,
    messages,
    steps: [],
    termination,
    finalDigest,
    reward: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
  };
}

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('createTau2BenchAdapter', () => {
  it('lists the splits base first and loads them in tasks.json order', async () => {
    expect(airline.splits).toEqual(['base', 'test', 'train']);
    const base = await airline.tasks();
    expect(base).toHaveLength(50);
    const test = await airline.tasks('test');
    expect(test.length).toBeGreaterThan(0);
    expect(test.every((t) => (t.metadata?.splits as string[]).includes('test'))).toBe(true);
  });

  it('writes the user instructions as tau2 does', () => {
    expect(
      tau2Instructions({ persona: null, instructions: { domain: 'retail', reason_for_call: 'Return it.', known_info: 'You are a.\nZip 1.', unknown_info: null, task_instructions: '.' } }),
    ).toBe('Instructions:\n  Domain: retail\n  Reason for call:\n    Return it.\n  Known info:\n    You are a.\n    Zip 1.\n  Task instructions:\n    .');
  });

  it('needs DB and COMMUNICATE for an airline task (its reward basis), and ends at 0 for a premature end', async () => {
    const task = (await airline.tasks()).find((t) => t.requiredOutputs.length > 0) as Task;
    const said = (text: string): Message[] => [{ role: 'user', content: 'hi' }, { role: 'assistant', content: text }];
    const right = task.requiredOutputs.join(' ');
    expect(await airline.evaluate(trajectory(task, said(right)), task)).toMatchObject({ reward: 1, info: { reward_breakdown: { DB: 1, COMMUNICATE: 1 } } });
    expect(await airline.evaluate(trajectory(task, said('nothing')), task)).toMatchObject({ reward: 0, info: { reward_breakdown: { DB: 1, COMMUNICATE: 0 } } });
    expect(await airline.evaluate(trajectory(task, said(right), 'user_stop', '0'.repeat(64)), task)).toMatchObject({ reward: 0, info: { reward_breakdown: { DB: 0 } } });
    expect((await airline.evaluate(trajectory(task, said(right), 'max_turns'), task)).reward).toBe(0);
  });

  it('matches gold actions on the compared arguments only (tau2 compare_with_tool_call)', () => {
    const action = { action_id: 'a', name: 'get_user_details', arguments: { user_id: 'x' } };
    expect(tau2ActionMatches(action, { name: 'get_user_details', arguments: { user_id: 'x' } })).toBe(true);
    expect(tau2ActionMatches(action, { name: 'get_user_details', arguments: { user_id: 'y' } })).toBe(false);
    expect(tau2ActionMatches(action, { name: 'get_user_details', arguments: { user_id: 'x', extra: 1 } })).toBe(false);
    expect(tau2ActionMatches({ ...action, compare_args: [] }, { name: 'get_user_details', arguments: { user_id: 'y' } })).toBe(true);
    expect(tau2ActionMatches({ ...action, arguments: { n: 1 } }, { name: 'get_user_details', arguments: { n: 1.0 } })).toBe(true);
  });

  it('scores the oracle 1 on every airline task through the rollout loop', async () => {
    const run = await runBenchmark(airline, { agent: (t) => createOracleAgent({ task: t }) });
    expect(run.trials.filter((t) => t.evaluation.reward !== 1).map((t) => t.task.id)).toEqual([]);
  });
});

describe('createTau2BenchAdapter: NL_ASSERTION through an LLM judge (scripted OpenAI-compatible server)', () => {
  async function retailWithJudge(verdicts: boolean[]) {
    const server = await createScriptedChatServer({
      handler: (request) => {
        const body = request.body as { messages: { content: string }[] };
        const list = /expectedOutcomes:\n(.*)$/s.exec(body.messages[1]?.content ?? '')?.[1] ?? '';
        return JSON.stringify({ results: verdicts.map((met, i) => ({ expectedOutcome: `${list.slice(0, 20)}#${i}`, reasoning: 'r', metExpectation: met })) });
      },
    });
    servers.push(server);
    const judge = createOpenAIChatModel({ baseURL: server.baseURL, model: 'judge', env: {}, maxRetries: 0 });
    return { server, adapter: createTau2BenchAdapter({ domain: 'retail', dataDir: BENCHMARKS, judge }) };
  }

  it('multiplies DB by the judge\'s verdict and sends the transcript and the assertions as a Python list', async () => {
    const { server, adapter } = await retailWithJudge([true]);
    const task = (await adapter.tasks()).find((t) => (t.metadata?.reward_basis as string[]).includes('NL_ASSERTION') && (t.metadata?.nl_assertions as string[]).length > 0) as Task;
    const messages: Message[] = [
      { role: 'system', content: 'policy' },
      { role: 'user', content: "I'd like a refund" },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'think', arguments: '{}' }] },
      { role: 'assistant', content: 'Done.' },
    ];
    const result = await adapter.evaluate(trajectory(task, messages), task);
    expect(result).toMatchObject({ reward: 1, info: { reward_breakdown: { DB: 1, NL_ASSERTION: 1 } } });
    const sent = (server.chatRequests()[0]?.body as { messages: { role: string; content: string }[]; temperature: number }).messages;
    expect(sent[1]?.content).toContain(judgeTranscript(messages));
    expect(sent[1]?.content).not.toContain('policy');
    expect(sent[1]?.content).toContain("assistant: None\nassistant: Done.");
    expect(sent[1]?.content).toMatch(/expectedOutcomes:\n\[(['"]).+\1\]$/s);
  });

  it('gives 0 when the judge finds an assertion unmet', async () => {
    const { adapter } = await retailWithJudge([true, false]);
    const task = (await adapter.tasks()).find((t) => (t.metadata?.reward_basis as string[]).includes('NL_ASSERTION') && (t.metadata?.nl_assertions as string[]).length > 0) as Task;
    expect(await adapter.evaluate(trajectory(task, [{ role: 'assistant', content: 'ok' }]), task)).toMatchObject({
      reward: 0,
      info: { reward_breakdown: { NL_ASSERTION: 0 } },
    });
  });

  it('rejects E_OPTIONS without a judge, and leaves NL out with nlAssertions: skip', async () => {
    const bare = createTau2BenchAdapter({ domain: 'retail', dataDir: BENCHMARKS });
    const task = (await bare.tasks()).find((t) => (t.metadata?.reward_basis as string[]).includes('NL_ASSERTION') && (t.metadata?.nl_assertions as string[]).length > 0) as Task;
    await expect(bare.evaluate(trajectory(task, []), task)).rejects.toMatchObject({ code: 'E_OPTIONS' });
    const skip = createTau2BenchAdapter({ domain: 'retail', dataDir: BENCHMARKS, nlAssertions: 'skip' });
    expect(await skip.evaluate(trajectory(task, []), task)).toMatchObject({ reward: 1, info: { nl_assertions: 'skipped (nlAssertions: skip)' } });
  });
});
