import type { UserFact } from './task.js';

/**
 * Facts in a user instruction written in prose (tau-bench's and tau2's "Your user id is
 * mia_li_3668 … cancel reservation IFOYYZ"): value-like tokens, and the facts they give, named
 * by the words before them. A general reading of text, for benchmarks whose tasks carry no facts.
 */

/**
 * Value-like tokens: snake-case ids ending in digits (`mia_li_3668`), codes of 5 to 10 capital
 * letters and digits with at least one of each (`K1NW8N`), `#`-prefixed ids (`#W2378156`),
 * emails, ISO dates.
 */
const VALUE_PATTERN = /#[A-Za-z]*\d{3,}\b|\b[a-z][a-z]*(?:_[a-z]+)*_\d{2,}\b|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\b\d{4}-\d{2}-\d{2}\b|\b[A-Z0-9]{5,10}\b/g;

/** The value-like tokens of a text, in order, without repeats (codes need a letter and a digit). */
export function valueTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(VALUE_PATTERN)) {
    const v = match[0];
    if (/^[A-Z0-9]+$/.test(v) && !(/[A-Z]/.test(v) && /\d/.test(v))) continue;
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

const FILLER = new Set(['is', 'are', 'was', 'be', 'the', 'your', 'my', 'a', 'an', 'of', 'with', 'and', 'or', 'to', 'for', 'in', 'on', 'number', 'numbers', 'you', 'have', 'has', 'it', 'its', 'this', 'that', 'as', 'called', 'named']);

function keyOf(words: readonly string[]): string {
  return words.join('_').replace(/s$/, '');
}

/** The name of a value from the words before it ("Your user id is" → `user id`), stopping at another value. */
function nameBefore(text: string, index: number): string[] {
  const before = text
    .slice(Math.max(0, index - 60), index)
    .replace(/[^A-Za-z0-9_#@.\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const named: string[] = [];
  for (let i = before.length - 1; i >= 0 && named.length < 3; i--) {
    const raw = before[i] as string;
    if (/\d|_|@|#/.test(raw) || /^[A-Z]{2,}$/.test(raw)) break;
    const w = raw.toLowerCase().replace(/[^a-z]/g, '');
    if (w === '') break;
    if (FILLER.has(w)) {
      if (named.length > 0) break;
      continue;
    }
    named.unshift(w);
  }
  return named;
}

/**
 * The facts an instruction gives: every value token (named by the words before it: `user_id`,
 * `reservation`, `order`; an email is `email`), five-digit zip codes after "zip" or "postal",
 * and a full name after "You are", "Your name is", "My name is" (as `first_name` and
 * `last_name`, and a five-digit `zip` right after it: "You are Yusuf Rossi in 19122"). Keys repeat with `_2`, `_3` for a second value of one name. Deterministic.
 */
export function instructionFacts(text: string): UserFact[] {
  const facts: UserFact[] = [];
  const seen = new Set<string>();
  const used = new Map<string, number>();
  const add = (name: string[], value: string, fallback: string): void => {
    if (seen.has(value)) return;
    seen.add(value);
    const base = name.length > 0 ? keyOf(name) : fallback;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    const key = n === 1 ? base : `${base}_${n}`;
    facts.push({ key, description: `your ${(name.length > 0 ? name.join(' ') : fallback.replace(/_/g, ' '))}`, value });
  };
  // "You are Yusuf Rossi in 19122": a full name, and the zip code of where they live.
  const names = /\b(?:[Yy]ou are|[Yy]our name is|[Mm]y name is|I am)\s+([A-Z][a-z]+)\s+([A-Z][a-z]+)\b(?:\s*,?\s+(?:in|from|at|living in)\s+(\d{5})\b)?/g;
  for (const m of text.matchAll(names)) {
    add(['first', 'name'], m[1] as string, 'first_name');
    add(['last', 'name'], m[2] as string, 'last_name');
    if (m[3] !== undefined) add(['zip'], m[3], 'zip');
  }
  const found: { index: number; value: string; name: string[] }[] = [];
  for (const m of text.matchAll(VALUE_PATTERN)) {
    const v = m[0];
    if (/^[A-Z0-9]+$/.test(v) && !(/[A-Z]/.test(v) && /\d/.test(v))) continue;
    found.push({ index: m.index, value: v, name: v.includes('@') ? ['email'] : nameBefore(text, m.index) });
  }
  // Codes of capitals only (`IFOYYZ`) where a word before names them as such.
  for (const m of text.matchAll(/\b[A-Z]{5,10}\b/g)) {
    const name = nameBefore(text, m.index);
    if (name.some((w) => /^(reservation|booking|confirmation|order|code|id)s?$/.test(w))) found.push({ index: m.index, value: m[0], name });
  }
  // A code right after another ("IFOYYZ and NQNU5R") shares its name.
  found.sort((a, b) => a.index - b.index);
  found.forEach((f, i) => {
    const prev = found[i - 1];
    if (f.name.length === 0 && prev !== undefined && /^\W*(and|or|,)?\W*$/.test(text.slice(prev.index + prev.value.length, f.index))) f.name = prev.name;
  });
  for (const f of found) add(f.name, f.value, /^\d{4}-/.test(f.value) ? 'date' : 'id');
  for (const m of text.matchAll(/\b(zip|postal|postcode)\b[^0-9]{0,20}(\d{5})\b/gi)) add(['zip'], m[2] as string, 'zip');
  return facts;
}
