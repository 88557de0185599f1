// Parse time of a generated 2,000-operation OpenAPI document (JSON and YAML text, and as a
// value) and of every benchmark tool file. Run with `pnpm bench`.
import { stringify } from 'yaml';
import { bench, describe } from 'vitest';
import { parseToolDoc } from './index.js';
import { ACEBENCH_FILES, TOOL_FILES, readBenchmark } from './test-support.js';

const SHARED = 10;

/** A deterministic OpenAPI 3.0 document: `paths` × 2 operations, all using shared component schemas by $ref. */
function generateOpenApi(paths: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    Money: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'number', minimum: 0 }, currency: { type: 'string', enum: ['USD', 'EUR'] } } },
    Address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } } },
    Node: { type: 'object', properties: { id: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
  };
  for (let k = 0; k < SHARED; k++) {
    schemas[`NewItem${k}`] = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', example: `item ${k}` },
        price: { $ref: '#/components/schemas/Money' },
        shipTo: { $ref: '#/components/schemas/Address' },
        note: { type: 'string', nullable: true },
      },
    };
    schemas[`Item${k}`] = {
      allOf: [{ $ref: `#/components/schemas/NewItem${k}` }, { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tree: { $ref: '#/components/schemas/Node' } } }],
    };
  }
  const parameters = {
    Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    Offset: { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
  };
  const pathItems: Record<string, unknown> = {};
  for (let i = 0; i < paths; i++) {
    const k = i % SHARED;
    pathItems[`/r${i}/items`] = {
      get: {
        operationId: `listItems${i}`,
        summary: `List the items of resource ${i}`,
        tags: [`group${i % 20}`],
        parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Offset' }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/Item${k}` } } } } } },
      },
    };
    pathItems[`/r${i}/items/{itemId}`] = {
      post: {
        operationId: `updateItem${i}`,
        parameters: [
          { name: 'itemId', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/NewItem${k}` } } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/Item${k}` } } } } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Generated', version: '1.0.0' }, paths: pathItems, components: { schemas, parameters } };
}

const openapi = generateOpenApi(1000);
const openapiJson = JSON.stringify(openapi, null, 2);
const openapiYaml = stringify(openapi);

function parseOrThrow(input: unknown): void {
  const result = parseToolDoc(input);
  if (!result.ok) throw new Error(result.issues[0]?.message);
  if (result.value.tools.length === 0) throw new Error('no tools');
}

describe('OpenAPI 3.0, 2,000 operations with shared $refs', () => {
  bench('JSON text', () => parseOrThrow(openapiJson), { time: 2000 });
  bench('YAML text', () => parseOrThrow(openapiYaml), { time: 2000 });
  bench('parsed value', () => parseOrThrow(openapi), { time: 2000 });
});

describe('benchmark tool files (text)', () => {
  for (const [relative] of TOOL_FILES) {
    const text = readBenchmark(relative);
    bench(relative, () => parseOrThrow(text), { time: 300 });
  }
  for (const relative of ACEBENCH_FILES) {
    const text = readBenchmark(relative);
    bench(relative, () => parseOrThrow(text), { time: 300 });
  }
});
