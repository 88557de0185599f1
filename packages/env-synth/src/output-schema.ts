import type { JsonSchema, JsonSchemaObject } from '@autoforge/core';
import type { ToolPlan } from './plan.js';
import { nonNull, schemaAt, stripAnnotations } from './schema-utils.js';
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
