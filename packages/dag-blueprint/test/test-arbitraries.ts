// fast-check arbitraries for this package's property tests (not exported from the package):
// random tool documents in a shop vocabulary, which env-synth turns into running environments.
import fc from 'fast-check';
import type { JsonSchema, ToolDoc, ToolSpec } from '@autoforge/core';

const ENTITIES = ['user', 'order', 'product', 'ticket'] as const;
const FIELDS: Record<(typeof ENTITIES)[number], string[]> = {
  user: ['email', 'name', 'city', 'zip'],
  order: ['status', 'total', 'note'],
  product: ['title', 'price', 'color'],
  ticket: ['subject', 'priority', 'status'],
};
const NUMERIC = new Set(['total', 'price']);

function schemaOf(field: string): JsonSchema {
  if (NUMERIC.has(field)) return { type: 'number', description: `the ${field}` };
  if (field === 'status') return { type: 'string', enum: ['open', 'pending', 'closed'], description: 'the status' };
  if (field === 'priority') return { type: 'string', enum: ['low', 'high'], description: 'the priority' };
  return { type: 'string', description: `the ${field}` };
}

type Shape = { verb: 'get' | 'find' | 'list' | 'update' | 'cancel' | 'create'; entity: (typeof ENTITIES)[number]; pick: number };

function toolOf(shape: Shape, index: number): ToolSpec {
  const { verb, entity } = shape;
  const fields = FIELDS[entity];
  const field = fields[shape.pick % fields.length] as string;
  const id = `${entity}_id`;
  let name: string;
  let properties: Record<string, JsonSchema>;
  let required: string[];
  switch (verb) {
    case 'get':
      name = `get_${entity}_details`;
      properties = { [id]: { type: 'string', description: `the ${entity} id` } };
      required = [id];
      break;
    case 'find':
      name = `find_${entity}_id_by_${field}`;
      properties = { [field]: schemaOf(field) };
      required = [field];
      break;
    case 'list':
      name = `list_${entity}s`;
      properties = {};
      required = [];
      break;
    case 'update':
      name = `update_${entity}_${field}`;
      properties = { [id]: { type: 'string', description: `the ${entity} id` }, [field]: schemaOf(field) };
      required = [id, field];
      break;
    case 'cancel':
      name = `cancel_${entity}`;
      properties = { [id]: { type: 'string', description: `the ${entity} id` } };
      required = [id];
      break;
    default:
      name = `create_${entity}`;
      properties = Object.fromEntries(fields.slice(0, 2).map((f) => [f, schemaOf(f)]));
      required = fields.slice(0, 2);
  }
  return {
    name,
    description: `${verb} ${entity}`,
    parameters: { type: 'object', properties, required },
    source: { format: 'openai-chat', pointer: `/${index}` },
  };
}

/**
 * Random tool documents: 3–8 tools over users, orders, products and tickets (get/find/list/
 * update/cancel/create), names unique, always with a way in (a list or find tool).
 */
export const arbitraryToolDoc: fc.Arbitrary<ToolDoc> = fc
  .tuple(
    fc.constantFrom(...ENTITIES),
    fc.array(
      fc.record({
        verb: fc.constantFrom('get', 'find', 'list', 'update', 'cancel', 'create'),
        entity: fc.constantFrom(...ENTITIES),
        pick: fc.nat({ max: 3 }),
      }),
      { minLength: 2, maxLength: 7 },
    ),
  )
  .map(([first, shapes]) => {
    const all: Shape[] = [{ verb: 'list', entity: first, pick: 0 }, { verb: 'get', entity: first, pick: 0 }, ...(shapes as Shape[])];
    const tools: ToolSpec[] = [];
    const names = new Set<string>();
    all.forEach((shape, i) => {
      const tool = toolOf(shape, i);
      if (names.has(tool.name)) return;
      names.add(tool.name);
      tools.push(tool);
    });
    return { format: 'openai-chat', tools };
  });
