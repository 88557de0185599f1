import type { Rng } from '@autoforge/core';
import * as randexpModule from 'randexp';

// randexp (CommonJS) parses patterns with `ret`; its parse is read from the instance's tokens.
const RandExpForTokens = ((randexpModule as unknown as { default?: new (re: RegExp) => object }).default ??
  (randexpModule as unknown as new (re: RegExp) => object)) as new (re: RegExp) => object;

/** A character class of a variable id segment. */
export type IdCharClass = 'digit' | 'upper' | 'lower' | 'upper-digit' | 'lower-digit' | 'alnum';

/** One segment of an id: literal text, a run of random characters, or a lower-case word. */
export type IdSegment =
  | { lit: string }
  | { chars: IdCharClass; min: number; max: number }
  | { word: 'first' | 'last' }
  | { oneOf: string[] };

/**
 * The shape of the ids of a collection, inferred from examples (`such as '#W0000000'`) or from
 * the ids of a sample database, as a list of segments. Plain JSON: it travels inside the
 * generated tool sources, where the same generator runs on the sandbox's seeded RNG.
 */
export interface IdFormat {
  segments: IdSegment[];
  /** Where the format came from. */
  from: 'examples' | 'data' | 'default' | 'pattern';
}

type Run = { kind: 'digit' | 'upper' | 'lower' | 'other'; text: string };

function runsOf(id: string): Run[] {
  const out: Run[] = [];
  for (const ch of id) {
    const kind: Run['kind'] = /[0-9]/.test(ch) ? 'digit' : /[A-Z]/.test(ch) ? 'upper' : /[a-z]/.test(ch) ? 'lower' : 'other';
    const last = out[out.length - 1];
    if (last && last.kind === kind && kind !== 'other') last.text += ch;
    else out.push({ kind, text: ch });
  }
  return out;
}

const CLASS_CHARS: Record<IdCharClass, string> = {
  digit: '0123456789',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  'upper-digit': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'lower-digit': 'abcdefghijklmnopqrstuvwxyz0123456789',
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
};

/** A default format for ids of a collection without examples: `<prefix>_<6 digits>`. */
export function defaultIdFormat(prefix: string): IdFormat {
  return { segments: [{ lit: `${prefix}_` }, { chars: 'digit', min: 6, max: 6 }], from: 'default' };
}

/**
 * Infers an id format from a few example ids (from descriptions). Digit runs vary; letter runs
 * that all examples share stay literal; with one example, upper-case runs and runs of at most
 * four letters stay literal and longer lower-case runs become words (`sara_doe_496`).
 */
export function inferIdFormatFromExamples(examples: readonly string[]): IdFormat | undefined {
  const list = [...new Set(examples.filter((e) => e.length > 0 && e.length <= 64 && !/\s/.test(e)))];
  if (list.length === 0) return undefined;
  if (list.length > 1) {
    const merged = mergeRuns(list);
    if (merged) return { segments: merged, from: 'examples' };
  }
  const first = list[0] as string;
  const segments: IdSegment[] = [];
  let words = 0;
  for (const run of runsOf(first)) {
    if (run.kind === 'digit') segments.push({ chars: 'digit', min: run.text.length, max: run.text.length });
    else if (run.kind === 'lower' && run.text.length > 4 && /\d/.test(first)) {
      segments.push({ word: words++ === 0 ? 'first' : 'last' });
    } else if (run.kind === 'lower' && run.text.length >= 3 && /_\d+$/.test(first) && /^[a-z]+_[a-z]+_\d+$/.test(first)) {
      segments.push({ word: words++ === 0 ? 'first' : 'last' });
    } else segments.push({ lit: run.text });
  }
  if (!segments.some(isVariable)) return undefined;
  return { segments: compact(segments), from: 'examples' };
}

/**
 * Infers an id format from the ids of a sample database. Runs shared by every id stay literal;
 * the others become character classes with the lengths seen. Ids of one length but different
 * run structure (`ZFA04Y`, `8JX2WO`) get one character class per position.
 */
export function inferIdFormatFromIds(ids: readonly string[]): IdFormat | undefined {
  const list = ids.slice(0, 5000);
  if (list.length === 0) return undefined;
  const merged = mergeRuns(list);
  if (merged && merged.some(isVariable)) return { segments: merged, from: 'data' };
  const len = list[0]?.length ?? 0;
  if (len > 0 && list.every((id) => id.length === len)) {
    const segments: IdSegment[] = [];
    for (let i = 0; i < len; i++) {
      const chars = new Set(list.map((id) => id[i] as string));
      if (chars.size === 1) segments.push({ lit: [...chars][0] as string });
      else segments.push({ chars: classOf([...chars].join('')), min: 1, max: 1 });
    }
    return { segments: compact(segments), from: 'data' };
  }
  return undefined;
}

function classOf(text: string): IdCharClass {
  const d = /[0-9]/.test(text);
  const u = /[A-Z]/.test(text);
  const l = /[a-z]/.test(text);
  if (d && !u && !l) return 'digit';
  if (u && !d && !l) return 'upper';
  if (l && !d && !u) return 'lower';
  if (u && d && !l) return 'upper-digit';
  if (l && d && !u) return 'lower-digit';
  return 'alnum';
}

function mergeRuns(ids: readonly string[]): IdSegment[] | undefined {
  const all = ids.map(runsOf);
  const n = all[0]?.length ?? 0;
  if (!all.every((r) => r.length === n)) return undefined;
  const segments: IdSegment[] = [];
  for (let i = 0; i < n; i++) {
    const runs = all.map((r) => r[i] as Run);
    const kinds = new Set(runs.map((r) => r.kind));
    const texts = new Set(runs.map((r) => r.text));
    const lengths = runs.map((r) => r.text.length);
    const min = Math.min(...lengths);
    const max = Math.max(...lengths);
    // Digits always vary: examples like '#W0000000' are placeholders.
    if (kinds.size === 1 && kinds.has('digit')) {
      segments.push({ chars: 'digit', min, max });
      continue;
    }
    if (texts.size === 1) {
      segments.push({ lit: runs[0]?.text ?? '' });
      continue;
    }
    if (kinds.size !== 1 || kinds.has('other')) return undefined;
    const kind = runs[0]?.kind as 'digit' | 'upper' | 'lower';
    // A few distinct words (`gift`, `credit`, `paypal`) are a closed set of prefixes.
    if (kind !== 'digit' && texts.size <= 5 && (runs.length >= texts.size * 3 || runs.length <= 5) && max > 1) {
      segments.push({ oneOf: [...texts].sort() });
      continue;
    }
    // Lower-case runs of varying length in ids like `sara_doe_496` are names.
    if (kind === 'lower' && max > 4 && max !== min) {
      const prior = segments.filter((s) => 'word' in s).length;
      segments.push({ word: prior === 0 ? 'first' : 'last' });
    } else segments.push({ chars: kind, min, max });
  }
  return compact(segments);
}

function compact(segments: IdSegment[]): IdSegment[] {
  const out: IdSegment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && 'lit' in last && 'lit' in s) last.lit += s.lit;
    else if (last && 'chars' in last && 'chars' in s && last.chars === s.chars && last.min === last.max && s.min === s.max) {
      last.min += s.min;
      last.max += s.max;
    } else out.push('lit' in s ? { lit: s.lit } : 'chars' in s ? { ...s } : s);
  }
  return out;
}

function isVariable(s: IdSegment): boolean {
  return !('lit' in s);
}

/** Common first names and surnames for name-shaped ids and generated people. */
export const FIRST_NAMES = [
  'james', 'mary', 'noah', 'olivia', 'liam', 'emma', 'aarav', 'mei', 'yusuf', 'sofia', 'ivan', 'fatima',
  'lucas', 'chen', 'amelia', 'raj', 'mia', 'omar', 'isabella', 'ethan', 'anya', 'daiki', 'lei', 'harper',
];
export const LAST_NAMES = [
  'smith', 'garcia', 'li', 'brown', 'kovacs', 'rossi', 'santos', 'nguyen', 'khan', 'martin', 'lopez',
  'wilson', 'ahmed', 'kim', 'patel', 'silva', 'moore', 'taylor', 'anderson', 'thomas', 'muller', 'sato',
];

/** Generates one id in a format from a seeded stream (host side; the sandbox has its twin). */
export function generateId(format: IdFormat, rng: Rng): string {
  let out = '';
  for (const s of format.segments) {
    if ('lit' in s) out += s.lit;
    else if ('word' in s) out += rng.pick(s.word === 'first' ? FIRST_NAMES : LAST_NAMES);
    else if ('oneOf' in s) out += rng.pick(s.oneOf);
    else {
      const chars = CLASS_CHARS[s.chars];
      const len = rng.int(s.min, s.max);
      for (let i = 0; i < len; i++) out += chars[rng.int(0, chars.length - 1)];
    }
  }
  return out;
}

/** The JavaScript text of the sandbox twin of {@link generateId} (uses `ctx.rng.int`). */
export const GENERATE_ID_SOURCE = `function genId(format, ctx) {
  var CLASSES = ${JSON.stringify(CLASS_CHARS)};
  var FIRST = ${JSON.stringify(FIRST_NAMES)};
  var LAST = ${JSON.stringify(LAST_NAMES)};
  var out = '';
  for (var i = 0; i < format.segments.length; i++) {
    var s = format.segments[i];
    if (s.lit !== undefined) out += s.lit;
    else if (s.word !== undefined) { var list = s.word === 'first' ? FIRST : LAST; out += list[ctx.rng.int(0, list.length - 1)]; }
    else if (s.oneOf !== undefined) out += s.oneOf[ctx.rng.int(0, s.oneOf.length - 1)];
    else {
      var chars = CLASSES[s.chars];
      var len = ctx.rng.int(s.min, s.max);
      for (var j = 0; j < len; j++) out += chars.charAt(ctx.rng.int(0, chars.length - 1));
    }
  }
  return out;
}`;

/** Example ids quoted in a description: `such as '#W0000000'`, `e.g. "HAT001"`. */
export function examplesFromText(text: string): string[] {
  const out: string[] = [];
  const re = /(?:such as|e\.g\.|eg\.|for example|like|example:?)\s*((?:['"`][^'"`\s]{1,64}['"`](?:\s*(?:,|or|and)\s*)?)+)/gi;
  for (const m of text.matchAll(re)) {
    for (const q of (m[1] ?? '').matchAll(/['"`]([^'"`\s]{1,64})['"`]/g)) if (q[1]) out.push(q[1]);
  }
  return out;
}

/** True when an id matches a format. */
export function matchesIdFormat(id: string, format: IdFormat): boolean {
  let re = '^';
  for (const s of format.segments) {
    if ('lit' in s) re += s.lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if ('word' in s) re += '[a-z]+';
    else if ('oneOf' in s) re += `(?:${s.oneOf.map((o) => o.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
    else re += `[${CLASS_CHARS[s.chars].replace(/-/g, '')}]{${s.min},${s.max}}`;
  }
  return new RegExp(`${re}$`).test(id);
}

// randexp's parse of a regular expression (the `ret` tokenizer's token shapes).
interface ReToken {
  type: number;
  value?: number | string | ReToken;
  stack?: ReToken[];
  options?: ReToken[][];
  set?: ReToken[];
  not?: boolean;
  from?: number;
  to?: number;
  min?: number;
  max?: number;
}
const T = { ROOT: 0, GROUP: 1, POSITION: 2, SET: 3, RANGE: 4, REPETITION: 5, REFERENCE: 6, CHAR: 7 } as const;
const MAX_SET_CHARS = 128;

function setChars(token: ReToken): string | undefined {
  if (token.type === T.CHAR && typeof token.value === 'number') return String.fromCharCode(token.value);
  if (token.type === T.RANGE && typeof token.from === 'number' && typeof token.to === 'number') {
    if (token.to - token.from > MAX_SET_CHARS) return undefined;
    let out = '';
    for (let c = token.from; c <= token.to; c++) out += String.fromCharCode(c);
    return out;
  }
  if (token.type === T.SET && !token.not && token.set) {
    let out = '';
    for (const t of token.set) {
      const chars = setChars(t);
      if (chars === undefined) return undefined;
      out += chars;
    }
    return [...new Set(out)].sort().join('');
  }
  return undefined;
}

function literalOf(tokens: readonly ReToken[]): string | undefined {
  let out = '';
  for (const t of tokens) {
    if (t.type !== T.CHAR || typeof t.value !== 'number') return undefined;
    out += String.fromCharCode(t.value);
  }
  return out;
}

const SORTED_CLASSES = Object.entries(CLASS_CHARS).map(([k, v]) => [k as IdCharClass, [...v].sort().join('')] as const);

function runSegments(chars: string, min: number, max: number): IdSegment[] | undefined {
  const cls = SORTED_CLASSES.find(([, v]) => v === chars)?.[0];
  // Unbounded runs (`\d+`) get ids of a readable length.
  const hi = Number.isFinite(max) ? max : Math.max(min, Math.min(min + 5, 8));
  const lo = min === 0 && !Number.isFinite(max) ? Math.min(1, hi) : min;
  if (cls) return hi === 0 ? [] : [{ chars: cls, min: lo, max: hi }];
  if (chars.length === 1) return lo > 0 ? [{ lit: chars.repeat(lo) }] : [];
  // Other sets (`[A-F0-9]`): one choice per position, at the shortest length the pattern allows.
  const n = lo > 0 ? lo : Math.min(hi, 1);
  if (n > 32) return undefined;
  return Array.from({ length: n }, () => ({ oneOf: [...chars] }));
}

function segmentsOf(tokens: readonly ReToken[], depth: number): IdSegment[] | undefined {
  if (depth > 4) return undefined;
  const out: IdSegment[] = [];
  for (const t of tokens) {
    if (t.type === T.POSITION) {
      if (t.value === '^' || t.value === '$') continue;
      return undefined;
    }
    if (t.type === T.CHAR && typeof t.value === 'number') out.push({ lit: String.fromCharCode(t.value) });
    else if (t.type === T.SET) {
      const chars = setChars(t);
      const segs = chars === undefined ? undefined : runSegments(chars, 1, 1);
      if (!segs) return undefined;
      out.push(...segs);
    } else if (t.type === T.GROUP) {
      const segs = groupSegments(t, depth);
      if (!segs) return undefined;
      out.push(...segs);
    } else if (t.type === T.REPETITION && typeof t.value === 'object') {
      const min = t.min ?? 0;
      const max = t.max ?? Infinity;
      const inner = t.value;
      const chars = inner.type === T.GROUP ? undefined : setChars(inner);
      if (chars !== undefined) {
        const segs = runSegments(chars, min, max);
        if (!segs) return undefined;
        out.push(...segs);
      } else if (inner.type === T.GROUP) {
        // A repeated group: its minimum count of copies (an optional group is left out).
        const segs = groupSegments(inner, depth);
        if (!segs || min > 8) return undefined;
        for (let i = 0; i < min; i++) out.push(...segs.map((s) => ('oneOf' in s ? { oneOf: [...s.oneOf] } : { ...s })));
      } else return undefined;
    } else return undefined;
  }
  return out;
}

function groupSegments(t: ReToken, depth: number): IdSegment[] | undefined {
  if (t.stack) return segmentsOf(t.stack, depth + 1);
  if (t.options) {
    const literals = t.options.map(literalOf);
    if (literals.every((l): l is string => l !== undefined)) return [{ oneOf: literals }];
    return segmentsOf(t.options[0] ?? [], depth + 1);
  }
  return undefined;
}

/**
 * The id format a `pattern` describes (`^[A-Z]{3}-\d{4}$` → three upper-case letters, `-`,
 * four digits), for patterns built from literals, character classes and sets, bounded or
 * unbounded repetitions and groups of literal alternatives. Every id the format generates
 * matches the pattern. Undefined for patterns it cannot read (lookarounds, back-references,
 * negated sets), and for patterns without a varying part.
 */
export function idFormatFromPattern(pattern: string): IdFormat | undefined {
  let tokens: ReToken | undefined;
  try {
    tokens = (new RandExpForTokens(new RegExp(pattern)) as unknown as { tokens: ReToken }).tokens;
  } catch {
    return undefined;
  }
  if (!tokens) return undefined;
  const root = tokens.options ? groupSegments(tokens, 0) : segmentsOf(tokens.stack ?? [], 0);
  if (!root || !root.some(isVariable)) return undefined;
  const format: IdFormat = { segments: compact(root), from: 'pattern' };
  return format;
}
