import type { Issue, JsonObject, JsonSchemaObject, JsonValue, Seed, ToolDoc } from '@autoforge/core';
import { canonicalJson, createRng, isJsonObject, sha256Hex } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import type { ToolAnalysis } from './analyze-tool.js';
import { Classifier } from './classify.js';
import { implementationFor } from './emit-tool.js';
import type { EnvSynthIssueCode } from './error.js';
import { EnvSynthError } from './error.js';
import { generateState } from './generate-state.js';
import type { IdFormat } from './id-format.js';
import type { Probe } from './families/family.js';
import { declaredOutputSchema, outputSchemaFor } from './output-schema.js';
import type { CreatePlan, OperationPattern, ToolPlan } from './plan.js';
import { recordsProbes } from './records-probes.js';
import { SchemaEditor } from './schema-edits.js';
import { stripAnnotations } from './schema-utils.js';
import { inferSchemaFromValues } from './infer-data-schema.js';
import type { CollectionModel, StateModel } from './state-model.js';
import { singularize } from './naming.js';
import type { ReportedCollection, SynthesisReport, SynthesisResult, SynthesizeOptions } from './synthesis-types.js';

/** Every operation pattern, in report order. */
export const PATTERNS: readonly OperationPattern[] = [
  'lookup',
  'find',
  'list',
  'create',
  'update',
  'transition',
  'delete',
  'compute',
  'noop',
  'switch',
  'batch',
  'unclassified',
];

/** An error-severity issue. */
export function issue(code: EnvSynthIssueCode, message: string, pointer?: string): Issue<EnvSynthIssueCode> {
  return pointer === undefined ? { code, message, severity: 'error' } : { code, message, pointer, severity: 'error' };
}

/** The options both synthesis paths share, checked: throws `E_OPTIONS` for programmer errors. */
export function checkCommonOptions(options: unknown): { seed: Seed; size: number } {
  if (typeof options !== 'object' || options === null) throw new EnvSynthError('E_OPTIONS', 'env-synth: options are required');
  const { seed, size: rawSize } = options as { seed?: unknown; size?: unknown };
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isFinite(seed)))) {
    throw new EnvSynthError('E_OPTIONS', `env-synth: options.seed must be a finite number or a string, got ${String(seed)}`);
  }
  const size = rawSize ?? 20;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > 100_000) {
    throw new EnvSynthError('E_OPTIONS', `env-synth: options.size must be an integer from 1 to 100000, got ${String(size)}`);
  }
  return { seed, size };
}

/** Issues for inputs neither path can use, or undefined. */
export function inputIssues(toolDoc: ToolDoc, sampleState: unknown): Issue<EnvSynthIssueCode> | undefined {
  if (!toolDoc || !Array.isArray(toolDoc.tools)) return issue('E_TOOLDOC', 'env-synth: the ToolDoc has no tools array', '/tools');
  if (toolDoc.tools.length === 0) return issue('E_NO_TOOLS', 'env-synth: the ToolDoc has no tools', '/tools');
  if (sampleState !== undefined && !isJsonObject(sampleState as JsonValue)) {
    return issue('E_SAMPLE_STATE', 'env-synth: sampleState must be a JSON object of collections and values');
  }
  return undefined;
}

/** An id format written as a pattern (`#W<digit×7>`). */
export function describeFormat(f: IdFormat | undefined): string | undefined {
  if (!f) return undefined;
  return f.segments
    .map((s) =>
      'lit' in s
        ? s.lit
        : 'word' in s
          ? `<${s.word}-name>`
          : 'oneOf' in s
            ? `<${s.oneOf.join('|')}>`
            : `<${s.chars}×${s.min === s.max ? s.min : `${s.min}-${s.max}`}>`,
    )
    .join('');
}

function fieldList(schema: JsonSchemaObject, prefix: string): string[] {
  return Object.keys(schema.properties ?? {}).map((k) => `${prefix}.${k}`);
}

/**
 * Records a create adds need only the fields the tools describe: when outputs of tools about the
 * entity list its fields (`show_booking` → id, room, nights, status), a field that
 * the sample's records had but neither those outputs nor the create name (`guest_note`) stays
 * optional, instead of being filled with an empty value.
 */
function narrowRequired(c: CollectionModel, create: CreatePlan, analyses: readonly ToolAnalysis[]): void {
  const required = c.recordSchema.required;
  if (required === undefined || required.length === 0) return;
  const described = new Set<string>();
  for (const a of analyses) {
    if (!a.nounWords.some((w) => singularize(w) === c.entity)) continue;
    const o = a.tool.outputSchema;
    const obj = typeof o === 'object' ? (o.type === 'array' && typeof o.items === 'object' && !Array.isArray(o.items) ? o.items : o) : undefined;
    for (const k of Object.keys(obj?.properties ?? {})) described.add(k);
  }
  if (described.size < 2) return;
  const keep = required.filter((f) => described.has(f) || f === create.keyField || create.assign.some((x) => x.path[0] === f) || create.constants.some((x) => x.path[0] === f));
  if (keep.length < required.length) c.recordSchema.required = keep;
}

/** The schema of the whole state: one property per top-level key of `state`. */
export function stateSchemaOf(model: StateModel, state: JsonObject): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const key of Object.keys(state)) {
    const c = model.collections.find((x) => x.name === key);
    if (c?.storedAsValue && isJsonObject(state[key])) {
      // Its plain entries keep their own types; every other entry is a record.
      const plain = Object.entries(state[key]).filter(([, v]) => !isJsonObject(v));
      const typed = Object.fromEntries(plain.map(([k, v]) => [k, stripAnnotations(inferSchemaFromValues([v as JsonValue], { name: k })) as JsonSchemaObject]));
      properties[key] = { type: 'object', properties: typed, additionalProperties: stripAnnotations(c.recordSchema) };
    } else if (c) properties[key] = { type: 'object', additionalProperties: stripAnnotations(c.recordSchema) };
    else properties[key] = stripAnnotations(model.values[key] ?? {}) as JsonSchemaObject;
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    required: Object.keys(state),
    additionalProperties: false,
  };
}

function collectionOf(plan: ToolPlan): string | undefined {
  return 'collection' in plan && plan.collection ? plan.collection : undefined;
}

/** The default spec id: `synth-` + 12 hex digits of a digest of the inputs (and `extra`, when given). */
export function defaultSpecId(toolDoc: ToolDoc, seed: Seed, size: number, mode: string, extra?: JsonValue): string {
  const input: Record<string, JsonValue> = {
    tools: toolDoc.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) as unknown as JsonValue,
    seed,
    size,
    mode,
  };
  if (extra !== undefined) input.extra = extra;
  return `synth-${sha256Hex(canonicalJson(input)).slice(0, 12)}`;
}

/** What the offline compiler starts from: a state model and, with data, the state itself. */
export interface CompileInput {
  analyses: readonly ToolAnalysis[];
  /** The model tools are classified against (not changed). */
  model: StateModel;
  /** The normalized sample state, used as the seed state; default: one is generated. */
  sampleState?: JsonObject;
  /** Remarks so far (sample conversions). */
  notes: readonly string[];
}

/** The compiled environment, with what the LLM path needs to build on it. */
export interface Compiled extends SynthesisResult {
  /** One plan per tool, in document order. */
  plans: ToolPlan[];
  /** The state model after the tools' schema edits (the state schema's source). */
  finalModel: StateModel;
  /** The behavioural self-check of each tool that has one (built from the seed state). */
  probes: Map<string, Probe[]>;
  /** Why a tool has no probes (it becomes a stand-in). */
  probeReasons: Map<string, string>;
}

/**
 * The offline compiler: classifies the tools against `model`, emits each template, adds the
 * fields the tools write to the record schemas, takes the sample as the seed state or generates
 * one, and assembles the spec and the report.
 */
export function compileEnvironment(
  toolDoc: ToolDoc,
  input: CompileInput,
  options: Omit<SynthesizeOptions, 'sampleState' | 'model'> & { size: number },
): Compiled {
  const { seed, size } = options;
  const { analyses, model } = input;
  const notes = [...input.notes];
  const before = new Map(model.collections.map((c) => [c.name, fieldList(c.recordSchema, c.name)]));
  // Tools are classified against the schemas as read; the fields they add go to a copy, so that
  // the order of tools in the document does not change what each compiles to.
  const finalModel: StateModel = structuredClone(model);
  const editor = new SchemaEditor(finalModel);
  const classifier = new Classifier(model, editor, analyses);
  const classified = analyses.map((a) => ({ a, ...classifier.classify(a) }));
  notes.push(...classifier.notes);
  const creates = (plan: ToolPlan): CreatePlan[] =>
    plan.pattern === 'create' ? [plan] : plan.pattern === 'batch' ? creates(plan.each) : plan.pattern === 'switch' ? Object.values(plan.cases).flatMap(creates) : [];
  for (const { plan } of classified) {
    for (const create of creates(plan)) {
      const c = finalModel.collections.find((x) => x.name === create.collection);
      if (c) {
        narrowRequired(c, create, analyses);
        create.schema = stripAnnotations(c.recordSchema) as JsonSchemaObject;
      }
    }
  }
  const addedFields: string[] = [];
  for (const c of finalModel.collections) {
    const old = new Set(before.get(c.name) ?? []);
    for (const f of fieldList(c.recordSchema, c.name)) if (!old.has(f)) addedFields.push(f);
  }

  const seedState = input.sampleState ?? generateState(finalModel, { seed, size, tools: toolDoc.tools });
  const stateSchema = stateSchemaOf(finalModel, seedState);

  const tools: EnvironmentTool[] = classified.map(({ a, plan }) => {
    const t = a.tool;
    const tool: EnvironmentTool = {
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      outputSchema: t.outputSchema !== undefined ? declaredOutputSchema(t.outputSchema, plan, finalModel) : outputSchemaFor(plan, finalModel),
      implementation: implementationFor(plan),
      pattern: plan.pattern,
      source: t.source,
    };
    if (t.title !== undefined) tool.title = t.title;
    if (t.hints !== undefined) tool.hints = t.hints;
    if (t.conditions !== undefined) tool.conditions = t.conditions;
    if (t.extensions !== undefined) tool.extensions = t.extensions;
    return tool;
  });

  const mode = input.sampleState ? 'sample' : 'generated';
  const spec: EnvironmentSpec = {
    specVersion: 1,
    id: options.id ?? defaultSpecId(toolDoc, seed, size, mode),
    name: options.name ?? toolDoc.info?.title ?? 'Synthesized environment',
    stateSchema,
    seedState,
    collections: model.collections.filter((c) => !c.storedAsValue).map((c) => c.name).filter((n) => n in seedState),
    tools,
    clock: options.clock ?? { start: '2025-01-01T00:00:00.000Z', tickMs: 0 },
    idSeed: createRng(seed, 'env-synth', 'id-seed').uint32(),
    metadata: { synthesizer: '@autoforge/env-synth', mode, seed, size: mode === 'generated' ? size : null },
  };
  const description = toolDoc.info?.description;
  if (description !== undefined) spec.description = description;
  if (options.policy !== undefined) spec.policy = options.policy;

  const patterns = Object.fromEntries(PATTERNS.map((p) => [p, [] as string[]])) as Record<OperationPattern, string[]>;
  const reportTools: SynthesisReport['tools'] = [];
  const unclassified: SynthesisReport['unclassified'] = [];
  for (const { a, plan, reason } of classified) {
    patterns[plan.pattern].push(a.tool.name);
    const entry: SynthesisReport['tools'][number] = { tool: a.tool.name, pattern: plan.pattern };
    const col = collectionOf(plan);
    if (col) entry.collection = col;
    reportTools.push(entry);
    if (plan.pattern === 'unclassified') unclassified.push({ tool: a.tool.name, reason: reason ?? 'no pattern fits' });
  }
  const report: SynthesisReport = {
    mode,
    collections: model.collections.map((c) => {
      const records = seedState[c.name];
      const rc: ReportedCollection = {
        name: c.name,
        entity: c.entity,
        records: isJsonObject(records) ? Object.keys(records).length : 0,
        origin: c.origin,
      };
      if (c.keyField) rc.keyField = c.keyField;
      const f = describeFormat(c.idFormat);
      if (f) rc.idFormat = f;
      return rc;
    }),
    values: Object.keys(model.values),
    patterns,
    tools: reportTools,
    unclassified,
    relations: model.relations,
    addedFields,
    notes,
  };
  const plans = classified.map((c) => c.plan);
  const checks = recordsProbes({ tools, plans, seedState, model: finalModel, seed });
  return { spec, report, plans, finalModel, probes: checks.probes, probeReasons: checks.why };
}
