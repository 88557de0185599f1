import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDoc } from '@autoforge/core';
import { getAtPointer } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import type { ToolDocResult } from './index.js';
import { formatIssue, parseToolDoc, parseToolDocFile } from './index.js';
import { compileReport, createAjv } from './test-support.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const PETSTORE = join(FIXTURES, 'petstore-3.0.yaml');
const ORDERS = join(FIXTURES, 'orders-3.1.json');

function value(result: ToolDocResult): ToolDoc {
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join('\n'));
  return result.value;
}

function tool(doc: ToolDoc, name: string) {
  const found = doc.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const CATEGORY = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    parent: { $ref: '#/$defs/Category' },
    children: { type: 'array', items: { $ref: '#/$defs/Category' } },
  },
};

describe('parseToolDoc on OpenAPI 3.0 (petstore YAML fixture)', () => {
  it('makes one tool per operation, named by operationId or method_path, with info and tag groups', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    expect(doc.format).toBe('openapi');
    expect(doc.info).toEqual({ title: 'Petstore', version: '1.2.0', description: 'A small pet store.' });
    expect(doc.tools.map((t) => t.name)).toEqual(['listPets', 'addPet', 'getPet', 'updatePet', 'delete_pets_petId', 'uploadPhotos', 'getCategory']);
    expect(doc.groups?.map((g) => [g.id, g.tools])).toEqual([
      ['pets', ['listPets', 'addPet', 'getPet', 'updatePet', 'delete_pets_petId']],
      ['store', ['getCategory']],
    ]);
  });

  it('merges path, query and header parameters into one object schema; ignores the Accept header', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const t = tool(doc, 'listPets');
    expect(t.parameters).toStrictEqual({
      type: 'object',
      properties: {
        limit: { type: 'integer', maximum: 100, exclusiveMinimum: 0, description: 'How many items to return at one time (max 100)' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Tags to filter by' },
        'X-Request-Id': { type: 'string', format: 'uuid' },
      },
      required: ['X-Request-Id'],
    });
    expect(t.extensions?.['x-autoforge-http']).toEqual({
      method: 'get',
      path: '/pets',
      params: { limit: 'query', tags: 'query', 'X-Request-Id': 'header' },
      tags: ['pets'],
    });
    expect(t.title).toBe('List pets');
    expect(t.description).toBe('Lists the pets, optionally filtered by tag.');
    expect(t.hints).toEqual({ readOnly: true, idempotent: true, httpMethod: 'get' });
  });

  it('merges an object request body at the top level; nullable and example become 2020-12; refs are inlined, recursion stays a $ref', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const t = tool(doc, 'addPet');
    expect(t.parameters).toStrictEqual({
      type: 'object',
      properties: {
        name: { type: 'string', examples: ['Rex'] },
        tag: { type: ['string', 'null'] },
        category: CATEGORY,
      },
      required: ['name'],
      $defs: { Category: CATEGORY },
    });
    expect(t.extensions).toEqual({
      'x-rate-limit': 10,
      'x-autoforge-http': {
        method: 'post',
        path: '/pets',
        params: { name: 'body', tag: 'body', category: 'body' },
        body: { contentType: 'application/json', required: true, merged: true },
        tags: ['pets'],
      },
    });
    expect(t.hints).toEqual({ httpMethod: 'post' });
  });

  it('keeps allOf, inlines its refs, and takes the 2xx JSON response as outputSchema with the recursive $defs it needs', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const out = tool(doc, 'addPet').outputSchema;
    expect(getAtPointer(out, '/allOf/1')).toEqual({ type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64', readOnly: true } } });
    expect(getAtPointer(out, '/allOf/0/properties/category')).toEqual(CATEGORY);
    expect(Object.keys(getAtPointer(out, '/$defs') as object)).toEqual(['Category']);
    const validate = createAjv().compile(out as object);
    expect(validate({ id: 1, name: 'Rex', category: { name: 'dogs', children: [{ name: 'terriers' }] } })).toBe(true);
    expect(validate({ name: 'Rex' })).toBe(false);
  });

  it('flattens an allOf body through its $ref, and adds path, query and cookie parameters', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const t = tool(doc, 'updatePet');
    expect(Object.keys(t.parameters.properties ?? {})).toEqual(['petId', 'dryRun', 'session', 'name', 'tag', 'category', 'status']);
    expect(t.parameters.required).toEqual(['petId', 'name']);
    expect(t.parameters.properties?.status).toEqual({ type: ['string', 'null'], enum: ['available', 'pending', 'sold', null] });
    expect((t.extensions?.['x-autoforge-http'] as { params: unknown }).params).toEqual({
      petId: 'path',
      dryRun: 'query',
      session: 'cookie',
      name: 'body',
      tag: 'body',
      category: 'body',
      status: 'body',
    });
    expect(t.hints).toEqual({ readOnly: false, idempotent: true, httpMethod: 'put' });
  });

  it('gives each tool its own copy of merged body properties (regression: shared component objects)', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const name = tool(doc, 'addPet').parameters.properties?.name as { description?: string };
    name.description = 'changed';
    expect(tool(doc, 'updatePet').parameters.properties?.name).toEqual({ type: 'string', examples: ['Rex'] });
  });

  it('puts a non-object body under `body`; DELETE is destructive; no 2xx content, no outputSchema', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const upload = tool(doc, 'uploadPhotos');
    expect(upload.parameters.properties?.body).toEqual({ type: 'array', items: { type: 'string', format: 'uri' }, description: 'Photo URLs' });
    expect(upload.parameters.required).toEqual(['petId']);
    expect(upload.extensions?.['x-autoforge-http']).toMatchObject({ params: { petId: 'path', body: 'body' }, body: { merged: false, required: false } });
    const del = tool(doc, 'delete_pets_petId');
    expect(del.hints).toEqual({ readOnly: false, destructive: true, idempotent: true, httpMethod: 'delete' });
    expect(del.outputSchema).toBeUndefined();
    expect(del.description).toBe('Delete a pet');
  });

  it('renames a query parameter that shares its name with a path parameter, with a warning', async () => {
    const result = await parseToolDocFile(PETSTORE);
    const t = tool(value(result), 'getCategory');
    expect(Object.keys(t.parameters.properties ?? {})).toEqual(['id', 'query_id']);
    expect(t.extensions?.['x-autoforge-http']).toMatchObject({ params: { id: 'path', query_id: 'query' }, renamed: { query_id: 'id' } });
    expect(result.ok && result.warnings?.map((w) => [w.code, w.pointer, w.line])).toEqual([
      ['W_RENAMED', '/paths/~1categories~1{id}/get/parameters/1', 145],
    ]);
    expect(t.outputSchema).toEqual({ ...CATEGORY, $defs: { Category: CATEGORY } });
  });

  it('locates every tool at its operation in the YAML text', async () => {
    const doc = value(await parseToolDocFile(PETSTORE));
    const lines = readFileSync(PETSTORE, 'utf8').split('\n');
    for (const t of doc.tools) {
      const method = t.source.pointer.split('/').pop() as string;
      expect(lines[(t.source.line as number) - 1]?.trim(), t.name).toBe(`${method}:`);
      expect(t.source.column).toBe(5);
      expect(t.source.file).toBe(PETSTORE);
    }
  });

  it('every tool compiles with Ajv 2020 in strict mode', async () => {
    expect(compileReport(value(await parseToolDocFile(PETSTORE)).tools)).toEqual({ errors: [], strictOnly: [] });
  });
});

describe('parseToolDoc on OpenAPI 3.1 (orders JSON fixture)', () => {
  it('reads 3.1 schemas as they are and merges the body; refs reach shared components', async () => {
    const doc = value(await parseToolDocFile(ORDERS));
    expect(doc.tools.map((t) => t.name)).toEqual(['listOrders', 'createOrder', 'getOrder', 'updateOrder', 'cancelOrder']);
    const create = tool(doc, 'createOrder');
    expect(create.parameters).toStrictEqual({
      type: 'object',
      properties: {
        customerId: { type: 'string' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              sku: { type: 'string' },
              quantity: { type: 'integer', minimum: 1 },
              price: {
                type: 'object',
                properties: { amount: { type: 'number', exclusiveMinimum: 0 }, currency: { type: 'string', const: 'USD' } },
                required: ['amount', 'currency'],
              },
            },
            required: ['sku', 'quantity'],
          },
          minItems: 1,
        },
        note: { type: ['string', 'null'] },
      },
      required: ['customerId', 'lines'],
    });
    expect(create.extensions?.['x-audit']).toEqual({ level: 'high' });
    const validate = createAjv().compile(create.parameters);
    expect(validate({ customerId: 'c1', lines: [{ sku: 'A', quantity: 2, price: { amount: 3, currency: 'USD' } }] })).toBe(true);
    expect(validate({ customerId: 'c1', lines: [{ sku: 'A', quantity: 0 }] })).toBe(false);
  });

  it('keeps parameter examples, follows response refs, and closes the arguments when the body says additionalProperties: false', async () => {
    const doc = value(await parseToolDocFile(ORDERS));
    expect(tool(doc, 'listOrders').parameters.properties?.status).toEqual({ type: ['string', 'null'], enum: ['open', 'shipped', null], examples: ['open', 'shipped'] });
    expect(tool(doc, 'getOrder').outputSchema).toMatchObject({ allOf: [{ properties: { customerId: { type: 'string' } } }, { required: ['id'] }] });
    const update = tool(doc, 'updateOrder');
    expect(update.parameters).toMatchObject({ additionalProperties: false, required: ['orderId'] });
    expect(update.extensions?.['x-autoforge-http']).toMatchObject({ body: { contentType: 'application/merge-patch+json', merged: true } });
    expect(tool(doc, 'cancelOrder').hints).toEqual({ readOnly: false, destructive: true, idempotent: true, httpMethod: 'delete' });
  });

  it('locates tools in the JSON text and compiles every schema with Ajv 2020 in strict mode', async () => {
    const doc = value(await parseToolDocFile(ORDERS));
    expect(tool(doc, 'createOrder').source).toMatchObject({ pointer: '/paths/~1orders/post', line: 23, column: 7 });
    expect(compileReport(doc.tools)).toEqual({ errors: [], strictOnly: [] });
  });

  it('gives the same tools for the YAML and the JSON text of one document', () => {
    const json = readFileSync(ORDERS, 'utf8');
    const fromJson = value(parseToolDoc(json));
    // JSON is YAML 1.2; force the YAML path by putting a comment first.
    const fromYaml = value(parseToolDoc(`# orders\n${json}`));
    const strip = (doc: ToolDoc) => doc.tools.map(({ source: _source, ...rest }) => rest);
    expect(strip(fromYaml)).toEqual(strip(fromJson));
  });
});

describe('parseToolDoc on broken OpenAPI documents', () => {
  const base = (paths: unknown, components: unknown = {}) => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components });

  it('reports a missing $ref target at the object holding the ref, with file, line and column', () => {
    const text = [
      'openapi: 3.0.3',
      'info:',
      '  title: Orders',
      '  version: "1"',
      'paths:',
      '  /orders:',
      '    post:',
      '      operationId: createOrder',
      '      requestBody:',
      '        content:',
      '          application/json:',
      '            schema:',
      '              $ref: "#/components/schemas/X"',
      '      responses:',
      '        "200":',
      '          description: ok',
    ].join('\n');
    const result = parseToolDoc(text, { file: 'openapi.yaml' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        code: 'E_REF_NOT_FOUND',
        severity: 'error',
        file: 'openapi.yaml',
        pointer: '/paths/~1orders/post/requestBody/content/application~1json/schema',
        line: 12,
        column: 13,
        message: 'tooldoc-parser: openapi.yaml:12:13 /paths/~1orders/post/requestBody/content/application~1json/schema: $ref "#/components/schemas/X" not found',
      },
    ]);
  });

  it('reports a request body $ref that points nowhere at /paths/…/requestBody', () => {
    const result = parseToolDoc(base({ '/orders': { post: { requestBody: { $ref: '#/components/requestBodies/X' }, responses: {} } } }));
    expect(result.ok ? [] : result.issues.map((i) => [i.code, i.pointer, i.message])).toEqual([
      ['E_REF_NOT_FOUND', '/paths/~1orders/post/requestBody', 'tooldoc-parser: /paths/~1orders/post/requestBody: $ref "#/components/requestBodies/X" not found'],
    ]);
  });

  it('reports external refs, invalid types in components, bad parameters and ref cycles', () => {
    const result = parseToolDoc(
      base(
        {
          '/a': {
            get: {
              operationId: 'a',
              parameters: [{ name: 'q', in: 'body', schema: { type: 'string' } }, { in: 'query' }, { $ref: '#/components/parameters/Loop' }],
              responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 'other.yaml#/Thing' } } } } },
            },
          },
          '/b': { post: { operationId: 'b', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Bad' } } } } } },
        },
        {
          parameters: { Loop: { $ref: '#/components/parameters/Loop' } },
          schemas: { Bad: { type: 'object', properties: { n: { type: 'strnig' } } } },
        },
      ),
    );
    expect(result.ok ? [] : result.issues.map((i) => [i.code, i.pointer])).toEqual([
      ['E_INVALID_OPENAPI', '/paths/~1a/get/parameters/0'],
      ['E_INVALID_OPENAPI', '/paths/~1a/get/parameters/1'],
      ['E_REF_NOT_FOUND', '/components/parameters/Loop'],
      ['E_REF_EXTERNAL', '/paths/~1a/get/responses/200/content/application~1json/schema'],
      ['E_INVALID_SCHEMA', '/components/schemas/Bad/properties/n/type'],
    ]);
  });

  it('adds a path variable that has no parameter as a required string, with a warning', () => {
    const result = parseToolDoc(base({ '/users/{userId}': { get: { operationId: 'getUser', responses: {} } } }));
    expect(result.ok && result.value.tools[0]?.parameters).toEqual({ type: 'object', properties: { userId: { type: 'string' } }, required: ['userId'] });
    expect(result.ok && result.warnings?.map((w) => w.code)).toEqual(['W_UNDECLARED_PARAMETER']);
  });

  it('gives generated names that collide a suffix, never taking a later operationId', () => {
    const result = parseToolDoc(
      base({
        '/a-b': { get: { responses: {} } },
        '/a_b': { get: { responses: {} } },
        '/c': { get: { operationId: 'get_a_b_2', responses: {} } },
      }),
    );
    expect(value(result).tools.map((t) => t.name)).toEqual(['get_a_b', 'get_a_b_3', 'get_a_b_2']);
  });

  it('reports duplicate operationIds and empty ones', () => {
    const result = parseToolDoc(
      base({
        '/a': { get: { operationId: 'same', responses: {} }, post: { operationId: 'same', responses: {} } },
        '/b': { get: { operationId: '', responses: {} } },
      }),
    );
    expect(result.ok ? [] : result.issues.map((i) => [i.code, i.pointer])).toEqual([
      ['E_EMPTY_NAME', '/paths/~1b/get/operationId'],
      ['E_DUPLICATE_TOOL', '/paths/~1a/post'],
    ]);
  });

  it('refuses Swagger 2.0 and OpenAPI 4', () => {
    const swagger = parseToolDoc({ swagger: '2.0', paths: {} });
    expect(swagger.ok ? [] : swagger.issues.map((i) => i.code)).toEqual(['E_UNSUPPORTED_VERSION']);
    const four = parseToolDoc({ openapi: '4.0.0', paths: {} });
    expect(four.ok ? [] : four.issues.map((i) => [i.code, i.pointer])).toEqual([['E_UNSUPPORTED_VERSION', '/openapi']]);
  });

  it('reports a document without operations as having no tools', () => {
    const result = parseToolDoc({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    expect(result.ok ? [] : result.issues.map((i) => i.code)).toEqual(['E_NO_TOOLS']);
  });
});
