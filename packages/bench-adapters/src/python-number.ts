/**
 * Python's float semantics where they differ from JavaScript's: `round(x, n)` rounds the exact
 * binary value half to even, and `repr(x)` switches to exponent notation at 1e16.
 */

/**
 * Python's `round(x, digits)` for floats: the exact binary value of `x` rounded to `digits`
 * decimals, ties (exact halves, such as 0.125) to even. `Number#toFixed` breaks those ties
 * upwards, so `toFixed` alone would differ from the reference on them.
 */
export function pyRound(x: number, digits = 0): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const abs = Math.abs(x);
  if (abs >= 1e21) return x;
  // Every double below 1e21 has a finite decimal expansion; 100 digits cover what can matter.
  const exact = abs.toFixed(100);
  const point = exact.indexOf('.');
  const keep = exact.slice(0, point + 1 + digits);
  const rest = exact.slice(point + 1 + digits);
  let rounded: number;
  if (rest[0] === '5' && /^0*$/.test(rest.slice(1))) {
    const intDigits = BigInt(keep.replace('.', ''));
    const even = intDigits % 2n === 0n;
    const chosen = (even ? intDigits : intDigits + 1n).toString().padStart(digits + 1, '0');
    rounded = Number(digits > 0 ? `${chosen.slice(0, -digits)}.${chosen.slice(-digits)}` : chosen);
  } else {
    rounded = Number(abs.toFixed(digits));
  }
  return x < 0 ? -rounded : rounded;
}

/** Python's `repr(float)` (and `str(float)`): `4.0`, `0.1`, `1e+16`, `1.5e-05`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', expText = '0'] = x.toExponential().split('e');
  const exponent = Number(expText);
  if (exponent >= -4 && exponent < 16) {
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Python's `str()` of a JSON number that came from an int or a float: `150`, `150.5`. */
export function pyNumberText(x: number): string {
  return Number.isInteger(x) ? String(x) : pyFloatRepr(x);
}
