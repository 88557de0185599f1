// Word-level rules over tool, parameter and field names. Internal: the graph's matching and the
// read/write classification share them. Inflection rules live in core.
import { isHandOff, isIdParam, nameVerb, normalizeName, singularize, splitWords, VERB_CLASS_ACCESS, verbClassOf } from '@autoforge/core';

/** Splits a name into lower-case words (core's `splitWords`). */
export const words = splitWords;

/** A name in canonical snake_case (core's `normalizeName`). */
export { normalizeName };

export { singularize };

/** True when the last word of a snake_case name is a plural noun (`orders`, `item_ids`). */
export function isPlural(name: string): boolean {
  return singularize(name) !== name;
}

// Words that name an identifier inside a tool name (`find_member_id_by_phone`).
const ID_WORDS = new Set(['id', 'ids', 'uuid', 'uuids', 'guid', 'guids', 'key', 'keys']);

/**
 * True when a name refers to a record by an opaque identifier: `id`, `order_id`, `item_ids`,
 * `user_uuid` (core's `isIdParam`). Numbers and codes (`flight_number`, `zip_code`) are facts a
 * person can know and are not identifiers here.
 */
export function isIdName(name: string): boolean {
  return isIdParam(name);
}

/** `item_ids` → `item_id`, `orders` → `orders` (only id lists are rewritten). */
export function singularIdName(name: string): string {
  if (name.endsWith('_ids')) return `${name.slice(0, -4)}_id`;
  if (name.endsWith('_uuids')) return `${name.slice(0, -6)}_uuid`;
  if (name.endsWith('_keys')) return `${name.slice(0, -5)}_key`;
  if (name.endsWith('_guids')) return `${name.slice(0, -6)}_guid`;
  return name;
}

/**
 * Low-information field names: equal names alone say little about a dependency (`name`,
 * `status`, `amount`). Matches on them score lower.
 */
const GENERIC = new Set([
  'name', 'type', 'kind', 'status', 'state', 'description', 'title', 'label', 'value', 'values', 'data', 'text',
  'content', 'message', 'note', 'notes', 'result', 'results', 'reason', 'comment', 'summary', 'query', 'keyword',
  'keywords', 'key_words', 'category', 'limit', 'offset', 'page', 'size', 'count', 'quantity', 'amount', 'price',
  'total', 'currency', 'date', 'time', 'start', 'end', 'source', 'options', 'option', 'available', 'tool', 'supported',
  'expression', 'thought', 'items', 'item', 'number', 'year', 'range',
]);

/** True for names that carry little information on their own (`name`, `status`, `date`). */
export function isGenericName(name: string): boolean {
  return GENERIC.has(name);
}

/** Qualifiers that do not change what a parameter refers to: `new_item_ids` still names item ids. */
const QUALIFIERS = ['new', 'old', 'original', 'target', 'source', 'current', 'selected', 'updated', 'existing', 'previous', 'destination'];

/**
 * The name without one leading qualifier or verb (`new_item_ids` → `item_ids`,
 * `exchange_payment_method_id` → `payment_method_id`), or undefined when it has none.
 */
export function stripQualifier(name: string): string | undefined {
  const parts = name.split('_');
  if (parts.length < 2) return undefined;
  const first = parts[0] as string;
  // A verb only qualifies a longer name: `exchange_payment_method_id`, but `issue_id` is the id.
  if (QUALIFIERS.includes(first)) return parts.slice(1).join('_');
  return isVerb(first) && parts.length > 2 ? parts.slice(1).join('_') : undefined;
}

/** True for a word of core's verb table. */
function isVerb(word: string): boolean {
  return verbClassOf(word) !== undefined;
}

/**
 * True for a word of a tool name that is its action, not what it acts on: the name's verb,
 * and any reading verb (`search`, `suggest`). Other writing verbs elsewhere in a name are
 * usually nouns there (`get_issue_comments`, `list_file_records`).
 */
function isActionWord(ws: readonly string[], i: number, verbIndex: number | undefined): boolean {
  const cls = verbClassOf(ws[i] as string);
  if (cls === undefined) return false;
  return i === verbIndex || VERB_CLASS_ACCESS[cls] === 'read';
}

/**
 * The access a tool's name implies (core's verb table): the first word that is a known verb
 * decides (`shop_cancel_booking` → write, `hotel_search_suggest` → read); a hand-over to a
 * person reads; undefined when no word is a verb.
 */
export function accessFromName(toolName: string): 'read' | 'write' | undefined {
  if (isHandOff({ name: toolName, description: '' })) return 'read';
  const verb = nameVerb(toolName);
  return verb ? VERB_CLASS_ACCESS[verb.verbClass] : undefined;
}

const ENTITY_STOP = new Set(['details', 'detail', 'info', 'information', 'data', 'record', 'records', 'by', 'for', 'of', 'from', 'with', 'all']);

/**
 * The entity a tool returns, from its name: the last noun before a stop word, singular
 * (`get_member_details` → `member`, `list_orders` → `order`, `get_partner_room_info` → `room`).
 */
export function entityFromToolName(toolName: string): string | undefined {
  const ws = words(toolName);
  const verbIndex = nameVerb(toolName)?.index;
  let noun: string | undefined;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    if (i === 0 && isVerb(w)) continue;
    if (w === 'by' || w === 'for' || w === 'of' || w === 'from' || w === 'with') break;
    if (ENTITY_STOP.has(w) || ID_WORDS.has(w) || isActionWord(ws, i, verbIndex)) continue;
    noun = w;
  }
  return noun === undefined ? undefined : singularize(noun);
}

/**
 * The identifier a tool's bare output is, from its name: `find_member_id_by_phone` → `member_id`,
 * `get_payment_method_ids` → `payment_method_id`; undefined when the name names no id.
 */
export function idFromToolName(toolName: string): string | undefined {
  const ws = words(toolName);
  const at = ws.findIndex((w) => ID_WORDS.has(w));
  if (at <= 0) return undefined;
  const verbIndex = nameVerb(toolName)?.index;
  const noun: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const w = ws[i] as string;
    if (isActionWord(ws, i, verbIndex) || ENTITY_STOP.has(w)) break;
    noun.unshift(w);
  }
  if (noun.length === 0) return undefined;
  const id = ws[at] as string;
  return `${noun.join('_')}_${id.endsWith('s') ? id.slice(0, -1) : id}`;
}
