import type { JsonSchemaObject, JsonValue } from '@autoforge/core';

// The params of the `records` driver (version 1): one plan per tool, written by
// `@autoforge/env-synth`'s classifier, pure JSON. One definition, used by both packages.

/** The operation patterns of keyed records. */
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
  | 'switch'
  | 'batch'
  | 'unclassified';

/** A character class of a variable id segment. */
export type RecordIdCharClass = 'digit' | 'upper' | 'lower' | 'upper-digit' | 'lower-digit' | 'alnum';

/** One segment of a new id: literal text, a run of random characters, or one of a list. */
export type RecordIdSegment = { lit: string } | { chars: RecordIdCharClass; min: number; max: number } | { oneOf: string[] };

/** How new ids of a collection look. */
export interface RecordIdFormat {
  segments: RecordIdSegment[];
}

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
  /** Results sorted by this field when the call names it (`sort`), in `directionParam`'s order. */
  sort?: { param?: string; field?: string; directionParam?: string };
  /** A parameter that skips results (`offset`), or pages them (`page` with the limit as page size). */
  offsetParam?: string;
  pageParam?: string;
  /** Results are the records' keys (the output schema lists plain values: `stock_list: string[]`). */
  keys?: boolean;
}

export interface CreatePlan extends PlanBase {
  pattern: 'create';
  collection: string;
  keyField?: string;
  /** `integer`: keys are numbers (stored as `String(n)`, the key field holds the number). */
  keyType?: 'integer';
  /** A parameter that supplies the new id, when the tool takes one. */
  idParam?: string;
  idFormat?: RecordIdFormat;
  /** A top-level integer value holding the next id (`ticket_counter`): the new key, then incremented. */
  counter?: string;
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
  /** Money the call moves, recorded in the record's payment history. */
  payments?: PaymentEffect;
}

/**
 * Money a write moves. `refund`: every payment of the history is refunded (a cancellation);
 * `difference`: the price difference of the swapped items is paid or refunded through
 * `methodParam`; `replace`: the paid total moves from the current method to `methodParam`;
 * `record`: the difference is stored in `differenceField` (nothing is paid yet); `refund-request`:
 * a refund asked to `methodParam` must go to a method that paid for the record or to a
 * stored-value one (nothing moves yet).
 */
export interface PaymentEffect {
  kind: 'refund' | 'difference' | 'replace' | 'record' | 'refund-request';
  /** The record's list of payment entries (`payment_history`). */
  history: string[];
  amountField: string;
  methodField: string;
  /** The entries' type field and its values; without it a refund is a negative amount. */
  type?: { field: string; payment: string; refund: string };
  methodParam?: string;
  /** Old and new item ids, the target's item list, and where new items' prices are found. */
  items?: { fromParam: string; toParam: string; field: string; keyField: string; priceField: string; source: { collection: string; field: string } };
  differenceField?: string[];
  /**
   * Stored-value methods: entries of `field` in the owner record (reached by the target's
   * `ownerPath`) that carry a number in `balanceField`. `creditRefunds`: refunds of a `refund`
   * go back to such a balance.
   */
  wallet?: { collection: string; ownerPath: string[]; field: string; keyField: string; balanceField: string; creditRefunds: boolean };
}

export interface DeletePlan extends PlanBase {
  pattern: 'delete';
  collection: string;
  /** The parameter naming the record (empty with `all`). */
  param: string;
  /** Deletes every record of the collection (`clear_…`); answers `{ deleted: n }`. */
  all?: boolean;
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

/** A tool no pattern fits: it becomes a stand-in (the records driver does not run it). */
export interface FallbackPlan extends PlanBase {
  pattern: 'unclassified';
  tool: string;
  note: string;
}

/** A plan the records driver runs as one operation. */
export type RunnablePlan = LookupPlan | FindPlan | ListPlan | CreatePlan | UpdatePlan | DeletePlan | ComputePlan | NoopPlan;

/**
 * A method-switch tool (`label_write {"method": "delete"}`): the value of the `switch` parameter
 * picks the plan the call runs.
 */
export interface SwitchPlan extends PlanBase {
  pattern: 'switch';
  switch: string;
  cases: Record<string, RunnablePlan>;
}

/**
 * A batch tool (`create_entities {"entities": [{…}, {…}]}`): `each` runs once per element of the
 * array parameter `batch.param`. `items: 'record'` passes each element's fields as the arguments;
 * `items: 'id'` passes the element as `each`'s id parameter `batch.as`. The answer is the list of
 * results; one failing element fails the call (and rolls back every element).
 */
export interface BatchPlan extends PlanBase {
  pattern: 'batch';
  batch: { param: string; items: 'record' | 'id'; as?: string };
  each: RunnablePlan;
}

/** What a tool compiles to: its pattern and the JSON its operation runs with. */
export type ToolPlan = RunnablePlan | SwitchPlan | BatchPlan | FallbackPlan;

/** The params of the `records` driver: every plan but `unclassified` (a stand-in). */
export type RecordsParams = Exclude<ToolPlan, FallbackPlan>;
