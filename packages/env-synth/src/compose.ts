import type { Issue, JsonObject, JsonSchemaObject, JsonValue, Result, Seed, ToolDoc } from '@autoforge/core';
import type { EnvSynthIssueCode } from './error.js';
import { createRng, ok } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import type { ToolAnalysis } from './analyze-tool.js';
import { analyzeTool } from './analyze-tool.js';
import type { Compiled } from './compile-environment.js';
import { compileEnvironment, defaultSpecId } from './compile-environment.js';
import type { FamilyClaim, FamilyPlan, PlannedTool, Probe } from './families/family.js';
import { FAMILIES } from './families/list.js';
import { requestsFamily } from './families/requests.js';
import { inferEntities } from './infer-entities.js';
import type { SelfCheckVerdict } from './self-check.js';
import { selfCheck } from './self-check.js';
import { analyzeSampleState } from './state-model.js';
import type { SynthesisReport, SynthesisResult, SynthesizeOptions, ToolCoverage } from './synthesis-types.js';

interface Claimed {
  family: string;
  claim: FamilyClaim;
  plan: FamilyPlan;
}

/** Probes for tools of the keyed-records compiler, when it provides them (`compiled.probes`). */
export type RecordsCompiled = Compiled & { probes?: ReadonlyMap<string, readonly Probe[]>; probeReasons?: ReadonlyMap<string, string> };

/** What keyed records get: the tools and sample keys no family took. */
export interface RecordsInput {
  toolDoc: ToolDoc;
  analyses: readonly ToolAnalysis[];
  sample: JsonObject | undefined;
  mode: 'sample' | 'generated';
}

/**
 * Replaces the offline keyed-records compiler (the LLM path passes the environment the model
 * wrote); `undefined` keeps the offline one.
 */
export type RecordsCompiler = (input: RecordsInput) => RecordsCompiled | undefined;

/** Runs the behavioural self-check on the composed spec (default: `selfCheck`, drivers only). */
export type SelfChecker = (spec: EnvironmentSpec, probes: ReadonlyMap<string, readonly Probe[]>) => Map<string, SelfCheckVerdict>;

/** A tool without the named parameters (those a family checks itself: keyed records never see them). */
function withoutParams(tool: ToolDoc['tools'][number], names: readonly string[]): ToolDoc['tools'][number] {
  const drop = new Set(names);
  const properties = Object.fromEntries(Object.entries(tool.parameters.properties ?? {}).filter(([k]) => !drop.has(k)));
  const parameters: typeof tool.parameters = { ...tool.parameters, properties };
  if (tool.parameters.required !== undefined) parameters.required = tool.parameters.required.filter((k) => !drop.has(k));
  return { ...tool, parameters };
}

/** A probe whose calls of checked tools pass the checked parameters' values (the seed session's token). */
function withCheckedArgs(probe: Probe, tool: string, checked: ReadonlyMap<string, Record<string, JsonValue>>): Probe {
  const fill = (name: string, args: JsonObject): JsonObject => ({ ...args, ...(checked.get(name) ?? {}) });
  const out: Probe = { ...probe, args: fill(tool, probe.args) };
  if (probe.before !== undefined) out.before = probe.before.map((c) => ({ ...c, args: fill(c.name, c.args) }));
  if (probe.then !== undefined) out.then = probe.then.map((c) => ({ ...c, args: fill(c.name, c.args) }));
  return out;
}

function emptyRecords(toolDoc: ToolDoc, seed: Seed, size: number, options: SynthesizeOptions, mode: 'sample' | 'generated'): RecordsCompiled {
  const analyses: ToolAnalysis[] = [];
  return compileEnvironment(
    { ...toolDoc, tools: [] },
    { analyses, model: { collections: [], values: {}, relations: [] }, notes: [], ...(mode === 'sample' ? { sampleState: {} } : {}) },
    { ...options, seed, size },
  );
}

/**
 * Offline synthesis: the behaviour families claim the tools (and sample keys) they recognise, in
 * `FAMILIES` order; keyed records take the rest. Every tool then gets its behavioural self-check;
 * a tool that fails it becomes a stand-in (the `stand-in` driver: every call an error).
 */
export function synthesizeComposed(
  toolDoc: ToolDoc,
  options: SynthesizeOptions,
  seed: Seed,
  size: number,
  excluded: ReadonlySet<string> = new Set(),
  compileRecords?: RecordsCompiler,
  check: SelfChecker = selfCheck,
): Result<SynthesisResult, Issue<EnvSynthIssueCode>> {
  const allAnalyses = toolDoc.tools.map(analyzeTool);
  let remaining = allAnalyses;
  const rawSample = options.sampleState ? (structuredClone(options.sampleState) as JsonObject) : undefined;
  let sampleLeft: JsonObject | undefined = rawSample;
  const taken = new Set<string>();
  const claimed: Claimed[] = [];
  const notes: string[] = [];
  const checked = new Map<string, Record<string, JsonValue>>();

  for (const family of FAMILIES) {
    if (remaining.length === 0) break;
    if (excluded.has(family.name)) {
      notes.push(`${family.name}: left to keyed records (its state would share a key with them)`);
      continue;
    }
    const input = {
      toolDoc,
      analyses: remaining,
      allAnalyses,
      ...(sampleLeft !== undefined ? { sample: sampleLeft } : {}),
      takenKeys: taken,
      seed,
      size,
    };
    const claim = family.match(input);
    if (claim === undefined || claim.tools.length === 0) continue;
    const plan = family.plan(claim, input);
    const planned = new Set(Object.keys(plan.tools));
    if (planned.size === 0) continue;
    // A family whose state would share a key with an earlier family's gives way.
    const clash = Object.keys(plan.state).find((key) => taken.has(key));
    if (clash !== undefined) {
      notes.push(`${family.name}: not used (state key "${clash}" belongs to an earlier family)`);
      continue;
    }
    for (const key of Object.keys(plan.state)) taken.add(key);
    claimed.push({ family: family.name, claim, plan });
    notes.push(`${family.name}: ${claim.why} (${[...planned].join(', ')})`, ...plan.notes.map((n) => `${family.name}: ${n}`));
    remaining = remaining.filter((a) => !planned.has(a.tool.name));
    // Parameters the family checks itself (a session token): later families and keyed records
    // never see them.
    for (const [tool, params] of Object.entries(plan.checkedParams ?? {})) checked.set(tool, { ...checked.get(tool), ...params });
    if (plan.checkedParams !== undefined) {
      remaining = remaining.map((a) => {
        const params = plan.checkedParams?.[a.tool.name];
        return params === undefined ? a : analyzeTool(withoutParams(a.tool, Object.keys(params)));
      });
    }
    if (sampleLeft !== undefined && claim.sampleKeys.length > 0) {
      const left: JsonObject = { ...sampleLeft };
      for (const k of claim.sampleKeys) delete left[k];
      sampleLeft = left;
    }
  }

  // Keyed records: the tools and sample keys no family took.
  const recordsDoc: ToolDoc = { ...toolDoc, tools: remaining.map((a) => a.tool) };
  const sampleForRecords = sampleLeft !== undefined && Object.keys(sampleLeft).length > 0 ? sampleLeft : undefined;
  const mode: 'sample' | 'generated' = rawSample !== undefined ? 'sample' : 'generated';
  let records: RecordsCompiled;
  const override = compileRecords?.({ toolDoc: recordsDoc, analyses: remaining, sample: sampleForRecords, mode });
  if (override !== undefined) {
    records = override;
  } else if (remaining.length === 0 && sampleForRecords === undefined) {
    records = emptyRecords(toolDoc, seed, size, options, mode);
  } else if (sampleForRecords !== undefined) {
    const normalized = analyzeSampleState(sampleForRecords);
    records = compileEnvironment(
      recordsDoc,
      { analyses: remaining, model: normalized.model, sampleState: normalized.state, notes: normalized.notes },
      { ...options, seed, size },
    );
  } else {
    records = compileEnvironment(recordsDoc, { analyses: remaining, model: inferEntities(remaining), notes: [] }, { ...options, seed, size });
  }

  // Writes keyed records could not place get a store of their own (the requests family).
  const unplaced = new Set(records.spec.tools.filter((t) => t.pattern === 'unclassified').map((t) => t.name));
  if (unplaced.size > 0 && !excluded.has(requestsFamily.name)) {
    const keys = new Set([...taken, ...Object.keys(records.spec.seedState)]);
    const input = { toolDoc, analyses: remaining.filter((a) => unplaced.has(a.tool.name)), allAnalyses, takenKeys: keys, seed, size };
    const claim = requestsFamily.match(input);
    if (claim !== undefined) {
      const plan = requestsFamily.plan(claim, input);
      if (Object.keys(plan.tools).length > 0) {
        claimed.push({ family: requestsFamily.name, claim, plan });
        notes.push(`${requestsFamily.name}: ${claim.why} (${Object.keys(plan.tools).join(', ')})`);
      }
    }
  }

  // Merge the families' state into the records' state.
  const seedState: JsonObject = { ...records.spec.seedState };
  const schema = records.spec.stateSchema;
  const properties: Record<string, JsonSchemaObject> = { ...((schema.properties ?? {}) as Record<string, JsonSchemaObject>) };
  const required = [...(schema.required ?? [])];
  for (const { family, plan } of claimed) {
    for (const [key, part] of Object.entries(plan.state)) {
      // Keyed records built a collection under the same key: the family gives way to them.
      if (key in seedState) return synthesizeComposed(toolDoc, options, seed, size, new Set([...excluded, family]), compileRecords, check);
      seedState[key] = part.value;
      properties[key] = part.schema;
      required.push(key);
    }
  }

  const familyCollections = claimed.flatMap(({ plan }) => plan.collections ?? []);
  const plannedByTool = new Map<string, { family: string; planned: PlannedTool; stateless: boolean }>();
  for (const { family, plan } of claimed) {
    const stateless = Object.keys(plan.state).length === 0 && plan.preconditions === undefined;
    for (const [name, planned] of Object.entries(plan.tools)) plannedByTool.set(name, { family, planned, stateless });
  }
  const recordsTools = new Map(records.spec.tools.map((t) => [t.name, t]));
  const tools: EnvironmentTool[] = toolDoc.tools.map((t) => {
    const fromFamily = plannedByTool.get(t.name);
    // A tool keyed records saw without its checked parameters takes them again (the document's).
    if (fromFamily === undefined) return { ...(recordsTools.get(t.name) as EnvironmentTool), ...(checked.has(t.name) ? { parameters: t.parameters } : {}) };
    const tool: EnvironmentTool = {
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      outputSchema: t.outputSchema ?? fromFamily.planned.outputSchema,
      implementation: fromFamily.planned.implementation,
      pattern: fromFamily.planned.pattern,
      source: t.source,
    };
    // A family that owns no state (a calculator) has tools that touch none.
    const effects = fromFamily.planned.effects ?? (fromFamily.stateless ? [] : undefined);
    if (effects !== undefined) tool.effects = effects.map((e) => ({ ...e }));
    if (t.title !== undefined) tool.title = t.title;
    if (t.hints !== undefined) tool.hints = t.hints;
    if (t.conditions !== undefined) tool.conditions = t.conditions;
    if (t.extensions !== undefined) tool.extensions = t.extensions;
    return tool;
  });
  // Preconditions a family adds to other families' tools (a session some operations need).
  for (const { plan } of claimed) {
    // What such a tool needs is what the family's tools create without naming it (a session).
    const needed = [...new Set(Object.values(plan.tools).flatMap((t) => (t.effects ?? []).filter((e) => e.action === 'creates' && e.via === undefined && e.path === undefined).map((e) => e.resource)))];
    for (const [name, pre] of Object.entries(plan.preconditions ?? {})) {
      const tool = tools.find((t) => t.name === name);
      if (tool === undefined || tool.implementation.kind !== 'driver') continue;
      tool.implementation = { ...tool.implementation, preconditions: [...(tool.implementation.preconditions ?? []), ...pre] };
      const missing = needed.filter((r) => !(tool.effects ?? []).some((e) => e.action === 'requires' && e.resource === r));
      if (missing.length > 0) tool.effects = [...(tool.effects ?? []), ...missing.map((resource) => ({ action: 'requires' as const, resource }))];
    }
  }

  const spec: EnvironmentSpec = {
    ...records.spec,
    id: options.id ?? defaultSpecId(toolDoc, seed, size, mode),
    name: options.name ?? toolDoc.info?.title ?? 'Synthesized environment',
    stateSchema: { ...schema, properties, required },
    seedState,
    tools,
    // Without a list, every object of records is a collection (an empty store included).
    ...(familyCollections.length > 0 && records.spec.collections !== undefined ? { collections: [...records.spec.collections, ...familyCollections] } : {}),
    idSeed: createRng(seed, 'env-synth', 'id-seed').uint32(),
    metadata: { synthesizer: '@autoforge/env-synth', mode, seed, size: mode === 'generated' ? size : null },
  };
  const description = toolDoc.info?.description;
  if (description !== undefined) spec.description = description;
  else delete spec.description;

  // The behavioural self-check; failing tools become stand-ins.
  const probes = new Map<string, readonly Probe[]>();
  for (const [name, p] of records.probes ?? []) probes.set(name, p);
  for (const [name, { planned }] of plannedByTool) probes.set(name, planned.probes);
  if (checked.size > 0) for (const [name, list] of probes) probes.set(name, list.map((p) => withCheckedArgs(p, name, checked)));
  // A guarded tool's probes run after the calls that satisfy its guards (log in first).
  for (const { plan } of claimed) {
    const setup = plan.setup ?? [];
    if (setup.length === 0) continue;
    const guarded = new Set(Object.keys(plan.preconditions ?? {}));
    // So do probes of other tools that call a guarded one before or after (fund first, then read the history).
    for (const [name, list] of probes) {
      const needs = (p: Probe): boolean => guarded.has(name) || [...(p.before ?? []), ...(p.then ?? [])].some((c) => guarded.has(c.name));
      if (!list.some(needs)) continue;
      probes.set(name, list.map((p) => (needs(p) ? { ...p, before: [...setup, ...(p.before ?? [])] } : p)));
    }
  }
  const verdicts = check(spec, probes);
  const coverage: ToolCoverage[] = [];
  for (const tool of spec.tools) {
    let verdict = verdicts.get(tool.name) ?? { works: false, reason: 'not checked' };
    const noProbe = records.probeReasons?.get(tool.name);
    if (!verdict.works && noProbe !== undefined && !plannedByTool.has(tool.name)) verdict = { works: false, reason: `no behavioural check: ${noProbe}` };
    const family = plannedByTool.get(tool.name)?.family ?? 'records';
    const entry: ToolCoverage = { tool: tool.name, family, pattern: tool.pattern ?? 'unknown', works: verdict.works };
    if (verdict.reason !== undefined) entry.reason = verdict.reason;
    coverage.push(entry);
    // Sandboxed tools are checked by their own path (the LLM gate); the others that fail are stand-ins.
    if (!verdict.works && verdict.reason !== 'sandboxed') {
      tool.implementation = { kind: 'driver', driver: 'stand-in', version: 1, params: { reason: verdict.reason ?? 'it did not pass the self-check' } };
      tool.pattern = 'stand-in';
    }
  }

  const recordsEntries = new Map(records.report.tools.map((t) => [t.tool, t]));
  const reportTools: SynthesisReport['tools'] = toolDoc.tools.map((t) => {
    const fromFamily = plannedByTool.get(t.name);
    if (fromFamily !== undefined) return { tool: t.name, pattern: fromFamily.planned.pattern as `${string}:${string}` };
    return recordsEntries.get(t.name) ?? { tool: t.name, pattern: 'unclassified' };
  });
  const report: SynthesisReport = {
    ...records.report,
    tools: reportTools,
    mode,
    coverage,
    standIns: coverage.filter((c) => !c.works && c.reason !== 'sandboxed').map((c) => c.tool),
    families: claimed.map(({ family, claim, plan }) => ({
      family,
      why: claim.why,
      tools: Object.keys(plan.tools),
      stateKeys: Object.keys(plan.state),
      sampleKeys: [...claim.sampleKeys],
    })),
    notes: [...notes, ...records.report.notes],
  };
  PROBES.set(spec, probes);
  return ok({ spec, report });
}

const PROBES = new WeakMap<EnvironmentSpec, ReadonlyMap<string, readonly Probe[]>>();

/** The self-check probes of a spec `synthesizeComposed` returned (for the LLM path's gate). */
export function probesOf(spec: EnvironmentSpec): ReadonlyMap<string, readonly Probe[]> {
  return PROBES.get(spec) ?? new Map();
}
