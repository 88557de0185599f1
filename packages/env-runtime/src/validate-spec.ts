import type { Issue, JsonSchemaObject, Result } from '@autoforge/core';
import { err, isJsonObject, ok } from '@autoforge/core';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajvIssues, compileCached, metaSchemaErrors } from './ajv.js';
import type { EnvironmentSpec } from './spec.js';
import { inferCollections } from './state.js';
import { driverProblem } from './drivers/registry.js';
import { loneSurrogateIn } from './frozen-json.js';
import { specValidator as precompiledSpecValidator } from './spec-validator.generated.js';

const bool = { type: 'boolean' } as const;
const str = { type: 'string' } as const;

/** The JSON Schema (draft 2020-12) of `EnvironmentSpec` version 1. */
export const ENVIRONMENT_SPEC_SCHEMA: JsonSchemaObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://autoforge.dev/schemas/environment-spec-1.json',
  title: 'AutoForge EnvironmentSpec, version 1',
  type: 'object',
  required: ['specVersion', 'id', 'name', 'stateSchema', 'seedState', 'tools'],
  additionalProperties: false,
  properties: {
    specVersion: { const: 1 },
    id: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    description: str,
    stateSchema: { type: 'object' },
    seedState: { type: 'object' },
    collections: { type: 'array', items: str, uniqueItems: true },
    tools: { type: 'array', items: { $ref: '#/$defs/tool' } },
    clock: {
      type: 'object',
      required: ['start'],
      additionalProperties: false,
      properties: {
        start: { type: 'string', format: 'date-time' },
        tickMs: { type: 'number', minimum: 0 },
      },
    },
    idSeed: { type: 'integer' },
    policy: str,
    metadata: { type: 'object' },
  },
  $defs: {
    tool: {
      type: 'object',
      required: ['name', 'description', 'parameters', 'outputSchema', 'implementation', 'source'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        description: str,
        parameters: { type: 'object' },
        outputSchema: { type: ['object', 'boolean'] },
        hints: {
          type: 'object',
          additionalProperties: false,
          properties: {
            readOnly: bool,
            destructive: bool,
            idempotent: bool,
            openWorld: bool,
            toolType: { enum: ['read', 'write', 'think', 'generic'] },
            httpMethod: { enum: ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] },
          },
        },
        title: str,
        conditions: {
          type: 'object',
          required: ['preconditions', 'postconditions'],
          additionalProperties: false,
          properties: {
            preconditions: { type: 'array', items: str },
            postconditions: { type: 'array', items: str },
          },
        },
        extensions: { type: 'object' },
        source: {
          type: 'object',
          required: ['format', 'pointer'],
          additionalProperties: false,
          properties: {
            format: {
              enum: ['openai-chat', 'openai-responses', 'openapi', 'mcp', 'json-schema-defs', 'bfcl', 'vitabench'],
            },
            pointer: str,
            file: str,
            line: { type: 'integer', minimum: 1 },
            column: { type: 'integer', minimum: 1 },
          },
        },
        implementation: { $ref: '#/$defs/implementation' },
        pattern: str,
        effects: {
          type: 'array',
          items: {
            type: 'object',
            required: ['action', 'resource'],
            additionalProperties: false,
            properties: {
              action: { enum: ['reads', 'creates', 'changes', 'removes', 'requires', 'lists'] },
              resource: { type: 'string', minLength: 1 },
              via: { type: 'string', minLength: 1 },
              path: { type: 'string', minLength: 1 },
              state: {
                type: 'object',
                required: ['path'],
                additionalProperties: false,
                properties: { path: { type: 'string', minLength: 1 }, keys: { type: 'boolean' } },
              },
            },
          },
        },
      },
    },
    implementation: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['js', 'native', 'driver'] } },
      allOf: [
        {
          if: { properties: { kind: { const: 'js' } } },
          then: {
            required: ['source'],
            additionalProperties: false,
            properties: { kind: true, source: { type: 'string', minLength: 1 } },
          },
        },
        {
          if: { properties: { kind: { const: 'native' } } },
          then: {
            required: ['ref'],
            additionalProperties: false,
            properties: { kind: true, ref: { type: 'string', minLength: 1 }, checkArguments: { type: 'boolean' } },
          },
        },
        {
          if: { properties: { kind: { const: 'driver' } } },
          then: {
            required: ['driver', 'version', 'params'],
            additionalProperties: false,
            properties: {
              kind: true,
              driver: { type: 'string', minLength: 1 },
              version: { type: 'integer', minimum: 1 },
              params: true,
              preconditions: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['path', 'message'],
                  additionalProperties: false,
                  properties: { path: { type: 'array', minItems: 1, items: { type: 'string' } }, equals: true, arg: { type: 'string', minLength: 1 }, accepts: { type: 'array' }, truthy: { type: 'boolean' }, message: { type: 'string' } },
                },
              },
            },
          },
        },
      ],
    },
  },
};

// Accepts `function run(`, `function* run(`, `const|let|var run =`.
const DEFINES_RUN = /\bfunction\s*\*?\s*run\s*\(|\b(?:const|let|var)\s+run\s*=/;

let specValidator: ValidateFunction | undefined;

/**
 * The codes of a spec's issues: its shape (`E_SPEC_SHAPE`, against `ENVIRONMENT_SPEC_SCHEMA`),
 * a tool name used twice, a schema that does not compile, a parameters schema that is not an
 * object's, a js source without `run`, a driver's bad parameters, a collection that is not an
 * object of records, a seed state that does not match the state schema.
 */
export type SpecIssueCode =
  | 'E_SPEC_SHAPE'
  | 'E_DUPLICATE_TOOL'
  | 'E_SCHEMA_COMPILE'
  | 'E_PARAMETERS_NOT_OBJECT'
  | 'E_MISSING_RUN'
  | 'E_DRIVER_INVALID'
  | 'E_COLLECTION_INVALID'
  | 'E_SEED_INVALID';

/** The code of a state document's issues (`environment.validateState`). */
export type StateIssueCode = 'E_STATE_INVALID';

/** What checking a spec produced besides its issues (reused by `createEnvironment`). */
export interface CheckedSpec {
  issues: Issue<SpecIssueCode>[];
  /** The compiled `parameters` of each tool (undefined where it did not compile). */
  parameters: (ValidateFunction | undefined)[];
  /** The compiled state schema, when it compiled. */
  state: ValidateFunction | undefined;
  /** The collections (explicit or inferred). */
  collections: string[];
}

function issue(code: SpecIssueCode, pointer: string, message: string): Issue<SpecIssueCode> {
  return { code, message: `env-runtime: ${pointer || '/'}: ${message}`, pointer, severity: 'error' };
}

function compileAt(schema: unknown, pointer: string, issues: Issue<SpecIssueCode>[]): ValidateFunction | undefined {
  try {
    return compileCached(schema as JsonSchemaObject);
  } catch (e) {
    issues.push(issue('E_SCHEMA_COMPILE', pointer, `the schema does not compile: ${(e as Error).message}`));
    return undefined;
  }
}

/** Options of `checkSpec`. */
export interface CheckSpecOptions {
  /** Validate the seed state against the state schema. Default true. */
  validateSeed?: boolean;
  /**
   * `compile` (default): output schemas must compile. `meta`: they are only checked against
   * the meta-schema (a `$ref` that resolves nowhere passes); the runtime compiles them when
   * it first needs them.
   */
  outputSchemas?: 'compile' | 'meta';
}

/**
 * Checks a spec fully: the shape (JSON Schema), unique tool names, schemas that compile, object
 * parameter schemas, `run` defined in each js source, collections, and (unless `validateSeed`
 * is false) the seed state against the state schema. Compiled schemas come from the
 * process-wide cache (`compileCached`).
 */
export function checkSpec(value: unknown, options: CheckSpecOptions = {}): CheckedSpec {
  const result: CheckedSpec = { issues: [], parameters: [], state: undefined, collections: [] };
  // Compiled ahead of time (scripts/generate-spec-validator.mjs): the same code the shared Ajv
  // would compile here, without its tens of milliseconds in every process.
  specValidator ??= precompiledSpecValidator as unknown as ValidateFunction;
  if (!specValidator(value)) {
    result.issues = ajvIssues(specValidator.errors, '', 'E_SPEC_SHAPE');
    return result;
  }
  const spec = value as EnvironmentSpec;
  const issues = result.issues;
  // Ids, names and texts must be Unicode text: a lone surrogate is written to disk and the wire as
  // U+FFFD, so two different ids would name one thing. (The seed state is checked as it is frozen.)
  const { seedState: _seed, ...rest } = spec;
  const lone = loneSurrogateIn(rest);
  if (lone !== undefined) {
    result.issues = [issue('E_SPEC_SHAPE', lone, 'a string or key holds a lone surrogate (not Unicode text)')];
    return result;
  }

  const names = new Map<string, number>();
  spec.tools.forEach((tool, i) => {
    const at = `/tools/${i}`;
    const first = names.get(tool.name);
    if (first !== undefined) {
      issues.push(issue('E_DUPLICATE_TOOL', `${at}/name`, `tool name "${tool.name}" is already used by /tools/${first}`));
    } else {
      names.set(tool.name, i);
    }
    const type = tool.parameters.type;
    if (type !== undefined && type !== 'object') {
      issues.push(issue('E_PARAMETERS_NOT_OBJECT', `${at}/parameters/type`, 'the parameters schema must describe an object'));
    }
    result.parameters.push(compileAt(tool.parameters, `${at}/parameters`, issues));
    if (typeof tool.outputSchema === 'object') {
      if (options.outputSchemas === 'meta') {
        const wrong = metaSchemaErrors(tool.outputSchema);
        if (wrong !== undefined) {
          issues.push(issue('E_SCHEMA_COMPILE', `${at}/outputSchema`, `the schema does not compile: ${wrong}`));
        }
      } else {
        compileAt(tool.outputSchema, `${at}/outputSchema`, issues);
      }
    }
    if (tool.implementation.kind === 'js' && !DEFINES_RUN.test(tool.implementation.source)) {
      issues.push(issue('E_MISSING_RUN', `${at}/implementation/source`, 'the source does not define function run(args, ctx)'));
    }
    if (tool.implementation.kind === 'driver') {
      const problem = driverProblem(tool.implementation.driver, tool.implementation.version, tool.implementation.params, tool);
      if (problem !== undefined) issues.push(issue('E_DRIVER_INVALID', `${at}/implementation${problem.pointer}`, problem.message));
    }
  });

  if (spec.collections !== undefined) {
    spec.collections.forEach((name, i) => {
      const col = spec.seedState[name];
      if (!isJsonObject(col) || !Object.values(col).every((r) => isJsonObject(r))) {
        issues.push(
          issue('E_COLLECTION_INVALID', `/collections/${i}`, `seedState.${name} must exist and be an object of record objects`),
        );
      }
    });
    result.collections = [...spec.collections];
  } else {
    result.collections = inferCollections(spec.seedState);
  }

  result.state = compileAt(spec.stateSchema, '/stateSchema', issues);
  if (options.validateSeed !== false && result.state !== undefined && !result.state(spec.seedState)) {
    issues.push(...ajvIssues(result.state.errors, '/seedState', 'E_SEED_INVALID'));
  }
  return result;
}

/**
 * Validates an `EnvironmentSpec` read from anywhere (disk, an LLM, another process). Issues
 * carry JSON pointers into the spec and codes: `E_SPEC_SHAPE` (shape), `E_DUPLICATE_TOOL`,
 * `E_SCHEMA_COMPILE`, `E_PARAMETERS_NOT_OBJECT`, `E_MISSING_RUN`, `E_COLLECTION_INVALID`,
 * `E_SEED_INVALID` (the seed state does not match the state schema).
 */
export function validateEnvironmentSpec(value: unknown): Result<EnvironmentSpec, Issue<SpecIssueCode>> {
  const { issues } = checkSpec(value);
  return issues.length > 0 ? err(issues) : ok(value as EnvironmentSpec);
}
