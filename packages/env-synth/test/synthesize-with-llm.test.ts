import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { EnvironmentTool } from '@autoforge/env-runtime';
import { createEnvironment, validateEnvironmentSpec } from '@autoforge/env-runtime';
import { createOpenAIChatModel, isLlmError } from '@autoforge/llm';
import type { RecordedRequest, ScriptedChatServer, ScriptStep } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import ts from 'typescript';
import { analyzeTool } from '../src/analyze-tool.js';
import { compileEnvironment } from '../src/compile-environment.js';
import { EnvSynthError } from '../src/error.js';
import { inferEntities } from '../src/infer-entities.js';
import { analyzeSampleState } from '../src/state-model.js';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import type { LlmSynthesizeOptions } from '../src/llm/index.js';
import { synthesizeEnvironmentWithLlm } from '../src/llm/index.js';
import { loadJson, loadToolDoc } from './test-support.js';

// A tiny shop: one tool without an output schema (the model writes one), one with.
const doc: ToolDoc = {
  format: 'openai-chat',
  info: { title: 'Tiny shop' },
  tools: [
    {
      name: 'get_order_details',
      description: "Get the details of an order by its id, such as '#W0000001'.",
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      source: { format: 'openai-chat', pointer: '/0' },
    },
    {
      name: 'cancel_pending_order',
      description: "Cancel a pending order. The status changes to 'cancelled'.",
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason: { type: 'string', enum: ['no longer needed', 'ordered by mistake'] } },
        required: ['order_id', 'reason'],
      },
      outputSchema: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
      source: { format: 'openai-chat', pointer: '/1' },
    },
  ],
};

const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    order_id: { type: 'string' },
    user_id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'cancelled'] },
    total: { type: 'number', minimum: 0 },
    cancel_reason: { type: 'string' },
  },
  required: ['order_id', 'user_id', 'status', 'total'],
  additionalProperties: false,
};
const USER_SCHEMA = {
  type: 'object',
  properties: { user_id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } },
  required: ['user_id', 'name', 'email'],
  additionalProperties: false,
};
const PROPOSAL = {
  collections: [
    { name: 'orders', entity: 'order', keyField: 'order_id', idExamples: ['#W0000001'], recordSchema: ORDER_SCHEMA },
    { name: 'users', entity: 'user', keyField: 'user_id', idExamples: ['sara_doe_496'], recordSchema: USER_SCHEMA },
  ],
  relations: [{ from: 'orders', path: 'user_id', to: 'users' }],
};

const GET_GOOD = `function run(args, ctx) {
  var order = ctx.db.get('orders', args.order_id);
  if (!order) throw new Error('order ' + args.order_id + ' not found');
  return order;
}`;
const CANCEL_GOOD = `function run(args, ctx) {
  var order = ctx.db.get('orders', args.order_id);
  if (!order) throw new Error('order ' + args.order_id + ' not found');
  if (order.status !== 'pending') throw new Error('order status is "' + order.status + '"; must be pending');
  return ctx.db.update('orders', args.order_id, { status: 'cancelled', cancel_reason: args.reason });
}`;
const GET_TYPE_ERROR = `function run(args, ctx) {
  var order = ctx.db.get('orders', args.order_id);
  return order.details.total;
}`;
const GET_LOOPS = `function run(args, ctx) {
  while (true) {}
}`;
const CANCEL_CORRUPTS = `function run(args, ctx) {
  ctx.db.put('orders', args.order_id, { order_id: args.order_id, status: 'CANCELLED!' });
  return { status: 'CANCELLED!' };
}`;
const CANCEL_WRONG_OUTPUT = `function run(args, ctx) {
  return 'done';
}`;
const SYNTAX_ERROR = 'function run(args, ctx) { return {';
// Runs without a defect and answers what the output schema asks, but cancels nothing.
const CANCEL_DOES_NOTHING = `function run(args, ctx) {
  var order = ctx.db.get('orders', args.order_id);
  if (!order) throw new Error('order ' + args.order_id + ' not found');
  return { status: 'cancelled' };
}`;

const GET_OUTPUT = { type: 'object', properties: { order_id: { type: 'string' }, status: { type: 'string' } }, required: ['order_id', 'status'] };

function reply(tool: string, source: string): string {
  return JSON.stringify(tool === 'get_order_details' ? { source, outputSchema: GET_OUTPUT } : { source });
}

interface Scenario {
  /** Replies to the state proposal, one per request (the last one repeats). */
  proposal?: string[];
  /** Sources per tool, one per attempt (the last one repeats). */
  tools?: Partial<Record<string, string[]>>;
}

type Messages = { role: string; content: string }[];

function messagesOf(request: RecordedRequest): Messages {
  return (request.body as { messages: Messages }).messages;
}

function isProposal(request: RecordedRequest): boolean {
  return messagesOf(request)[0]?.content.startsWith('You design the state') ?? false;
}

function toolOf(request: RecordedRequest): string | undefined {
  return /^# Tool: (\S+)/.exec(messagesOf(request)[1]?.content ?? '')?.[1];
}

/** Answers like a model would: by what the request asks, and how many repairs it carries. */
function handlerFor(scenario: Scenario): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const messages = messagesOf(request);
    const attempt = messages.filter((m) => m.role === 'assistant').length;
    const pick = (list: readonly string[]): string => list[Math.min(attempt, list.length - 1)] as string;
    if (isProposal(request)) return pick(scenario.proposal ?? [JSON.stringify(PROPOSAL)]);
    const tool = toolOf(request);
    if (!tool) throw new Error('unexpected request');
    const good = tool === 'get_order_details' ? GET_GOOD : CANCEL_GOOD;
    return reply(tool, pick(scenario.tools?.[tool] ?? [good]));
  };
}

const servers: ScriptedChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function setup(scenario: Scenario, cacheDir?: string) {
  const server = await createScriptedChatServer({ handler: handlerFor(scenario) });
  servers.push(server);
  const model = createOpenAIChatModel({
    baseURL: server.baseURL,
    apiKey: 'test',
    model: 'scripted',
    minBackoffMs: 1,
    env: {},
    ...(cacheDir ? { cache: { dir: cacheDir } } : {}),
  });
  const options: LlmSynthesizeOptions = { model, seed: 3, size: 6, timeoutMs: 250, checkCalls: 8 };
  return { server, model, options };
}

function toolRequests(server: ScriptedChatServer, tool: string): Messages[] {
  return server.chatRequests().filter((r) => toolOf(r) === tool).map(messagesOf);
}

async function synthesize(toolDoc: ToolDoc, options: LlmSynthesizeOptions) {
  const result = await synthesizeEnvironmentWithLlm(toolDoc, options);
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
  return result.value;
}

describe('synthesizeEnvironmentWithLlm', () => {
  it('uses the proposed schema and implementations that pass the checks the first time', async () => {
    const { server, options } = await setup({});
    const { spec, report } = await synthesize(doc, options);

    expect(validateEnvironmentSpec(spec).ok).toBe(true);
    expect(Object.keys(spec.seedState).sort()).toEqual(['orders', 'users']);
    expect(spec.stateSchema.properties?.orders).toEqual({ type: 'object', additionalProperties: ORDER_SCHEMA });
    expect(spec.tools.map((t) => t.implementation)).toEqual([
      { kind: 'js', source: GET_GOOD },
      { kind: 'js', source: CANCEL_GOOD },
    ]);
    expect(spec.tools[0]?.outputSchema).toEqual(GET_OUTPUT);
    expect(spec.tools[1]?.outputSchema).toEqual(doc.tools[1]?.outputSchema);
    expect(report.collections.map((c) => [c.name, c.origin])).toEqual([
      ['orders', 'llm'],
      ['users', 'llm'],
    ]);
    expect(report.llm).toEqual({
      model: 'scripted',
      requests: 3,
      schema: { origin: 'llm', requests: 1, repairs: 0 },
      tools: [
        { tool: 'get_order_details', pattern: 'lookup', origin: 'llm', requests: 1, repairs: 0 },
        { tool: 'cancel_pending_order', pattern: 'transition', origin: 'llm', requests: 1, repairs: 0 },
      ],
      fallbacks: [],
      checks: { states: 2, callsPerState: 8 },
    });
    expect(server.chatRequests()).toHaveLength(3);
    // The prompt carries the tool, the state schema and the sandbox contract.
    const [system, user] = toolRequests(server, 'cancel_pending_order')[0] ?? [];
    expect(system?.content).toContain('ctx.db.update(col, id, patch)');
    expect(user?.content).toContain('"ordered by mistake"');
    expect(user?.content).toContain('"cancelled"');

    const env = await createEnvironment(spec, { validateOutputs: true });
    try {
      const session = env.createSession();
      const pending = Object.entries(spec.seedState.orders as Record<string, JsonObject>).find(([, o]) => o.status === 'pending');
      expect(pending).toBeDefined();
      const id = pending?.[0] as string;
      expect(session.stepSync({ id: '1', name: 'get_order_details', arguments: JSON.stringify({ order_id: id }) })).toEqual({
        ok: true,
        output: pending?.[1],
      });
      const cancelled = session.stepSync({ id: '2', name: 'cancel_pending_order', arguments: JSON.stringify({ order_id: id, reason: 'ordered by mistake' }) });
      expect(cancelled.ok && (cancelled.output as JsonObject).status).toBe('cancelled');
      expect(session.stepSync({ id: '3', name: 'get_order_details', arguments: '{"order_id":"#W404"}' })).toEqual({
        ok: false,
        error: { code: 'tool_error', message: 'order #W404 not found' },
      });
    } finally {
      env.close();
    }
  });

  it.each([
    ['a TypeError', 'get_order_details', GET_TYPE_ERROR, ['TypeError', 'cannot read property']],
    ['an infinite loop', 'get_order_details', GET_LOOPS, ['Error (timeout)', 'ran longer than 250 ms']],
    ['a write that breaks the state schema', 'cancel_pending_order', CANCEL_CORRUPTS, ['Error (state_invalid)', 'must be one of "pending", "delivered", "cancelled"']],
    ['an output that breaks its output schema', 'cancel_pending_order', CANCEL_WRONG_OUTPUT, ['Error (output_invalid)', 'does not match its output schema']],
  ])('sends %s back with the error, the arguments and the code, and uses the repaired version', async (_label, tool, broken, expected) => {
    const good = tool === 'get_order_details' ? GET_GOOD : CANCEL_GOOD;
    const { server, options } = await setup({ tools: { [tool]: [broken, good] } });
    const { spec, report } = await synthesize(doc, options);

    const entry = report.llm.tools.find((t) => t.tool === tool);
    expect(entry).toMatchObject({ origin: 'llm', requests: 2, repairs: 1 });
    expect(report.llm.fallbacks).toEqual([]);
    expect(spec.tools.find((t) => t.name === tool)?.implementation).toEqual({ kind: 'js', source: good });

    const requests = toolRequests(server, tool);
    expect(requests).toHaveLength(2);
    const repair = requests[1]?.at(-1)?.content ?? '';
    expect(requests[1]?.at(-2)).toEqual({ role: 'assistant', content: reply(tool, broken) });
    expect(repair).toContain(`Your implementation of \`${tool}\` failed a check`);
    for (const text of expected) expect(repair).toContain(text);
    expect(repair).toMatch(/Arguments of the failing call: \{"order_id":/);
    expect(repair).toContain(broken);
  });

  it('sends back an implementation that runs cleanly but does not do what the tool says (the behavioural self-check), and uses the repaired one', async () => {
    const { server, options } = await setup({ tools: { cancel_pending_order: [CANCEL_DOES_NOTHING, CANCEL_GOOD] } });
    const { spec, report } = await synthesize(doc, options);

    expect(report.llm.tools[1]).toMatchObject({ tool: 'cancel_pending_order', origin: 'llm', requests: 2, repairs: 1 });
    expect(spec.tools[1]?.implementation).toEqual({ kind: 'js', source: CANCEL_GOOD });
    const repair = toolRequests(server, 'cancel_pending_order')[1]?.at(-1)?.content ?? '';
    expect(repair).toContain('did not do what its description says');
    expect(repair).toMatch(/changed nothing/);
    expect(report.coverage?.find((c) => c.tool === 'cancel_pending_order')?.works).toBe(true);
  });

  it('keeps a behaviourally wrong implementation out even when repairs run out: the offline driver is the fallback', async () => {
    const { options } = await setup({ tools: { cancel_pending_order: [CANCEL_DOES_NOTHING] } });
    const { spec, report } = await synthesize(doc, { ...options, maxRepairs: 1 });

    expect(report.llm.fallbacks.map((f) => f.tool)).toEqual(['cancel_pending_order']);
    expect(report.llm.fallbacks[0]?.reason).toMatch(/^behaviour: /);
    expect(spec.tools[1]?.implementation).toMatchObject({ kind: 'driver', driver: 'records' });
  });

  it('falls back to the offline template for a tool that stays broken, and reports it', async () => {
    const { server, options } = await setup({ tools: { cancel_pending_order: [SYNTAX_ERROR] } });
    const { spec, report } = await synthesize(doc, { ...options, maxRepairs: 1 });

    expect(report.llm.tools[1]).toEqual({ tool: 'cancel_pending_order', pattern: 'transition', origin: 'offline', requests: 2, repairs: 1 });
    expect(report.llm.fallbacks).toHaveLength(1);
    expect(report.llm.fallbacks[0]?.tool).toBe('cancel_pending_order');
    expect(report.llm.fallbacks[0]?.reason).toMatch(/^source: .*the source does not compile: SyntaxError/);
    const cancel = spec.tools[1];
    expect(cancel?.implementation).toMatchObject({ kind: 'driver', driver: 'records', params: { pattern: 'transition' } });
    expect(cancel?.outputSchema).toEqual(doc.tools[1]?.outputSchema);
    expect(spec.tools[0]?.implementation).toEqual({ kind: 'js', source: GET_GOOD });
    expect(toolRequests(server, 'cancel_pending_order')[1]?.at(-1)?.content).toContain('SyntaxError');

    // The template works on the proposed state.
    const env = await createEnvironment(spec);
    try {
      const [id, order] = Object.entries(spec.seedState.orders as Record<string, JsonObject>).find(([, o]) => o.status === 'pending') ?? [];
      expect(order).toBeDefined();
      const res = env.createSession().stepSync({ id: '1', name: 'cancel_pending_order', arguments: JSON.stringify({ order_id: id, reason: 'no longer needed' }) });
      expect(res.ok && (res.output as JsonObject).status).toBe('cancelled');
    } finally {
      env.close();
    }
  });

  it('repairs a proposal that does not match the proposal schema through completeJson', async () => {
    const { server, options } = await setup({ proposal: ['{"collections": "orders"}', JSON.stringify(PROPOSAL)] });
    const { report } = await synthesize(doc, options);

    expect(report.llm.schema).toEqual({ origin: 'llm', requests: 2, repairs: 0 });
    const proposals = server.chatRequests().filter(isProposal).map(messagesOf);
    expect(proposals).toHaveLength(2);
    expect(proposals[1]?.at(-1)?.content).toContain('- /collections: must be array');
  });

  it('sends a record schema that does not compile back, and uses the repaired proposal', async () => {
    const broken = structuredClone(PROPOSAL);
    (broken.collections[1] as { recordSchema: object }).recordSchema = { type: 'object', properties: { user_id: { type: 'strng' } } };
    const { server, options } = await setup({ proposal: [JSON.stringify(broken), JSON.stringify(PROPOSAL)] });
    const { report } = await synthesize(doc, options);

    expect(report.llm.schema).toEqual({ origin: 'llm', requests: 2, repairs: 1 });
    const repair = server.chatRequests().filter(isProposal).map(messagesOf)[1]?.at(-1)?.content;
    expect(repair).toContain('/collections/1/recordSchema: the record schema does not compile');
  });

  it('sends back a proposal whose generated state breaks it', async () => {
    const strict = structuredClone(PROPOSAL);
    (strict.collections[1] as { recordSchema: { properties: Record<string, object> } }).recordSchema.properties.email = { type: 'string', pattern: '^x', maxLength: 0 };
    const { server, options } = await setup({ proposal: [JSON.stringify(strict), JSON.stringify(PROPOSAL)] });
    const { report } = await synthesize(doc, options);

    expect(report.llm.schema).toMatchObject({ origin: 'llm', repairs: 1 });
    const repair = server.chatRequests().filter(isProposal).map(messagesOf)[1]?.at(-1)?.content;
    expect(repair).toMatch(/a state generated from the proposal does not match it: \/users\/[^/]+\/email: must (match pattern|NOT have more than 0 characters)/);
  });

  it('infers the state offline when the proposal stays broken, and says why', async () => {
    const { options } = await setup({ proposal: ['not JSON'] });
    const { spec, report } = await synthesize(doc, { ...options, maxRepairs: 0 });

    expect(report.llm.schema.origin).toBe('offline');
    expect(report.llm.schema.reason).toContain('not parsable as JSON');
    expect(report.collections.map((c) => c.origin)).toEqual(['tools']);
    expect(report.notes.some((n) => n.startsWith('the state schema was inferred offline'))).toBe(true);
    expect(validateEnvironmentSpec(spec).ok).toBe(true);
  });

  it('reads the state schema from a sample state and only asks for implementations', async () => {
    const sampleState: JsonObject = {
      orders: {
        '#W0000001': { order_id: '#W0000001', user_id: 'sara_doe_496', status: 'pending', total: 12.5 },
        '#W0000002': { order_id: '#W0000002', user_id: 'sara_doe_496', status: 'delivered', total: 40 },
      },
      users: { sara_doe_496: { user_id: 'sara_doe_496', name: 'Sara Doe', email: 'sara@example.com' } },
    };
    const { server, options } = await setup({});
    const { spec, report } = await synthesize(doc, { ...options, sampleState });

    expect(server.chatRequests().some(isProposal)).toBe(false);
    expect(report.llm.schema).toEqual({ origin: 'sample', requests: 0, repairs: 0 });
    expect(report.mode).toBe('sample');
    expect(spec.seedState).toEqual(sampleState);
    expect(report.llm.tools.map((t) => t.origin)).toEqual(['llm', 'llm']);
    // The example record in the prompt comes from the sample.
    expect(toolRequests(server, 'get_order_details')[0]?.[1]?.content).toContain('"#W0000001"');
  });

  it('gives a byte-identical spec for the same replies and seed, also from the disk cache with the server gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'env-synth-llm-'));
    dirs.push(dir);
    const scenario: Scenario = { tools: { get_order_details: [GET_TYPE_ERROR, GET_GOOD] } };
    const first = await setup(scenario, dir);
    const a = await synthesize(doc, first.options);
    const second = await setup(scenario);
    const b = await synthesize(doc, second.options);
    expect(canonicalJson(b.spec)).toBe(canonicalJson(a.spec));
    expect(b.report).toEqual(a.report);

    const silent = await createScriptedChatServer({ handler: () => ({ type: 'error', status: 400 }) });
    servers.push(silent);
    const cached = createOpenAIChatModel({ baseURL: silent.baseURL, apiKey: 'test', model: 'scripted', minBackoffMs: 1, env: {}, cache: { dir } });
    const c = await synthesize(doc, { ...first.options, model: cached });
    expect(silent.chatRequests()).toHaveLength(0);
    expect(canonicalJson(c.spec)).toBe(canonicalJson(a.spec));

    const other = await synthesize(doc, { ...second.options, seed: 4 });
    expect(other.spec.id).not.toBe(a.spec.id);
  });

  it('rejects with the model error when the endpoint fails', async () => {
    const server = await createScriptedChatServer({ handler: () => ({ type: 'error', status: 400 }) });
    servers.push(server);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'scripted', minBackoffMs: 1, env: {} });
    const failure = await synthesizeEnvironmentWithLlm(doc, { model, seed: 1 }).catch((e: unknown) => e);
    expect(isLlmError(failure, 'E_HTTP')).toBe(true);
  });

  it('returns the offline issues for unusable inputs and throws EnvSynthError for bad options', async () => {
    const { model } = await setup({});
    expect(await synthesizeEnvironmentWithLlm({ format: 'openai-chat', tools: [] }, { model, seed: 1 })).toMatchObject({
      ok: false,
      issues: [{ code: 'E_NO_TOOLS' }],
    });
    await expect(synthesizeEnvironmentWithLlm(doc, { model, seed: 1, maxRepairs: -1 })).rejects.toThrow(EnvSynthError);
    await expect(synthesizeEnvironmentWithLlm(doc, { model: {} as never, seed: 1 })).rejects.toThrow('options.model must be a ChatModel');
    await expect(synthesizeEnvironmentWithLlm(doc, { model, seed: Number.NaN })).rejects.toThrow('options.seed');
  });
});

// The records driver's own code (with the value-collections view and core's path reader it
// uses), transpiled for the sandbox: known-good JavaScript for any plan.
const RECORDS_DRIVER_JS = ['core/src/values-at.ts', 'env-runtime/src/drivers/value-collections.ts', 'env-runtime/src/drivers/records.ts']
  .map((f) =>
    ts
      .transpileModule(readFileSync(join(import.meta.dirname, '../..', f), 'utf8'), {
        compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext },
      })
      .outputText.replace(/^import .*$/gm, '')
      .replace(/^export /gm, ''),
  )
  .join('\n');
const DRIVER_SHIMS = `function isJsonObject(v) { return typeof v === 'object' && v !== null && !Array.isArray(v); }
class DriverParamsError extends Error {}
function defineDriver(d) { return { compile: (p, t) => d.compile(d.parse(p, t), t) }; }`;

/** The sandboxed twin of an offline implementation: the records driver's code, or a stand-in's error. */
function sandboxTwin(tool: EnvironmentTool): string {
  const impl = tool.implementation;
  if (impl.kind !== 'driver') throw new Error(`${tool.name}: not a driver tool`);
  if (impl.driver === 'stand-in') return `function run() { throw new Error(${JSON.stringify((impl.params as { reason: string }).reason)}); }`;
  return `${DRIVER_SHIMS}\n${RECORDS_DRIVER_JS}\nvar TOOL = recordsDriver.compile(${JSON.stringify(impl.params)}, { outputSchema: ${JSON.stringify(tool.outputSchema)} });\nfunction run(args, ctx) { return TOOL(args || {}, ctx); }`;
}

describe('synthesizeEnvironmentWithLlm on benchmark tools', () => {
  // The offline implementations, run in the sandbox, as the model's answers: code known to work
  // must pass the checks.
  it.each<[string, string, (() => JsonObject) | undefined]>([
    ['tau2 telecom + its database', 'tau2-bench/telecom/tools.json', () => loadJson<JsonObject>('tau2-bench/telecom/db.from_toml.json')],
    ['tau-bench retail, generated state', 'tau-bench/retail/tools.json', undefined],
  ])('accepts working implementations without a false alarm: %s', async (_label, file, sample) => {
    const toolDoc = await loadToolDoc(file);
    const sampleState = sample?.();
    // The LLM path's own offline fallback (the model gives no proposal: the offline state model),
    // for the tools no behaviour family claims (the model writes only those).
    const composedOffline = synthesizeEnvironment(toolDoc, { seed: 5, size: 20, ...(sampleState ? { sampleState } : {}) });
    if (!composedOffline.ok) throw new Error('offline synthesis failed');
    const families = composedOffline.value.report.families ?? [];
    const familyTools = new Set(families.flatMap((f) => f.tools));
    const familyKeys = new Set(families.flatMap((f) => f.sampleKeys));
    const recordsDoc = { ...toolDoc, tools: toolDoc.tools.filter((t) => !familyTools.has(t.name)) };
    const recordsSample = sampleState ? Object.fromEntries(Object.entries(sampleState).filter(([k]) => !familyKeys.has(k))) : undefined;
    const analyses = recordsDoc.tools.map(analyzeTool);
    const normalized = recordsSample ? analyzeSampleState(structuredClone(recordsSample)) : undefined;
    const offline = compileEnvironment(
      recordsDoc,
      normalized ? { analyses, model: normalized.model, sampleState: normalized.state, notes: [] } : { analyses, model: inferEntities(analyses), notes: [] },
      { seed: 5, size: 20 },
    );
    const answers = new Map(offline.spec.tools.map((t) => [t.name, { source: sandboxTwin(t), outputSchema: t.outputSchema }]));
    const server = await createScriptedChatServer({
      handler: (request) => {
        const answer = answers.get(toolOf(request) ?? '');
        return answer ? JSON.stringify(answer) : 'no proposal';
      },
    });
    servers.push(server);
    const model = createOpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'scripted', minBackoffMs: 1, env: {} });
    const { spec, report } = await synthesize(toolDoc, { model, seed: 5, maxRepairs: 0, ...(sampleState ? { sampleState } : {}) });

    // The twins of tools that work offline pass; the twins of tools that fail the offline
    // self-check fail the same check in the gate (code that runs but does not do what the tool
    // says is not accepted), and fall back to the offline driver — a stand-in.
    const working = new Set((composedOffline.value.report.coverage ?? []).filter((c) => c.works).map((c) => c.tool));
    const expectedFallbacks = recordsDoc.tools.filter((t) => !working.has(t.name)).map((t) => t.name);
    expect(report.llm.fallbacks.map((f) => f.tool)).toEqual(expectedFallbacks);
    expect(expectedFallbacks.length).toBeLessThan(recordsDoc.tools.length / 4);
    expect(report.llm.schema.origin).toBe(sampleState ? 'sample' : 'offline');
    const accepted = spec.tools.filter((t) => !familyTools.has(t.name) && working.has(t.name));
    expect(accepted.map((t) => t.implementation)).toEqual(accepted.map((t) => ({ kind: 'js', source: answers.get(t.name)?.source })));
    for (const name of expectedFallbacks) expect(spec.tools.find((t) => t.name === name)?.pattern).toBe('stand-in');
  });
});

describe('synthesizeEnvironment with a model', () => {
  it('refuses it (offline and synchronous) and names the /llm subpath, asking the model nothing', async () => {
    const { options, server } = await setup({});
    expect(() => synthesizeEnvironment(doc, options as never)).toThrow(EnvSynthError);
    expect(() => synthesizeEnvironment(doc, options as never)).toThrow('synthesizeEnvironmentWithLlm` from `@autoforge/env-synth/llm`');
    expect(server.chatRequests()).toHaveLength(0);
  });
});
