import type { Issue, JsonSchema, JsonSchemaObject, Message, ToolSpec } from '@autoforge/core';
import type { EnvSynthIssueCode } from './error.js';
import { canonicalJson, escapePointerToken } from '@autoforge/core';
import { validateEnvironmentSpec } from '@autoforge/env-runtime';
import type { ChatModel, CompleteJsonOptions } from '@autoforge/llm';
import { completeJson, jsonRepairPrompt } from '@autoforge/llm';
import { compileError } from './ajv.js';
import type { Compiled } from './compile-environment.js';
import { inferIdFormatFromExamples } from './id-format.js';
import { singularize } from './naming.js';
import { STATE_MODEL_SYSTEM_PROMPT, stateModelPrompt } from './prompts/state-model.js';
import { inlineRefs } from './schema-utils.js';
import type { CollectionModel, NestedCollection, Relation, StateModel } from './state-model.js';

/** What the model answers when it proposes the state: collections, plain values, relations. */
export interface StateProposal {
  collections: {
    name: string;
    entity?: string;
    keyField?: string;
    idExamples?: string[];
    recordSchema: JsonSchemaObject;
    nested?: NestedCollection[];
  }[];
  values?: Record<string, JsonSchemaObject>;
  relations?: { from: string; path: string; to: string; many?: boolean }[];
}

const NAME: JsonSchemaObject = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };

/** The JSON Schema of a {@link StateProposal} (what `completeJson` checks the answer against). */
export const STATE_PROPOSAL_SCHEMA: JsonSchemaObject = {
  type: 'object',
  required: ['collections'],
  additionalProperties: false,
  properties: {
    collections: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'recordSchema'],
        additionalProperties: false,
        properties: {
          name: NAME,
          entity: { type: 'string', minLength: 1 },
          keyField: { type: 'string', minLength: 1 },
          idExamples: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 5 },
          recordSchema: { type: 'object' },
          nested: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'kind', 'keyField', 'entity'],
              additionalProperties: false,
              properties: {
                field: { type: 'string' },
                kind: { enum: ['map', 'list'] },
                keyField: { type: 'string' },
                entity: { type: 'string' },
              },
            },
          },
        },
      },
    },
    values: { type: 'object', propertyNames: NAME, additionalProperties: { type: 'object' } },
    relations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['from', 'path', 'to'],
        additionalProperties: false,
        properties: { from: { type: 'string' }, path: { type: 'string', minLength: 1 }, to: { type: 'string' }, many: { type: 'boolean' } },
      },
    },
  },
};

function problem(pointer: string, message: string): Issue<EnvSynthIssueCode> {
  return { code: 'E_PROPOSAL', message: `${pointer}: ${message}`, pointer, severity: 'error' };
}

/** A record schema as the state embeds it: local `$ref`s inlined, no `$schema`/`$id`. */
function cleanRecordSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _s, $id: _i, ...rest } = inlineRefs(schema, schema) as JsonSchemaObject;
  return rest;
}

/**
 * Reads a proposal into a `StateModel` (collections with `origin: 'llm'`, id formats from the
 * example ids), or the problems found: record schemas that do not compile or are not object
 * schemas, duplicate names, key fields and nested fields the schema lacks, relations naming
 * unknown collections or fields.
 */
export function stateModelFromProposal(proposal: StateProposal): { model: StateModel } | { issues: Issue<EnvSynthIssueCode>[] } {
  const issues: Issue<EnvSynthIssueCode>[] = [];
  const collections: CollectionModel[] = [];
  const seen = new Set<string>();
  proposal.collections.forEach((c, i) => {
    const at = `/collections/${i}`;
    if (seen.has(c.name)) issues.push(problem(`${at}/name`, `the collection name "${c.name}" is used twice`));
    seen.add(c.name);
    const schema = cleanRecordSchema(c.recordSchema);
    const broken = compileError(schema);
    if (broken !== undefined) {
      issues.push(problem(`${at}/recordSchema`, `the record schema does not compile: ${broken}`));
      return;
    }
    if (!(schema.type === 'object' || (schema.type === undefined && schema.properties))) {
      issues.push(problem(`${at}/recordSchema`, 'the record schema must be an object schema ("type": "object" with "properties")'));
      return;
    }
    const props = schema.properties ?? {};
    if (c.keyField !== undefined && !(c.keyField in props)) {
      issues.push(problem(`${at}/keyField`, `"${c.keyField}" is not a property of the record schema`));
    }
    (c.nested ?? []).forEach((n, j) => {
      if (!(n.field in props)) issues.push(problem(`${at}/nested/${j}/field`, `"${n.field}" is not a property of the record schema`));
    });
    const entity = c.entity ?? singularize(c.name);
    const model: CollectionModel = {
      name: c.name,
      entity,
      idParam: c.keyField && c.keyField !== 'id' ? c.keyField : `${entity}_id`,
      recordSchema: schema,
      nested: c.nested ?? [],
      origin: 'llm',
    };
    if (c.keyField !== undefined) model.keyField = c.keyField;
    const format = inferIdFormatFromExamples(c.idExamples ?? []);
    if (format) model.idFormat = format;
    collections.push(model);
  });
  const values: Record<string, JsonSchemaObject> = {};
  for (const [key, schema] of Object.entries(proposal.values ?? {})) {
    const at = `/values/${escapePointerToken(key)}`;
    if (seen.has(key)) issues.push(problem(at, `"${key}" is also a collection`));
    const broken = compileError(schema);
    if (broken !== undefined) issues.push(problem(at, `the schema does not compile: ${broken}`));
    else values[key] = cleanRecordSchema(schema);
  }
  const relations: Relation[] = [];
  (proposal.relations ?? []).forEach((r, i) => {
    const at = `/relations/${i}`;
    const from = collections.find((c) => c.name === r.from);
    if (!seen.has(r.from)) issues.push(problem(`${at}/from`, `no collection is named "${r.from}"`));
    if (!seen.has(r.to)) issues.push(problem(`${at}/to`, `no collection is named "${r.to}"`));
    const first = r.path.split(/[.[]/)[0] ?? '';
    if (from && !(first in (from.recordSchema.properties ?? {}))) {
      issues.push(problem(`${at}/path`, `"${first}" is not a property of the records of "${r.from}"`));
    }
    relations.push({ from: r.from, path: r.path, to: r.to, many: r.many ?? r.path.endsWith('[]') });
  });
  if (issues.length > 0) return { issues };
  return { model: { collections, values, relations } };
}

/** Issues of a compiled spec, reworded for the model (it never sees the spec itself). */
function specProblems(compiled: Compiled): Issue<EnvSynthIssueCode>[] {
  const checked = validateEnvironmentSpec(compiled.spec);
  if (checked.ok) return [];
  return checked.issues.slice(0, 8).map((i) => {
    const text = i.message.replace(/^env-runtime: /, '');
    const message = text.startsWith('/seedState')
      ? `a state generated from the proposal does not match it: ${text.replace(/^\/seedState/, '')}`
      : `the proposal does not make a valid environment: ${text}`;
    return { code: 'E_PROPOSAL', message, severity: 'error' };
  });
}

/** The context of {@link proposeStateModel}. */
export interface ProposeContext {
  model: ChatModel;
  maxRepairs: number;
  request: CompleteJsonOptions;
  /** Compiles the environment on a proposed model (the offline compiler). */
  compile: (model: StateModel) => Compiled;
}

/** The outcome of {@link proposeStateModel}: a compiled environment, or why there is none. */
export interface ProposalOutcome {
  compiled?: Compiled;
  /** Repair rounds for problems beyond the JSON shape (those are `completeJson`'s). */
  repairs: number;
  reason?: string;
}

function toolSummary(tools: readonly ToolSpec[]): string {
  return canonicalJson(
    tools.map((t) => {
      const out: Record<string, unknown> = { name: t.name, description: t.description, parameters: t.parameters };
      if (t.outputSchema !== undefined) out.outputSchema = t.outputSchema;
      if (t.hints !== undefined) out.hints = t.hints;
      if (t.conditions !== undefined) out.conditions = t.conditions;
      return out;
    }) as never,
  );
}

/**
 * Asks the model for the state (collections, record schemas, id formats, relations), checks it
 * (`completeJson` for the shape; then the schemas compile, a generated seed state is valid, the
 * compiled spec validates) and sends every problem back with `jsonRepairPrompt`, at most
 * `maxRepairs` times.
 */
export async function proposeStateModel(tools: readonly ToolSpec[], ctx: ProposeContext): Promise<ProposalOutcome> {
  const proposalSchema = canonicalJson(STATE_PROPOSAL_SCHEMA as never);
  const conversation: Message[] = [
    { role: 'system', content: STATE_MODEL_SYSTEM_PROMPT },
    { role: 'user', content: stateModelPrompt(toolSummary(tools), proposalSchema) },
  ];
  for (let repairs = 0; ; repairs++) {
    const reply = await completeJson<StateProposal>(ctx.model, conversation, STATE_PROPOSAL_SCHEMA, {
      ...ctx.request,
      maxRepairs: ctx.maxRepairs,
    });
    if (!reply.ok) {
      return { repairs, reason: `the proposal is not valid JSON of the proposal schema: ${reply.issues.map((i) => i.message).join('; ')}` };
    }
    const read = stateModelFromProposal(reply.value);
    let issues: Issue<EnvSynthIssueCode>[];
    let compiled: Compiled | undefined;
    if ('issues' in read) issues = read.issues;
    else {
      try {
        compiled = ctx.compile(read.model);
        issues = specProblems(compiled);
      } catch (error) {
        issues = [{ code: 'E_PROPOSAL', message: `the proposal cannot be compiled: ${(error as Error).message}`, severity: 'error' }];
      }
    }
    if (issues.length === 0 && compiled) return { compiled, repairs };
    if (repairs >= ctx.maxRepairs) {
      return { repairs, reason: `the proposal still has problems after ${repairs} repairs: ${issues.map((i) => i.message).join('; ')}` };
    }
    conversation.push(
      { role: 'assistant', content: JSON.stringify(reply.value) },
      { role: 'user', content: jsonRepairPrompt(issues, STATE_PROPOSAL_SCHEMA as JsonSchema) },
    );
  }
}
