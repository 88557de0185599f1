import type { JsonObject, JsonValue } from '@autoforge/core';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError, PyMpf } from './port.js';
import { pyFloatRepr } from '../python-number.js';
import { pyRepr, pyStr } from '../python-repr.js';
import { PyFloat, isPyDict, pyEquals, pyTypeName } from '../python-value.js';
import { truthy } from './py-support.js';
import type { PyValue } from '../python-value.js';

/**
 * BFCL's `MathAPI` (`math_api.py`, gorilla 6ea57973), stateless, with Python's number semantics:
 *
 * - ints are exact (`BigInt` inside), floats are doubles, `bool` is an int, and a float result is
 *   returned as `PyFloat` so that `json.dumps` prints `37.0`;
 * - `a + b` also concatenates strings and lists, as Python does; a `TypeError` inside a method's
 *   `try` becomes its error dict, and anything Python does not catch (`OverflowError` of `**`,
 *   `ValueError` of a bad decimal precision, `unhashable type`) is thrown as `BfclPyError`;
 * - `logarithm` reproduces mpmath 1.3.0: `mp.dps = precision` (so `prec = round((dps+1)·log2 10)`
 *   bits), the exact conversion of the arguments (strings rounded to `prec`), `log` correctly
 *   rounded to `prec` bits, the division rounded to nearest, and mpmath's `str`/`repr` digits
 *   (`mpf('1.3027')`); a negative argument gives mpmath's complex `mpc` result;
 * - `square_root` reproduces `decimal`: `Decimal(number).sqrt()` at `getcontext().prec = precision`,
 *   correctly rounded half-even with the ideal exponent for exact roots (`Decimal('1.0E+10')`);
 * - float `**` is correctly rounded, as glibc's `pow` is, with CPython's special cases and its
 *   complex result for a negative base and a fractional exponent.
 *
 * The executor formats an `mpf`, `mpc`, `Decimal` or `complex` inside a dict with `str(dict)`;
 * all four are returned as `PyMpf` (its `repr` is what `str(dict)` prints).
 *
 * Limits: an int result beyond 2^53 is returned as the nearest double (`PyOut` has no big int),
 * so its digits differ from Python's; `logarithm` refuses more than 5000 digits and `square_root`
 * more than 20000 (`BfclPyError`), where Python would compute for a long time.
 */

// ---------------------------------------------------------------------------------------------
// Python exceptions

/** A Python exception of a known type, so that methods can catch what Python catches. */
class PyException extends BfclPyError {
  constructor(
    readonly pyType: 'TypeError' | 'ValueError' | 'OverflowError' | 'ZeroDivisionError' | 'AttributeError',
    message: string,
  ) {
    super(message);
  }
}

const typeError = (message: string): PyException => new PyException('TypeError', message);
const overflow = (message: string): PyException => new PyException('OverflowError', message);
const ERANGE = "(34, 'Numerical result out of range')";
const MAX_INT_DIGITS = 4300;

/** Runs `body`; a Python exception of one of `types` gives `handler`'s value instead. */
function pyTry(types: readonly PyException['pyType'][], body: () => PyOut, handler: (e: PyException) => PyOut): PyOut {
  try {
    return body();
  } catch (error) {
    if (error instanceof PyException && types.includes(error.pyType)) return handler(error);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Python numbers

/** A Python `int` (exact) or `float`. */
type Num = { int: bigint } | { float: number };

function num(value: PyValue): Num | undefined {
  if (typeof value === 'boolean') return { int: value ? 1n : 0n };
  if (value instanceof PyFloat) return { float: value.value };
  if (typeof value === 'number') return Number.isInteger(value) ? { int: BigInt(value) } : { float: value };
  return undefined;
}

function isInt(n: Num): n is { int: bigint } {
  return 'int' in n;
}

/** `float(n)`: an int too large for a double raises `OverflowError`. */
function toFloat(n: Num): number {
  if (!isInt(n)) return n.float;
  const x = Number(n.int);
  if (!Number.isFinite(x)) throw overflow('int too large to convert to float');
  return x;
}

/** A Python result as the executor sees it: a float always as `PyFloat`. */
function out(n: Num): PyOut {
  if (isInt(n)) {
    const text = (n.int < 0n ? -n.int : n.int).toString();
    if (text.length > MAX_INT_DIGITS) {
      throw new PyException('ValueError', `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`);
    }
    return Number(n.int);
  }
  return new PyFloat(n.float);
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : (n < 0n ? -n : n).toString(2).length;
}

function pow2(e: number): number {
  return 2 ** e;
}

/**
 * The double nearest to p/q (q ≠ 0), ties to even, subnormals included: Python's int true
 * division. Infinity when it overflows.
 */
function ratioToDouble(p: bigint, q: bigint): number {
  if (q < 0n) {
    p = -p;
    q = -q;
  }
  if (p === 0n) return 0;
  const negative = p < 0n;
  if (negative) p = -p;
  // e = floor(log2(p/q))
  let e = bitLength(p) - bitLength(q);
  if (e >= 0 ? p < q << BigInt(e) : p << BigInt(-e) < q) e -= 1;
  if (e > 1023) return negative ? -Infinity : Infinity;
  const bits = e < -1022 ? 53 - (-1022 - e) : 53;
  if (bits <= 0) {
    // Below the smallest subnormal 2^-1074: it when above half of it (a tie goes to even, 0).
    const rounded = e === -1075 && p << 1075n > q ? pow2(-1074) : 0;
    return negative ? -rounded : rounded;
  }
  const shift = bits - 1 - e;
  const scaledP = shift >= 0 ? p << BigInt(shift) : p;
  const scaledQ = shift >= 0 ? q : q << BigInt(-shift);
  let n = scaledP / scaledQ;
  const rem = scaledP - n * scaledQ;
  const twiceRem = rem << 1n;
  if (twiceRem > scaledQ || (twiceRem === scaledQ && (n & 1n) === 1n)) n += 1n;
  const exp = e - bits + 1;
  let x = Number(n);
  if (exp < -1000) x = x * pow2(exp + 200) * pow2(-200);
  else x = x * pow2(exp);
  if (!Number.isFinite(x)) return negative ? -Infinity : Infinity;
  return negative ? -x : x;
}

/** A finite double as `man · 2^exp` with an odd `man` (or 0). */
function splitDouble(x: number): { negative: boolean; man: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  let man = biased === 0 ? fraction : fraction | (1n << 52n);
  let exp = biased === 0 ? -1074 : biased - 1075;
  if (man === 0n) return { negative, man: 0n, exp: 0 };
  while ((man & 1n) === 0n) {
    man >>= 1n;
    exp += 1;
  }
  return { negative, man, exp };
}

function numAdd(a: Num, b: Num): Num {
  if (isInt(a) && isInt(b)) return { int: a.int + b.int };
  return { float: toFloat(a) + toFloat(b) };
}

function numSub(a: Num, b: Num): Num {
  if (isInt(a) && isInt(b)) return { int: a.int - b.int };
  return { float: toFloat(a) - toFloat(b) };
}

function numMul(a: Num, b: Num): Num {
  if (isInt(a) && isInt(b)) return { int: a.int * b.int };
  return { float: toFloat(a) * toFloat(b) };
}

/** Python's `a / b` on numbers (b ≠ 0): ints by exact true division. */
function numDiv(a: Num, b: Num): Num {
  if (isInt(a) && isInt(b)) {
    if (b.int === 0n) throw new PyException('ZeroDivisionError', 'division by zero');
    const x = ratioToDouble(a.int, b.int);
    if (!Number.isFinite(x)) throw overflow('integer division result too large for a float');
    return { float: x };
  }
  const d = toFloat(b);
  if (d === 0) throw new PyException('ZeroDivisionError', isInt(a) ? 'division by zero' : 'float division by zero');
  return { float: toFloat(a) / d };
}

/** The operands of a binary Python operator, or a `TypeError` like Python's. */
function operands(a: PyValue, b: PyValue, op: string): [Num, Num] {
  const x = num(a);
  const y = num(b);
  if (x === undefined || y === undefined) throw typeError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
  return [x, y];
}

/** Python's `a + b`: numbers, or two strings, or two lists. */
function pyAdd(a: PyValue, b: PyValue): PyOut {
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  const [x, y] = operands(a, b, '+');
  return out(numAdd(x, y));
}

// ---------------------------------------------------------------------------------------------
// Correctly rounded float pow with CPython's float_pow special cases

const EXACT_INT_POW = 64;

/** |x|^y for finite x ≠ 0, y ≠ 0, as glibc's pow rounds it (correctly); may be ±Infinity or 0. */
function roundedPow(ax: number, y: number): number {
  const { man, exp } = splitDouble(ax);
  if (Number.isInteger(y) && Math.abs(y) <= EXACT_INT_POW) {
    const n = BigInt(Math.abs(y));
    const m = man ** n;
    const e = exp * Math.abs(y);
    if (y > 0) return e >= 0 ? ratioToDouble(m << BigInt(e), 1n) : ratioToDouble(m, 1n << BigInt(-e));
    return e >= 0 ? ratioToDouble(1n, m << BigInt(e)) : ratioToDouble(1n << BigInt(-e), m);
  }
  // |x|^y = e^(y·ln|x|) with ln|x| to 140 bits: far more than the 53 the result keeps. (A
  // fractional power of a double is never a tie between two doubles; integral ones are exact above.)
  const lnx = lnFixedApprox({ k: 'fin', sign: 0, man, exp }, 140);
  return expToDouble(mpfMul(lnx, fromDouble(y)));
}

/**
 * CPython's `float_pow(v, w)` (floatobject.c, 3.11): `'complex'` where Python returns a complex
 * number, which the caller computes.
 */
function floatPow(iv: number, iw: number): number | 'complex' {
  if (iw === 0) return 1;
  if (Number.isNaN(iv)) return iv;
  if (Number.isNaN(iw)) return iv === 1 ? 1 : iw;
  if (!Number.isFinite(iw)) {
    const a = Math.abs(iv);
    if (a === 1) return 1;
    if (iw > 0 === a > 1) return Math.abs(iw);
    return 0;
  }
  const wOdd = Number.isInteger(iw) && Math.abs(iw % 2) === 1;
  if (!Number.isFinite(iv)) {
    if (iw > 0) return wOdd ? iv : Math.abs(iv);
    return wOdd ? (iv < 0 ? -0 : 0) : 0;
  }
  if (iv === 0) {
    if (iw < 0) throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return wOdd ? iv : 0;
  }
  let negate = false;
  let v = iv;
  if (v < 0) {
    if (!Number.isInteger(iw)) return 'complex';
    v = -v;
    negate = wOdd;
  }
  if (v === 1) return negate ? -1 : 1;
  const r = roundedPow(v, iw);
  if (!Number.isFinite(r)) throw overflow(ERANGE);
  return negate ? -r : r;
}

/** sin(x) and cos(x) of a finite double, each the nearest double (glibc's are correctly rounded). */
function sinCos(x: number): { sin: number; cos: number } {
  const { negative, man, exp } = splitDouble(x);
  if (man === 0n) return { sin: x, cos: 1 };
  // Enough bits for the integer part (range reduction) and for a tiny x (sin x ≈ x, relative).
  const w = 160 + Math.abs(exp + bitLength(man));
  const one = 1n << BigInt(w);
  const signed = negative ? -man : man;
  const xf = exp + w >= 0 ? signed << BigInt(exp + w) : signed / (1n << BigInt(-(exp + w)));
  const halfPi = piFixed(w) / 2n;
  // k = round(x / (pi/2)), r = x - k·pi/2 in [-pi/4, pi/4]
  let k = xf / halfPi;
  let r = xf - k * halfPi;
  if (2n * r > halfPi) {
    k += 1n;
    r -= halfPi;
  } else if (2n * r < -halfPi) {
    k -= 1n;
    r += halfPi;
  }
  let s = r;
  let c = one;
  let term = r;
  for (let n = 2n; term !== 0n; n += 2n) {
    term = (-term * r) / (one * n); // r^n / n! with alternating signs, even n: cos terms
    c += term;
    term = (term * r) / (one * (n + 1n));
    s += term;
  }
  const quadrant = Number(((k % 4n) + 4n) % 4n);
  const [sv, cv] = quadrant === 0 ? [s, c] : quadrant === 1 ? [c, -s] : quadrant === 2 ? [-s, -c] : [-c, s];
  return { sin: ratioToDouble(sv, one), cos: ratioToDouble(cv, one) };
}

/** Python's `repr(complex)` part: a float repr without a trailing `.0`. */
function complexPart(x: number): string {
  const text = pyFloatRepr(x);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** `complex(v) ** w` for a negative v and a fractional w (CPython's `_Py_c_pow`), as its repr. */
function complexPowRepr(v: number, w: number): string {
  const len = roundedPow(-v, w); // hypot(v, 0) = |v|
  const phase = Math.PI * w; // atan2(0, v<0) = pi, times w in double
  const { sin, cos } = sinCos(phase);
  const re = len * cos;
  const im = len * sin;
  // complex_pow's Py_ADJUST_ERANGE2: an infinite part is ERANGE.
  if (re === Infinity || re === -Infinity || im === Infinity || im === -Infinity) throw overflow('complex exponentiation');
  const sign = im < 0 || Object.is(im, -0) ? '-' : '+';
  return `(${complexPart(re)}${sign}${complexPart(Math.abs(im))}j)`;
}

/** Python's `base ** exponent`. */
function pyPow(base: PyValue, exponent: PyValue): PyOut {
  const [b, e] = operands(base, exponent, '** or pow()');
  if (isInt(b) && isInt(e) && e.int >= 0n) {
    const absBase = b.int < 0n ? -b.int : b.int;
    if (e.int === 0n) return out({ int: 1n });
    if (absBase === 0n) return out({ int: 0n });
    if (absBase === 1n) return out({ int: b.int < 0n && e.int % 2n === 1n ? -1n : 1n });
    // log10 of the result decides Python's 4300-digit limit before anything is formatted.
    const digits = Number(e.int) * Math.log10(Number(absBase));
    if (digits > MAX_INT_DIGITS + 10) {
      throw new PyException('ValueError', `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`);
    }
    return out({ int: b.int ** e.int });
  }
  const v = toFloat(b);
  const w = toFloat(e);
  const r = floatPow(v, w);
  if (r === 'complex') {
    const text = complexPowRepr(v, w);
    return new PyMpf(text, text);
  }
  return out({ float: r });
}

// ---------------------------------------------------------------------------------------------
// Python round()

const NDIGITS_MAX = 323;
const NDIGITS_MIN = -308;

/** Round half to even of the exact p/q to an integer. */
function roundHalfEvenRatio(p: bigint, q: bigint): bigint {
  if (q < 0n) {
    p = -p;
    q = -q;
  }
  const negative = p < 0n;
  const a = negative ? -p : p;
  let n = a / q;
  const twice = (a - n * q) * 2n;
  if (twice > q || (twice === q && (n & 1n) === 1n)) n += 1n;
  return negative ? -n : n;
}

/** Python's `round(number, ndigits)`. */
function pyRoundValue(number: PyValue, ndigits: PyValue): PyOut {
  const n = num(number);
  if (n === undefined) throw typeError(`type ${pyTypeName(number)} doesn't define __round__ method`);
  let digits: bigint | null = null;
  if (ndigits !== null) {
    const d = num(ndigits);
    if (d === undefined || !isInt(d)) throw typeError(`'${pyTypeName(ndigits)}' object cannot be interpreted as an integer`);
    digits = d.int;
  }
  if (isInt(n)) {
    if (digits === null || digits >= 0n) return out(n);
    const unit = 10n ** -digits;
    return out({ int: roundHalfEvenRatio(n.int, unit) * unit });
  }
  const x = n.float;
  if (digits === null) {
    if (Number.isNaN(x)) throw new PyException('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(x)) throw overflow('cannot convert float infinity to integer');
    const { negative, man, exp } = splitDouble(x);
    const signed = negative ? -man : man;
    return out({ int: exp >= 0 ? signed << BigInt(exp) : roundHalfEvenRatio(signed, 1n << BigInt(-exp)) });
  }
  if (!Number.isFinite(x) || x === 0) return out({ float: x });
  if (digits > BigInt(NDIGITS_MAX)) return out({ float: x });
  if (digits < BigInt(NDIGITS_MIN)) return out({ float: 0 * x });
  const nd = Number(digits);
  const { negative, man, exp } = splitDouble(x);
  const signed = negative ? -man : man;
  // x·10^nd = signed·2^exp·10^nd as p/q
  let p = exp >= 0 ? signed << BigInt(exp) : signed;
  let q = exp >= 0 ? 1n : 1n << BigInt(-exp);
  if (nd >= 0) p *= 10n ** BigInt(nd);
  else q *= 10n ** BigInt(-nd);
  const r = roundHalfEvenRatio(p, q);
  const y = nd >= 0 ? ratioToDouble(r, 10n ** BigInt(nd)) : ratioToDouble(r * 10n ** BigInt(-nd), 1n);
  if (!Number.isFinite(y)) throw overflow('rounded value too large to represent');
  return out({ float: y === 0 && negative ? -0 : y });
}

// ---------------------------------------------------------------------------------------------
// Python comparisons and iteration for min/max/sum

/** Python's `iter(value)`: a list's items, a string's characters, a dict's keys. */
function pyIter(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPyDict(value)) return Object.keys(value);
  throw typeError(`'${pyTypeName(value)}' object is not iterable`);
}

function codePointLess(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = (x[i] as string).codePointAt(0) as number;
    const q = (y[i] as string).codePointAt(0) as number;
    if (p !== q) return p < q;
  }
  return x.length < y.length;
}

/** Python's `a < b` for numbers, strings and lists (lexicographic); a `TypeError` otherwise. */
function pyLess(a: PyValue, b: PyValue, op: '<' | '>'): boolean {
  const x = num(a);
  const y = num(b);
  if (x !== undefined && y !== undefined) {
    if (isInt(x) && isInt(y)) return x.int < y.int;
    return toFloat(x) < toFloat(y);
  }
  if (typeof a === 'string' && typeof b === 'string') return codePointLess(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEquals(a[i], b[i])) return pyLess(a[i] as PyValue, b[i] as PyValue, op);
    }
    return a.length < b.length;
  }
  const [left, right] = op === '<' ? [a, b] : [b, a];
  throw typeError(`'${op}' not supported between instances of '${pyTypeName(left)}' and '${pyTypeName(right)}'`);
}

/** Python's `min(items)` / `max(items)`: the first extreme item. */
function pyExtreme(items: PyValue[], which: 'min' | 'max'): PyValue {
  if (items.length === 0) throw new PyException('ValueError', `${which}() arg is an empty sequence`);
  let best = items[0] as PyValue;
  for (const item of items.slice(1)) {
    if (which === 'min' ? pyLess(item, best, '<') : pyLess(best, item, '>')) best = item;
  }
  return best;
}

/** Python's `sum(items)`: left to right from the int 0. */
function pySum(items: PyValue[]): Num {
  let total: Num = { int: 0n };
  for (const item of items) {
    const y = num(item);
    if (y === undefined) throw typeError(`unsupported operand type(s) for +: '${isInt(total) ? 'int' : 'float'}' and '${pyTypeName(item)}'`);
    total = numAdd(total, y);
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// mpmath: binary floating point (sign, odd mantissa, exponent), rounding to nearest or down

type Mpf = { k: 'fin'; sign: 0 | 1; man: bigint; exp: number } | { k: 'zero' } | { k: 'inf'; sign: 0 | 1 } | { k: 'nan' };
type Mpc = { re: Mpf; im: Mpf };
type Rounding = 'n' | 'd';

const ZERO: Mpf = { k: 'zero' };
const NAN: Mpf = { k: 'nan' };
const INF: Mpf = { k: 'inf', sign: 0 };
const NINF: Mpf = { k: 'inf', sign: 1 };
const ONE: Mpf = { k: 'fin', sign: 0, man: 1n, exp: 0 };

function trailingZeros(n: bigint): number {
  let count = 0;
  while ((n & 0xffffffffn) === 0n) {
    n >>= 32n;
    count += 32;
  }
  while ((n & 1n) === 0n) {
    n >>= 1n;
    count += 1;
  }
  return count;
}

/** A normalised mpf from `man · 2^exp` (man ≥ 0), without rounding. */
function makeMpf(sign: 0 | 1, man: bigint, exp: number): Mpf {
  if (man === 0n) return ZERO;
  const tz = trailingZeros(man);
  return { k: 'fin', sign, man: man >> BigInt(tz), exp: exp + tz };
}

/** `num/den · 2^exp2` (num ≥ 0, den > 0) rounded to `prec` bits: mpmath's `normalize`. */
function roundRatio(sign: 0 | 1, numer: bigint, den: bigint, exp2: number, prec: number, rnd: Rounding): Mpf {
  if (numer === 0n) return ZERO;
  if (den === 1n && bitLength(numer) <= prec) return makeMpf(sign, numer, exp2);
  const shift = prec + 3 - (bitLength(numer) - bitLength(den));
  const a = shift > 0 ? numer << BigInt(shift) : numer;
  const b = shift < 0 ? den << BigInt(-shift) : den;
  let q = a / b;
  const sticky = a - q * b !== 0n;
  let e = exp2 - shift;
  const drop = bitLength(q) - prec;
  if (drop > 0) {
    const bottom = q & ((1n << BigInt(drop)) - 1n);
    q >>= BigInt(drop);
    e += drop;
    if (rnd === 'n') {
      const half = 1n << BigInt(drop - 1);
      if (bottom > half || (bottom === half && (sticky || (q & 1n) === 1n))) q += 1n;
    }
  }
  return makeMpf(sign, q, e);
}

function mpfNeg(x: Mpf): Mpf {
  if (x.k === 'fin') return { ...x, sign: x.sign === 0 ? 1 : 0 };
  if (x.k === 'inf') return x.sign === 0 ? NINF : INF;
  return x;
}

/** mpmath's sign: −1, 0 or 1 (nan counts 0). */
function mpfSign(x: Mpf): number {
  if (x.k === 'fin' || x.k === 'inf') return x.sign === 1 ? -1 : 1;
  return 0;
}

function mpfRound(x: Mpf, prec: number, rnd: Rounding): Mpf {
  return x.k === 'fin' ? roundRatio(x.sign, x.man, 1n, x.exp, prec, rnd) : x;
}

function mpfShift(x: Mpf, n: number): Mpf {
  return x.k === 'fin' ? { ...x, exp: x.exp + n } : x;
}

/** Exact product (mpmath's `mpf_mul` without a precision). */
function mpfMul(a: Mpf, b: Mpf): Mpf {
  if (a.k === 'fin' && b.k === 'fin') return { k: 'fin', sign: a.sign === b.sign ? 0 : 1, man: a.man * b.man, exp: a.exp + b.exp };
  if (a.k === 'nan' || b.k === 'nan') return NAN;
  if (a.k === 'zero' || b.k === 'zero') return a.k === 'inf' || b.k === 'inf' ? NAN : ZERO;
  return mpfSign(a) * mpfSign(b) > 0 ? INF : NINF;
}

/** `a + b` rounded to `prec` bits (mpmath's `mpf_add`, correctly rounded). */
function mpfAdd(a: Mpf, b: Mpf, prec: number, rnd: Rounding): Mpf {
  if (a.k === 'fin' && b.k === 'fin') {
    const e = Math.min(a.exp, b.exp);
    const x = (a.sign === 1 ? -a.man : a.man) << BigInt(a.exp - e);
    const y = (b.sign === 1 ? -b.man : b.man) << BigInt(b.exp - e);
    const s = x + y;
    return s === 0n ? ZERO : roundRatio(s < 0n ? 1 : 0, s < 0n ? -s : s, 1n, e, prec, rnd);
  }
  if (a.k === 'nan' || b.k === 'nan') return NAN;
  if (a.k === 'zero') return mpfRound(b, prec, rnd);
  if (b.k === 'zero') return mpfRound(a, prec, rnd);
  if (a.k === 'inf' && b.k === 'inf') return a.sign === b.sign ? a : NAN;
  return a.k === 'inf' ? a : b;
}

/** `a / b` correctly rounded (mpmath's `mpf_div`, whose ZeroDivisionError has no message). */
function mpfDiv(a: Mpf, b: Mpf, prec: number, rnd: Rounding): Mpf {
  if (a.k === 'fin' && b.k === 'fin') return roundRatio(a.sign === b.sign ? 0 : 1, a.man, b.man, a.exp - b.exp, prec, rnd);
  if (a.k === 'zero') {
    if (b.k === 'zero') throw new PyException('ZeroDivisionError', '');
    return b.k === 'nan' ? NAN : ZERO;
  }
  if (b.k === 'zero') throw new PyException('ZeroDivisionError', '');
  const aSpecial = a.k !== 'fin';
  const bSpecial = b.k !== 'fin';
  if (aSpecial && bSpecial) return NAN;
  if (a.k === 'nan' || b.k === 'nan') return NAN;
  if (!bSpecial) return mpfSign(a) * mpfSign(b) > 0 ? INF : NINF;
  return ZERO;
}

function fromBigInt(n: bigint): Mpf {
  return n === 0n ? ZERO : makeMpf(n < 0n ? 1 : 0, n < 0n ? -n : n, 0);
}

function fromDouble(x: number): Mpf {
  if (Number.isNaN(x)) return NAN;
  if (!Number.isFinite(x)) return x > 0 ? INF : NINF;
  const { negative, man, exp } = splitDouble(x);
  return man === 0n ? ZERO : { k: 'fin', sign: negative ? 1 : 0, man, exp };
}

// Fixed-point series (value · 2^w as a bigint), with Ziv's loop for correct rounding.

/** 2·atanh(p/q) · 2^w for |p/q| ≤ 1/3, error below a few units per term. */
function atanh2Fixed(p: bigint, q: bigint, w: number): bigint {
  const one = 1n << BigInt(w);
  const t = (p * one) / q;
  const t2 = (t * t) / one;
  let power = t;
  let sum = t;
  for (let k = 3n; power !== 0n; k += 2n) {
    power = (power * t2) / one;
    sum += power / k;
  }
  return sum * 2n;
}

const ln2Cache = new Map<number, bigint>();

function ln2Fixed(w: number): bigint {
  let v = ln2Cache.get(w);
  if (v === undefined) {
    v = atanh2Fixed(1n, 3n, w + 8) >> 8n;
    ln2Cache.set(w, v);
  }
  return v;
}

/** atan(1/n) · 2^w. */
function atanInvFixed(n: bigint, w: number): bigint {
  const one = 1n << BigInt(w);
  let power = one / n;
  let sum = power;
  const n2 = n * n;
  let sign = -1n;
  for (let k = 3n; power !== 0n; k += 2n) {
    power /= n2;
    sum += (sign * power) / k;
    sign = -sign;
  }
  return sum;
}

function piFixed(w: number): bigint {
  const g = w + 10;
  return (16n * atanInvFixed(5n, g) - 4n * atanInvFixed(239n, g)) >> 10n;
}

/** atan(p/q) · 2^w for |p/q| ≤ 1 (Euler's series, ratio ≤ 1/2). */
function atanFixed(p: bigint, q: bigint, w: number): bigint {
  const one = 1n << BigInt(w);
  const d = p * p + q * q;
  const y = (p * p * one) / d;
  let term = (p * q * one) / d;
  let sum = term;
  for (let k = 1n; term !== 0n; k++) {
    term = (term * y * 2n * k) / ((2n * k + 1n) << BigInt(w));
    sum += term;
  }
  return sum;
}

/**
 * Rounds a value known as `approx(w) / 2^w` within `err(w)` units: doubles `w` until both ends
 * of the interval round alike (Ziv), so the result is correctly rounded.
 */
function zivRound(approx: (w: number) => bigint, err: (w: number) => bigint, prec: number, rnd: Rounding, start: number): Mpf {
  for (let w = start; ; w = w * 2) {
    const v = approx(w);
    const e = err(w);
    const lo = v - e;
    const hi = v + e;
    if (lo <= 0n && hi >= 0n) {
      if (w > 1 << 20) throw new BfclPyError('MathAPI port: cannot resolve the rounding of a value this close to zero');
      continue;
    }
    const round = (x: bigint): Mpf => (x < 0n ? roundRatio(1, -x, 1n, -w, prec, rnd) : roundRatio(0, x, 1n, -w, prec, rnd));
    const a = round(lo);
    const b = round(hi);
    // Rounding is monotonic, so equal ends mean the value itself rounds to them.
    if (mpfEquals(a, b)) return a;
    if (w > 1 << 20) throw new BfclPyError('MathAPI port: cannot resolve the rounding of this value');
  }
}

function mpfEquals(a: Mpf, b: Mpf): boolean {
  if (a.k === 'fin' && b.k === 'fin') return a.sign === b.sign && a.man === b.man && a.exp === b.exp;
  if (a.k === 'inf' && b.k === 'inf') return a.sign === b.sign;
  return a.k === b.k && a.k !== 'fin' && a.k !== 'inf';
}

/** ln(x) · 2^w for a finite x > 0, with x = m'·2^k and m' in [1/√2, √2). */
function lnFixed(x: Extract<Mpf, { k: 'fin' }>, w: number): { value: bigint; k: number } {
  const bc = bitLength(x.man);
  // man/2^bc in [1/2, 1); below 1/√2 take 2·man/2^bc instead.
  const low = 2n * x.man * x.man < 1n << BigInt(2 * bc);
  const s = low ? bc - 1 : bc;
  const k = x.exp + s;
  const base = 1n << BigInt(s);
  const ln = atanh2Fixed(x.man - base, x.man + base, w);
  return { value: BigInt(k) * ln2Fixed(w) + ln, k };
}

/** mpmath's `mpf_log` of a positive finite x, correctly rounded. */
function mpfLogPositive(x: Extract<Mpf, { k: 'fin' }>, prec: number, rnd: Rounding): Mpf {
  if (x.man === 1n && x.exp === 0) return ZERO;
  const { k } = lnFixed(x, 8);
  const kBits = bitLength(BigInt(Math.abs(k)));
  // Near 1 the logarithm is tiny; Ziv's loop then doubles the working precision.
  return zivRound(
    (w) => lnFixed(x, w).value,
    (w) => BigInt(Math.abs(k) + 2) * BigInt(w + 16),
    prec,
    rnd,
    prec + 32 + kBits,
  );
}

/** An approximation of ln(x) as an mpf with about `w` good bits (for float pow). */
function lnFixedApprox(x: Extract<Mpf, { k: 'fin' }>, w: number): Mpf {
  const v = lnFixed(x, w).value;
  return v < 0n ? makeMpf(1, -v, -w) : makeMpf(0, v, -w);
}

/** The double nearest to e^y for an mpf y (y = exponent·ln|x| in float pow). */
function expToDouble(y: Mpf): number {
  if (y.k === 'zero') return 1;
  if (y.k !== 'fin') return Number.NaN;
  // e^y = 2^(y/ln2) = 2^n · e^r with r = y − n·ln2 small.
  const w = 200;
  const one = 1n << BigInt(w);
  const yFixed = y.exp + w >= 0 ? (y.sign === 1 ? -y.man : y.man) << BigInt(y.exp + w) : (y.sign === 1 ? -y.man : y.man) >> BigInt(-(y.exp + w));
  const ln2 = ln2Fixed(w);
  const n = yFixed / ln2;
  if (n > 1100n) return Infinity;
  if (n < -1200n) return 0;
  const r = yFixed - n * ln2; // |r| < ln2
  let term = one;
  let sum = one;
  for (let k = 1n; term !== 0n; k++) {
    term = (term * r) / (one * k);
    sum += term;
  }
  const e = Number(n) - w;
  return sum < 0n ? 0 : e >= 0 ? ratioToDouble(sum << BigInt(e), 1n) : ratioToDouble(sum, 1n << BigInt(-e));
}

/** mpmath's `mpf_pi(prec, rnd)`. */
function mpfPi(prec: number, rnd: Rounding): Mpf {
  return zivRound(piFixed, (w) => BigInt(w + 32), prec, rnd, prec + 32);
}

/** mpmath's `mpf_atan(x, prec, rnd)` for a finite x ≠ 0, correctly rounded. */
function mpfAtan(x: Extract<Mpf, { k: 'fin' }>, prec: number, rnd: Rounding): Mpf {
  const p = x.exp >= 0 ? x.man << BigInt(x.exp) : x.man;
  const q = x.exp >= 0 ? 1n : 1n << BigInt(-x.exp);
  const signed = (v: bigint): bigint => (x.sign === 1 ? -v : v);
  const approx = (w: number): bigint => {
    if (p <= q) return signed(atanFixed(p, q, w + 8) >> 8n);
    // atan(t) = pi/2 − atan(1/t) for t > 1
    return signed((piFixed(w + 8) / 2n - atanFixed(q, p, w + 8)) >> 8n);
  };
  return zivRound(approx, (w) => BigInt(2 * w + 64), prec, rnd, prec + 40 + Math.max(0, -(x.exp + bitLength(x.man))));
}

/** mpmath's `mpf_atan2(y, x, prec, rnd)`. */
function mpfAtan2(y: Mpf, x: Mpf, prec: number, rnd: Rounding): Mpf {
  if (y.k !== 'fin') {
    if (y.k === 'zero' && x.k !== 'nan') return mpfSign(x) >= 0 ? ZERO : mpfPi(prec, rnd);
    if (y.k === 'inf') {
      if (x.k === 'inf') return NAN;
      return y.sign === 0 ? mpfShift(mpfPi(prec, rnd), -1) : mpfNeg(mpfShift(mpfPi(prec, rnd), -1));
    }
    return NAN;
  }
  if (y.sign === 1) return mpfNeg(mpfAtan2(mpfNeg(y), x, prec, rnd));
  if (x.k !== 'fin') {
    if (x.k === 'nan') return NAN;
    if (x.k === 'inf') return x.sign === 0 ? ZERO : mpfPi(prec, rnd);
    return mpfShift(mpfPi(prec, rnd), -1);
  }
  const quotient = mpfDiv(y, x, prec + 4, 'd');
  const tquo = quotient.k === 'fin' ? mpfAtan(quotient, prec + 4, 'd') : quotient;
  if (x.sign === 1) return mpfAdd(mpfPi(prec + 4, 'd'), tquo, prec, rnd);
  return mpfRound(tquo, prec, rnd);
}

/** mpmath's `mpf_log` for a real x: an `Mpc` where mpmath falls back to `mpc_log`. */
function mpLog(x: Mpf | Mpc, prec: number): Mpf | Mpc {
  if ('re' in x) return mpcLog(x, prec);
  if (x.k === 'zero') return NINF;
  if (x.k === 'nan') return NAN;
  if (x.k === 'inf' && x.sign === 0) return INF;
  if (x.k === 'fin' && x.sign === 0) return mpfLogPositive(x, prec, 'n');
  return mpcLog({ re: x, im: ZERO }, prec);
}

/** mpmath's `mpf_log_hypot(a, b)`: log(sqrt(a² + b²)). */
function mpfLogHypot(a: Mpf, b: Mpf, prec: number, rnd: Rounding): Mpf {
  if (b.k !== 'fin') [a, b] = [b, a];
  if (a.k !== 'fin') {
    if (b.k !== 'fin') {
      if (a.k === 'zero' && b.k === 'zero') return NINF;
      if (a.k === 'nan' || b.k === 'nan') return NAN;
      return INF;
    }
    if (a.k === 'zero') return mpfLogPositive({ ...b, sign: 0 }, prec, rnd);
    if (a.k === 'nan') return NAN;
    return INF;
  }
  const a2 = mpfMul(a, a);
  const b2 = mpfMul(b, b);
  const extra = 20;
  let h2 = mpfAdd(a2, b2, prec + extra, 'd');
  const cancelled = mpfAdd(h2, mpfNeg(ONE), 10, 'd');
  const magCancelled = cancelled.k === 'fin' ? cancelled.exp + bitLength(cancelled.man) : 0;
  if (cancelled.k === 'zero' || magCancelled < -Math.floor(extra / 2)) {
    const minExp = Math.min(a2.k === 'fin' ? a2.exp : 0, b2.k === 'fin' ? b2.exp : 0);
    h2 = mpfAdd(a2, b2, prec + extra - minExp, 'd');
  }
  const log = h2.k === 'fin' ? mpfLogPositive(h2, prec, rnd) : (mpLog(h2, prec) as Mpf);
  return mpfShift(log, -1);
}

function mpcLog(z: Mpc, prec: number): Mpc {
  return { re: mpfLogHypot(z.re, z.im, prec, 'n'), im: mpfAtan2(z.im, z.re, prec, 'n') };
}

/** `/` between mpmath numbers, as `mpf.__div__` and `mpc.__div__` dispatch it. */
function mpDivide(a: Mpf | Mpc, b: Mpf | Mpc, prec: number): Mpf | Mpc {
  const rnd: Rounding = 'n';
  if (!('re' in a) && !('re' in b)) return mpfDiv(a, b, prec, rnd);
  if ('re' in a && !('re' in b)) return { re: mpfDiv(a.re, b, prec, rnd), im: mpfDiv(a.im, b, prec, rnd) };
  if (!('re' in a) && 're' in b) {
    // mpc_mpf_div(p, z)
    const m = mpfAdd(mpfMul(b.re, b.re), mpfMul(b.im, b.im), prec + 10, 'd');
    return { re: mpfDiv(mpfMul(b.re, a), m, prec, rnd), im: mpfDiv(mpfNeg(mpfMul(b.im, a)), m, prec, rnd) };
  }
  const z = a as Mpc;
  const w = b as Mpc;
  const wp = prec + 10;
  const mag = mpfAdd(mpfMul(w.re, w.re), mpfMul(w.im, w.im), wp, 'd');
  const t = mpfAdd(mpfMul(z.re, w.re), mpfMul(z.im, w.im), wp, 'd');
  const u = mpfAdd(mpfMul(z.im, w.re), mpfNeg(mpfMul(z.re, w.im)), wp, 'd');
  return { re: mpfDiv(t, mag, prec, rnd), im: mpfDiv(u, mag, prec, rnd) };
}

// mpmath's decimal output (libmpf.to_str, 1.3.0)

const LOG2_10 = 3.3219280948873626; // Python's math.log(10, 2)

function pyRoundHalfEven(x: number): number {
  let r = Math.round(x);
  if (r - x === 0.5 && r % 2 !== 0) r -= 1;
  return r;
}

function precToDps(n: number): number {
  return Math.max(1, Math.trunc(pyRoundHalfEven(n / LOG2_10) - 1));
}

function dpsToPrec(n: number): number {
  return Math.max(1, Math.trunc(pyRoundHalfEven((n + 1) * LOG2_10)));
}

function reprDps(prec: number): number {
  const dps = precToDps(prec);
  return dps === 15 ? 17 : dps + 3;
}

function toDigitsExp(x: Extract<Mpf, { k: 'fin' }>, dps: number): { sign: string; digits: string; exponent: number } {
  const sign = x.sign === 1 ? '-' : '';
  const bc = bitLength(x.man);
  const bitprec = Math.trunc(dps * LOG2_10) + 10;
  if (Math.abs(x.exp + bc) > 3500) throw new BfclPyError('MathAPI port: printing an mpf beyond 2^3500 is not supported');
  const fixprec = Math.max(bitprec - x.exp - bc, 0);
  const fixdps = Math.trunc(fixprec / LOG2_10 + 0.5);
  const offset = x.exp + fixprec;
  const sf = offset >= 0 ? x.man << BigInt(offset) : x.man >> BigInt(-offset);
  const sd = (sf * 10n ** BigInt(fixdps)) >> BigInt(fixprec);
  const digits = sd.toString();
  return { sign, digits, exponent: digits.length - fixdps - 1 };
}

/** mpmath's `to_str(x, dps)` with its defaults. */
function mpfToStr(x: Mpf, dps: number): string {
  if (x.k === 'zero') return '0.0';
  if (x.k === 'inf') return x.sign === 0 ? '+inf' : '-inf';
  if (x.k === 'nan') return 'nan';
  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  const maxFixed = dps;
  const parts = toDigitsExp(x, dps + 3);
  let { digits, exponent } = parts;
  if (digits.length > dps && '56789'.includes(digits[dps] as string)) {
    digits = digits.slice(0, dps);
    let i = dps - 1;
    while (i >= 0 && digits[i] === '9') i -= 1;
    if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(dps - i - 1);
    else {
      digits = '1' + '0'.repeat(dps - 1);
      exponent += 1;
    }
  } else digits = digits.slice(0, dps);
  let split: number;
  if (minFixed < exponent && exponent < maxFixed) {
    if (exponent < 0) {
      digits = '0'.repeat(-exponent) + digits;
      split = 1;
    } else {
      split = exponent + 1;
      if (split > dps) digits += '0'.repeat(split - dps);
    }
    exponent = 0;
  } else split = 1;
  digits = `${digits.slice(0, split)}.${digits.slice(split)}`;
  digits = digits.replace(/0+$/, '');
  if (digits.endsWith('.')) digits += '0';
  if (exponent === 0) return parts.sign + digits;
  return parts.sign + digits + (exponent > 0 ? `e+${exponent}` : `e${exponent}`);
}

function mpResult(x: Mpf | Mpc, prec: number, dps: number): PyMpf {
  const rd = reprDps(prec);
  if (!('re' in x)) return new PyMpf(mpfToStr(x, dps), `mpf('${mpfToStr(x, rd)}')`);
  const im = x.im;
  const negative = (im.k === 'fin' || im.k === 'inf') && im.sign === 1;
  const str = `(${mpfToStr(x.re, dps)}${negative ? ` - ${mpfToStr(mpfNeg(im), dps)}` : ` + ${mpfToStr(im, dps)}`}j)`;
  return new PyMpf(str, `mpc(real='${mpfToStr(x.re, rd)}', imag='${mpfToStr(im, rd)}')`);
}

// mpmath's conversion of arguments (ctx.convert with strings)

const SPECIAL: Record<string, Mpf> = { inf: INF, '+inf': INF, '-inf': NINF, nan: NAN };
const FLOAT_LITERAL = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:e[+-]?\d(?:_?\d)*)?$/;
const INT_LITERAL = /^[+-]?\d(?:_?\d)*$/;
const COMPLEX = /^\(?(?<re>[+-]?\d*(\.\d*)?(e[+-]?\d+)?)??(?<im>[+-]?\d*(\.\d*)?(e[+-]?\d+)?j)?\)?$/;

/** Python's `int(text)` for a string, or `undefined` where it raises `ValueError`. */
function intOfString(text: string): bigint | undefined {
  const t = text.trim();
  if (!INT_LITERAL.test(t)) return undefined;
  return BigInt(t.replace(/_/g, ''));
}

/** mpmath's `from_str(x, prec)`; `undefined` where it raises `ValueError`. */
function fromStr(x: string, prec: number): Mpf | undefined {
  const s = x.toLowerCase().trim();
  const special = SPECIAL[s];
  if (special !== undefined) return special;
  if (s.includes('/')) {
    const pieces = s.split('/');
    if (pieces.length !== 2) return undefined;
    const p = intOfString((pieces[0] as string).replace(/l+$/, ''));
    const q = intOfString((pieces[1] as string).replace(/l+$/, ''));
    if (p === undefined || q === undefined) return undefined;
    return mpfDiv(fromBigInt(p), fromBigInt(q), prec, 'n');
  }
  const literal = s.replace(/l+$/, '');
  // float() rejects it (ValueError), or accepts a word ("infinity", "+nan") that int() then rejects.
  if (!FLOAT_LITERAL.test(literal.trim())) return undefined;
  const [mantissa = '', expText] = literal.trim().split('e');
  let exp = expText === undefined ? 0 : Number(intOfString(expText));
  let digits = mantissa;
  const point = mantissa.indexOf('.');
  if (point >= 0) {
    // As str_to_man_exp does: the stripped fraction's length counts any underscores too.
    const frac = mantissa.slice(point + 1).replace(/0+$/, '');
    exp -= frac.length;
    digits = mantissa.slice(0, point) + frac;
  }
  const man = intOfString(digits);
  if (man === undefined) return undefined;
  if (man === 0n) return ZERO;
  const sign = man < 0n ? 1 : 0;
  const mag = man < 0n ? -man : man;
  if (exp >= 0) return roundRatio(sign, mag * 10n ** BigInt(exp), 1n, 0, prec, 'n');
  return roundRatio(sign, mag, 10n ** BigInt(-exp), 0, prec, 'n');
}

/** mpmath's `ctx.convert(x)` for a value a model may send. */
function mpConvert(value: PyValue, prec: number): Mpf | Mpc {
  const n = num(value);
  if (n !== undefined) return isInt(n) ? fromBigInt(n.int) : fromDouble(n.float);
  if (typeof value === 'string') {
    const parsed = fromStr(value, prec);
    if (parsed !== undefined) return parsed;
    if (value.toLowerCase().includes('j')) {
      const match = COMPLEX.exec(value.toLowerCase().replace(/ /g, ''));
      if (match === null) throw new PyException('AttributeError', "'NoneType' object has no attribute 'group'");
      const reText = match.groups?.re;
      const imText = match.groups?.im;
      if (imText === undefined) throw new PyException('AttributeError', "'NoneType' object has no attribute 'rstrip'");
      const re = reText === undefined || reText === '' ? ZERO : mpConvert(reText, prec);
      const im = mpConvert(imText.replace(/j+$/, ''), prec);
      if ('re' in re || 're' in im) throw new BfclPyError('MathAPI port: nested complex strings are not supported');
      return { re: mpfRound(re, prec, 'n'), im: mpfRound(im, prec, 'n') };
    }
  }
  throw typeError(`cannot create mpf from ${pyRepr(value)}`);
}

/** Python's `int(x)` as mpmath's dps setter applies it. */
function pyInt(value: PyValue): number {
  const n = num(value);
  if (n !== undefined) {
    const v = isInt(n) ? Number(n.int) : Math.trunc(n.float);
    if (!Number.isFinite(v)) throw overflow('cannot convert float infinity to integer');
    return v;
  }
  if (typeof value === 'string') {
    const parsed = intOfString(value);
    if (parsed === undefined) throw new PyException('ValueError', `invalid literal for int() with base 10: ${pyRepr(value)}`);
    return Number(parsed);
  }
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(value)}'`);
}

const MAX_LOG_DPS = 5000;

/** `mpmath.mp.dps = precision; mpmath.log(value) / mpmath.log(base)`. */
function logarithm(value: PyValue, base: PyValue, precision: PyValue): PyOut {
  const n = pyInt(precision);
  const prec = dpsToPrec(n);
  const dps = Math.max(1, n);
  if (dps > MAX_LOG_DPS) throw new BfclPyError(`MathAPI port: logarithm above ${MAX_LOG_DPS} digits is not supported`);
  const lv = mpLog(mpConvert(value, prec), prec);
  const lb = mpLog(mpConvert(base, prec), prec);
  return mpResult(mpDivide(lv, lb, prec), prec, dps);
}

// ---------------------------------------------------------------------------------------------
// decimal: Decimal(number).sqrt() at a precision (libmpdec semantics)

const MAX_DECIMAL_PREC = 999999999999999999n;
const MAX_SQRT_PREC = 20000;

/** Integer square root (floor). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Python's `str(Decimal)` from sign, coefficient and exponent. */
function decimalStr(negative: boolean, coefficient: bigint, exponent: number): string {
  const c = coefficient.toString();
  const adjusted = exponent + c.length - 1;
  let body: string;
  if (exponent <= 0 && adjusted >= -6) {
    if (exponent === 0) body = c;
    else if (c.length > -exponent) body = `${c.slice(0, c.length + exponent)}.${c.slice(c.length + exponent)}`;
    else body = `0.${'0'.repeat(-exponent - c.length)}${c}`;
  } else {
    body = c.length > 1 ? `${c[0]}.${c.slice(1)}` : c;
    body += `E${adjusted >= 0 ? '+' : ''}${adjusted}`;
  }
  return (negative ? '-' : '') + body;
}

function decimalSqrt(number: Num, prec: number): PyMpf {
  // Decimal(number): an exact coefficient · 10^exponent.
  let negative = false;
  let c: bigint;
  let e: number;
  if (isInt(number)) {
    negative = number.int < 0n;
    c = negative ? -number.int : number.int;
    e = 0;
  } else {
    const parts = splitDouble(number.float);
    negative = parts.negative;
    if (parts.exp >= 0) {
      c = parts.man << BigInt(parts.exp);
      e = 0;
    } else {
      c = parts.man * 5n ** BigInt(-parts.exp);
      e = parts.exp;
    }
  }
  const ideal = Math.floor(e / 2);
  const text = (coefficient: bigint, exponent: number): PyMpf => {
    const s = decimalStr(negative, coefficient, exponent);
    return new PyMpf(s, `Decimal('${s}')`);
  };
  if (c === 0n) return text(0n, ideal);
  // Make the exponent even, then scale so the root has more than prec digits.
  if (e % 2 !== 0) {
    c *= 10n;
    e -= 1;
  }
  const half = Math.ceil(c.toString().length / 2);
  const k = Math.max(0, prec + 2 - half);
  const scaled = c * 10n ** BigInt(2 * k);
  let s = isqrt(scaled);
  const exact = s * s === scaled;
  let exponent = e / 2 - k;
  const length = s.toString().length;
  let inexact = !exact;
  if (length > prec) {
    const drop = length - prec;
    const unit = 10n ** BigInt(drop);
    let q = s / unit;
    const r = s - q * unit;
    const halfUnit = unit / 2n;
    if (r !== 0n) inexact = true;
    if (r > halfUnit || (r === halfUnit && (!exact || (q & 1n) === 1n))) q += 1n;
    if (q.toString().length > prec) {
      q /= 10n;
      exponent += 1;
    }
    s = q;
    exponent += drop;
  }
  if (inexact) {
    // exactly prec digits
    const len = s.toString().length;
    if (len < prec) {
      s *= 10n ** BigInt(prec - len);
      exponent -= prec - len;
    }
    return text(s, exponent);
  }
  // Exact: the exponent nearest the ideal one that the precision allows.
  while (s % 10n === 0n && exponent < ideal) {
    s /= 10n;
    exponent += 1;
  }
  while (exponent > ideal && s.toString().length < prec) {
    s *= 10n;
    exponent -= 1;
  }
  return text(s, exponent);
}

function squareRoot(number: PyValue, precision: PyValue): PyOut {
  return pyTry(
    ['TypeError'],
    () => {
      const n = num(number);
      if (n === undefined) throw typeError(`'<' not supported between instances of '${pyTypeName(number)}' and 'int'`);
      if (isInt(n) ? n.int < 0n : n.float < 0) return { error: 'Cannot calculate square root of a negative number' };
      const p = num(precision);
      if (p === undefined || !isInt(p)) throw typeError('an integer is required');
      if (p.int < 1n || p.int > MAX_DECIMAL_PREC) throw new PyException('ValueError', 'valid range for prec is [1, MAX_PREC]');
      if (p.int > BigInt(MAX_SQRT_PREC)) throw new BfclPyError(`MathAPI port: square_root above ${MAX_SQRT_PREC} digits is not supported`);
      return { result: decimalSqrt(n, Number(p.int)) };
    },
    () => ({ error: 'Input must be a number or computation resulted in an invalid operation' }),
  );
}

// ---------------------------------------------------------------------------------------------
// The class

/** A `MathAPI` instance: no state at all (`STATELESS_CLASSES`). */
export class MathApi implements BfclInstance {
  /** `{}`: MathAPI has no public attribute. */
  publicState(): JsonObject {
    return {};
  }

  /** `{}`: nothing to keep (mpmath's and decimal's global precision is set by every call that reads it). */
  snapshot(): JsonValue {
    return {};
  }
}

function arg(args: Readonly<Record<string, PyValue>>, method: string, name: string): PyValue {
  const value = args[name];
  if (value === undefined) throw typeError(`MathAPI.${method}() missing 1 required positional argument: '${name}'`);
  return value;
}

const conversionError = (unitIn: PyValue, unitOut: PyValue): PyOut => ({
  error: `Conversion from '${pyStr(unitIn)}' to '${pyStr(unitOut)}' is not supported`,
});

/** `key in {str: ...}`: a list or dict key raises Python's `TypeError`. */
function hasKey(table: Readonly<Record<string, unknown>>, key: PyValue): boolean {
  if (Array.isArray(key) || isPyDict(key)) throw new BfclPyError(`unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(table, key);
}

const TO_METERS: Readonly<Record<string, Num>> = {
  km: { int: 1000n },
  m: { int: 1n },
  cm: { float: 0.01 },
  mm: { float: 0.001 },
  um: { float: 1e-6 },
  nm: { float: 1e-9 },
};

const IMPERIAL: Readonly<Record<string, number>> = {
  cm_to_in: 0.393701,
  in_to_cm: 2.54,
  m_to_ft: 3.28084,
  ft_to_m: 0.3048,
  m_to_yd: 1.09361,
  yd_to_m: 0.9144,
  km_to_miles: 0.621371,
  miles_to_km: 1.60934,
  kg_to_lb: 2.20462,
  lb_to_kg: 0.453592,
  celsius_to_fahrenheit: 1.8,
  fahrenheit_to_celsius: 5 / 9,
};

const listMethod = (name: string, empty: string, body: (items: PyValue[]) => PyOut): BfclMethod<MathApi> => ({
  params: [['numbers', false]],
  call(_api, args) {
    const numbers = arg(args, name, 'numbers');
    if (!truthy(numbers)) return { error: empty };
    return pyTry(['TypeError'], () => body(pyIter(numbers)), () => ({ error: 'All elements in the list must be numbers' }));
  },
});

const binary = (name: string, message: string, body: (a: PyValue, b: PyValue) => PyOut): BfclMethod<MathApi> => ({
  params: [
    ['a', false],
    ['b', false],
  ],
  call(_api, args) {
    const a = arg(args, name, 'a');
    const b = arg(args, name, 'b');
    return pyTry(['TypeError'], () => body(a, b), () => ({ error: message }));
  },
});

const methods: Record<string, BfclMethod<MathApi>> = {
  logarithm: {
    params: [
      ['value', false],
      ['base', false],
      ['precision', false],
    ],
    call(_api, args) {
      const value = arg(args, 'logarithm', 'value');
      const base = arg(args, 'logarithm', 'base');
      const precision = arg(args, 'logarithm', 'precision');
      return pyTry(
        ['TypeError', 'ValueError', 'OverflowError', 'ZeroDivisionError', 'AttributeError'],
        () => ({ result: logarithm(value, base, precision) }),
        (e) => ({ error: e.message }),
      );
    },
  },
  mean: listMethod('mean', 'Cannot calculate mean of an empty list', (items) => ({ result: out(numDiv(pySum(items), { int: BigInt(items.length) })) })),
  standard_deviation: listMethod('standard_deviation', 'Cannot calculate standard deviation of an empty list', (items) => {
    const mean = numDiv(pySum(items), { int: BigInt(items.length) });
    const squares = items.map((x) => {
      const [value] = operands(x, 0, '-');
      // (x - mean) ** 2 is float_pow(d, 2.0): never complex, OverflowError past the largest double.
      return new PyFloat(floatPow(toFloat(numSub(value, mean)), 2) as number);
    });
    const variance = numDiv(pySum(squares), { int: BigInt(items.length) });
    return { result: out({ float: Math.sqrt(toFloat(variance)) }) };
  }),
  si_unit_conversion: {
    params: [
      ['value', false],
      ['unit_in', false],
      ['unit_out', false],
    ],
    call(_api, args) {
      const value = arg(args, 'si_unit_conversion', 'value');
      const unitIn = arg(args, 'si_unit_conversion', 'unit_in');
      const unitOut = arg(args, 'si_unit_conversion', 'unit_out');
      const v = num(value);
      if (v === undefined) return { error: 'Value must be a number' };
      if (!hasKey(TO_METERS, unitIn) || !hasKey(TO_METERS, unitOut)) return conversionError(unitIn, unitOut);
      const fromMeters = { float: 1 / toFloat(TO_METERS[unitOut as string] as Num) };
      return pyTry(
        ['OverflowError'],
        () => ({ result: out(numMul(numMul(v, TO_METERS[unitIn as string] as Num), fromMeters)) }),
        () => ({ error: 'Conversion resulted in a value too large to represent' }),
      );
    },
  },
  imperial_si_conversion: {
    params: [
      ['value', false],
      ['unit_in', false],
      ['unit_out', false],
    ],
    call(_api, args) {
      const value = arg(args, 'imperial_si_conversion', 'value');
      const unitIn = arg(args, 'imperial_si_conversion', 'unit_in');
      const unitOut = arg(args, 'imperial_si_conversion', 'unit_out');
      const v = num(value);
      if (v === undefined) return { error: 'Value must be a number' };
      if (pyEquals(unitIn, unitOut)) return { result: value };
      const key = `${pyStr(unitIn)}_to_${pyStr(unitOut)}`;
      const factor = IMPERIAL[key];
      if (factor === undefined || !Object.prototype.hasOwnProperty.call(IMPERIAL, key)) return conversionError(unitIn, unitOut);
      return pyTry(
        ['OverflowError'],
        () => {
          const f = { float: factor };
          if (unitIn === 'celsius' && unitOut === 'fahrenheit') return { result: out(numAdd(numMul(v, f), { int: 32n })) };
          if (unitIn === 'fahrenheit' && unitOut === 'celsius') return { result: out(numMul(numSub(v, { int: 32n }), f)) };
          return { result: out(numMul(v, f)) };
        },
        () => ({ error: 'Conversion resulted in a value too large to represent' }),
      );
    },
  },
  add: binary('add', 'Both inputs must be numbers', (a, b) => ({ result: pyAdd(a, b) })),
  subtract: binary('subtract', 'Both inputs must be numbers', (a, b) => {
    const [x, y] = operands(a, b, '-');
    return { result: out(numSub(x, y)) };
  }),
  multiply: {
    params: [
      ['a', false],
      ['b', false],
    ],
    call(_api, args) {
      const x = num(arg(args, 'multiply', 'a'));
      const y = num(arg(args, 'multiply', 'b'));
      if (x === undefined || y === undefined) return { error: 'Both inputs must be numbers' };
      return { result: out(numMul(x, y)) };
    },
  },
  divide: binary('divide', 'Both inputs must be numbers', (a, b) => {
    if (pyEquals(b, 0)) return { error: 'Cannot divide by zero' };
    const [x, y] = operands(a, b, '/');
    return { result: out(numDiv(x, y)) };
  }),
  power: {
    params: [
      ['base', false],
      ['exponent', false],
    ],
    call(_api, args) {
      const base = arg(args, 'power', 'base');
      const exponent = arg(args, 'power', 'exponent');
      return pyTry(['TypeError'], () => ({ result: pyPow(base, exponent) }), () => ({ error: 'Both inputs must be numbers' }));
    },
  },
  square_root: {
    params: [
      ['number', false],
      ['precision', false],
    ],
    call(_api, args) {
      return squareRoot(arg(args, 'square_root', 'number'), arg(args, 'square_root', 'precision'));
    },
  },
  absolute_value: {
    params: [['number', false]],
    call(_api, args) {
      const value = arg(args, 'absolute_value', 'number');
      const n = num(value);
      if (n === undefined) return { error: 'Input must be a number' };
      return { result: out(isInt(n) ? { int: n.int < 0n ? -n.int : n.int } : { float: Math.abs(n.float) }) };
    },
  },
  round_number: {
    params: [
      ['number', false],
      ['decimal_places', true],
    ],
    call(_api, args) {
      const number = arg(args, 'round_number', 'number');
      const places = args.decimal_places === undefined ? 0 : args.decimal_places;
      return pyTry(['TypeError'], () => ({ result: pyRoundValue(number, places) }), () => ({ error: 'First input must be a number, second input must be an integer' }));
    },
  },
  percentage: {
    params: [
      ['part', false],
      ['whole', false],
    ],
    call(_api, args) {
      const part = arg(args, 'percentage', 'part');
      const whole = arg(args, 'percentage', 'whole');
      return pyTry(
        ['TypeError'],
        () => {
          if (pyEquals(whole, 0)) return { error: 'Whole value cannot be zero' };
          const [x, y] = operands(part, whole, '/');
          return { result: out(numMul(numDiv(x, y), { int: 100n })) };
        },
        () => ({ error: 'Both inputs must be numbers' }),
      );
    },
  },
  min_value: listMethod('min_value', 'Cannot find minimum of an empty list', (items) => ({ result: pyExtreme(items, 'min') })),
  max_value: listMethod('max_value', 'Cannot find maximum of an empty list', (items) => ({ result: pyExtreme(items, 'max') })),
  sum_values: listMethod('sum_values', 'Cannot calculate sum of an empty list', (items) => ({ result: out(pySum(items)) })),
};

/** The `MathAPI` port (stateless: `load` ignores the config, as the executor never loads one). */
export const mathApiPort: BfclClassPort<MathApi> = {
  className: 'MathAPI',
  stateless: true,
  load: () => new MathApi(),
  restore: () => new MathApi(),
  methods,
};
