import type { Message, Task, Trajectory } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer, ScriptedChatServerOptions } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeError } from './error.js';
import { judgeAll } from './judge-all.js';
import { createLLMJudge, llmJudgeMessages, verdictSchema } from './llm-judge.js';

const task: Task = {
  id: 'shop/t1',
  envId: 'shop',
  intent: 'You want to cancel order #W1. If asked, your zip is "10108".',
  userFacts: [{ key: 'zip', description: 'your zip', value: '10108' }],
  goldCalls: [
    { name: 'find_user', arguments: { zip: '10108' } },
    { name: 'cancel_order', arguments: { order_id: '#W1' } },
  ],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: ['refund of 20'],
  // A long policy: the judge sees all of it (it used to clip at 600 characters).
  policy: `You are a shop assistant. ${'Verify the customer before any change, then confirm every write. '.repeat(20)}The end of the policy.`,
};
const messages: Message[] = [
  { role: 'system', content: 'You are a shop assistant.' },
  { role: 'user', content: 'Cancel order #W1.' },
  { role: 'assistant', content: 'Could you tell me your zip?' },
  { role: 'user', content: 'My zip is "10180".' },
  { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'find_user', arguments: '{"zip":"10180"}' }] },
  { role: 'tool', toolCallId: 'c1', content: 'Error: user not found', isError: true },
  { role: 'assistant', content: 'I could not find you.' },
  { role: 'user', content: 'Thanks. ###STOP###' },
];
const trajectory: Trajectory = {
  id: 'shop/t1#0',
  envId: 'shop',
  taskId: 'shop/t1',
  rollout: 0,
  seed: 0,
  messages,
  steps: [{ messageIndex: 4, call: { id: 'c1', name: 'find_user', arguments: '{"zip":"10180"}' }, result: { ok: false, error: { code: 'tool_error', message: 'user not found' } }, durationMs: 1 }],
  termination: 'user_stop',
  finalDigest: '0'.repeat(64),
  reward: 0,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  durationMs: 0,
  injectedUserErrors: [],
  metadata: {},
};
const good = JSON.stringify({
  faultAuthor: 'user',
  agentFault: null,
  kinds: ['wrong_fact'],
  severity: 'critical_hindered',
  userError: true,
  decidingMessage: 3,
  evidence: [{ messageIndex: 3, note: 'zip 10180 instead of 10108' }],
  explanation: 'The user misstated the zip.',
});
const verdict = (over: object) => JSON.stringify({ ...JSON.parse(good), ...over });

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function setup(options: ScriptedChatServerOptions, maxRetries = 3, timeoutMs = 10_000) {
  const server = await createScriptedChatServer(options);
  servers.push(server);
  const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'judge-model', env: {}, minBackoffMs: 1, maxBackoffMs: 5, maxRetries, timeoutMs });
  return { server, model };
}
const bodyOf = (server: ScriptedChatServer, i: number) =>
  server.chatRequests()[i]?.body as { messages: { role: string; content: string }[]; response_format: unknown; temperature: number };

describe('llmJudgeMessages', () => {
  it('shows the full policy, the instruction, the facts, the gold actions, the outcome and the numbered dialogue', () => {
    const [system, user] = llmJudgeMessages(trajectory, task);
    expect(system?.content).toContain('"wrong_fact"');
    expect(system?.content).toContain('critical_hindered');
    expect(system?.content).toContain('"decidingMessage"');
    const text = user?.content as string;
    expect(text).toContain(task.policy as string);
    expect((task.policy as string).length).toBeGreaterThan(600);
    expect(text).toContain('User instruction: You want to cancel order #W1.');
    expect(text).toContain('- your zip: "10108"');
    expect(text).toContain('Gold actions (the calls that solve the task, in order):\n1. find_user({"zip":"10108"})\n2. cancel_order({"order_id":"#W1"})');
    expect(text).toContain('- "refund of 20"');
    expect(text).toContain('How the episode ended: user_stop; reward 0 (the expected outcome was not reached); failed tool calls: find_user: tool_error.');
    expect(text).toContain('- [4] find_user({"zip":"10180"}) → error tool_error');
    expect(text).toContain('[3] user: My zip is "10180".');
    expect(text).toContain('[4] agent: (no text)\n    calls find_user {"zip":"10180"}');
    expect(text).toContain('[5] tool (error): Error: user not found');
    // A long tool result is clipped at maxObservationChars, the policy never.
    const long = { ...trajectory, messages: [...messages.slice(0, 5), { role: 'tool' as const, toolCallId: 'c1', content: 'x'.repeat(5000) }, ...messages.slice(6)] };
    const clipped = llmJudgeMessages(long, task, { maxObservationChars: 100 })[1]?.content as string;
    expect(clipped).toContain('(4900 more characters)');
    expect(clipped).toContain('The end of the policy.');
  });
});

describe('createLLMJudge', () => {
  it('maps a valid JSON verdict, after a 429 and a time-out, asking for JSON at temperature 0', async () => {
    const { server, model } = await setup({ script: [{ type: 'error', status: 429, headers: { 'retry-after-ms': '1' } }, { type: 'hang' }, good] }, 3, 300);
    const judge = createLLMJudge({ model });
    expect(judge.name).toBe('llm:judge-model');
    const v = await judge.judge(trajectory, task);
    expect(v).toEqual({
      trajectoryId: 'shop/t1#0',
      taskId: 'shop/t1',
      envId: 'shop',
      rollout: 0,
      userError: true,
      kinds: ['wrong_fact'],
      blame: 'user',
      evidence: [{ messageIndex: 3, note: 'zip 10180 instead of 10108' }],
      judge: 'llm:judge-model',
      metadata: { modelCalls: 1, severity: 'critical_hindered', decidingMessage: 3, faultAuthor: 'user', explanation: 'The user misstated the zip.' },
    });
    expect(server.chatRequests()).toHaveLength(3);
    expect(bodyOf(server, 2).response_format).toEqual({ type: 'json_object' });
    expect(bodyOf(server, 2).temperature).toBe(0);
  });

  it('repairs a malformed verdict and an evidence index outside the dialogue through completeJson', async () => {
    const outOfRange = verdict({ evidence: [{ messageIndex: 42, note: 'x' }] });
    const { server, model } = await setup({ script: ['{"userError": true, "kinds": ["wrong_fact"', outOfRange, good] });
    const v = await createLLMJudge({ model }).judge(trajectory, task);
    expect(v.evidence).toEqual([{ messageIndex: 3, note: 'zip 10180 instead of 10108' }]);
    expect(v.metadata).toMatchObject({ modelCalls: 3 });
    expect(bodyOf(server, 1).messages.at(-1)?.content).toContain('not parsable as JSON');
    expect(bodyOf(server, 2).messages.at(-1)?.content).toContain('/evidence/0/messageIndex: must be <= 7');
  });

  it('masks exactly the critical deviations, whatever the model\'s own flag says', async () => {
    const { model } = await setup({
      script: [
        verdict({ userError: false, kinds: ['early_stop'], severity: 'critical_hindered', faultAuthor: 'user' }),
        verdict({ userError: true, kinds: ['invented_requirement'], severity: 'minor', faultAuthor: 'agent', agentFault: 'used_wrong_tool_argument' }),
        verdict({ userError: false, kinds: ['wrong_fact'], severity: 'critical_helped', faultAuthor: 'user' }),
      ],
    });
    const judge = createLLMJudge({ model });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: true, kinds: ['early_stop'], metadata: { normalized: 'userError true: severity critical_hindered with 1 kind(s)' } });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: false, blame: 'agent', metadata: { severity: 'minor', agentFault: 'used_wrong_tool_argument' } });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: true, metadata: { severity: 'critical_helped', decidingMessage: 3 } });
  });

  it('throws E_MODEL_OUTPUT when no reply is valid after maxRepairs, and E_MODEL when the model fails', async () => {
    const { server, model } = await setup({ handler: () => '{"verdict": "the user lied"}' });
    const error = await createLLMJudge({ model, maxRepairs: 1 }).judge(trajectory, task).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect(error).toMatchObject({ code: 'E_MODEL_OUTPUT', message: expect.stringMatching(/no valid verdict after 2 model call\(s\): \(root\): must have required property/) });
    expect(server.chatRequests()).toHaveLength(2);
    const failing = await setup({ handler: () => ({ type: 'error', status: 500 }) }, 1);
    const down = await createLLMJudge({ model: failing.model }).judge(trajectory, task).catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'E_MODEL', message: expect.stringMatching(/^judge: llm:judge-model: trajectory shop\/t1#0: the model failed/) });
  });

  it('judgeAll reports a trajectory the LLM judge cannot judge and goes on with the others', async () => {
    let calls = 0;
    const { model } = await setup({ handler: () => (calls++ === 0 ? { type: 'error', status: 400 } : good) }, 0);
    const second = { ...trajectory, id: 'shop/t1#1', rollout: 1 };
    const summary = await judgeAll([trajectory, second], new Map([[task.id, task]]), createLLMJudge({ model }), { concurrency: 1 });
    expect(summary.failures.map((f) => [f.trajectoryId, f.code])).toEqual([['shop/t1#0', 'E_MODEL']]);
    expect(summary.verdicts.map((v) => v.trajectoryId)).toEqual(['shop/t1#1']);
  });

  it('builds one evidence-index schema per dialogue length and rejects bad options', () => {
    expect(verdictSchema(8)).toBe(verdictSchema(8));
    expect(JSON.stringify(verdictSchema(8))).toContain('"maximum":7');
    expect(() => createLLMJudge({} as never)).toThrow(/`model` must be a ChatModel/);
    expect(() => createLLMJudge({ model: { model: 'm', complete: () => Promise.reject(new Error('unused')) }, maxRepairs: -1 })).toThrow(/maxRepairs/);
  });
});
