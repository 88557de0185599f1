import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { RecordedRequest, ScriptedChatServer, ScriptStep } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { checkRewrite, REWRITE_SYSTEM_PROMPT, requiredMentions, rewriteIntent } from './rewrite-intent.js';

const task: Task = {
  id: 'retail/bp-1/abc',
  envId: 'retail',
  intent: 'Your email is "ana@example.com". You want to cancel the pending order (the order whose status is "pending"; reason "no longer needed").',
  userFacts: [
    { key: 'email', description: 'your email', value: 'ana@example.com' },
    { key: 'reason', description: 'the reason for cancel pending order', value: 'no longer needed' },
  ],
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
  metadata: { mentions: ['ana@example.com', 'no longer needed', 'pending'] },
};

let server: ScriptedChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelWith(script: ScriptStep[]) {
  server = await createScriptedChatServer({ script });
  return createOpenAIChatModel({ baseURL: server.baseURL, apiKey: 'x', model: 'scripted', maxRetries: 0 });
}

const userText = (r: RecordedRequest): string =>
  ((r.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '');

describe('rewriteIntent (through the openai SDK and the scripted server)', () => {
  it('takes a rewrite that keeps every fact and criterion value', async () => {
    const intent = 'You are Ana (ana@example.com) and want your pending order cancelled because it is no longer needed.';
    const model = await modelWith([JSON.stringify({ intent })]);
    expect(await rewriteIntent(task, { model })).toEqual({ intent, rewritten: true, missing: [] });
    const request = server?.chatRequests()[0] as RecordedRequest;
    expect((request.body as { messages: { content: string }[] }).messages[0]?.content).toBe(REWRITE_SYSTEM_PROMPT);
    expect(userText(request)).toContain('"must_keep"');
    for (const m of requiredMentions(task)) expect(userText(request)).toContain(m);
  });

  it('keeps the template when the rewrite drops a value (minimum information must not lose a fact)', async () => {
    const model = await modelWith([JSON.stringify({ intent: 'You want your order cancelled; it is no longer needed.' })]);
    expect(await rewriteIntent(task, { model })).toEqual({ intent: task.intent, rewritten: false, missing: ['ana@example.com', 'pending'] });
  });

  it('keeps the template when the rewrite gives the answer of a read-only task away', async () => {
    const asking: Task = { ...task, requiredOutputs: ['312.5'], metadata: { mentions: ['ana@example.com'] } };
    const model = await modelWith([JSON.stringify({ intent: 'You are ana@example.com and know the total is 312.5.' })]);
    const r = await rewriteIntent(asking, { model });
    expect(r.rewritten).toBe(false);
    expect(r.missing).toEqual(['(answer given away: 312.5)']);
  });

  it('keeps the template when the rewrite shows JSON or a tool name, and says why', async () => {
    const json = await modelWith([JSON.stringify({ intent: 'You are ana@example.com: cancel {"status": "pending"} because it is no longer needed.' })]);
    expect((await rewriteIntent(task, { model: json })).missing).toEqual(['(JSON fragment: {)']);
    await server?.close();
    const named = await modelWith([JSON.stringify({ intent: 'You are ana@example.com; call void_open_invoice on the pending one, as it is no longer needed.' })]);
    const r = await rewriteIntent(task, { model: named, toolNames: ['void_open_invoice', 'fetch_invoice_details'] });
    expect(r).toEqual({ intent: task.intent, rewritten: false, missing: ['(tool name: void_open_invoice)'] });
  });

  it('checkRewrite: the same checks without a model (a kept value, a leaked answer, a tool name read as words)', () => {
    expect(checkRewrite(task, 'Ana (ana@example.com) wants her pending order cancelled: no longer needed.')).toEqual([]);
    const asking: Task = { ...task, requiredOutputs: ['42'], metadata: { mentions: ['ana@example.com'] } };
    expect(checkRewrite(asking, 'You are ana@example.com and want to know the count, which is 42.')).toEqual(['(answer given away: 42)']);
    expect(checkRewrite(asking, 'You are ana@example.com; use fetch invoice details to find the count.', ['fetch_invoice_details'])).toEqual(['(tool name: fetch_invoice_details)']);
  });

  it('keeps the template when the reply is not valid JSON after repairs', async () => {
    const model = await modelWith(['not json', 'still not json']);
    const r = await rewriteIntent(task, { model, completeOptions: { maxRepairs: 1 } });
    expect(r).toMatchObject({ intent: task.intent, rewritten: false, missing: [] });
    expect(r.error).toMatch(/JSON/);
    expect(server?.chatRequests()).toHaveLength(2);
  });

  it('falls back to the scalar user facts when the task has no recorded mentions', () => {
    const { metadata: _m, ...bare } = task;
    expect(requiredMentions(bare)).toEqual(['ana@example.com', 'no longer needed']);
  });
});
