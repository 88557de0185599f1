import type { JsonSchemaObject, JsonValue } from '@autoforge/core';
import type { IdFormat } from './id-format.js';

/** The operation patterns a tool is compiled to. */
export type OperationPattern =
  | 'lookup'
  | 'find'
  | 'list'
  | 'create'
  | 'update'
  | 'transition'
  | 'delete'
  | 'compute'
  | 'noop'
  | 'unclassified';

/** A record filter: a parameter compared with the values at a field path. */
export interface Filter {
  param: string;
  path: string[];
  op: 'eq' | 'in' | 'contains' | 'keywords' | 'min' | 'max' | 'hasKey' | 'key' | 'prefix';
}

/** A check that an argument names an existing record, and that it belongs with the target. */
export interface RefCheck {
  param: string;
  entity: string;
  /** The argument is the id of a record of this collection. */
  collection?: string;
  /** The target's field that must hold this id (the target's foreign key). */
  targetField?: string[];
  /** The field of the referenced record that must list the target's id (ownership). */
  ownerField?: string[];
  targetEntity?: string;
  /** The argument names records nested somewhere: in the target, or in another record. */
  nestedIn?: 'target' | 'owner' | 'scan';
  /** Path, inside the holder, of the nested ids. */
  path?: string[];
  /** The parameter naming the holder record, when the call names it. */
  ownerParam?: string;
  /** How to reach the holder from the target (its foreign key). */
  ownerOf?: { collection: string; path: string[] };
  /** Look in every record of this collection (small collections only). */
  scanCollection?: string;
}

/** A parameter written to a field path. */
export interface Assignment {
  param: string;
  path: string[];
  /** Lists of ids are stored sorted (their order carries no meaning). */
  sort?: boolean;
}

interface PlanBase {
  /** The entity the tool works on, for messages. */
  entity: string;
}

export interface LookupPlan extends PlanBase {
  pattern: 'lookup';
  collection: string;
  param: string;
  refs: RefCheck[];
  /** The id names a record nested in the records of `collection`. */
  nested?: { field: string; kind: 'map' | 'list'; keyField: string };
  /** A bare `id` looked up in every collection. */
  anyOf?: string[];
  /** A second parameter picks an entry of a map field (`date` in `dates`). */
  select?: { param: string; field: string };
  /** Reads a plain state value instead of a record (`wifi`). */
  valueKey?: string;
}

export interface FindPlan extends PlanBase {
  pattern: 'find';
  collection: string;
  keyField?: string;
  filters: Filter[];
  returns: 'id' | 'record' | 'records';
}

export interface ListPlan extends PlanBase {
  pattern: 'list';
  collection: string;
  keyField?: string;
  filters: Filter[];
  limitParam?: string;
  /** The most results returned when the call sets no limit. */
  maxResults: number;
  /** The fields each result keeps (all when absent). */
  fields?: string[];
}

export interface CreatePlan extends PlanBase {
  pattern: 'create';
  collection: string;
  keyField?: string;
  /** A parameter that supplies the new id, when the tool takes one. */
  idParam?: string;
  idFormat?: IdFormat;
  assign: Assignment[];
  constants: { path: string[]; value: JsonValue }[];
  timestamps: string[][];
  refs: RefCheck[];
  backrefs: { collection: string; param: string; field: string }[];
  /** Array elements naming records of a collection must exist there, and take the fields they lack from them. */
  enrich: { field: string; key: string; collection: string; entity: string; copy: string[]; guaranteed: boolean }[];
  /** The record schema, to complete required fields. */
  schema: JsonSchemaObject;
}

export interface UpdatePlan extends PlanBase {
  pattern: 'update' | 'transition';
  collection: string;
  param: string;
  guards: { path: string[]; oneOf?: string[]; not?: string }[];
  refs: RefCheck[];
  assign: Assignment[];
  swaps: {
    fromParam: string;
    toParam: string;
    field: string;
    keyField: string;
    entity: string;
    source?: { collection: string; field: string };
  }[];
  constants: { path: string[]; value: JsonValue }[];
  enrich: CreatePlan['enrich'];
  status?: { path: string[]; value: string };
  /** Boolean fields flipped (`toggle_wifi`). */
  toggles: string[][];
  /** Plain state value written instead of a record (`wifi`). */
  valueKey?: string;
  value?: JsonValue;
  /** Flip the plain boolean value instead of writing `value`. */
  toggle?: boolean;
}

export interface DeletePlan extends PlanBase {
  pattern: 'delete';
  collection: string;
  param: string;
  guards: { path: string[]; oneOf?: string[]; not?: string }[];
  refs: RefCheck[];
  backrefs: { collection: string; fkField: string; field: string }[];
}

export interface ComputePlan extends PlanBase {
  pattern: 'compute';
  param: string;
}

export interface NoopPlan extends PlanBase {
  pattern: 'noop';
  message: string;
}

export interface FallbackPlan extends PlanBase {
  pattern: 'unclassified';
  tool: string;
  note: string;
  idLookups: { param: string; collections: string[] }[];
  fieldLookups: { param: string; collection: string; path: string[]; keyField?: string }[];
}

/** What a tool compiles to: its pattern and the JSON its template is instantiated with. */
export type ToolPlan =
  | LookupPlan
  | FindPlan
  | ListPlan
  | CreatePlan
  | UpdatePlan
  | DeletePlan
  | ComputePlan
  | NoopPlan
  | FallbackPlan;

/** The entry function of each pattern's template in the sandbox library. */
export const RUNNERS: Record<ToolPlan['pattern'], string> = {
  lookup: 'runLookup',
  find: 'runFind',
  list: 'runList',
  create: 'runCreate',
  update: 'runUpdate',
  transition: 'runUpdate',
  delete: 'runDelete',
  compute: 'runCompute',
  noop: 'runNoop',
  unclassified: 'runFallback',
};
