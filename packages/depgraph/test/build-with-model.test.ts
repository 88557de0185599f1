import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '@autoforge/llm';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { RecordedRequest, ScriptStep, ScriptedChatServer } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { edgeList } from '../src/dependency-graph.js';
import { obj, shopTools, tool } from './test-tools.js';
import { buildDependencyGraphWithModel } from '../src/llm/build-with-model.js';
import type { JudgeCandidate, JudgeReply } from '../src/llm/judge-prompt.js';
import { CANDIDATES_BEGIN, CANDIDATES_END } from '../src/llm/judge-prompt.js';

// The shop, plus a tool that only a low-information name (`status`) links to refund_order.
const tools = [...shopTools(), tool('archive_order', ['status'], obj({ archived: 'string' }))];

/** The candidate list of a judging request, read back from its user message. */
function candidatesOf(request: RecordedRequest): JudgeCandidate[] {
  const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
  const text = messages.find((m) => m.role === 'user')?.content ?? '';
  const start = text.indexOf(CANDIDATES_BEGIN) + CANDIDATES_BEGIN.length;
  return JSON.parse(text.slice(start, text.indexOf(CANDIDATES_END))) as JudgeCandidate[];
}

const reply = (value: JudgeReply): string => JSON.stringify(value);

let server: ScriptedChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function judgeWith(options: { script?: ScriptStep[]; handler?: (r: RecordedRequest) => ScriptStep }): Promise<ChatModel> {
  server = await createScriptedChatServer(options);
  return createOpenAIChatModel({ baseURL: server.baseURL, apiKey: 'x', model: 'scripted', maxRetries: 0 });
}

describe('buildDependencyGraphWithModel (through the openai SDK and the scripted server)', () => {
  it('confirms, rejects, leaves unjudged and adds edges as the model says, after repairing its JSON', async () => {
    const model = await judgeWith({
      script: ['Sure! Here are my verdicts.'],
      handler: (request) => {
        const shown = candidatesOf(request);
        expect(shown.map((c) => `${c.from}->${c.to}`)).toContain('refund_order->archive_order');
        return reply({
          edges: [
            { from: 'refund_order', to: 'archive_order', bindings: [{ output: 'status', parameter: 'status' }], confirmed: true, reason: 'archive what was refunded' },
            { from: 'get_customer', to: 'refund_order', bindings: [], confirmed: false, reason: 'refunds start from an order, not a customer' },
            { from: 'get_order', to: 'refund_order', bindings: [{ output: 'order_id', parameter: 'order_id' }], confirmed: true },
            { from: 'get_order', to: 'calculate', bindings: [{ output: 'lines[].qty', parameter: 'expression' }], confirmed: true, reason: 'sum quantities' },
            { from: 'get_order', to: 'archive_order', bindings: [{ output: 'lines[].nope', parameter: 'status' }], confirmed: true },
            { from: 'get_order', to: 'ghost', bindings: [{ output: 'order_id', parameter: 'x' }], confirmed: true },
          ],
        });
      },
    });
    const { graph, report } = await buildDependencyGraphWithModel(tools, { model });

    expect(server?.chatRequests()).toHaveLength(2); // one invalid reply, one repair
    expect(report.requests).toBe(1);
    expect(report.confirmed).toEqual(['get_order->refund_order', 'refund_order->archive_order']);
    expect(report.rejected).toEqual(['get_customer->refund_order']);
    expect(report.added).toEqual(['get_order->calculate']);
    expect(report.unjudged).toContain('find_customer_id_by_email->get_customer');
    expect(report.issues.map((i) => i.message)).toEqual([
      expect.stringContaining('"lines[].nope" is not an output path of get_order'),
      expect.stringContaining('unknown tool "ghost"'),
    ]);

    expect(graph.hasEdge('get_customer', 'refund_order')).toBe(false);
    expect(graph.getEdgeAttributes('refund_order', 'archive_order')).toMatchObject({
      origin: 'match',
      judged: { confirmed: true, reason: 'archive what was refunded' },
      bindings: [{ outputPath: 'status', parameter: 'status' }],
    });
    expect(graph.getEdgeAttributes('get_order', 'refund_order').bindings.map((b) => b.parameter)).toEqual(['order_id']);
    expect(graph.getEdgeAttributes('get_order', 'calculate')).toMatchObject({
      origin: 'llm',
      score: 0.6,
      bindings: [{ outputPath: 'lines[].qty', parameter: 'expression', score: 0.6, reason: 'added by the model: sum quantities' }],
    });
    expect(graph.hasEdge('find_customer_id_by_email', 'get_customer')).toBe(true);
    // Without the model the low-information pair is no edge at all.
    expect(buildDependencyGraph(tools).hasEdge('refund_order', 'archive_order')).toBe(false);
  });

  it('sends bounded batches and keeps the matcher decision for what it could not send', async () => {
    let requests = 0;
    const model = await judgeWith({
      handler: (request) => {
        requests++;
        return reply({ edges: candidatesOf(request).map((c) => ({ ...c, confirmed: true })) });
      },
    });
    const { graph, report } = await buildDependencyGraphWithModel(tools, { model, batchSize: 2, maxRequests: 2, maxAdded: 0 });
    expect(requests).toBe(2);
    expect(report.confirmed).toHaveLength(4);
    expect(report.unjudged.length).toBe(report.candidates - 4);
    expect(edgeList(graph).filter((e) => e.judged).length).toBe(4);
  });

  it('reports a reply that stays invalid and falls back to the matcher', async () => {
    const model = await judgeWith({ handler: () => '{"edges": "none"}' });
    const { graph, report } = await buildDependencyGraphWithModel(tools, { model, completeOptions: { maxRepairs: 1 } });
    expect(server?.chatRequests()).toHaveLength(2);
    expect(report.issues[0]).toMatchObject({ code: 'E_JSON_SCHEMA', message: expect.stringContaining('request 1: /edges') });
    expect(edgeList(graph).map((e) => `${e.from}->${e.to}`)).toEqual(edgeList(buildDependencyGraph(tools)).map((e) => `${e.from}->${e.to}`));
  });

  it('throws E_OPTIONS without a model or with bad bounds', async () => {
    await expect(buildDependencyGraphWithModel(tools, {} as never)).rejects.toMatchObject({ code: 'E_OPTIONS' });
    const model: ChatModel = { model: 'none', complete: () => Promise.reject(new Error('unused')) };
    await expect(buildDependencyGraphWithModel(tools, { model, batchSize: 0 })).rejects.toMatchObject({ code: 'E_OPTIONS', message: expect.stringContaining('`batchSize`') });
    await expect(buildDependencyGraphWithModel(tools, { model, candidateMinScore: 0.9 })).rejects.toMatchObject({ code: 'E_OPTIONS' });
  });
});
