import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, Task, Trajectory } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer, ScriptedChatServerOptions } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { JudgeError } from '../error.js';
import { judgeAll } from '../judge-all.js';
import { createLlmJudge, llmJudgeMessages, verdictSchema } from './llm-judge.js';

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
    expect(text).not.toContain('clipped');
  });

  it('shows the tool results that matter in full and bounds only unrelated ones at maxObservationChars', () => {
    const result = (id: string, content: string): Message => ({ role: 'tool', toolCallId: id, content });
    const call = (id: string, name: string): Message => ({ role: 'assistant', content: null, toolCalls: [{ id, name, arguments: '{}' }] });
    const filler = 'y'.repeat(5000);
    const long: Trajectory = {
      ...trajectory,
      messages: [
        ...messages.slice(0, 2),
        call('a', 'find_user'), // a gold tool: in full
        result('a', `{"user": "u1", "notes": "${filler}"}`),
        call('b', 'list_stores'), // names the zip the user's facts give: in full
        result('b', `{"stores": "${filler}", "near": "10108"}`),
        call('c', 'get_weather'), // names nothing of the task: bounded
        result('c', `{"forecast": "${'z'.repeat(5000)}"}`),
        call('d', 'get_time'), // failed: in full
        { role: 'tool', toolCallId: 'd', content: `Error: ${filler}`, isError: true },
      ],
      steps: [],
    };
    const text = llmJudgeMessages(long, task, { maxObservationChars: 100 })[1]?.content as string;
    expect(text).toContain(`[3] tool: {"user": "u1", "notes": "${filler}"}`);
    expect(text).toContain(`"near": "10108"}`);
    expect(text).toContain(`[9] tool (error): Error: ${filler}`);
    expect(text).toContain(`[7] tool: {"forecast": "${'z'.repeat(86)}… (4916 more characters, clipped: it names no tool or value of the gold actions)`);
    expect(text.match(/more characters, clipped/g)).toHaveLength(1);
    expect(text).toContain('The end of the policy.');
  });
});

describe('createLlmJudge', () => {
  it('maps a valid JSON verdict, after a 429 and a time-out, asking for JSON at temperature 0', async () => {
    const { server, model } = await setup({ script: [{ type: 'error', status: 429, headers: { 'retry-after-ms': '1' } }, { type: 'hang' }, good] }, 3, 300);
    const judge = createLlmJudge({ model });
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
      severity: 'critical_hindered',
      decidingMessage: 3,
      evidence: [{ messageIndex: 3, note: 'zip 10180 instead of 10108' }],
      judge: 'llm:judge-model',
      metadata: { modelCalls: 1, faultAuthor: 'user', explanation: 'The user misstated the zip.' },
    });
    expect(server.chatRequests()).toHaveLength(3);
    expect(bodyOf(server, 2).response_format).toEqual({ type: 'json_object' });
    expect(bodyOf(server, 2).temperature).toBe(0);
  });

  it('sends the model the gold actions and the whole policy (longer than 600 characters)', async () => {
    const { server, model } = await setup({ script: [good] });
    await createLlmJudge({ model }).judge(trajectory, task);
    const sent = bodyOf(server, 0).messages.map((m) => m.content).join('\n');
    expect((task.policy as string).length).toBeGreaterThan(600);
    expect(sent).toContain(task.policy as string);
    expect(sent).toContain('1. find_user({"zip":"10108"})\n2. cancel_order({"order_id":"#W1"})');
    expect(sent).toContain('- "refund of 20"');
  });

  it('repairs a malformed verdict and an evidence index outside the dialogue through completeJson', async () => {
    const outOfRange = verdict({ evidence: [{ messageIndex: 42, note: 'x' }] });
    const { server, model } = await setup({ script: ['{"userError": true, "kinds": ["wrong_fact"', outOfRange, good] });
    const v = await createLlmJudge({ model }).judge(trajectory, task);
    expect(v.evidence).toEqual([{ messageIndex: 3, note: 'zip 10180 instead of 10108' }]);
    expect(v.metadata).toMatchObject({ modelCalls: 3 });
    expect(bodyOf(server, 1).messages.at(-1)?.content).toContain('not parsable as JSON');
    expect(bodyOf(server, 2).messages.at(-1)?.content).toContain('/evidence/0/messageIndex: must be <= 7');
  });

  it('asks again when the deciding message is not the fault author\'s, or the severity and kinds disagree', async () => {
    const onAgentMessage = verdict({ decidingMessage: 4 }); // the user is blamed for an agent message
    const userWithoutCritical = verdict({ severity: 'minor' }); // the user at fault for a minor deviation
    const criticalWithoutKind = verdict({ faultAuthor: 'agent', agentFault: 'other', kinds: [], decidingMessage: 6 });
    const { server, model } = await setup({ script: [onAgentMessage, userWithoutCritical, criticalWithoutKind, good] });
    const v = await createLlmJudge({ model, maxRepairs: 3 }).judge(trajectory, task);
    expect(v).toMatchObject({ severity: 'critical_hindered', decidingMessage: 3, metadata: { modelCalls: 4 } });
    expect(bodyOf(server, 1).messages.at(-1)?.content).toContain('/decidingMessage: must be equal to one of the allowed values');
    expect(bodyOf(server, 2).messages.at(-1)?.content).toContain('/severity: must be equal to one of the allowed values');
    expect(bodyOf(server, 3).messages.at(-1)?.content).toContain('/kinds: must NOT have fewer than 1 items');
  });

  it('masks exactly the critical deviations, whatever the model\'s own flag says', async () => {
    const { model } = await setup({
      script: [
        verdict({ userError: false, kinds: ['early_stop'], severity: 'critical_hindered', faultAuthor: 'user' }),
        verdict({ userError: true, kinds: ['invented_requirement'], severity: 'minor', faultAuthor: 'agent', agentFault: 'used_wrong_tool_argument', decidingMessage: 4 }),
        verdict({ userError: false, kinds: ['wrong_fact'], severity: 'critical_helped', faultAuthor: 'user' }),
      ],
    });
    const judge = createLlmJudge({ model });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: true, kinds: ['early_stop'], metadata: { normalized: 'userError true: severity critical_hindered with 1 kind(s)' } });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: false, blame: 'agent', severity: 'minor', decidingMessage: 4, metadata: { agentFault: 'used_wrong_tool_argument' } });
    expect(await judge.judge(trajectory, task)).toMatchObject({ userError: true, severity: 'critical_helped', decidingMessage: 3 });
  });

  it('throws E_MODEL_OUTPUT when no reply is valid after maxRepairs, and E_MODEL when the model fails', async () => {
    const { server, model } = await setup({ handler: () => '{"verdict": "the user lied"}' });
    const error = await createLlmJudge({ model, maxRepairs: 1 }).judge(trajectory, task).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect(error).toMatchObject({ code: 'E_MODEL_OUTPUT', message: expect.stringMatching(/no valid verdict after 2 model call\(s\): \(root\): must have required property/) });
    expect(server.chatRequests()).toHaveLength(2);
    const failing = await setup({ handler: () => ({ type: 'error', status: 500 }) }, 1);
    const down = await createLlmJudge({ model: failing.model }).judge(trajectory, task).catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'E_MODEL', message: expect.stringMatching(/^judge: llm:judge-model: trajectory shop\/t1#0: the model failed/) });
  });

  it('judgeAll reports trajectories the LLM judge cannot judge (a failing model, output that is not a verdict) and goes on with the others', async () => {
    const replies: (string | { type: 'error'; status: number })[] = [{ type: 'error', status: 400 }, 'not JSON at all', '{"faultAuthor": "nobody"}', good];
    const { model } = await setup({ handler: () => replies.shift() ?? good }, 0);
    const ids = [0, 1, 2].map((rollout) => ({ ...trajectory, id: `shop/t1#${rollout}`, rollout }));
    const out = join(await mkdtemp(join(tmpdir(), 'llm-judge-')), 'verdicts.jsonl');
    const summary = await judgeAll(ids, new Map([[task.id, task]]), createLlmJudge({ model, maxRepairs: 0 }), { concurrency: 1, out });
    expect(summary.failures.map((f) => [f.trajectoryId, f.code])).toEqual([
      ['shop/t1#0', 'E_MODEL'],
      ['shop/t1#1', 'E_MODEL_OUTPUT'],
      ['shop/t1#2', 'E_MODEL_OUTPUT'],
    ]);
    expect(summary.verdicts).toEqual([]);
    expect(await readFile(out, 'utf8').catch(() => '')).toBe('');
    // No line was written for them: a rerun judges them again, and the verdicts keep severity and deciding message.
    const again = await judgeAll(ids, new Map([[task.id, task]]), createLlmJudge({ model, maxRepairs: 0 }), { concurrency: 1, out });
    expect(again.verdicts.map((v) => [v.trajectoryId, v.severity, v.decidingMessage])).toEqual([
      ['shop/t1#0', 'critical_hindered', 3],
      ['shop/t1#1', 'critical_hindered', 3],
      ['shop/t1#2', 'critical_hindered', 3],
    ]);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { severity: string; decidingMessage: number });
    expect(lines.map((l) => [l.severity, l.decidingMessage])).toEqual([['critical_hindered', 3], ['critical_hindered', 3], ['critical_hindered', 3]]);
  });

  it('builds one verdict schema per dialogue shape and rejects bad options', () => {
    expect(verdictSchema(messages)).toBe(verdictSchema([...messages]));
    expect(verdictSchema(messages)).not.toBe(verdictSchema(messages.slice(1)));
    expect(JSON.stringify(verdictSchema(messages))).toContain('"maximum":7');
    expect(() => createLlmJudge({} as never)).toThrow(/`model` must be a ChatModel/);
    expect(() => createLlmJudge({ model: { model: 'm', complete: () => Promise.reject(new Error('unused')) }, maxRepairs: -1 })).toThrow(/maxRepairs/);
  });
});
