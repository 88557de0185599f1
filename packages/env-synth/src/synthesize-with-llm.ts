import type { Issue, JsonObject, JsonSchema, Message, Result, Seed, ToolDoc, ToolSpec } from '@autoforge/core';
import { canonicalJson, createRng, err, isJsonObject, ok, sha256Hex, toolAccess } from '@autoforge/core';
import type { Environment, EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { ChatModel, CompleteJsonOptions } from '@autoforge/llm';
import { completeJson } from '@autoforge/llm';
import fc from 'fast-check';
import { validatorFor } from './ajv.js';
import { analyzeTool } from './analyze-tool.js';
import { arbitraryFromSchema } from './arbitrary-from-schema.js';
import type { CandidateTool, CheckPlan } from './check-implementations.js';
import { checkImplementations } from './check-implementations.js';
import type { Compiled } from './compile-environment.js';
import { checkCommonOptions, compileEnvironment, defaultSpecId, inputIssues } from './compile-environment.js';
import type { RecordsCompiled, RecordsInput } from './compose.js';
import { synthesizeComposed } from './compose.js';
import type { Probe } from './families/family.js';
import type { SelfCheckVerdict } from './self-check.js';
import { selfCheckOn } from './self-check.js';
import type { EnvSynthIssueCode } from './error.js';
import { EnvSynthError } from './error.js';
import { generateState } from './generate-state.js';
import type { ImplementationReply } from './implementation-request.js';
import { describeState, implementationMessages, implementationReplySchema } from './implementation-request.js';
import { inferEntities } from './infer-entities.js';
import { knownValues } from './known-values.js';
import type { OperationPattern } from './plan.js';
import { toolRepairPrompt } from './prompts/repair-tool.js';
import { proposeStateModel } from './propose-state-model.js';
import { analyzeSampleState } from './state-model.js';
import type { SynthesisReport, SynthesizeOptions } from './synthesis-types.js';

/** Options of LLM synthesis: those of offline synthesis, a model, and the repair and check budgets. */
export interface LlmSynthesizeOptions extends Omit<SynthesizeOptions, 'model'> {
  /** The model that proposes the state schema and writes the implementations. Required. */
  model: ChatModel;
  /**
   * Repair rounds: how often a failing implementation (or state proposal) goes back to the
   * model with the error, and how often `completeJson` asks again for a reply that is not JSON
   * of the expected shape. Default 2.
   */
  maxRepairs?: number;
  /** Random calls per tool and check state. Default 12. */
  checkCalls?: number;
  /** States each implementation is checked on: the seed state and `checkStates - 1` generated ones. Default 2. */
  checkStates?: number;
  /** The sandbox's time limit per call while checking, in ms. Default 1000 (the runtime's default). */
  timeoutMs?: number;
  /** Sampling temperature of every request. Default: the server's. */
  temperature?: number;
  /** `max_tokens` of every request. Default: the server's. */
  maxTokens?: number;
  /** Cancels the synthesis (the pending requests fail with `LlmError` `E_ABORTED`). */
  signal?: AbortSignal;
}

/** Where a tool's final implementation came from. */
export type ImplementationOrigin = 'llm' | 'offline';

/** One tool in the LLM report. */
export interface LlmToolReport {
  tool: string;
  /** The operation pattern the offline classifier gives it (kept in the spec). */
  pattern: OperationPattern;
  /** `llm`: the model's implementation passed the checks; `offline`: the template (a fallback). */
  origin: ImplementationOrigin;
  /** Calls to `model.complete` for this tool (JSON repairs and cache hits included). */
  requests: number;
  /** Failed implementations sent back to the model. */
  repairs: number;
}

/** What the LLM path did. */
export interface LlmReport {
  /** The model's name. */
  model: string;
  /** Calls to `model.complete` in all (cache hits included). */
  requests: number;
  /**
   * The state schema: `llm` (the model's proposal), `sample` (inferred from `sampleState`; no
   * request), or `offline` (the proposal failed: inferred from the tools, `reason` says why).
   */
  schema: { origin: 'llm' | 'sample' | 'offline'; requests: number; repairs: number; reason?: string };
  /** Every tool, in document order. */
  tools: LlmToolReport[];
  /** Tools that kept the offline template, and why (the last error). */
  fallbacks: { tool: string; reason: string }[];
  /** The checks each implementation passed: states, and random calls per state. */
  checks: { states: number; callsPerState: number };
}

/** The report of LLM synthesis: the offline report's fields and `llm`. */
export interface LlmSynthesisReport extends SynthesisReport {
  llm: LlmReport;
}

/** The result of LLM synthesis. */
export interface LlmSynthesisResult {
  spec: EnvironmentSpec;
  report: LlmSynthesisReport;
}

interface LlmSettings {
  model: ChatModel;
  maxRepairs: number;
  checkCalls: number;
  checkStates: number;
  timeoutMs: number;
}

function integerOption(options: LlmSynthesizeOptions, name: 'maxRepairs' | 'checkCalls' | 'checkStates' | 'timeoutMs', fallback: number, min: number, max: number): number {
  const value = options[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EnvSynthError('E_OPTIONS', `env-synth: options.${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function checkLlmOptions(options: LlmSynthesizeOptions): LlmSettings {
  const model = options.model as Partial<ChatModel> | undefined;
  if (typeof model !== 'object' || model === null || typeof model.complete !== 'function' || typeof model.model !== 'string') {
    throw new EnvSynthError('E_OPTIONS', 'env-synth: options.model must be a ChatModel ({ model, complete })');
  }
  return {
    model: options.model,
    maxRepairs: integerOption(options, 'maxRepairs', 2, 0, 10),
    checkCalls: integerOption(options, 'checkCalls', 12, 1, 1000),
    checkStates: integerOption(options, 'checkStates', 2, 1, 10),
    timeoutMs: integerOption(options, 'timeoutMs', 1000, 1, 60_000),
  };
}

/** A model that counts its `complete` calls. */
function counted(model: ChatModel): ChatModel & { readonly requests: number } {
  let requests = 0;
  return {
    model: model.model,
    complete(messages, options) {
      requests++;
      return model.complete(messages, options);
    },
    get requests() {
      return requests;
    },
  };
}

/** `Promise.all`, but on the first failure the other requests are cancelled and awaited. */
async function allOrAbort<T>(tasks: readonly Promise<T>[], controller: AbortController): Promise<T[]> {
  try {
    return await Promise.all(tasks);
  } catch (error) {
    controller.abort();
    await Promise.allSettled(tasks);
    throw error;
  }
}

interface Job {
  index: number;
  doc: ToolSpec;
  /** The offline tool: the fallback, and the frame of the model's version. */
  offline: EnvironmentTool;
  conversation: Message[];
  model: ChatModel & { readonly requests: number };
  repairs: number;
  reply?: ImplementationReply;
  origin?: ImplementationOrigin;
  reason?: string;
}

function candidateOf(job: Job, reply: ImplementationReply): EnvironmentTool {
  return {
    ...job.offline,
    outputSchema: job.doc.outputSchema ?? (reply.outputSchema as JsonSchema),
    implementation: { kind: 'js', source: reply.source },
  };
}

/**
 * LLM environment synthesis, as in the AutoForge paper: the model proposes the state schema
 * (collections, record schemas, id formats, relations) unless `sampleState` gives the data,
 * then writes every tool's implementation (one request per tool; the model's own concurrency
 * limit bounds them). Everything it writes is checked before use: the proposal's schemas
 * compile and a seed state generated from them is valid; each implementation loads in the
 * sandbox and runs, on the seed state and on generated states, `checkCalls` calls with random
 * schema-valid arguments (`arbitraryFromSchema`, preferring values that occur in the state)
 * without a defect, keeping the state valid. Failures go back to the model with the error, the
 * failing arguments and the code, at most `maxRepairs` times; a tool that still fails keeps the
 * offline template and is reported in `report.llm.fallbacks`. A proposal that still fails gives
 * way to the offline state model (`report.llm.schema.origin: 'offline'`).
 *
 * Deterministic given the model's replies (e.g. from the llm package's disk cache) and the seed:
 * the prompts are, and so are the check arguments (`fc.sample` with seeds derived from `seed`).
 *
 * Returns the issues of offline synthesis for unusable inputs. Throws `EnvSynthError`
 * `E_OPTIONS` for invalid options; the model's transport errors (`LlmError`) reject the promise,
 * after the other pending requests are cancelled.
 */
export async function synthesizeEnvironmentWithLlm(toolDoc: ToolDoc, options: LlmSynthesizeOptions): Promise<Result<LlmSynthesisResult, Issue<EnvSynthIssueCode>>> {
  const { seed, size } = checkCommonOptions(options);
  const settings = checkLlmOptions(options);
  const bad = inputIssues(toolDoc, options.sampleState);
  if (bad) return err(bad);

  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const request: CompleteJsonOptions = { signal, maxRepairs: settings.maxRepairs };
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.maxTokens !== undefined) request.maxTokens = options.maxTokens;
  const compileOptions = { seed, size, ...pickSpecOptions(options) };

  // 0. The behaviour families take the tools they recognise, with their drivers (checked by the
  //    self-check); the model writes the keyed-records tools, the ones no family claimed.
  const offlineOptions: SynthesizeOptions = { ...compileOptions, ...(options.sampleState ? { sampleState: options.sampleState } : {}) };
  let recordsInput: RecordsInput | undefined;
  const offline = synthesizeComposed(toolDoc, offlineOptions, seed, size, new Set(), (input) => {
    recordsInput = input;
    return undefined;
  });
  if (!offline.ok) return offline;
  const recordsDoc: ToolDoc = recordsInput?.toolDoc ?? { ...toolDoc, tools: [] };
  const analyses = recordsDoc.tools.map(analyzeTool);
  const sample = recordsInput?.sample;

  // 1. The state: from the sample, or proposed by the model (the offline model as a fallback).
  let compiled: RecordsCompiled;
  let schema: LlmReport['schema'];
  if (sample !== undefined || recordsDoc.tools.length === 0) {
    const normalized = analyzeSampleState(structuredClone(sample ?? {}));
    compiled = compileEnvironment(
      recordsDoc,
      { analyses, model: normalized.model, sampleState: normalized.state, notes: normalized.notes },
      compileOptions,
    );
    schema = { origin: 'sample', requests: 0, repairs: 0 };
  } else {
    const model = counted(settings.model);
    const outcome = await proposeStateModel(recordsDoc.tools, {
      model,
      maxRepairs: settings.maxRepairs,
      request,
      compile: (proposed) => compileEnvironment(recordsDoc, { analyses, model: proposed, notes: [] }, compileOptions),
    });
    if (outcome.compiled) {
      compiled = outcome.compiled;
      schema = { origin: 'llm', requests: model.requests, repairs: outcome.repairs };
    } else {
      compiled = compileEnvironment(recordsDoc, { analyses, model: inferEntities(analyses), notes: [] }, compileOptions);
      schema = { origin: 'offline', requests: model.requests, repairs: outcome.repairs, reason: outcome.reason ?? 'no proposal' };
      compiled.report.notes.push(`the state schema was inferred offline: ${schema.reason}`);
    }
  }

  // 2. The check plan: states, and seeded random arguments per tool and state.
  const plan = checkPlan(compiled, seed, size, settings);
  // 3. One request per tool, then rounds of checks (random calls, then the behavioural
  //    self-check) and repairs.
  const jobs = await writeImplementations(recordsDoc, compiled, plan, settings, request, controller);

  // 4. The spec: the model's implementations where they passed, the offline drivers elsewhere
  //    (which the composed self-check turns into stand-ins where they do not work).
  const tools = compiled.spec.tools.map((tool, i) => {
    const job = jobs[i] as Job;
    return job.origin === 'llm' && job.reply ? candidateOf(job, job.reply) : tool;
  });
  const mode = offline.value.report.mode;
  const withModel: RecordsCompiled = { ...compiled, spec: { ...compiled.spec, tools } };
  const id =
    options.id ??
    defaultSpecId(toolDoc, seed, size, `llm-${mode}`, sha256Hex(canonicalJson({ stateSchema: compiled.spec.stateSchema, tools } as never)));
  // The self-check runs every tool, the model's sandboxed ones included, on the composed spec.
  let checkInput: { spec: EnvironmentSpec; probes: ReadonlyMap<string, readonly Probe[]> } | undefined;
  const draft = synthesizeComposed(toolDoc, { ...offlineOptions, id }, seed, size, new Set(), () => withModel, (s, probes) => {
    checkInput = { spec: structuredClone(s), probes };
    return new Map();
  });
  if (!draft.ok) return draft;
  const verdicts = checkInput === undefined ? new Map<string, SelfCheckVerdict>() : await selfCheckAll(checkInput.spec, checkInput.probes, settings.timeoutMs);
  const composed = synthesizeComposed(toolDoc, { ...offlineOptions, id }, seed, size, new Set(), () => withModel, () => verdicts);
  if (!composed.ok) return composed;
  const spec: EnvironmentSpec = { ...composed.value.spec, metadata: { ...composed.value.spec.metadata, llm: { model: settings.model.model } } };
  const coverage = composed.value.report.coverage ?? [];
  const toolReports: LlmToolReport[] = jobs.map((job) => ({
    tool: job.doc.name,
    pattern: job.offline.pattern as OperationPattern,
    origin: job.origin ?? 'offline',
    requests: job.model.requests,
    repairs: job.repairs,
  }));
  const report: LlmSynthesisReport = {
    ...composed.value.report,
    coverage,
    standIns: coverage.filter((c) => !c.works).map((c) => c.tool),
    llm: {
      model: settings.model.model,
      requests: schema.requests + toolReports.reduce((n, t) => n + t.requests, 0),
      schema,
      tools: toolReports,
      fallbacks: jobs.filter((j) => j.origin !== 'llm').map((j) => ({ tool: j.doc.name, reason: j.reason ?? 'no implementation' })),
      checks: { states: 1 + plan.states.length, callsPerState: settings.checkCalls },
    },
  };
  return ok({ spec, report });
}

/**
 * Asks for every tool's implementation at once, checks the answers together, and sends each
 * failure back until it passes or `maxRepairs` is spent (then the tool keeps its template).
 */
async function writeImplementations(
  toolDoc: ToolDoc,
  compiled: Compiled,
  plan: CheckPlan,
  settings: LlmSettings,
  request: CompleteJsonOptions,
  controller: AbortController,
): Promise<Job[]> {
  const state = describeState(compiled);
  const jobs: Job[] = toolDoc.tools.map((doc, index) => ({
    index,
    doc,
    offline: compiled.spec.tools[index] as EnvironmentTool,
    conversation: implementationMessages(doc, state),
    model: counted(settings.model),
    repairs: 0,
  }));
  let pending = jobs;
  while (pending.length > 0) {
    await allOrAbort(
      pending.map(async (job) => {
        const reply = await completeJson<ImplementationReply>(job.model, job.conversation, implementationReplySchema(job.doc.outputSchema === undefined), request);
        if (reply.ok) job.reply = reply.value;
        else {
          delete job.reply;
          job.reason = `the reply is not a valid implementation object: ${reply.issues.map((i) => i.message).join('; ')}`;
        }
      }),
      controller,
    );
    const candidates: CandidateTool[] = pending.flatMap((job) => (job.reply ? [{ index: job.index, tool: candidateOf(job, job.reply) }] : []));
    const failures = await checkImplementations(candidates, plan);
    // The same behavioural self-check as the offline drivers, on what passed the random calls.
    for (const [index, reason] of await behaviouralFailures(candidates.filter((c) => !failures.has(c.index)), compiled, plan)) {
      failures.set(index, { phase: 'behaviour', code: 'behaviour', message: reason });
    }
    const next: Job[] = [];
    for (const job of pending) {
      const reply = job.reply;
      const failure = failures.get(job.index);
      if (reply && !failure) job.origin = 'llm';
      else if (reply && failure && job.repairs < settings.maxRepairs) {
        job.repairs++;
        job.conversation.push(
          { role: 'assistant', content: JSON.stringify(reply) },
          { role: 'user', content: toolRepairPrompt(job.doc.name, failure, reply.source) },
        );
        next.push(job);
      } else {
        job.origin = 'offline';
        if (failure) job.reason = `${failure.code}: ${failure.message}${failure.args === undefined ? '' : ` (arguments ${failure.args})`}`;
      }
    }
    pending = next;
  }
  return jobs;
}

/** The self-check of every tool of a spec, sandboxed ones included. */
async function selfCheckAll(spec: EnvironmentSpec, probes: ReadonlyMap<string, readonly Probe[]>, timeoutMs: number): Promise<Map<string, SelfCheckVerdict>> {
  const env = await createEnvironment(spec, { timeoutMs });
  try {
    return selfCheckOn(env, spec.tools.map((t) => t.name), probes);
  } finally {
    env.close();
  }
}

/**
 * The self-check of the model's implementations: the offline plan's probes for the tool (a
 * create visible to a read, …); for a tool the offline compiler could plan no probe for, a call
 * of the check plan must answer ok and change the state exactly when the tool is a write.
 */
async function behaviouralFailures(candidates: readonly CandidateTool[], compiled: RecordsCompiled, plan: CheckPlan): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (candidates.length === 0) return out;
  const tools = compiled.spec.tools.map((t) => t);
  for (const c of candidates) tools[c.index] = c.tool;
  let env: Environment;
  try {
    env = await createEnvironment({ ...compiled.spec, tools }, { timeoutMs: plan.timeoutMs });
  } catch (e) {
    for (const c of candidates) out.set(c.index, `the environment does not load: ${e instanceof Error ? e.message : String(e)}`);
    return out;
  }
  try {
    const planned = compiled.probes ?? new Map<string, readonly Probe[]>();
    const withProbes = candidates.filter((c) => (planned.get(c.tool.name) ?? []).length > 0);
    const verdicts = selfCheckOn(env, withProbes.map((c) => c.tool.name), planned);
    for (const c of withProbes) {
      const v = verdicts.get(c.tool.name);
      if (v !== undefined && !v.works) out.set(c.index, `the behavioural self-check failed: ${v.reason ?? 'a probe failed'}`);
    }
    for (const c of candidates.filter((x) => !withProbes.includes(x))) {
      const write = toolAccess(c.tool).access === 'write';
      const args = plan.args(c.tool, c.index, 0);
      const passes = args.some((a) => {
        const session = env.createSession();
        try {
          const before = session.digest();
          const r = session.stepSync({ id: 'gate', name: c.tool.name, arguments: JSON.stringify(a) });
          return r.ok && (session.digest() !== before) === write;
        } finally {
          session.close();
        }
      });
      if (!passes) out.set(c.index, `no check call answered ok${write ? ' and changed the state (it is a write)' : ' without changing the state (it is a read)'}`);
    }
  } finally {
    env.close();
  }
  return out;
}

function pickSpecOptions(options: LlmSynthesizeOptions): Pick<SynthesizeOptions, 'id' | 'name' | 'clock' | 'policy'> {
  const out: Pick<SynthesizeOptions, 'id' | 'name' | 'clock' | 'policy'> = {};
  if (options.id !== undefined) out.id = options.id;
  if (options.name !== undefined) out.name = options.name;
  if (options.clock !== undefined) out.clock = options.clock;
  if (options.policy !== undefined) out.policy = options.policy;
  return out;
}

/** States beyond the seed (generated, kept when valid) and the seeded arguments of every check call. */
function checkPlan(compiled: Compiled, seed: Seed, size: number, settings: LlmSettings): CheckPlan {
  const validate = validatorFor(compiled.spec.stateSchema);
  const states: JsonObject[] = [];
  for (let k = 1; k < settings.checkStates; k++) {
    const state = generateState(compiled.finalModel, { seed: createRng(seed, 'env-synth', 'llm-check-state', k).uint32(), size: Math.min(size, 10) });
    const sameKeys = canonicalJson(Object.keys(state).sort()) === canonicalJson(Object.keys(compiled.spec.seedState).sort());
    if (sameKeys && validate?.(state) === true) states.push(state);
    else compiled.report.notes.push(`check state ${k} was left out: the state generated from the model does not match the state schema`);
  }
  const known = [compiled.spec.seedState, ...states].map((s) => knownValues(s, compiled.finalModel));
  const cache = new Map<string, JsonObject[]>();
  return {
    base: compiled.spec,
    states,
    timeoutMs: settings.timeoutMs,
    args(tool, index, k) {
      const key = `${index}/${k}`;
      let list = cache.get(key);
      if (!list) {
        try {
          const lookup = known[k];
          const arb = arbitraryFromSchema(tool.parameters, lookup ? { known: lookup } : {});
          const fcSeed = createRng(seed, 'env-synth', 'llm-check', tool.name, k).uint32() | 0;
          list = fc.sample(arb, { seed: fcSeed, numRuns: settings.checkCalls }).filter((v): v is JsonObject => isJsonObject(v));
        } catch {
          // Parameters no value satisfies: the tool is checked only for loading.
          list = [];
        }
        cache.set(key, list);
      }
      return list;
    },
  };
}
