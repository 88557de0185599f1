import type { JsonValue, Rng } from '@autoforge/core';
import { normalizeValue } from '@autoforge/core';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function perturbString(text: string, rng: Rng): string {
  const digits = [...text].flatMap((c, i) => (/\d/.test(c) ? [i] : []));
  if (digits.length > 0) {
    const i = rng.pick(digits);
    const old = Number(text[i]);
    const next = (old + rng.int(1, 9)) % 10;
    return `${text.slice(0, i)}${next}${text.slice(i + 1)}`;
  }
  const letters = [...text].flatMap((c, i) => (/[a-z]/i.test(c) ? [i] : []));
  if (letters.length > 0) {
    const i = rng.pick(letters);
    const old = (text[i] as string).toLowerCase();
    let next = rng.pick([...LETTERS]);
    if (next === old) next = LETTERS[(LETTERS.indexOf(old) + 1) % 26] as string;
    const upper = text[i] !== old;
    return `${text.slice(0, i)}${upper ? next.toUpperCase() : next}${text.slice(i + 1)}`;
  }
  return text === '' ? 'unknown' : `${text}1`;
}

function perturbNumber(n: number, rng: Rng): number {
  if (Number.isInteger(n) && Math.abs(n) < 1e12) return n + rng.pick([-3, -2, -1, 1, 2, 3]) * (Math.abs(n) >= 100 ? 10 : 1);
  const factor = 1 + rng.pick([-0.2, -0.1, 0.1, 0.2]);
  let out = Math.abs(n) < 1e12 ? Math.round(n * factor * 100) / 100 : n * factor;
  if (!Number.isFinite(out)) out = n / 2;
  return out === n ? (n === 0 ? 1 : n / 2) : out;
}

function perturb(value: JsonValue, rng: Rng): JsonValue {
  if (typeof value === 'string') return perturbString(value, rng);
  if (typeof value === 'number') return perturbNumber(value, rng);
  if (typeof value === 'boolean') return !value;
  if (value === null) return 'unknown';
  if (Array.isArray(value)) {
    if (value.length === 0) return ['unknown'];
    const i = rng.int(0, value.length - 1);
    return value.map((v, j) => (j === i ? perturb(v, rng) : v));
  }
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return { unknown: true };
  const k = rng.pick(keys);
  return { ...value, [k]: perturb(value[k] as JsonValue, rng) };
}

function sameType(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  if (a === null || b === null) return a === b;
  return typeof a === typeof b;
}

/**
 * A plausible wrong value for a fact: with probability 1/2 another fact's value of the same
 * type, else the true value perturbed (a digit or letter changed, a number shifted, a boolean
 * flipped, one element of a list or object changed). Never equal, after {@link normalizeValue},
 * to any of `avoid` (the true value and the values of facts the judge cannot tell apart).
 */
export function wrongValue(truth: JsonValue, others: readonly JsonValue[], avoid: readonly JsonValue[], rng: Rng): JsonValue {
  const banned = new Set([truth, ...avoid].map(normalizeValue));
  const fromOthers = others.filter((v) => sameType(v, truth) && !banned.has(normalizeValue(v)));
  if (fromOthers.length > 0 && rng.bool(0.5)) {
    // Deduplicate so that a value shared by several facts is not more likely.
    const unique = [...new Map(fromOthers.map((v) => [normalizeValue(v), v])).values()];
    return rng.pick(unique);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = perturb(truth, rng);
    if (!banned.has(normalizeValue(candidate))) return candidate;
  }
  // Unreachable in practice: 20 perturbations all landed on banned values.
  return typeof truth === 'number' ? (truth === 0 ? 1 : truth / 2) : `${normalizeValue(truth)} (other)`;
}
