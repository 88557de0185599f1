import type { JsonValue, Rng } from '@autoforge/core';
import { isJsonObject, splitWords } from '@autoforge/core';

// The surface forms of the acts an intent is made of. Each act has several forms that say the same
// thing; the task's seeded stream picks one, so tasks read differently and the same seed gives the
// same text. Every form is in the second person, as benchmark instructions are written; the
// scripted user turns them into the first person (its `firstPersonIntent`), so a form only uses
// "you"/"your" where "I"/"my" reads right, and a sentence that only answers questions starts with
// "If asked" (the opening leaves those out).

/** Picks one form of an act with the task's stream. */
export interface Grammar {
  pick<T>(forms: readonly T[]): T;
}

/** A grammar over a seeded stream. */
export function createGrammar(rng: Rng): Grammar {
  return { pick: (forms) => rng.pick(forms) };
}

/** Who the user is: `list` is "your email is "x" and your zip is "y"". */
export const IDENTITY_FORMS: readonly ((list: string) => string)[] = [
  (list) => `${capitalize(list)}.`,
  (list) => `For reference, ${list}.`,
  (list) => `In case the agent needs to find you, ${list}.`,
];

/** Who the user is, by full name; `rest` may be empty. */
export const NAME_FORMS: readonly ((name: string, rest: string) => string)[] = [
  (name, rest) => `You are ${name}${rest === '' ? '' : `, and ${rest}`}.`,
  (name, rest) => `Your name is ${name}${rest === '' ? '' : ` and ${rest}`}.`,
];

/** A record the user has in mind (a criterion that only feeds reads). */
export const IN_MIND_FORMS: readonly ((thing: string) => string)[] = [
  (thing) => `You have in mind ${thing}.`,
  (thing) => `You are thinking of ${thing}.`,
  (thing) => `What you care about is ${thing}.`,
];

/** The lead of the first goal. */
export const FIRST_GOAL_LEADS: readonly string[] = ['You want to', "You'd like to", 'You need to', "You're hoping to"];
/** The lead of a later goal. */
export const NEXT_GOAL_LEADS: readonly string[] = ['You also want to', 'Then you want to', "After that, you'd like to", 'Next, you need to'];

/** A goal under a condition; `goal` starts with a verb. */
export const CONDITION_FORMS: readonly ((condition: string, goal: string) => string)[] = [
  (condition, goal) => `Only if ${condition}, you want to ${goal}; otherwise you want nothing changed.`,
  (condition, goal) => `If ${condition}, you'd like to ${goal}; if not, you want everything left as it is.`,
  (condition, goal) => `You want to ${goal}, but only if ${condition}; otherwise nothing should change.`,
];

/** The question of a task that also writes. */
export const ASK_AFTER_FORMS: readonly ((what: string) => string)[] = [
  (what) => `You also want to know ${what}.`,
  (what) => `Once that is done, you'd like to be told ${what}.`,
  (what) => `Finally, you want to find out ${what}.`,
];
/** The question of a read-only task. */
export const ASK_FORMS: readonly ((what: string) => string)[] = [
  (what) => `You want to know ${what}.`,
  (what) => `You'd like to find out ${what}.`,
  (what) => `You are asking for ${what}.`,
];
/** The question of a conditional task (asked whichever branch is taken). */
export const ASK_EITHER_WAY_FORMS: readonly ((what: string) => string)[] = [
  (what) => `Either way, you want to be told ${what}.`,
  (what) => `In any case, you'd like to know ${what}.`,
];

/** Facts given only when asked. */
export const IF_ASKED_FORMS: readonly ((list: string) => string)[] = [
  (list) => `If asked, ${list}.`,
  (list) => `If the agent asks, ${list}.`,
];

/** How values of a goal are introduced ("…, with the title "x" and the body "y""). */
export const WITH_FORMS: readonly string[] = ['with', 'using', 'giving'];

/** A selection by field value: the noun, the field's words, the value as said. */
export const SELECT_FORMS: readonly ((noun: string, field: string, value: string) => string)[] = [
  (noun, field, value) => `the ${noun} whose ${field} is ${value}`,
  (noun, field, value) => `the ${noun} with ${field} ${value}`,
  (noun, field, value) => `whichever ${noun} has ${field} ${value}`,
];
/** A selection by a status-like field: "the pending order", "whichever of your orders is pending". */
export const STATUS_FORMS: readonly ((noun: string, value: string) => string)[] = [
  (noun, value) => `the ${noun} that is ${value}`,
  (noun, value) => `whichever of your ${plural(noun)} is ${value}`,
  (noun, value) => `the ${noun} that is currently ${value}`,
];

/** Extremes by a price-like key. */
export const CHEAPEST_FORMS: readonly ((noun: string) => string)[] = [
  (noun) => `the cheapest ${noun}`,
  (noun) => `the least expensive ${noun}`,
  (noun) => `whichever ${noun} costs the least`,
];
export const DEAREST_FORMS: readonly ((noun: string) => string)[] = [
  (noun) => `the most expensive ${noun}`,
  (noun) => `whichever ${noun} costs the most`,
  (noun) => `the priciest ${noun}`,
];
/** Extremes by a date-like key. */
export const EARLIEST_FORMS: readonly ((noun: string) => string)[] = [(noun) => `the earliest ${noun}`, (noun) => `the oldest ${noun}`];
export const LATEST_FORMS: readonly ((noun: string) => string)[] = [(noun) => `the latest ${noun}`, (noun) => `the most recent ${noun}`];
/** Extremes by another key; `most` is "lowest" or "highest". */
export const EXTREME_FORMS: readonly ((noun: string, most: string, key: string) => string)[] = [
  (noun, most, key) => `the ${noun} with the ${most} ${key}`,
  (noun, most, key) => `whichever ${noun} has the ${most} ${key}`,
  (noun, most, key) => `the ${noun} whose ${key} is ${most}`,
];

/** Counting and summing. */
export const COUNT_ALL_FORMS: readonly ((noun: string) => string)[] = [(noun) => `how many ${plural(noun)} there are`, (noun) => `the number of ${plural(noun)}`];
export const COUNT_FORMS: readonly ((noun: string, field: string, value: string) => string)[] = [
  (noun, field, value) => `how many ${plural(noun)} have ${field} ${value}`,
  (noun, field, value) => `the number of ${plural(noun)} whose ${field} is ${value}`,
];
export const SUM_FORMS: readonly ((noun: string, key: string) => string)[] = [
  (noun, key) => `the total ${key} of the ${plural(noun)}`,
  (noun, key) => `what the ${key} of the ${plural(noun)} adds up to`,
  (noun, key) => `the sum of the ${key} over all ${plural(noun)}`,
];
/** A comparison; `relation` is "above", "below", "not". */
export const COMPARE_FORMS: readonly ((subject: string, relation: string, operand: string) => string)[] = [
  (subject, relation, operand) => `${subject} is ${relation} ${operand}`,
  (subject, relation, operand) => `${subject} turns out to be ${relation} ${operand}`,
];

/** A value as it is said: plain where it cannot be misread, else in double quotes. */
export function speak(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'string') return needsQuotes(value) ? `"${value}"` : value;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return joinList(value.map((v) => speak(v)));
  if (isJsonObject(value)) {
    // A link between two things (`{ from, to, relationType }`): "from A to B, with relation type knows".
    if (value.from !== undefined && value.to !== undefined) {
      const rest = Object.entries(value).filter(([k]) => k !== 'from' && k !== 'to');
      const link = `from ${speak(value.from)} to ${speak(value.to)}`;
      return rest.length === 0 ? link : `${link}, with ${joinList(rest.map(([k, v]) => `${splitWords(k).join(' ')} ${speak(v)}`))}`;
    }
    return joinList(Object.entries(value).map(([k, v]) => `${splitWords(k).join(' ')} ${speak(v)}`));
  }
  return String(value);
}

/** A string value always in quotes (a statement the user may be asked to repeat exactly). */
export function quoted(value: JsonValue): string {
  if (typeof value === 'string') return `"${value}"`;
  return speak(value);
}

/**
 * Quotes keep a value whole where the text around it could change or cut it: free text of several
 * words, punctuation that ends a sentence or splits a list, a "you"/"your" the first-person
 * rewrite would turn, or nothing at all.
 */
function needsQuotes(value: string): boolean {
  if (value.trim() === '' || value !== value.trim()) return true;
  if (/[.,;:!?()"]/.test(value.replace(/\.(?=\w)/g, ''))) return true;
  if (/\b(you|your|yours|you're|yourself|i|my|me|and|or)\b/i.test(value)) return true;
  const w = value.split(/\s+/);
  // Free text ("no longer needed") rather than a proper name ("Hickory Lane", "Suite 945").
  return w.length > 3 || (w.length > 1 && w.some((x) => /^[a-z]/.test(x)));
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : (text[0] as string).toUpperCase() + text.slice(1);
}

export function joinList(parts: readonly string[], conjunction = 'and'): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} ${conjunction} ${parts[parts.length - 1]}`;
}

/** `order` → `orders`, `category` → `categories`, `box` → `boxes` (last word only). */
export function plural(noun: string): string {
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** "the 2nd" → ordinal words for small numbers. */
export function ordinal(n: number): string {
  return ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'][n] ?? `${n + 1}th`;
}
