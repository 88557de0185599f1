import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, ToolGroup, ToolHints, ToolSpec } from '@autoforge/core';
import { escapePointerToken, getAtPointer, parsePointer, toPointer } from '@autoforge/core';
import type { IssueList } from './issue.js';
import { cloneJson, describeType, isObject, own, setOwn } from './json-value.js';
import type { ReadContext, ReadOutput } from './reader.js';
import type { SchemaDialect } from './schema.js';
import { normalizeSchema } from './schema.js';
import { checkName, collectExtensions } from './tool-builder.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Method = (typeof METHODS)[number];
const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);
// OpenAPI: header parameters with these names SHALL be ignored (the body and auth define them).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Where each argument of an OpenAPI tool goes in the HTTP request (`x-autoforge-http`). */
export interface HttpBinding {
  /** The HTTP method, lower case. */
  method: 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
  /** The path template, as in the document (`/pets/{petId}`). */
  path: string;
  /** Argument name → where it goes. With `body.merged`, `body` arguments are body properties. */
  params: Record<string, 'path' | 'query' | 'header' | 'cookie' | 'body'>;
  /** Arguments renamed because two parameters shared a name: argument → original name. */
  renamed?: Record<string, string>;
  /** The request body: its media type, whether it is required, whether its properties were merged into the arguments. */
  body?: { contentType: string; required: boolean; merged: boolean };
  /** The operation's tags. */
  tags?: string[];
  /** Present (true) when the operation is deprecated. */
  deprecated?: boolean;
}

interface Resolved {
  value: JsonValue;
  pointer: string;
}

function isJsonMedia(type: string): boolean {
  return /^application\/([\w.-]+\+)?json(\s*;.*)?$/i.test(type) || /\+json$/i.test(type);
}

/** The preferred media type of a `content` map: JSON first, then forms, then the first one. */
function pickMedia(content: JsonValue | undefined): string | undefined {
  if (!isObject(content)) return undefined;
  const types = Object.keys(content);
  return (
    types.find((t) => t.toLowerCase() === 'application/json') ??
    types.find(isJsonMedia) ??
    types.find((t) => /^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(t)) ??
    types.find((t) => t === '*/*') ??
    types[0]
  );
}

function sanitizeName(text: string): string {
  return text.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
}

/** The OpenAPI reader's state for one document. */
class OpenApiReader {
  readonly dialect: SchemaDialect;
  private readonly defNames = new Map<string, string>();
  private readonly usedDefNames = new Set<string>();
  /** `#/$defs/<name>` refs this reader wrote → their document targets. */
  private readonly targetsByRef = new Map<string, string>();
  private readonly components = new Map<string, { schema: JsonSchema; deps: Set<string> } | null>();

  constructor(
    readonly doc: JsonObject,
    readonly issues: IssueList,
    version: '3.0' | '3.1',
  ) {
    this.dialect = { openapi: version };
  }

  /** Follows a chain of non-schema `$ref`s (parameters, request bodies, responses, path items). */
  resolve(value: JsonValue | undefined, pointer: string): Resolved | undefined {
    let current: Resolved = { value: value ?? null, pointer };
    const visited = new Set<string>();
    for (;;) {
      const ref = own(current.value, '$ref');
      if (ref === undefined) return current;
      if (typeof ref !== 'string') {
        this.issues.add('E_INVALID_OPENAPI', current.pointer, `"$ref" must be a string, not ${describeType(ref)}`);
        return undefined;
      }
      const target = this.refTarget(ref, current.pointer);
      if (target === undefined) return undefined;
      if (visited.has(target)) {
        this.issues.add('E_REF_NOT_FOUND', current.pointer, `$ref "${ref}" is part of a cycle of refs and never reaches a value`);
        return undefined;
      }
      visited.add(target);
      current = { value: getAtPointer(this.doc, target) as JsonValue, pointer: target };
    }
  }

  /** The document pointer a local `$ref` names, after checking it exists. */
  refTarget(ref: string, pointer: string): string | undefined {
    if (!ref.startsWith('#')) {
      this.issues.add('E_REF_EXTERNAL', pointer, `$ref "${ref}" points outside the document (only local "#/…" refs are supported)`);
      return undefined;
    }
    let tokens: string[];
    try {
      tokens = parsePointer(ref);
    } catch {
      this.issues.add('E_REF_NOT_FOUND', pointer, `$ref "${ref}" is not a JSON pointer`);
      return undefined;
    }
    if (tokens.length === 0) {
      this.issues.add('E_REF_NOT_FOUND', pointer, `$ref "${ref}" names the whole document, not a definition in it`);
      return undefined;
    }
    if (getAtPointer(this.doc, tokens) === undefined) {
      this.issues.add('E_REF_NOT_FOUND', pointer, `$ref "${ref}" not found`);
      return undefined;
    }
    return toPointer(tokens);
  }

  /** The `$defs` name of a schema ref target, unique within the document. */
  defName(target: string): string {
    const known = this.defNames.get(target);
    if (known !== undefined) return known;
    const tokens = parsePointer(target);
    const base = sanitizeName(tokens[tokens.length - 1] ?? '') || 'Schema';
    let name = base;
    for (let n = 2; this.usedDefNames.has(name); n++) name = `${base}_${n}`;
    this.usedDefNames.add(name);
    this.defNames.set(target, name);
    return name;
  }

  /** Normalizes one schema of the document; its refs become `#/$defs/<name>` and are returned. */
  schema(raw: JsonValue | undefined, pointer: string): { schema: JsonSchema; deps: Set<string> } | undefined {
    const deps = new Set<string>();
    const normalized = normalizeSchema(raw ?? true, pointer, this.issues, this.dialect, (ref, at) => {
      const target = this.refTarget(ref, at);
      if (target === undefined) return undefined;
      deps.add(target);
      const written = `#/$defs/${escapePointerToken(this.defName(target))}`;
      this.targetsByRef.set(written, target);
      return written;
    });
    return normalized.ok ? { schema: normalized.schema, deps } : undefined;
  }

  /** A ref target normalized once per document. */
  component(target: string): { schema: JsonSchema; deps: Set<string> } | null {
    const cached = this.components.get(target);
    if (cached !== undefined) return cached;
    this.components.set(target, null);
    const result = this.schema(getAtPointer(this.doc, target) as JsonValue, target) ?? null;
    this.components.set(target, result);
    return result;
  }

  /** The schema a `#/$defs/<name>` ref written by this reader stands for. */
  defSchema(ref: unknown): JsonSchema | undefined {
    if (typeof ref !== 'string') return undefined;
    const target = this.targetsByRef.get(ref);
    return target === undefined ? undefined : (this.component(target)?.schema ?? undefined);
  }

  /** The `$defs` a schema needs: every ref target it reaches, transitively. */
  defsFor(schema: JsonSchema): Record<string, JsonSchema> | undefined {
    const queue: string[] = [];
    collectRefs(schema, (ref) => {
      const target = this.targetsByRef.get(ref);
      if (target !== undefined) queue.push(target);
    });
    if (queue.length === 0) return undefined;
    const defs: Record<string, JsonSchema> = {};
    const done = new Set<string>();
    while (queue.length > 0) {
      const target = queue.shift() as string;
      if (done.has(target)) continue;
      done.add(target);
      const component = this.component(target);
      if (!component) continue;
      setOwn(defs, this.defName(target), cloneJson(component.schema as JsonValue) as JsonSchema);
      for (const dep of component.deps) if (!done.has(dep)) queue.push(dep);
    }
    return defs;
  }

  /**
   * The properties of an object schema when it is plainly one (through refs and `allOf`
   * members that are themselves plain objects), so a request body can be merged into the
   * arguments; `undefined` when the shape is anything richer.
   */
  flatten(schema: JsonSchema, depth = 0): Flat | undefined {
    if (typeof schema !== 'object' || depth > 16) return undefined;
    const allowed = new Set(['type', 'properties', 'required', 'allOf', '$ref', 'description', 'title', 'examples', 'additionalProperties', 'xml', 'externalDocs', 'deprecated']);
    for (const key of Object.keys(schema)) if (!allowed.has(key) && !key.startsWith('x-')) return undefined;
    if (schema.type !== undefined && schema.type !== 'object') return undefined;
    if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') return undefined;
    const properties: [string, JsonSchema][] = [];
    const required: string[] = [...(schema.required ?? [])];
    let closed = schema.additionalProperties === false;
    const add = (part: Flat | undefined): boolean => {
      if (!part) return false;
      for (const entry of part.properties) {
        if (properties.some(([name]) => name === entry[0])) return false;
        properties.push(entry);
      }
      required.push(...part.required);
      return true;
    };
    if (schema.$ref !== undefined) {
      const target = this.defSchema(schema.$ref);
      const flat = target === undefined ? undefined : this.flatten(target, depth + 1);
      if (!add(flat)) return undefined;
      closed ||= flat?.closed === true;
    }
    for (const member of schema.allOf ?? []) if (!add(this.flatten(member, depth + 1))) return undefined;
    if (typeof schema.properties === 'object') {
      if (!add({ properties: Object.entries(schema.properties), required: [], closed: false })) return undefined;
    }
    if (properties.length === 0 && schema.type !== 'object') return undefined;
    return { properties, required: [...new Set(required)], closed };
  }
}

/** An object schema as a plain list of properties (see `OpenApiReader.flatten`). */
interface Flat {
  properties: [string, JsonSchema][];
  required: string[];
  /** `additionalProperties: false`: the body takes no other properties. */
  closed: boolean;
}

/** Calls `onRef` for every `$ref` string in a schema (any depth). */
function collectRefs(schema: unknown, onRef: (ref: string) => void): void {
  if (Array.isArray(schema)) {
    for (const item of schema) collectRefs(item, onRef);
  } else if (isObject(schema)) {
    for (const key of Object.keys(schema)) {
      const value = schema[key];
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) onRef(value);
      else collectRefs(value, onRef);
    }
  }
}

/** Adds a description / examples / deprecated flag of a parameter to its schema. */
function decorate(schema: JsonSchema, param: JsonObject): JsonSchema {
  const extra: JsonSchemaObject = {};
  const description = own(param, 'description');
  if (typeof description === 'string') extra.description = description;
  const example = own(param, 'example');
  const examples = own(param, 'examples');
  if (example !== undefined) extra.examples = [cloneJson(example)];
  else if (isObject(examples)) {
    const values = Object.values(examples).flatMap((e) => (isObject(e) && own(e, 'value') !== undefined ? [cloneJson(own(e, 'value') as JsonValue)] : []));
    if (values.length > 0) extra.examples = values;
  }
  if (own(param, 'deprecated') === true) extra.deprecated = true;
  if (Object.keys(extra).length === 0) return schema;
  if (schema === true) return extra;
  if (schema === false) return schema;
  const result: JsonSchemaObject = { ...schema };
  for (const key of Object.keys(extra)) if (result[key] === undefined) setOwn(result, key, extra[key]);
  return result;
}

/**
 * What an HTTP method declares (RFC 9110): GET, HEAD, OPTIONS and TRACE are safe (read-only) and
 * idempotent; PUT and DELETE are idempotent writes, DELETE destroys; PATCH writes. POST says
 * nothing definite (APIs use it for searches too), so only the method is recorded.
 */
function hintsFor(method: Method): ToolHints {
  switch (method) {
    case 'get':
    case 'head':
    case 'options':
    case 'trace':
      return { readOnly: true, idempotent: true, httpMethod: method };
    case 'delete':
      return { readOnly: false, destructive: true, idempotent: true, httpMethod: method };
    case 'put':
      return { readOnly: false, idempotent: true, httpMethod: method };
    case 'patch':
      return { readOnly: false, httpMethod: method };
    default:
      return { httpMethod: method };
  }
}

interface Operation {
  path: string;
  method: Method;
  pointer: string;
  op: JsonObject;
  pathItem: JsonObject;
  pathItemPointer: string;
  name: string | undefined;
}

function readOperation(reader: OpenApiReader, item: Operation, name: string, issues: IssueList, ctx: ReadContext): ToolSpec | undefined {
  const { op, pointer } = item;
  const before = issues.errorCount;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const binding: HttpBinding = { method: item.method, path: item.path, params: {} };
  const renamed: Record<string, string> = {};
  let closed = false;

  // Path-level parameters first, operation-level ones override them (same name and location).
  const params = new Map<string, { param: JsonObject; pointer: string }>();
  const addParams = (list: JsonValue | undefined, listPointer: string): void => {
    if (list === undefined) return;
    if (!Array.isArray(list)) {
      issues.add('E_INVALID_OPENAPI', listPointer, `"parameters" must be an array, not ${describeType(list)}`);
      return;
    }
    list.forEach((entry, i) => {
      const resolved = reader.resolve(entry, `${listPointer}/${i}`);
      if (!resolved) return;
      const param = resolved.value;
      if (!isObject(param)) {
        issues.add('E_INVALID_OPENAPI', resolved.pointer, `a parameter must be an object, not ${describeType(param)}`);
        return;
      }
      const paramName = own(param, 'name');
      const location = own(param, 'in');
      if (typeof paramName !== 'string' || paramName === '') {
        issues.add('E_INVALID_OPENAPI', resolved.pointer, 'the parameter has no "name"');
        return;
      }
      if (typeof location !== 'string' || !LOCATIONS.has(location)) {
        issues.add('E_INVALID_OPENAPI', resolved.pointer, `parameter "${paramName}": "in" must be path, query, header or cookie, not ${JSON.stringify(location ?? null)}`);
        return;
      }
      if (location === 'header' && IGNORED_HEADERS.has(paramName.toLowerCase())) return;
      params.set(`${location}\u0000${paramName}`, { param, pointer: resolved.pointer });
    });
  };
  addParams(own(item.pathItem, 'parameters'), `${item.pathItemPointer}/parameters`);
  addParams(own(op, 'parameters'), `${pointer}/parameters`);

  const argName = (wanted: string, location: string, at: string): string => {
    if (!Object.prototype.hasOwnProperty.call(properties, wanted)) return wanted;
    let candidate = `${location}_${wanted}`;
    for (let n = 2; Object.prototype.hasOwnProperty.call(properties, candidate); n++) candidate = `${location}_${wanted}_${n}`;
    issues.add('W_RENAMED', at, `${location} parameter "${wanted}" is named like another argument; it is the argument "${candidate}"`);
    renamed[candidate] = wanted;
    return candidate;
  };

  for (const { param, pointer: paramPointer } of params.values()) {
    const paramName = own(param, 'name') as string;
    const location = own(param, 'in') as 'path' | 'query' | 'header' | 'cookie';
    let raw = own(param, 'schema');
    let schemaPointer = `${paramPointer}/schema`;
    if (raw === undefined) {
      const content = own(param, 'content');
      const media = pickMedia(content);
      if (media !== undefined) {
        raw = own(own(content, media), 'schema');
        schemaPointer = `${paramPointer}/content/${escapePointerToken(media)}/schema`;
      }
    }
    const normalized = reader.schema(raw, schemaPointer);
    if (!normalized) continue;
    const arg = argName(paramName, location, paramPointer);
    setOwn(properties, arg, decorate(normalized.schema, param));
    binding.params[arg] = location;
    if (location === 'path' || own(param, 'required') === true) required.push(arg);
  }

  // A path template variable without a parameter is a common mistake; the tool still needs it.
  for (const match of item.path.matchAll(/\{([^{}]+)\}/g)) {
    const variable = match[1] as string;
    if (Object.entries(binding.params).some(([arg, where]) => where === 'path' && (renamed[arg] ?? arg) === variable)) continue;
    const arg = argName(variable, 'path', pointer);
    setOwn(properties, arg, { type: 'string' });
    binding.params[arg] = 'path';
    required.push(arg);
    issues.add('W_UNDECLARED_PARAMETER', pointer, `path "${item.path}" has the variable {${variable}} but no path parameter for it; it is taken as a required string argument`);
  }

  const body = own(op, 'requestBody');
  if (body !== undefined) {
    const resolved = reader.resolve(body, `${pointer}/requestBody`);
    if (resolved && !isObject(resolved.value)) {
      issues.add('E_INVALID_OPENAPI', resolved.pointer, `"requestBody" must be an object, not ${describeType(resolved.value)}`);
    } else if (resolved) {
      const content = own(resolved.value, 'content');
      const media = pickMedia(content);
      if (media !== undefined) {
        const schemaPointer = `${resolved.pointer}/content/${escapePointerToken(media)}/schema`;
        const normalized = reader.schema(own(own(content, media), 'schema'), schemaPointer);
        const bodyRequired = own(resolved.value, 'required') === true;
        if (normalized) {
          const flat = reader.flatten(normalized.schema);
          const fits = flat !== undefined && flat.properties.every(([prop]) => !Object.prototype.hasOwnProperty.call(properties, prop));
          if (flat && fits) {
            const readOnly = new Set(flat.properties.filter(([, s]) => isObject(s) && s.readOnly === true).map(([prop]) => prop));
            for (const [prop, schema] of flat.properties) {
              if (readOnly.has(prop)) continue; // readOnly properties are not sent in requests
              // Properties may come from a shared component: each tool gets its own copy.
              setOwn(properties, prop, cloneJson(schema as JsonValue) as JsonSchema);
              binding.params[prop] = 'body';
            }
            if (bodyRequired) for (const prop of flat.required) if (!readOnly.has(prop)) required.push(prop);
            closed = flat.closed;
          } else {
            const arg = Object.prototype.hasOwnProperty.call(properties, 'body') ? argName('body', 'request', resolved.pointer) : 'body';
            const description = own(resolved.value, 'description');
            setOwn(properties, arg, typeof description === 'string' ? decorate(normalized.schema, { description }) : normalized.schema);
            binding.params[arg] = 'body';
            if (bodyRequired) required.push(arg);
          }
          binding.body = { contentType: media, required: bodyRequired, merged: flat !== undefined && fits };
        }
      }
    }
  }

  let outputSchema: JsonSchema | undefined;
  const responses = own(op, 'responses');
  if (isObject(responses)) {
    const codes = Object.keys(responses)
      .filter((code) => /^2(\d\d|XX)$/i.test(code))
      .sort((a, b) => (a.toUpperCase() < b.toUpperCase() ? -1 : 1));
    for (const code of codes) {
      const response = reader.resolve(own(responses, code), `${pointer}/responses/${escapePointerToken(code)}`);
      if (!response) continue;
      const content = own(response.value, 'content');
      const media = pickMedia(content);
      if (media === undefined || !isJsonMedia(media) || own(own(content, media), 'schema') === undefined) continue;
      const normalized = reader.schema(own(own(content, media), 'schema'), `${response.pointer}/content/${escapePointerToken(media)}/schema`);
      if (normalized) outputSchema = withDefs(normalized.schema, reader.defsFor(normalized.schema));
      break;
    }
  }

  if (issues.errorCount !== before) return undefined;
  let parameters: JsonSchemaObject = { type: 'object', properties };
  if (required.length > 0) parameters.required = [...new Set(required)];
  if (closed) parameters.additionalProperties = false;
  parameters = withDefs(parameters, reader.defsFor(parameters)) as JsonSchemaObject;

  if (Object.keys(renamed).length > 0) binding.renamed = renamed;
  const tags = own(op, 'tags');
  if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) binding.tags = tags as string[];
  if (own(op, 'deprecated') === true) binding.deprecated = true;
  const extensions: Record<string, JsonValue> = collectExtensions(op);
  extensions['x-autoforge-http'] = binding as unknown as JsonValue;

  const summary = own(op, 'summary');
  const description = own(op, 'description');
  const tool: ToolSpec = {
    name,
    description: typeof description === 'string' ? description : typeof summary === 'string' ? summary : '',
    parameters,
    source: { format: ctx.format, pointer },
    extensions,
  };
  if (typeof summary === 'string' && summary !== '') tool.title = summary;
  if (outputSchema !== undefined) tool.outputSchema = outputSchema;
  tool.hints = hintsFor(item.method);
  return tool;
}

/** Puts `$defs` at the root of a schema (wrapping it when its own `$defs` would clash). */
function withDefs(schema: JsonSchema, defs: Record<string, JsonSchema> | undefined): JsonSchema {
  if (defs === undefined) return schema;
  if (typeof schema === 'object') {
    const own$defs: Record<string, JsonSchema> = typeof schema.$defs === 'object' ? schema.$defs : {};
    if (!Object.keys(defs).some((name) => Object.prototype.hasOwnProperty.call(own$defs, name))) {
      return { ...schema, $defs: { ...own$defs, ...defs } };
    }
  }
  return { allOf: [schema], $defs: defs };
}

/**
 * Reads an OpenAPI 3.0 / 3.1 document: one tool per operation. Parameters (path, query,
 * header, cookie) and the request body become one object schema; refs to schemas are kept as
 * refs into the tool's `$defs` (so recursive schemas stay finite).
 */
export function readOpenApi(value: unknown, ctx: ReadContext): ReadOutput {
  const { issues } = ctx;
  if (!isObject(value)) {
    issues.add('E_UNKNOWN_FORMAT', '', `expected an OpenAPI document (an object), not ${describeType(value)}`);
    return { tools: [] };
  }
  const version = own(value, 'openapi');
  const match = typeof version === 'string' ? /^3\.(\d+)/.exec(version) : null;
  if (!match) {
    issues.add('E_UNSUPPORTED_VERSION', '/openapi', `OpenAPI version ${JSON.stringify(version ?? null)} is not supported (3.0 and 3.1 are)`);
    return { tools: [] };
  }
  const reader = new OpenApiReader(value, issues, match[1] === '0' ? '3.0' : '3.1');

  const info: NonNullable<ReadOutput['info']> = {};
  for (const key of ['title', 'version', 'description'] as const) {
    const text = own(own(value, 'info'), key);
    if (typeof text === 'string') info[key] = text;
  }

  const paths = own(value, 'paths');
  if (paths !== undefined && !isObject(paths)) {
    issues.add('E_INVALID_OPENAPI', '/paths', `"paths" must be an object, not ${describeType(paths)}`);
  }
  const operations: Operation[] = [];
  for (const path of isObject(paths) ? Object.keys(paths) : []) {
    const itemPointer = `/paths/${escapePointerToken(path)}`;
    const resolved = reader.resolve(own(paths, path), itemPointer);
    if (!resolved) continue;
    if (!isObject(resolved.value)) {
      issues.add('E_INVALID_OPENAPI', itemPointer, `a path item must be an object, not ${describeType(resolved.value)}`);
      continue;
    }
    // Document order: the key order of the path item.
    for (const key of Object.keys(resolved.value)) {
      const method = key.toLowerCase() as Method;
      if (!METHODS.includes(method) || key !== method) continue;
      const op = own(resolved.value, method);
      const pointer = `${resolved.pointer}/${method}`;
      if (!isObject(op)) {
        issues.add('E_INVALID_OPENAPI', pointer, `an operation must be an object, not ${describeType(op)}`);
        continue;
      }
      const operationId = own(op, 'operationId');
      let name: string | undefined;
      if (operationId !== undefined) {
        name = checkName(operationId, pointer, issues, 'operationId') === undefined ? undefined : (operationId as string);
        if (name === undefined) continue;
      }
      operations.push({ path, method, pointer, op, pathItem: resolved.value, pathItemPointer: resolved.pointer, name });
    }
  }

  // Generated names must not take an operationId that comes later in the document.
  const taken = new Set(operations.flatMap((o) => (o.name === undefined ? [] : [o.name])));
  const tools: ToolSpec[] = [];
  const tagGroups = new Map<string, ToolGroup>();
  for (const operation of operations) {
    let name = operation.name;
    if (name === undefined) {
      // At most 64 characters in all (the tool-name rule), room left for a `_<n>` suffix.
      const base = sanitizeName(`${operation.method}_${operation.path}`).slice(0, 60).replace(/_$/, '') || operation.method;
      name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      if (name !== base) issues.add('W_RENAMED', operation.pointer, `the generated tool name "${base}" is taken; this operation is "${name}"`);
      taken.add(name);
    }
    const tool = readOperation(reader, operation, name, issues, ctx);
    if (!tool) continue;
    tools.push(tool);
    const tags = own(operation.op, 'tags');
    for (const tag of Array.isArray(tags) ? tags : []) {
      if (typeof tag !== 'string') continue;
      let group = tagGroups.get(tag);
      if (!group) {
        const index = Array.isArray(own(value, 'tags')) ? (own(value, 'tags') as JsonValue[]).findIndex((t) => own(t, 'name') === tag) : -1;
        group = { id: tag, tools: [], source: { format: ctx.format, pointer: index >= 0 ? `/tags/${index}` : `${operation.pointer}/tags` } };
        tagGroups.set(tag, group);
      }
      if (!group.tools.includes(name)) group.tools.push(name);
    }
  }
  const output: ReadOutput = { tools };
  if (tagGroups.size > 0) output.groups = [...tagGroups.values()];
  if (Object.keys(info).length > 0) output.info = info;
  return output;
}
