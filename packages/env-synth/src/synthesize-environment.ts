import type { Issue, JsonObject, JsonSchemaObject, JsonValue, Result, Seed, ToolDoc } from '@autoforge/core';
import { canonicalJson, createRng, err, isJsonObject, ok, sha256Hex } from '@autoforge/core';
import { analyzeTool } from './analyze-tool.js';
import { Classifier } from './classify.js';
import { emitToolSource } from './emit-tool.js';
import { EnvSynthError } from './error.js';
import { generateState } from './generate-state.js';
import type { IdFormat } from './id-format.js';
import { inferEntities } from './infer-entities.js';
import { outputSchemaFor } from './output-schema.js';
import type { OperationPattern, ToolPlan } from './plan.js';
import { SchemaEditor } from './schema-edits.js';
import { stripAnnotations } from './schema-utils.js';
import type { EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import type { Relation, StateModel } from './state-model.js';
import { analyzeSampleState } from './state-model.js';

/** Options of {@link synthesizeEnvironment}. */
export interface SynthesizeOptions {
  /** The seed of every random choice (generated state, the environment's id seed). Required. */
  seed: Seed;
  /**
   * A sample state (a benchmark's database): its collections become the state schema and the
   * seed state. Top-level objects of records are collections; arrays of records with a unique
   * id field are converted to collections keyed by it. Default: none, a state is generated.
   */
  sampleState?: JsonObject;
  /** Records per collection of a generated state (ignored with `sampleState`). Default 20. */
  size?: number;
  /** The spec's `id`. Default `synth-` + 12 hex digits of a digest of the inputs. */
  id?: string;
  /** The spec's `name`. Default the ToolDoc's `info.title`, else `Synthesized environment`. */
  name?: string;
  /** The spec's clock. Default `{ start: '2025-01-01T00:00:00.000Z', tickMs: 0 }`. */
  clock?: { start: string; tickMs?: number };
  /** The agent policy (markdown) to carry in the spec. Default none. */
  policy?: string;
}

/** One collection of the synthesized state, as reported. */
export interface ReportedCollection {
  name: string;
  /** The singular noun tools use for it. */
  entity: string;
  records: number;
  /** The record field holding the id, when records carry it. */
  keyField?: string;
  /** `sample`: read from the sample state; `tools`: inferred from the tool documentation. */
  origin: 'sample' | 'tools';
  /** The id format, written as a pattern (`#W<digit×7>`). */
  idFormat?: string;
}

/** What the synthesizer did, for people and for tests. */
export interface SynthesisReport {
  /** `sample`: the state came from `sampleState`; `generated`: it was generated. */
  mode: 'sample' | 'generated';
  collections: ReportedCollection[];
  /** Top-level state values that are not collections. */
  values: string[];
  /** Tool names per operation pattern (every pattern listed, possibly empty). */
  patterns: Record<OperationPattern, string[]>;
  /** Every tool with its pattern and the collection it works on. */
  tools: { tool: string; pattern: OperationPattern; collection?: string }[];
  /** Tools no pattern fits, with the reason; they got a read-only implementation. */
  unclassified: { tool: string; reason: string }[];
  /** References between collections. */
  relations: Relation[];
  /** Fields added to record schemas because tools write them (`orders.cancel_reason`). */
  addedFields: string[];
  /** Conversions and other remarks. */
  notes: string[];
}

/** The synthesized environment and the report. */
export interface SynthesisResult {
  spec: EnvironmentSpec;
  report: SynthesisReport;
}

const PATTERNS: OperationPattern[] = ['lookup', 'find', 'list', 'create', 'update', 'transition', 'delete', 'compute', 'noop', 'unclassified'];

function issue(code: string, message: string, pointer?: string): Issue {
  return pointer === undefined ? { code, message, severity: 'error' } : { code, message, pointer, severity: 'error' };
}

function describeFormat(f: IdFormat | undefined): string | undefined {
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

function stateSchemaOf(model: StateModel, state: JsonObject): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const key of Object.keys(state)) {
    const c = model.collections.find((x) => x.name === key);
    if (c) properties[key] = { type: 'object', additionalProperties: stripAnnotations(c.recordSchema) };
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

/**
 * Compiles a ToolDoc (and optionally a sample state) into an executable `EnvironmentSpec`
 * without an LLM: it infers collections, fields, relations and id formats, classifies each tool
 * into an operation pattern, emits its sandboxed JavaScript from the pattern's template, fills
 * in every missing output schema, and takes the sample as the seed state or generates one.
 *
 * Returns issues for inputs it cannot use (no tools, a sample state that is not an object).
 * Throws `EnvSynthError` (`E_OPTIONS`) for invalid options. Same inputs and seed give a
 * byte-identical spec (compare with `canonicalJson`).
 */
export function synthesizeEnvironment(toolDoc: ToolDoc, options: SynthesizeOptions): Result<SynthesisResult> {
  if (typeof options !== 'object' || options === null) throw new EnvSynthError('E_OPTIONS', 'env-synth: options are required');
  const { seed } = options;
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isFinite(seed)))) {
    throw new EnvSynthError('E_OPTIONS', `env-synth: options.seed must be a finite number or a string, got ${String(seed)}`);
  }
  const size = options.size ?? 20;
  if (!Number.isInteger(size) || size < 1 || size > 100_000) {
    throw new EnvSynthError('E_OPTIONS', `env-synth: options.size must be an integer from 1 to 100000, got ${String(size)}`);
  }
  if (!toolDoc || !Array.isArray(toolDoc.tools)) return err(issue('E_TOOLDOC', 'env-synth: the ToolDoc has no tools array', '/tools'));
  if (toolDoc.tools.length === 0) return err(issue('E_NO_TOOLS', 'env-synth: the ToolDoc has no tools', '/tools'));
  if (options.sampleState !== undefined && !isJsonObject(options.sampleState)) {
    return err(issue('E_SAMPLE_STATE', 'env-synth: sampleState must be a JSON object of collections and values'));
  }

  const analyses = toolDoc.tools.map(analyzeTool);
  let model: StateModel;
  let sampleStateCopy: JsonObject | undefined;
  const notes: string[] = [];
  if (options.sampleState) {
    const normalized = analyzeSampleState(structuredClone(options.sampleState));
    model = normalized.model;
    sampleStateCopy = normalized.state;
    notes.push(...normalized.notes);
  } else {
    model = inferEntities(analyses);
  }
  const before = new Map(model.collections.map((c) => [c.name, fieldList(c.recordSchema, c.name)]));
  // Tools are classified against the schemas as read; the fields they add go to a copy, so that
  // the order of tools in the document does not change what each compiles to.
  const finalModel: StateModel = structuredClone(model);
  const editor = new SchemaEditor(finalModel);
  const classifier = new Classifier(model, editor);
  const classified = analyses.map((a) => ({ a, ...classifier.classify(a) }));
  notes.push(...classifier.notes);
  for (const { plan } of classified) {
    if (plan.pattern === 'create') {
      const c = finalModel.collections.find((x) => x.name === plan.collection);
      if (c) plan.schema = stripAnnotations(c.recordSchema) as JsonSchemaObject;
    }
  }
  const addedFields: string[] = [];
  for (const c of finalModel.collections) {
    const old = new Set(before.get(c.name) ?? []);
    for (const f of fieldList(c.recordSchema, c.name)) if (!old.has(f)) addedFields.push(f);
  }

  const seedState = sampleStateCopy ?? generateState(finalModel, { seed, size });
  const stateSchema = stateSchemaOf(finalModel, seedState);

  const tools: EnvironmentTool[] = classified.map(({ a, plan }) => {
    const t = a.tool;
    const tool: EnvironmentTool = {
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      outputSchema: t.outputSchema ?? outputSchemaFor(plan, finalModel),
      implementation: { kind: 'js', source: emitToolSource(t.name, plan) },
      pattern: plan.pattern,
      source: t.source,
    };
    if (t.title !== undefined) tool.title = t.title;
    if (t.hints !== undefined) tool.hints = t.hints;
    if (t.conditions !== undefined) tool.conditions = t.conditions;
    if (t.extensions !== undefined) tool.extensions = t.extensions;
    return tool;
  });

  const mode = options.sampleState ? 'sample' : 'generated';
  const inputDigest = sha256Hex(
    canonicalJson({
      tools: toolDoc.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) as unknown as JsonValue,
      seed,
      size,
      mode,
    }),
  ).slice(0, 12);
  const spec: EnvironmentSpec = {
    specVersion: 1,
    id: options.id ?? `synth-${inputDigest}`,
    name: options.name ?? toolDoc.info?.title ?? 'Synthesized environment',
    stateSchema,
    seedState,
    collections: model.collections.map((c) => c.name).filter((n) => n in seedState),
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
  return ok({ spec, report });
}
