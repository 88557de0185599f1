import type { JsonObject, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { DriverParamsError, defineDriver } from './driver.js';

/** The operations a calculator tool performs. */
export type CalculatorOp =
  | 'add'
  | 'subtract'
  | 'multiply'
  | 'divide'
  | 'modulo'
  | 'power'
  | 'sqrt'
  | 'log'
  | 'exp'
  | 'abs'
  | 'negate'
  | 'factorial'
  | 'mean'
  | 'median'
  | 'std'
  | 'variance'
  | 'min'
  | 'max'
  | 'product'
  | 'percentage'
  | 'round'
  | 'floor'
  | 'ceil'
  | 'convert';

export interface CalculatorParams {
  op: CalculatorOp;
  /** Parameter names by role: `a`/`b` (binary), `list` (an array of numbers), `x` (unary),
   * `digits` (precision or decimal places), `base` (of a logarithm), `from`/`to` (units). */
  inputs: Partial<Record<'a' | 'b' | 'list' | 'x' | 'digits' | 'base' | 'from' | 'to', string>>;
  /** `significant`: round to that many significant digits; `decimals`: to decimal places. */
  digitsMode?: 'significant' | 'decimals';
  /** Standard deviation and variance of a sample (n − 1) instead of the population. */
  sample?: boolean;
  /** convert: units fixed by the tool (`pounds_to_kilograms`), used when `inputs.from`/`inputs.to` are absent. */
  units?: { from: string; to: string };
  /** The output's property (`result`); absent: `{ result }`. */
  resultKey?: string;
}

const OPS = new Set<string>([
  'add', 'subtract', 'multiply', 'divide', 'modulo', 'power', 'sqrt', 'log', 'exp', 'abs', 'negate', 'factorial', 'mean', 'median',
  'std', 'variance', 'min', 'max', 'product', 'percentage', 'round', 'floor', 'ceil', 'convert',
]);

interface Unit {
  dim: string;
  /** Value in the dimension's base unit = value × factor (temperatures use `toBase`). */
  factor: number;
  toBase?: (v: number) => number;
  fromBase?: (v: number) => number;
}

const PREFIXES: Record<string, number> = {
  Y: 1e24, Z: 1e21, E: 1e18, P: 1e15, T: 1e12, G: 1e9, M: 1e6, k: 1e3, h: 1e2, da: 1e1, d: 1e-1, c: 1e-2, m: 1e-3, u: 1e-6, µ: 1e-6, n: 1e-9, p: 1e-12, f: 1e-15,
};
const PREFIX_NAMES: Record<string, number> = {
  yotta: 1e24, zetta: 1e21, exa: 1e18, peta: 1e15, tera: 1e12, giga: 1e9, mega: 1e6, kilo: 1e3, hecto: 1e2, deca: 1e1, deka: 1e1,
  deci: 1e-1, centi: 1e-2, milli: 1e-3, micro: 1e-6, nano: 1e-9, pico: 1e-12, femto: 1e-15,
};
/** SI base and derived units that take prefixes: symbol, names, dimension. */
const SI_UNITS: [string, string[], string][] = [
  ['m', ['meter', 'metre'], 'length'],
  ['g', ['gram', 'gramme'], 'mass'],
  ['s', ['second'], 'time'],
  ['l', ['liter', 'litre'], 'volume'],
  ['A', ['ampere', 'amp'], 'current'],
  ['mol', ['mole'], 'amount'],
  ['cd', ['candela'], 'luminosity'],
  ['N', ['newton'], 'force'],
  ['J', ['joule'], 'energy'],
  ['W', ['watt'], 'power'],
  ['Pa', ['pascal'], 'pressure'],
  ['Hz', ['hertz'], 'frequency'],
  ['V', ['volt'], 'voltage'],
  ['B', ['byte'], 'data'],
];
/** Other units by name, in the base unit of their dimension (m, g, s, l, Pa, J, m²). */
const OTHER_UNITS: [string[], string, number][] = [
  [['in', 'inch', 'inches'], 'length', 0.0254],
  [['ft', 'foot', 'feet'], 'length', 0.3048],
  [['yd', 'yard', 'yards'], 'length', 0.9144],
  [['mi', 'mile', 'miles'], 'length', 1609.344],
  [['nmi', 'nautical_mile', 'nautical_miles'], 'length', 1852],
  [['oz', 'ounce', 'ounces'], 'mass', 28.349523125],
  [['lb', 'lbs', 'pound', 'pounds'], 'mass', 453.59237],
  [['st', 'stone', 'stones'], 'mass', 6350.29318],
  [['t', 'tonne', 'tonnes', 'metric_ton'], 'mass', 1e6],
  [['ton', 'tons', 'short_ton'], 'mass', 907184.74],
  [['gal', 'gallon', 'gallons'], 'volume', 3.785411784],
  [['qt', 'quart', 'quarts'], 'volume', 0.946352946],
  [['pt', 'pint', 'pints'], 'volume', 0.473176473],
  [['cup', 'cups'], 'volume', 0.2365882365],
  [['fl_oz', 'floz', 'fluid_ounce', 'fluid_ounces'], 'volume', 0.0295735295625],
  [['m3', 'cubic_meter', 'cubic_meters'], 'volume', 1000],
  [['min', 'minute', 'minutes'], 'time', 60],
  [['h', 'hr', 'hour', 'hours'], 'time', 3600],
  [['day', 'days'], 'time', 86400],
  [['week', 'weeks'], 'time', 604800],
  [['psi'], 'pressure', 6894.757293168],
  [['bar'], 'pressure', 1e5],
  [['atm', 'atmosphere'], 'pressure', 101325],
  [['cal', 'calorie', 'calories'], 'energy', 4.184],
  [['kcal', 'kilocalorie', 'kilocalories'], 'energy', 4184],
  [['kwh', 'kilowatt_hour'], 'energy', 3.6e6],
  [['hp', 'horsepower'], 'power', 745.69987158227],
  [['mph'], 'speed', 0.44704],
  [['kph', 'kmh', 'km/h'], 'speed', 1 / 3.6],
  [['m/s', 'mps'], 'speed', 1],
  [['ft/s', 'fps'], 'speed', 0.3048],
  [['knot', 'knots', 'kn'], 'speed', 1852 / 3600],
  [['sqft', 'sq_ft', 'square_foot', 'square_feet', 'ft2'], 'area', 0.09290304],
  [['sqm', 'sq_m', 'square_meter', 'square_meters', 'm2'], 'area', 1],
  [['acre', 'acres'], 'area', 4046.8564224],
  [['hectare', 'hectares', 'ha'], 'area', 1e4],
];

function temperature(names: string[], toBase: (v: number) => number, fromBase: (v: number) => number): [string[], Unit] {
  return [names, { dim: 'temperature', factor: 1, toBase, fromBase }];
}
const TEMPERATURES: [string[], Unit][] = [
  temperature(['c', 'celsius', 'degc', '°c'], (v) => v + 273.15, (v) => v - 273.15),
  temperature(['f', 'fahrenheit', 'degf', '°f'], (v) => ((v - 32) * 5) / 9 + 273.15, (v) => ((v - 273.15) * 9) / 5 + 32),
  temperature(['k', 'kelvin'], (v) => v, (v) => v),
];

function unitOf(raw: string): Unit | undefined {
  const s = raw.trim();
  const lower = s.toLowerCase().replace(/\s+/g, '_');
  for (const [names, u] of TEMPERATURES) if (names.includes(lower)) return u;
  for (const [names, dim, factor] of OTHER_UNITS) if (names.includes(lower)) return { dim, factor };
  // SI symbols with a prefix: exact case (`mm`, `Mm`, `kg`, `um`).
  for (const [sym, , dim] of SI_UNITS) {
    if (s === sym || s.toLowerCase() === sym.toLowerCase()) return { dim, factor: 1 };
    if (s.endsWith(sym) || s.toLowerCase().endsWith(sym.toLowerCase())) {
      const pre = s.slice(0, s.length - sym.length);
      const f = PREFIXES[pre] ?? (pre.length > 0 && pre !== 'M' && pre !== 'm' ? PREFIXES[pre.toLowerCase()] : undefined);
      if (f !== undefined) return { dim, factor: f };
    }
  }
  // SI names with a prefix name (`kilometers`, `milligram`).
  const singular = lower.replace(/(es|s)$/, '');
  for (const [, names, dim] of SI_UNITS) {
    for (const n of names) {
      if (lower === n || singular === n || lower === `${n}s`) return { dim, factor: 1 };
      for (const [pre, f] of Object.entries(PREFIX_NAMES)) {
        if (lower === pre + n || singular === pre + n || lower === `${pre + n}s`) return { dim, factor: f };
      }
    }
  }
  return undefined;
}

function num(args: JsonObject, name: string | undefined, role: string): number {
  if (name === undefined) throw new Error(`no parameter for the ${role}`);
  const v = args[name];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${name} must be a number.`);
  return v;
}

function numbers(args: JsonObject, name: string | undefined): number[] {
  if (name === undefined) throw new Error('no parameter for the list of numbers');
  const v = args[name];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new Error(`${name} must be a list of numbers.`);
  if (v.length === 0) throw new Error(`${name} is empty: give at least one number.`);
  return v as number[];
}

function optionalInt(args: JsonObject, name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`${name} must be an integer.`);
  return v;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function withDigits(v: number, digits: number | undefined, mode: 'significant' | 'decimals'): number {
  if (digits === undefined) return v;
  if (mode === 'significant') {
    if (digits < 1 || digits > 100) throw new Error(`precision must be between 1 and 100, got ${digits}.`);
    return Number(v.toPrecision(digits));
  }
  if (digits < 0 || digits > 100) throw new Error(`decimal places must be between 0 and 100, got ${digits}.`);
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function compute(p: CalculatorParams, args: JsonObject): number {
  const i = p.inputs;
  const digits = optionalInt(args, i.digits);
  const mode = p.digitsMode ?? 'decimals';
  switch (p.op) {
    case 'add':
      return i.list !== undefined ? sum(numbers(args, i.list)) : num(args, i.a, 'first number') + num(args, i.b, 'second number');
    case 'product':
    case 'multiply':
      return i.list !== undefined ? numbers(args, i.list).reduce((a, b) => a * b, 1) : num(args, i.a, 'first number') * num(args, i.b, 'second number');
    case 'subtract':
      return num(args, i.a, 'first number') - num(args, i.b, 'second number');
    case 'divide': {
      const b = num(args, i.b, 'divisor');
      if (b === 0) throw new Error('Cannot divide by zero.');
      return withDigits(num(args, i.a, 'dividend') / b, digits, mode);
    }
    case 'modulo': {
      const b = num(args, i.b, 'divisor');
      if (b === 0) throw new Error('Cannot take a remainder of division by zero.');
      return num(args, i.a, 'dividend') % b;
    }
    case 'power':
      return num(args, i.a, 'base') ** num(args, i.b, 'exponent');
    case 'sqrt': {
      const x = num(args, i.x, 'number');
      if (x < 0) throw new Error('Cannot calculate the square root of a negative number.');
      return withDigits(Math.sqrt(x), digits, mode);
    }
    case 'log': {
      const x = num(args, i.x, 'number');
      if (x <= 0) throw new Error('The logarithm is defined only for positive numbers.');
      let value = Math.log(x);
      if (i.base !== undefined && args[i.base] !== undefined) {
        const base = num(args, i.base, 'base');
        if (base <= 0 || base === 1) throw new Error('The base of a logarithm must be positive and not 1.');
        value = base === 10 ? Math.log10(x) : base === 2 ? Math.log2(x) : value / Math.log(base);
      }
      return withDigits(value, digits, mode);
    }
    case 'exp':
      return Math.exp(num(args, i.x, 'number'));
    case 'abs':
      return Math.abs(num(args, i.x, 'number'));
    case 'negate':
      return -num(args, i.x, 'number');
    case 'factorial': {
      const x = num(args, i.x, 'number');
      if (!Number.isInteger(x) || x < 0) throw new Error('The factorial is defined only for non-negative integers.');
      if (x > 170) throw new Error('The factorial of numbers above 170 overflows.');
      let r = 1;
      for (let k = 2; k <= x; k++) r *= k;
      return r;
    }
    case 'mean': {
      const xs = numbers(args, i.list);
      return sum(xs) / xs.length;
    }
    case 'median': {
      const xs = [...numbers(args, i.list)].sort((a, b) => a - b);
      const mid = Math.floor(xs.length / 2);
      return xs.length % 2 === 1 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
    }
    case 'variance':
    case 'std': {
      const xs = numbers(args, i.list);
      const n = xs.length;
      if (p.sample === true && n < 2) throw new Error('A sample needs at least two numbers.');
      const m = sum(xs) / n;
      const v = sum(xs.map((x) => (x - m) ** 2)) / (p.sample === true ? n - 1 : n);
      return p.op === 'std' ? Math.sqrt(v) : v;
    }
    case 'min':
      return Math.min(...numbers(args, i.list));
    case 'max':
      return Math.max(...numbers(args, i.list));
    case 'percentage': {
      const whole = num(args, i.b, 'whole');
      if (whole === 0) throw new Error('The whole cannot be zero.');
      return (num(args, i.a, 'part') / whole) * 100;
    }
    case 'round':
      return withDigits(num(args, i.x, 'number'), digits ?? 0, 'decimals');
    case 'floor':
      return Math.floor(num(args, i.x, 'number'));
    case 'ceil':
      return Math.ceil(num(args, i.x, 'number'));
    case 'convert': {
      const x = num(args, i.x, 'value');
      const fromName = i.from === undefined ? p.units?.from : args[i.from];
      const toName = i.to === undefined ? p.units?.to : args[i.to];
      if (typeof fromName !== 'string' || typeof toName !== 'string') throw new Error('Give the unit to convert from and the unit to convert to.');
      const from = unitOf(fromName);
      const to = unitOf(toName);
      if (from === undefined) throw new Error(`Unknown unit "${fromName}".`);
      if (to === undefined) throw new Error(`Unknown unit "${toName}".`);
      if (from.dim !== to.dim) throw new Error(`Cannot convert ${from.dim} (${fromName}) to ${to.dim} (${toName}).`);
      const base = from.toBase !== undefined ? from.toBase(x) : x * from.factor;
      // Through the base unit, then 12 significant digits: no float noise (4.535923700000001).
      return Number((to.fromBase !== undefined ? to.fromBase(base) : base / to.factor).toPrecision(12));
    }
  }
}

/**
 * Stateless arithmetic, statistics and unit conversion: one operation per tool, its inputs
 * bound to the tool's parameters by role. Invalid input (division by zero, an empty list, an
 * unknown unit) is an error observation.
 */
export const calculatorDriver = defineDriver<CalculatorParams>({
  name: 'calculator',
  version: 1,
  parse(params: JsonValue): CalculatorParams {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'calculator params must be an object');
    if (typeof params.op !== 'string' || !OPS.has(params.op)) throw new DriverParamsError('/op', `unknown calculator op ${JSON.stringify(params.op)}`);
    if (!isJsonObject(params.inputs)) throw new DriverParamsError('/inputs', 'inputs must map roles to parameter names');
    for (const [k, v] of Object.entries(params.inputs)) if (typeof v !== 'string') throw new DriverParamsError(`/inputs/${k}`, 'a parameter name must be a string');
    return params as unknown as CalculatorParams;
  },
  compile(params: CalculatorParams) {
    return (args) => {
      const value = compute(params, args);
      if (!Number.isFinite(value)) throw new Error('The result is not a finite number.');
      return { [params.resultKey ?? 'result']: value };
    };
  },
});
