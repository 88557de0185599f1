// Regular expressions with linear-time matching (RE2 semantics, through `re2js`), for every
// pattern a document gives (JSON Schema `pattern`) and every text an agent controls: no input can
// make a match backtrack for ever. Lookarounds and backreferences, which need backtracking, are
// not expressible; `linearPatternProblem` names them so that a document gets a located error
// instead of a hang at call time.
import { RE2JS } from 're2js';

/** A compiled linear-time pattern: `test` searches (unanchored, like `RegExp.prototype.test`). */
export interface LinearRegExp {
  readonly source: string;
  test(text: string): boolean;
  toString(): string;
}

/** A pattern the linear-time engine cannot express (a lookahead, a backreference, bad syntax). */
export class LinearPatternError extends Error {
  override readonly name = 'LinearPatternError';
}

const CACHE = new Map<string, LinearRegExp>();
const CACHE_MAX = 4096;

function flagBits(flags: string): number {
  let bits = 0;
  for (const f of flags) {
    if (f === 'i') bits |= RE2JS.CASE_INSENSITIVE;
    else if (f === 's') bits |= RE2JS.DOTALL;
    else if (f === 'm') bits |= RE2JS.MULTILINE;
    else if (f !== 'u' && f !== 'g' && f !== 'y' && f !== 'v') throw new LinearPatternError(`unknown regular expression flag "${f}"`);
  }
  return bits;
}

const MAX_REPEAT = 1000;
// A single character, escape or class, then a counted repeat.
const COUNTED = /(\[(?:\\.|[^\]\\])*\]|\\.|[^\\()|[\]{}*+?^$])\{(\d+)(,(\d*))?\}/g;

function repeat(atom: string, min: number, max: number | undefined): string {
  let out = '';
  let m = min;
  while (m > MAX_REPEAT) {
    out += `${atom}{${MAX_REPEAT}}`;
    m -= MAX_REPEAT;
  }
  if (max === undefined) return `${out}${atom}{${m},}`;
  let rest = max - min;
  out += `${atom}{${m}}`;
  while (rest > MAX_REPEAT) {
    out += `${atom}{0,${MAX_REPEAT}}`;
    rest -= MAX_REPEAT;
  }
  return rest > 0 ? `${out}${atom}{0,${rest}}` : out;
}

/** `X{1,2048}` → `X{1}X{0,1000}X{0,1000}X{0,47}`, for single-character atoms only. */
function splitLongRepeats(pattern: string): string {
  return pattern.replace(COUNTED, (all: string, atom: string, lo: string, comma: string | undefined, hi: string | undefined) => {
    const min = Number(lo);
    const max = comma === undefined ? min : hi === '' || hi === undefined ? undefined : Number(hi);
    if (min <= MAX_REPEAT && (max === undefined || max <= MAX_REPEAT)) return all;
    if (max !== undefined && max < min) return all;
    return repeat(atom, min, max);
  });
}

/**
 * Compiles `pattern` (ECMAScript syntax, as JSON Schema writes it) for linear-time matching.
 * Throws {@link LinearPatternError} when the pattern is not valid or needs backtracking.
 */
export function linearRegExp(pattern: string, flags = ''): LinearRegExp {
  const key = `${flags}/${pattern}`;
  const hit = CACHE.get(key);
  if (hit !== undefined) return hit;
  let re: RE2JS;
  try {
    const translated = RE2JS.translateRegExp(pattern);
    try {
      re = RE2JS.compile(translated, flagBits(flags));
    } catch (first) {
      // RE2 caps counted repeats at 1000: a longer one of a single character or class
      // (`[\s\S]{1,2048}`) is the same as a run of shorter ones.
      const split = splitLongRepeats(translated);
      if (split === translated) throw first;
      re = RE2JS.compile(split, flagBits(flags));
    }
  } catch (e) {
    if (e instanceof LinearPatternError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new LinearPatternError(`pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${why}`);
  }
  const compiled: LinearRegExp = {
    source: pattern,
    test: (text: string) => re.test(text),
    toString: () => `/${pattern}/${flags}`,
  };
  if (CACHE.size >= CACHE_MAX) CACHE.clear();
  CACHE.set(key, compiled);
  return compiled;
}

/** Why a pattern cannot be used (invalid, or needs backtracking), or undefined when it can. */
export function linearPatternProblem(pattern: string, flags = ''): string | undefined {
  try {
    linearRegExp(pattern, flags);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The engine for Ajv's `code.regExp` option: every `pattern` and `patternProperties` key is
 * compiled with {@link linearRegExp}. (`code` names it for Ajv's standalone code generation.)
 */
export const ajvLinearRegExp = Object.assign((pattern: string, flags: string): LinearRegExp => linearRegExp(pattern, flags), {
  code: 'require("@autoforge/core").ajvLinearRegExp',
});
