import type { JsonValue } from './json.js';

/** JSON Schema type names (draft 2020-12). */
export type JsonSchemaTypeName = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string';

/**
 * A JSON Schema (draft 2020-12) as AutoForge handles it: the keywords the toolkit reads are
 * typed, every other keyword is kept as JSON. Boolean schemas are allowed.
 */
export type JsonSchema = boolean | JsonSchemaObject;

/** The object form of a JSON Schema. */
export interface JsonSchemaObject {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  $comment?: string;
  title?: string;
  description?: string;
  type?: JsonSchemaTypeName | JsonSchemaTypeName[];
  enum?: JsonValue[];
  const?: JsonValue;
  default?: JsonValue;
  examples?: JsonValue[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  [keyword: string]: unknown;
}
