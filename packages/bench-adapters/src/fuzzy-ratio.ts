// The fuzzy string scores VitaBench ranks with (thefuzz on rapidfuzz): `ratio` (normalized Indel
// similarity), `partial_ratio` (the best `ratio` of the shorter string against an equally long
// window of the longer one) and `process.extract` (scores every choice, best first).

/**
 * Length of the longest common subsequence, bit-parallel (Hyyrö): one word-vector update per
 * character of `b`, `a` as the bit pattern.
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const words = Math.ceil(a.length / 32);
  const masks = new Map<string, Uint32Array>();
  a.forEach((ch, i) => {
    let mask = masks.get(ch);
    if (mask === undefined) {
      mask = new Uint32Array(words);
      masks.set(ch, mask);
    }
    mask[i >>> 5] = ((mask[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  });
  const none = new Uint32Array(words);
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const ch of b) {
    const m = masks.get(ch) ?? none;
    let carry = 0;
    let borrow = 0;
    for (let w = 0; w < words; w++) {
      const x = v[w] as number;
      const u = (x & (m[w] as number)) >>> 0;
      const sum = x + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const diff = x - u - borrow;
      borrow = diff < 0 ? 1 : 0;
      v[w] = ((sum >>> 0) | (diff >>> 0)) >>> 0;
    }
  }
  let zeros = 0;
  for (let i = 0; i < a.length; i++) if ((((v[i >>> 5] as number) >>> (i & 31)) & 1) === 0) zeros += 1;
  return zeros;
}

function ratioOf(a: readonly string[], b: readonly string[]): number {
  const total = a.length + b.length;
  // Computed as rapidfuzz does (1 - normalized Indel distance), so its rounding matches.
  return total === 0 ? 100 : 100 * (1 - (total - 2 * lcsLength(a, b)) / total);
}

function partialOf(shorter: readonly string[], longer: readonly string[]): number {
  const n = shorter.length;
  const m = longer.length;
  const chars = new Set(shorter);
  let best = 0;
  for (let i = 0; i <= m - n && best < 100; i++) best = Math.max(best, ratioOf(shorter, longer.slice(i, i + n)));
  // Windows cut at either end of the longer string, longest first: a window of k characters
  // scores at most 200k / (n + k), so the scan stops once that cannot beat the best.
  for (let k = n - 1; k >= 1 && (200 * k) / (n + k) > best; k--) {
    if (chars.has(longer[k - 1] as string)) best = Math.max(best, ratioOf(shorter, longer.slice(0, k)));
    if (chars.has(longer[m - k] as string)) best = Math.max(best, ratioOf(shorter, longer.slice(m - k)));
  }
  return best;
}

/** Python's `int(round(x))` (ties to even), as thefuzz rounds rapidfuzz's float scores. */
function pyIntRound(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** thefuzz's `fuzz.ratio(a, b)`: `200 · LCS / (len a + len b)`, rounded (100 for two empty strings). */
export function fuzzRatio(a: string, b: string): number {
  return pyIntRound(ratioOf([...a], [...b]));
}

/**
 * thefuzz's `fuzz.partial_ratio(a, b)`: the best `ratio` of the shorter string against windows of
 * the longer one as long as it (and, for a shorter string of up to 64 characters, the windows cut
 * at either end), both directions when the lengths are equal; 0 when either is empty; rounded.
 */
export function fuzzPartialRatio(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (x.length === 0 && y.length === 0) return 100;
  if (x.length === 0 || y.length === 0) return 0;
  if (x.length === y.length) return pyIntRound(Math.max(partialOf(x, y), partialOf(y, x)));
  return pyIntRound(x.length < y.length ? partialOf(x, y) : partialOf(y, x));
}

/** rapidfuzz's `default_process`: every character that is not a letter or digit becomes a space; lower-cased, trimmed. */
export function fuzzDefaultProcess(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, ' ').toLowerCase().trim();
}

/**
 * thefuzz's `process.extract(query, choices, limit=None, scorer=fuzz.partial_ratio)`: query and
 * choices through `default_process`, every choice scored, best first (ties keep the choices'
 * order). Returns `[choice, score]` pairs with the original choice text.
 */
export function fuzzExtract(query: string, choices: readonly string[]): [string, number][] {
  const q = fuzzDefaultProcess(query);
  return choices
    .map((choice, index) => ({ choice, index, score: fuzzPartialRatio(q, fuzzDefaultProcess(choice)) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ choice, score }) => [choice, score]);
}

/**
 * VitaBench's `rerank(keywords, docs)`: `fuzzExtract` over the docs' texts, each mapped back to the
 * last id whose text it is (as VitaBench inverts the dict). Returns `[id, text, score]`, best first.
 */
export function fuzzRerank(keywords: string, docs: ReadonlyMap<string, string>): [string, string, number][] {
  const reverse = new Map<string, string>();
  for (const [id, text] of docs) reverse.set(text, id);
  return fuzzExtract(keywords, [...docs.values()]).map(([text, score]) => [reverse.get(text) as string, text, score]);
}
