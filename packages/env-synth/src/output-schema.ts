import type { JsonSchema, JsonSchemaObject } from '@autoforge/core';
import type { ToolPlan } from './plan.js';
import { mainType, nonNull, schemaAt, stripAnnotations } from './schema-utils.js';
import type { StateModel } from './state-model.js';

/**
 * The output schema of a compiled tool: the record schema for lookups and writes, an array of
 * (projected) records for lists, a string for find-id tools, a number for arithmetic, a string
 * for acknowledgments, the alternatives of a method switch, a list of results for batches, and
 * any object for unclassified tools (stand-ins: they never answer).
 */
export function outputSchemaFor(plan: ToolPlan, model: StateModel): JsonSchema {
  const record = (name: string): JsonSchemaObject => {
    const c = model.collections.find((x) => x.name === name);
    return c ? (stripAnnotations(c.recordSchema) as JsonSchemaObject) : { type: 'object' };
  };
  switch (plan.pattern) {
    case 'lookup': {
      if (plan.valueKey) return stripAnnotations(model.values[plan.valueKey] ?? {});
      if (plan.anyOf) {
        const alts = plan.anyOf.map(record);
        return alts.length === 1 ? (alts[0] as JsonSchemaObject) : { anyOf: alts };
      }
      const r = record(plan.collection);
      if (plan.nested) {
        const sub = plan.nested.kind === 'map' ? schemaAt(r, [plan.nested.field, '*']) : schemaAt(r, [plan.nested.field, '[]']);
        return sub ? nonNull(sub) : { type: 'object' };
      }
      if (plan.select) {
        const sub = schemaAt(r, [plan.select.field, '*']);
        return { anyOf: [r, sub ? nonNull(sub) : { type: 'object' }] };
      }
      return r;
    }
    case 'find':
      if (plan.returns === 'id') return { type: 'string' };
      if (plan.returns === 'records') return { type: 'array', items: record(plan.collection) };
      return record(plan.collection);
    case 'list': {
      const r = record(plan.collection);
      if (plan.fields) {
        const props: Record<string, JsonSchema> = {};
        for (const f of plan.fields) {
          const s = r.properties?.[f];
          if (s !== undefined) props[f] = s;
        }
        return { type: 'array', items: { type: 'object', properties: props } };
      }
      return { type: 'array', items: r };
    }
    case 'create':
      return record(plan.collection);
    case 'delete':
      if (plan.all) return { type: 'object', properties: { deleted: { type: 'integer' } }, required: ['deleted'] };
      return record(plan.collection);
    case 'update':
    case 'transition':
      if (plan.valueKey) return stripAnnotations(model.values[plan.valueKey] ?? {});
      return record(plan.collection);
    case 'compute':
      return { type: 'number' };
    case 'noop':
      return { type: 'string' };
    case 'switch': {
      const alts: JsonSchema[] = [];
      for (const c of Object.values(plan.cases)) {
        const out = outputSchemaFor(c, model);
        if (!alts.some((x) => JSON.stringify(x) === JSON.stringify(out))) alts.push(out);
      }
      return alts.length === 1 ? (alts[0] as JsonSchema) : { anyOf: alts };
    }
    case 'batch':
      return { type: 'array', items: outputSchemaFor(plan.each, model) };
    case 'unclassified':
      return { type: 'object' };
  }
}

/**
 * The output schema a tool of keyed records declares, made true to what it answers: a list (or a
 * find of many records) that the document names as one object property — a dictionary keyed by
 * id, described by the fields of one value (`{ bookings: { type: 'object', properties: { date, … } } }`)
 * — answers its records as an array under that property (the driver puts them there), so the
 * property becomes that array of records. Any other declared schema is kept as it is.
 */
export function declaredOutputSchema(declared: JsonSchema, plan: ToolPlan, model: StateModel): JsonSchema {
  const many = plan.pattern === 'list' || (plan.pattern === 'find' && plan.returns === 'records');
  if (!many || typeof declared !== 'object' || mainType(declared) !== 'object') return declared;
  const props = (declared.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(props);
  const only = names.length === 1 ? (props[names[0] as string] as JsonSchema) : undefined;
  if (only === undefined || typeof only !== 'object' || mainType(only) !== 'object') return declared;
  const planned = outputSchemaFor(plan, model);
  if (typeof planned !== 'object' || mainType(planned) !== 'array') return declared;
  const list: JsonSchemaObject = { ...planned, ...(typeof only.description === 'string' ? { description: only.description } : {}) };
  return { ...declared, properties: { [names[0] as string]: list } };
}
