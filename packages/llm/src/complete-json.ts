import type { Issue, JsonSchema, JsonValue, Message, Result } from '@autoforge/core';
import { ajvLinearRegExp, err, ok, usePrecompiledMetaSchema } from '@autoforge/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { ChatModel, CompleteOptions, ResponseFormat } from './chat-model.js';
import { LlmError } from './llm-error.js';
import { jsonRepairPrompt } from './prompts/repair-json.js';

/** Options of {@link completeJson}: those of `complete` (no tools), and these. */
export interface CompleteJsonOptions extends Omit<CompleteOptions, 'responseFormat' | 'tools' | 'toolChoice'> {
  /** Follow-up requests that ask the model to fix an invalid reply. Default: `2`. */
  maxRepairs?: number;
  /**
   * Ask the server to enforce the schema (`response_format: json_schema`, `strict: true`)
   * instead of only asking for JSON (`json_object`). The schema must be an object schema
   * that the server's structured-output mode accepts. Default: `false`.
   */
  strict?: boolean;
  /** The schema name sent with `strict`. Default: `output`. */
  schemaName?: string;
}

/** Issue codes of {@link completeJson}'s failed results. */
export type JsonIssueCode = 'E_JSON_PARSE' | 'E_JSON_SCHEMA';

// One Ajv for the package: compiled validators are cached per schema object.
let ajv: Ajv2020 | undefined;
const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  if (typeof schema === 'object') {
    const cached = validators.get(schema);
    if (cached) return cached;
  }
  if (!ajv) {
    ajv = usePrecompiledMetaSchema(new Ajv2020({ allErrors: true, strict: false, code: { regExp: ajvLinearRegExp } }));
    // ajv-formats is CommonJS: its `default` is the plugin itself.
    ajvFormats.default(ajv);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new LlmError('E_SCHEMA', `llm: completeJson: the JSON Schema does not compile: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof schema === 'object') validators.set(schema, validate);
  return validate;
}

/**
 * The JSON text inside a reply: without surrounding whitespace, a leading `<think>…</think>`
 * block (reasoning models served without a reasoning parser) and a Markdown code fence.
 */
export function extractJsonText(content: string): string {
  let text = content.trim().replace(/^<think>[\s\S]*?<\/think>\s*/, '');
  const fence = /^```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```$/.exec(text);
  if (fence) text = fence[1] ?? '';
  return text.trim();
}

/** Parses and validates one reply; an empty list means valid. */
function check(content: string | null, validate: ValidateFunction): { value?: unknown; issues: Issue<JsonIssueCode>[] } {
  if (content === null || content.trim() === '') {
    return { issues: [{ code: 'E_JSON_PARSE', message: '(root): the reply contains no JSON text', pointer: '' }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(extractJsonText(content));
  } catch (error) {
    return {
      issues: [{ code: 'E_JSON_PARSE', message: `(root): not parsable as JSON: ${(error as Error).message}`, pointer: '' }],
    };
  }
  if (validate(value)) return { value, issues: [] };
  const issues = (validate.errors ?? []).map(
    (e): Issue<JsonIssueCode> => ({
      code: 'E_JSON_SCHEMA',
      message: `${e.instancePath || '(root)'}: ${e.message ?? 'is invalid'}${describeParams(e.keyword, e.params)}`,
      pointer: e.instancePath,
    }),
  );
  return { value, issues };
}

function describeParams(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'enum' && Array.isArray(params.allowedValues)) return `: ${JSON.stringify(params.allowedValues)}`;
  if (keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return ` ("${params.additionalProperty}")`;
  }
  return '';
}

/**
 * Asks `model` for JSON that matches `schema` (JSON Schema draft 2020-12, with formats),
 * parses and validates the reply, and while it is invalid sends the model a repair message
 * that lists the problems, up to `maxRepairs` times.
 *
 * Never throws for invalid model output: the result is `ok(value)` or `err(issues)` with the
 * last reply's issues (`E_JSON_PARSE` or `E_JSON_SCHEMA`, each with a JSON `pointer`).
 * With OpenAI's `json_object` mode the messages must mention "JSON".
 *
 * @throws LlmError `E_SCHEMA` when the schema does not compile; the model's own errors
 *   (`E_HTTP`, `E_RETRIES_EXHAUSTED`, …) pass through.
 * @example
 * const result = await completeJson<{ city: string }>(model, [{ role: 'user', content: 'Reply in JSON: {"city": …}' }],
 *   { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
 * if (result.ok) console.log(result.value.city);
 */
export async function completeJson<T = JsonValue>(
  model: ChatModel,
  messages: readonly Message[],
  schema: JsonSchema,
  options: CompleteJsonOptions = {},
): Promise<Result<T, Issue<JsonIssueCode>>> {
  const { maxRepairs = 2, strict = false, schemaName = 'output', ...completeOptions } = options;
  if (!(Number.isInteger(maxRepairs) && maxRepairs >= 0)) {
    throw new LlmError('E_CONFIG', `llm: completeJson: \`maxRepairs\` must be a non-negative integer, got ${maxRepairs}`);
  }
  const validate = validatorFor(schema);
  let responseFormat: ResponseFormat = { type: 'json_object' };
  if (strict) {
    if (typeof schema !== 'object') {
      throw new LlmError('E_SCHEMA', 'llm: completeJson: `strict` needs an object schema, not a boolean one');
    }
    responseFormat = { type: 'json_schema', name: schemaName, schema, strict: true };
  }
  const conversation: Message[] = [...messages];
  for (let attempt = 0; ; attempt++) {
    const reply = await model.complete(conversation, { ...completeOptions, responseFormat });
    const { value, issues } = check(reply.content, validate);
    if (issues.length === 0) return ok(value as T);
    if (attempt >= maxRepairs) return err(issues);
    conversation.push(
      { role: 'assistant', content: reply.content ?? '' },
      { role: 'user', content: jsonRepairPrompt(issues, schema) },
    );
  }
}
