// Word-level rules over tool, parameter and field names. Internal: the graph's matching and the
// read/write classification share them. Inflection rules live in core.
import { singularize, splitWords } from '@autoforge/core';

/** Splits a name into lower-case words (core's `splitWords`). */
export const words = splitWords;

/** A name in canonical snake_case (`orderId` → `order_id`); `''` when it has no words. */
export function normalizeName(name: string): string {
  return words(name).join('_');
}

export { singularize };

/** True when the last word of a snake_case name is a plural noun (`orders`, `item_ids`). */
export function isPlural(name: string): boolean {
  return singularize(name) !== name;
}

const ID_WORDS = new Set(['id', 'ids', 'uuid', 'uuids', 'guid', 'key', 'keys']);

/**
 * True when a snake_case name refers to a record by identifier: `id`, `order_id`, `item_ids`,
 * `user_uuid`. Numbers and codes (`flight_number`, `zip_code`) are facts a person can know and
 * are not identifiers here.
 */
export function isIdName(name: string): boolean {
  const last = name.split('_').pop() ?? '';
  return ID_WORDS.has(last);
}

/** `item_ids` → `item_id`, `orders` → `orders` (only id lists are rewritten). */
export function singularIdName(name: string): string {
  if (name.endsWith('_ids')) return `${name.slice(0, -4)}_id`;
  if (name.endsWith('_uuids')) return `${name.slice(0, -6)}_uuid`;
  if (name.endsWith('_keys')) return `${name.slice(0, -5)}_key`;
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
  return QUALIFIERS.includes(first) || READ_VERBS.has(first) || WRITE_VERBS.has(first) ? parts.slice(1).join('_') : undefined;
}

const READ_VERBS = new Set([
  'get', 'find', 'list', 'search', 'lookup', 'look', 'fetch', 'retrieve', 'query', 'check', 'calculate', 'compute',
  'think', 'view', 'show', 'describe', 'count', 'read', 'validate', 'verify', 'recommend', 'recommand', 'browse',
  'estimate', 'evaluate', 'convert', 'resolve', 'load', 'download', 'export', 'summarize', 'inspect', 'track',
]);
const WRITE_VERBS = new Set([
  'create', 'add', 'insert', 'book', 'register', 'place', 'send', 'submit', 'post', 'put', 'update', 'modify',
  'change', 'edit', 'set', 'toggle', 'cancel', 'delete', 'remove', 'return', 'exchange', 'pay', 'refund', 'assign',
  'reset', 'enable', 'disable', 'suspend', 'resume', 'turn', 'login', 'logout', 'upgrade', 'downgrade', 'apply',
  'reserve', 'purchase', 'buy', 'sell', 'save', 'write', 'upload', 'approve', 'reject', 'close', 'open', 'archive',
  'move', 'rename', 'replace', 'confirm', 'schedule', 'reschedule', 'unsubscribe', 'subscribe', 'block', 'unblock',
  'activate', 'deactivate', 'grant', 'revoke', 'redeem', 'transfer_funds', 'mark', 'clear', 'patch',
]);

/**
 * The access a tool's name implies: the first word that is a known read or write verb decides
 * (`instore_cancel_order` → write, `hotel_search_recommend` → read); undefined when none is.
 */
export function accessFromName(toolName: string): 'read' | 'write' | undefined {
  for (const w of words(toolName)) {
    if (WRITE_VERBS.has(w)) return 'write';
    if (READ_VERBS.has(w)) return 'read';
  }
  return undefined;
}

const ENTITY_STOP = new Set(['details', 'detail', 'info', 'information', 'data', 'record', 'records', 'by', 'for', 'of', 'from', 'with', 'all']);

/**
 * The entity a tool returns, from its name: the last noun before a stop word, singular
 * (`get_user_details` → `user`, `list_orders` → `order`, `get_ota_hotel_info` → `hotel`).
 */
export function entityFromToolName(toolName: string): string | undefined {
  const ws = words(toolName);
  let noun: string | undefined;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    if (i === 0 && (READ_VERBS.has(w) || WRITE_VERBS.has(w))) continue;
    if (w === 'by' || w === 'for' || w === 'of' || w === 'from' || w === 'with') break;
    if (ENTITY_STOP.has(w) || ID_WORDS.has(w) || READ_VERBS.has(w) || WRITE_VERBS.has(w)) continue;
    noun = w;
  }
  return noun === undefined ? undefined : singularize(noun);
}

/**
 * The identifier a tool's bare output is, from its name: `find_user_id_by_email` → `user_id`,
 * `get_payment_method_ids` → `payment_method_id`; undefined when the name names no id.
 */
export function idFromToolName(toolName: string): string | undefined {
  const ws = words(toolName);
  const at = ws.findIndex((w) => ID_WORDS.has(w));
  if (at <= 0) return undefined;
  const noun: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const w = ws[i] as string;
    if (READ_VERBS.has(w) || WRITE_VERBS.has(w) || ENTITY_STOP.has(w)) break;
    noun.unshift(w);
  }
  if (noun.length === 0) return undefined;
  const id = ws[at] as string;
  return `${noun.join('_')}_${id.endsWith('s') ? id.slice(0, -1) : id}`;
}
