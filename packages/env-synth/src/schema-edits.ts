import type { JsonSchema, JsonSchemaObject } from '@autoforge/core';
import type { StateModel } from './state-model.js';
import { nonNull, structuralSchema } from './schema-utils.js';

/** Record schema changes that tools imply: new optional fields, new enum values, widened enums. */
export class SchemaEditor {
  constructor(private readonly model: StateModel) {}

  private recordSchema(collection: string): JsonSchemaObject | undefined {
    return this.model.collections.find((c) => c.name === collection)?.recordSchema;
  }

  /** The object schema holding the last segment of `path`, created on the way when missing. */
  private parentOf(collection: string, path: readonly string[], create: boolean): JsonSchemaObject | undefined {
    let cur = this.recordSchema(collection);
    for (const seg of path.slice(0, -1)) {
      if (!cur) return undefined;
      if (seg === '[]') {
        cur = typeof cur.items === 'object' ? cur.items : undefined;
        continue;
      }
      if (seg === '*') {
        cur = typeof cur.additionalProperties === 'object' ? cur.additionalProperties : undefined;
        continue;
      }
      cur.properties ??= {};
      let next = cur.properties[seg];
      if (next === undefined && create) {
        next = { type: 'object', properties: {}, additionalProperties: false };
        cur.properties[seg] = next;
      }
      cur = typeof next === 'object' ? next : undefined;
    }
    return cur;
  }

  /** True when the record schema has a field at `path`. */
  has(collection: string, path: readonly string[]): boolean {
    const parent = this.parentOf(collection, path, false);
    const last = path[path.length - 1] as string;
    return parent?.properties?.[last] !== undefined;
  }

  /** Declares an optional field (kept when it exists). Returns whether it was added. */
  addField(collection: string, path: readonly string[], schema: JsonSchema): boolean {
    const parent = this.parentOf(collection, path, true);
    if (!parent) return false;
    const last = path[path.length - 1] as string;
    parent.properties ??= {};
    if (parent.properties[last] !== undefined) return false;
    parent.properties[last] = structuralSchema(nonNull(schema));
    return true;
  }

  /** Adds a value to the enum of a string field, when it has one. */
  addEnumValue(collection: string, path: readonly string[], value: string): void {
    const parent = this.parentOf(collection, path, false);
    const last = path[path.length - 1] as string;
    const field = parent?.properties?.[last];
    if (typeof field !== 'object') return;
    if (field.enum && !field.enum.includes(value)) field.enum = [...field.enum, value];
  }

  /**
   * Makes a field accept what a parameter writes into it: an enum absorbs the parameter's enum,
   * or is dropped when the parameter is free text; `integer` widens to `number`; objects (and
   * array items) gain the parameter's extra properties, and keep as required only what the
   * parameter requires or `filled` names (fields the tool fills in itself).
   */
  widen(collection: string, path: readonly string[], param: JsonSchemaObject, filled: readonly string[] = []): void {
    const parent = this.parentOf(collection, path, false);
    const last = path[path.length - 1] as string;
    const field = parent?.properties?.[last];
    if (typeof field !== 'object' || !parent?.properties) return;
    mergeWritable(field, nonNull(param), filled);
  }

}

function mergeWritable(field: JsonSchemaObject, param: JsonSchemaObject, filled: readonly string[]): void {
  if (field.enum) {
    if (param.enum) {
      const merged = [...field.enum];
      for (const v of param.enum) if (!merged.includes(v)) merged.push(v);
      field.enum = merged;
    } else if (param.type !== undefined || param.properties) {
      delete field.enum;
    }
  }
  if (field.type === 'integer' && param.type === 'number') field.type = 'number';
  if (field.type === 'object' && (param.type === 'object' || param.properties)) {
    const props = (field.properties ??= {});
    for (const [k, v] of Object.entries(param.properties ?? {})) {
      const existing = props[k];
      if (existing === undefined) props[k] = structuralSchema(nonNull(v));
      else if (typeof existing === 'object' && typeof v === 'object') mergeWritable(existing, nonNull(v), []);
    }
    // Arguments may carry properties the data never showed.
    if (param.additionalProperties !== false) delete field.additionalProperties;
    if (field.required) {
      const guaranteed = new Set([...(param.required ?? []), ...filled]);
      field.required = field.required.filter((r) => guaranteed.has(r));
    }
  }
  if (field.type === 'array' && typeof field.items === 'object' && (param.type === 'array' || param.items)) {
    const pi = typeof param.items === 'object' ? nonNull(param.items) : {};
    mergeWritable(field.items, pi, filled);
  }
}
