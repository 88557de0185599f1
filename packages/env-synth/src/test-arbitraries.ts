// fast-check arbitraries for this package's property tests (not exported from the package).
import fc from 'fast-check';
import type { JsonSchema, JsonSchemaObject, ToolSpec } from '@autoforge/core';
import { structuralSchema } from './schema-utils.js';
import type { CollectionModel, Relation, StateModel } from './state-model.js';

const ENTITIES = ['customer', 'order', 'product', 'ticket', 'booking', 'device'] as const;

/** Field schemas as documents write them: formats, patterns, bounds, enums, lengths, nullables, nested objects. */
const FIELD_SCHEMAS: Record<string, fc.Arbitrary<JsonSchemaObject>> = {
  email: fc.constant({ type: 'string', format: 'email' }),
  phone: fc.constantFrom<JsonSchemaObject>(
    { type: 'string', pattern: '^\\(\\d{3}\\) \\d{3}-\\d{4}$' },
    { type: 'string', pattern: '^\\+1-\\d{3}-\\d{3}-\\d{4}$' },
    { type: 'string' },
  ),
  full_name: fc.integer({ min: 6, max: 40 }).map((max): JsonSchemaObject => ({ type: 'string', minLength: 3, maxLength: max })),
  status: fc
    .uniqueArray(fc.constantFrom('open', 'pending', 'shipped', 'closed', 'cancelled', 'active'), { minLength: 1, maxLength: 4 })
    .map((values): JsonSchemaObject => ({ type: 'string', enum: values })),
  price: fc
    .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 300 }), fc.boolean())
    .map(([lo, span, cents]): JsonSchemaObject => ({ type: 'number', exclusiveMinimum: lo, maximum: lo + span, ...(cents ? { multipleOf: 0.01 } : {}) })),
  quantity: fc
    .tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom(1, 2, 5))
    .map(([lo, m]): JsonSchemaObject => ({ type: 'integer', minimum: lo, exclusiveMaximum: lo + 60, multipleOf: m })),
  code: fc.constantFrom<JsonSchemaObject>(
    { type: 'string', pattern: '^[A-Z]{2}\\d{3}$' },
    { type: 'string', pattern: '^(red|green|blue)-[a-z]{2,4}$' },
    { type: 'string', pattern: '^[a-f0-9]{6,10}$', minLength: 8 },
  ),
  created_at: fc.constant({ type: 'string', format: 'date-time' }),
  birth_date: fc.constantFrom<JsonSchemaObject>({ type: 'string', format: 'date' }, { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  start_time: fc.constant({ type: 'string', format: 'time' }),
  website: fc.constantFrom<JsonSchemaObject>({ type: 'string', format: 'uri' }, { type: 'string', format: 'hostname' }),
  tags: fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 2, max: 5 }))
    .map(([min, max]): JsonSchemaObject => ({ type: 'array', items: { type: 'string', maxLength: 16 }, uniqueItems: true, minItems: min, maxItems: max })),
  notes: fc.integer({ min: 10, max: 80 }).map((max): JsonSchemaObject => ({ type: 'string', minLength: 5, maxLength: max })),
  nickname: fc.constantFrom<JsonSchemaObject>(
    { anyOf: [{ type: 'string', maxLength: 12 }, { type: 'null' }] },
    { type: ['string', 'null'], maxLength: 20 },
    { type: 'string', nullable: true, minLength: 2 },
  ),
  rating: fc.constantFrom<JsonSchemaObject>({ type: ['integer', 'null'], minimum: 1, maximum: 5 }, { type: 'number', minimum: 0, maximum: 5, multipleOf: 0.5 }),
  zip: fc.constant({ type: 'string', pattern: '^\\d{5}$' }),
  address: fc.constant({
    type: 'object',
    properties: { street: { type: 'string' }, city: { type: 'string', minLength: 2 }, zip: { type: 'string', pattern: '^\\d{5}(-\\d{4})?$' } },
    required: ['street', 'city', 'zip'],
    additionalProperties: false,
  }),
  ip_address: fc.constantFrom<JsonSchemaObject>({ type: 'string', format: 'ipv4' }, { type: 'string', format: 'ipv6' }),
  color: fc.constantFrom<JsonSchemaObject>({ type: 'string', enum: ['red', 'blue', 'green'] }, { type: 'string', maxLength: 12 }),
  priority: fc.constantFrom<JsonSchemaObject>({ const: 'normal' }, { oneOf: [{ type: 'integer', minimum: 1, maximum: 3 }, { type: 'string', enum: ['low', 'high'] }] }),
  metadata: fc.constant({ type: 'object', additionalProperties: { type: 'string', maxLength: 20 }, minProperties: 1 }),
};
const FIELD_NAMES = Object.keys(FIELD_SCHEMAS);

/** How a collection's records are keyed, as its id parameter's schema says. */
const KEY_SCHEMAS: fc.Arbitrary<{ schema: JsonSchemaObject; integer: boolean }> = fc.constantFrom(
  { schema: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, integer: false },
  { schema: { type: 'string', pattern: '^#W\\d{7}$' }, integer: false },
  { schema: { type: 'string', pattern: '^[a-f0-9]{8}$' }, integer: false },
  { schema: { type: 'string', format: 'uuid' }, integer: false },
  { schema: { type: 'string' }, integer: false },
  { schema: { type: 'integer', minimum: 1 }, integer: true },
  { schema: { type: 'integer', minimum: 100, maximum: 99999 }, integer: true },
);

/** One entity of a random document: its fields and their schemas. */
export interface RandomEntity {
  entity: string;
  idParam: string;
  keySchema: JsonSchemaObject;
  integerKey: boolean;
  fields: Record<string, JsonSchemaObject>;
}

/** A random tool document with the ground truth of what its tools read and write. */
export interface RandomDoc {
  tools: Pick<ToolSpec, 'name' | 'description' | 'parameters'>[];
  entities: RandomEntity[];
  /** The state model a synthesizer would infer: record schemas keep only the structure of the fields (as inference does). */
  model: StateModel;
  /** Per tool, the collection and the record fields (or `$key`) its parameters map to. */
  access: { tool: string; collection: string; params: Record<string, string> }[];
}

const entityArb = (entity: string): fc.Arbitrary<RandomEntity> =>
  fc
    .tuple(KEY_SCHEMAS, fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength: 1, maxLength: 8 }))
    .chain(([key, names]) =>
      fc.tuple(...names.map((n) => FIELD_SCHEMAS[n] as fc.Arbitrary<JsonSchemaObject>)).map((schemas) => ({
        entity,
        idParam: `${entity}_id`,
        keySchema: key.schema,
        integerKey: key.integer,
        fields: Object.fromEntries(names.map((n, i) => [n, schemas[i] as JsonSchemaObject])),
      })),
    );

/**
 * Random documents of 1–3 entities, each with create/get/update/list/delete tools whose
 * parameters carry rich schemas (formats, patterns, bounds, enums, nullables, nested objects,
 * maps), string or integer id parameters with patterns, and a reference from each later entity
 * to the first one (`order.customer_id`).
 */
export const arbitraryDoc: fc.Arbitrary<RandomDoc> = fc
  .uniqueArray(fc.constantFrom(...ENTITIES), { minLength: 1, maxLength: 3 })
  .chain((names) => fc.tuple(...names.map(entityArb)))
  .map((entities): RandomDoc => {
    const first = entities[0] as RandomEntity;
    const tools: RandomDoc['tools'] = [];
    const access: RandomDoc['access'] = [];
    const collections: CollectionModel[] = [];
    const relations: Relation[] = [];
    for (const e of entities) {
      const name = `${e.entity}s`;
      const ref = e === first ? undefined : first.idParam;
      const fieldProps: Record<string, JsonSchema> = { ...e.fields };
      if (ref) fieldProps[ref] = first.keySchema;
      const fieldNames = Object.keys(fieldProps);
      const map = (params: string[]): Record<string, string> =>
        Object.fromEntries(params.map((p) => [p, p === e.idParam ? '$key' : p]));
      const add = (verb: string, props: Record<string, JsonSchema>, required: string[]): void => {
        const toolName = `${verb}_${e.entity}`;
        tools.push({ name: toolName, description: `${verb} a ${e.entity}`, parameters: { type: 'object', properties: props, required } });
        access.push({ tool: toolName, collection: name, params: map(Object.keys(props)) });
      };
      add('create', fieldProps, fieldNames);
      add('get', { [e.idParam]: e.keySchema }, [e.idParam]);
      add('update', { [e.idParam]: e.keySchema, ...Object.fromEntries(Object.entries(e.fields).slice(0, 3)) }, [e.idParam]);
      add('delete', { [e.idParam]: e.keySchema }, [e.idParam]);
      const recordProps: Record<string, JsonSchema> = { [e.idParam]: e.integerKey ? { type: 'integer' } : { type: 'string' } };
      for (const [f, s] of Object.entries(fieldProps)) recordProps[f] = f === ref ? (first.integerKey ? { type: 'integer' } : { type: 'string' }) : structuralSchema(s);
      const c: CollectionModel = {
        name,
        entity: e.entity,
        keyField: e.idParam,
        idParam: e.idParam,
        recordSchema: { type: 'object', properties: recordProps, required: Object.keys(recordProps), additionalProperties: false },
        nested: [],
        origin: 'tools',
      };
      if (e.integerKey) c.keyType = 'integer';
      collections.push(c);
      if (ref) relations.push({ from: name, path: ref, to: `${first.entity}s`, many: false });
    }
    return { tools, entities, model: { collections, values: {}, relations }, access };
  });
