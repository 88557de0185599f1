import type { JsonValue, UserFact } from '@autoforge/core';
import { canonicalJson, factSubject, isJsonObject, parseFactStatements, splitWords } from '@autoforge/core';

/** A value the user gave for something of theirs ("My zip is "10108"."). */
export interface FactClaim {
  /** The subject as written, normalized ("zip code"). */
  subject: string;
  /** The value: parsed from its JSON literal, or the raw words when it was not quoted. */
  value: JsonValue;
  /** True when the value was not a JSON literal (compared more loosely). */
  loose: boolean;
  /** Offset of the claim in the text. */
  index: number;
}

/**
 * A value as judges compare it: scalars as trimmed lower-case text (so `"77122"` and `77122`
 * agree), arrays and objects as canonical JSON of their normalized parts.
 */
export function normalizeValue(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return canonicalJson(normalizeDeep(value));
}

function normalizeDeep(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (Array.isArray(value)) return value.map(normalizeDeep);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeDeep(v)]));
  return value;
}

function normalizeSubject(subject: string): string {
  return subject
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(the|my|your)\s+/, '');
}

// "my email is john@x.com" — a value without quotes, up to the end of the clause (a dot inside
// an address or a number does not end it).
const LOOSE = /\bmy\s+([a-z0-9][a-z0-9 _'-]{0,60}?)\s+(?:is|are|was|should be)\s+([^"[{\s][^;,!?\n]*?)(?=[.](?:\s|$)|[;,!?\n]|\s+and\s+my\b|$)/gi;

/**
 * Every claim a user makes about something of theirs in `text`: `my X is <JSON literal>`
 * (core's `parseFactStatements`, first person only) and, where the value is not quoted,
 * `my X is <words>` up to the end of the clause.
 */
export function factClaims(text: string): FactClaim[] {
  const out: FactClaim[] = [];
  const covered = new Set<number>();
  for (const s of parseFactStatements(text)) {
    const head = text.slice(s.index, s.index + 3).toLowerCase();
    if (head !== 'my ') continue;
    out.push({ subject: normalizeSubject(s.subject), value: s.value, loose: false, index: s.index });
    covered.add(s.index);
  }
  LOOSE.lastIndex = 0;
  for (let m = LOOSE.exec(text); m !== null; m = LOOSE.exec(text)) {
    if (covered.has(m.index)) continue;
    const value = (m[2] as string).trim();
    if (value === '') continue;
    out.push({ subject: normalizeSubject(m[1] as string), value, loose: true, index: m.index });
  }
  return out.sort((a, b) => a.index - b.index);
}

const FILLER = new Set(['for', 'the', 'of', 'my', 'your', 'a', 'an', 'on', 'in', 'to']);

function tokens(text: string): Set<string> {
  return new Set(splitWords(text).filter((w) => !FILLER.has(w)));
}

/**
 * The facts a claim's subject names: those whose subject (core `factSubject`) is the same,
 * else whose key's words are, else whose key's words without a numeric suffix are, else those
 * with the most similar words (Jaccard ≥ 0.5; not with `fuzzy: false`). Several facts when
 * they cannot be told apart.
 */
export function resolveSubject(subject: string, facts: readonly UserFact[], options: { fuzzy?: boolean } = {}): UserFact[] {
  const s = normalizeSubject(subject);
  const tiers: ((f: UserFact) => boolean)[] = [
    (f) => normalizeSubject(factSubject(f)) === s,
    (f) => splitWords(f.key).join(' ') === s,
    (f) => splitWords(f.key).filter((w) => !/^\d+$/.test(w)).join(' ') === s,
  ];
  for (const tier of tiers) {
    const hit = facts.filter(tier);
    if (hit.length > 0) return hit;
  }
  const mine = tokens(s);
  if (options.fuzzy === false || mine.size === 0) return [];
  let best = 0;
  let out: UserFact[] = [];
  for (const f of facts) {
    const theirs = tokens(factSubject(f));
    let shared = 0;
    for (const w of mine) if (theirs.has(w)) shared++;
    const score = shared / (mine.size + theirs.size - shared);
    if (score > best) {
      best = score;
      out = [f];
    } else if (score === best && score > 0) out.push(f);
  }
  return best >= 0.5 ? out : [];
}
