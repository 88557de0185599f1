import type { JsonObject, JsonSchemaObject, JsonValue } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { singularize } from '../naming.js';
import { itemsOf, mainType, nonNull } from '../schema-utils.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';

// Stateless arithmetic, statistics and unit conversion. A tool belongs here when its name says
// which operation it performs and its parameters are numbers, lists of numbers, a precision and
// (for conversions) unit names — nothing that names a record.

type Op =
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
  | 'factorial'
  | 'mean'
  | 'median'
  | 'std'
  | 'variance'
  | 'min'
  | 'max'
  | 'percentage'
  | 'round'
  | 'floor'
  | 'ceil'
  | 'convert';

/** Name words → operation; two-word names first. */
const PHRASES: [string[], Op][] = [
  [['square', 'root'], 'sqrt'],
  [['standard', 'deviation'], 'std'],
  [['absolute', 'value'], 'abs'],
  [['unit', 'conversion'], 'convert'],
];
const WORDS: Record<string, Op> = {
  add: 'add', addition: 'add', plus: 'add', sum: 'add',
  subtract: 'subtract', subtraction: 'subtract', minus: 'subtract', difference: 'subtract',
  multiply: 'multiply', multiplication: 'multiply', product: 'multiply',
  divide: 'divide', division: 'divide', quotient: 'divide',
  mod: 'modulo', modulo: 'modulo', modulus: 'modulo', remainder: 'modulo',
  power: 'power', pow: 'power', exponentiate: 'power',
  sqrt: 'sqrt',
  log: 'log', logarithm: 'log', ln: 'log',
  exp: 'exp', exponential: 'exp',
  abs: 'abs', absolute: 'abs',
  factorial: 'factorial',
  mean: 'mean', average: 'mean', avg: 'mean',
  median: 'median',
  std: 'std', stdev: 'std', stddev: 'std',
  variance: 'variance',
  min: 'min', minimum: 'min', smallest: 'min', lowest: 'min',
  max: 'max', maximum: 'max', largest: 'max', highest: 'max',
  percentage: 'percentage', percent: 'percentage',
  round: 'round', rounding: 'round',
  floor: 'floor',
  ceil: 'ceil', ceiling: 'ceil',
  convert: 'convert', conversion: 'convert',
};
const LIST_OPS = new Set<Op>(['mean', 'median', 'std', 'variance', 'min', 'max']);
const BINARY_OPS = new Set<Op>(['subtract', 'divide', 'modulo', 'power', 'percentage']);
const UNARY_OPS = new Set<Op>(['sqrt', 'log', 'exp', 'abs', 'factorial', 'round', 'floor', 'ceil']);
const DIGITS = /^(precision|decimals?|decimal_places|digits|places|ndigits|significant_digits|sig_figs)$/;
const SECOND = /^(b|y|num2|number2|second|second_number|right|divisor|denominator|exponent|power|whole|total|subtrahend|n2|x2|value2)$/;
const FROM = /^(unit_in|from|from_unit|source_unit|input_unit|unit_from|from_units)$/;
const TO = /^(unit_out|to|to_unit|target_unit|output_unit|unit_to|to_units)$/;

const WRITING = new Set(['create', 'update', 'delete', 'transition', 'enable', 'disable', 'toggle']);
/** What the description of a one-number operation must mention (a `floor` of a building is not one). */
const UNARY_SAYS: Partial<Record<Op, RegExp>> = {
  sqrt: /square root|sqrt/i,
  log: /logarithm|\bln\b|\blog\s+(base|of)\b/i,
  exp: /exponential|\be\b|euler/i,
  abs: /absolute/i,
  factorial: /factorial/i,
  round: /round/i,
  floor: /floor|round/i,
  ceil: /ceil|round/i,
};

function opOf(a: ToolAnalysis): Op | undefined {
  const w = a.words;
  // A tool whose verb changes state (`set_floor`, `create_sum_rule`) is not a calculator.
  if (a.verb !== undefined && WORDS[a.verb] === undefined && a.verbClass !== undefined && WRITING.has(a.verbClass)) return undefined;
  for (const [phrase, op] of PHRASES) if (phrase.every((x) => w.includes(x))) return op;
  for (const x of w) if (WORDS[x] !== undefined) return WORDS[x];
  return undefined;
}

function isNumber(s: JsonSchemaObject): boolean {
  const t = mainType(s);
  return t === 'number' || t === 'integer';
}

function isNumberList(s: JsonSchemaObject): boolean {
  return mainType(s) === 'array' && isNumber(itemsOf(s));
}

/**
 * Units a tool's own name may fix (`pounds_to_kilograms`), by dimension, in its base unit (international
 * definitions, as the driver has them), so the self-check knows the answer.
 */
const NAMED_UNITS: Record<string, [string, number]> = {
  meter: ['length', 1], metre: ['length', 1], kilometer: ['length', 1e3], kilometre: ['length', 1e3], km: ['length', 1e3],
  centimeter: ['length', 1e-2], cm: ['length', 1e-2], millimeter: ['length', 1e-3], mm: ['length', 1e-3],
  mile: ['length', 1609.344], foot: ['length', 0.3048], feet: ['length', 0.3048], inch: ['length', 0.0254], yard: ['length', 0.9144],
  gram: ['mass', 1], kilogram: ['mass', 1e3], kg: ['mass', 1e3], pound: ['mass', 453.59237], ounce: ['mass', 28.349523125],
  tonne: ['mass', 1e6], stone: ['mass', 6350.29318],
  liter: ['volume', 1], litre: ['volume', 1], milliliter: ['volume', 1e-3], ml: ['volume', 1e-3], gallon: ['volume', 3.785411784],
  quart: ['volume', 0.946352946], pint: ['volume', 0.473176473], cup: ['volume', 0.2365882365],
  second: ['time', 1], minute: ['time', 60], hour: ['time', 3600], day: ['time', 86400], week: ['time', 604800],
};

/** `<unit>_to_<unit>`: the two units a conversion tool's name fixes. */
function namedUnits(a: ToolAnalysis): { from: string; to: string } | undefined {
  const w = a.words;
  const at = w.indexOf('to');
  if (at < 1 || at !== w.lastIndexOf('to')) return undefined;
  const from = w[at - 1] as string;
  const to = w[at + 1];
  if (to === undefined) return undefined;
  const [a1, b1] = [singularize(from), singularize(to)];
  const [ua, ub] = [NAMED_UNITS[a1], NAMED_UNITS[b1]];
  if (ua === undefined || ub === undefined || ua[0] !== ub[0]) return undefined;
  return { from: a1, to: b1 };
}

interface Roles {
  units?: { from: string; to: string };
  op: Op;
  inputs: Record<string, string>;
  digitsMode?: 'significant' | 'decimals';
  sample?: boolean;
}

/** Binds an operation's inputs to the tool's parameters, or undefined when they do not fit. */
function rolesOf(a: ToolAnalysis): Roles | undefined {
  const units = namedUnits(a);
  const op = units !== undefined ? 'convert' : opOf(a);
  if (op === undefined) return undefined;
  const params = a.params;
  if (params.length === 0 || params.some((p) => p.ref !== undefined)) return undefined;
  const digits = params.find((p) => DIGITS.test(p.name) && mainType(p.schema) === 'integer');
  const lists = params.filter((p) => isNumberList(p.schema));
  const nums = params.filter((p) => p !== digits && isNumber(p.schema));
  const strings = params.filter((p) => mainType(p.schema) === 'string');
  const inputs: Record<string, string> = {};
  if (digits !== undefined) inputs.digits = digits.name;
  const roles: Roles = { op, inputs };
  if (digits !== undefined) roles.digitsMode = /decimal|places/.test(digits.name) ? 'decimals' : 'significant';
  const used = new Set<string>(digits !== undefined ? [digits.name] : []);

  if (op === 'convert' && units !== undefined) {
    const value = nums[0];
    if (value === undefined || nums.length !== 1) return undefined;
    inputs.x = value.name;
    roles.units = units;
    used.add(value.name);
  } else if (op === 'convert') {
    const from = strings.find((p) => FROM.test(p.name));
    const to = strings.find((p) => TO.test(p.name));
    const value = nums[0];
    if (from === undefined || to === undefined || value === undefined) return undefined;
    Object.assign(inputs, { x: value.name, from: from.name, to: to.name });
    used.add(from.name).add(to.name).add(value.name);
  } else if (lists.length > 0 && (LIST_OPS.has(op) || op === 'add' || op === 'multiply')) {
    inputs.list = (lists[0] as { name: string }).name;
    used.add(inputs.list);
    if (op === 'std' || op === 'variance') roles.sample = /\bsample\b/i.test(a.tool.description) || a.words.includes('sample');
  } else if (BINARY_OPS.has(op) || op === 'add' || op === 'multiply') {
    if (nums.length !== 2) return undefined;
    const [x, y] = nums as unknown as [{ name: string }, { name: string }];
    const swap = SECOND.test(x.name) && !SECOND.test(y.name);
    inputs.a = swap ? y.name : x.name;
    inputs.b = swap ? x.name : y.name;
    used.add(x.name).add(y.name);
  } else if (UNARY_OPS.has(op)) {
    const says = UNARY_SAYS[op];
    if (says !== undefined && !says.test(a.tool.description)) return undefined;
    const base = op === 'log' ? nums.find((p) => p.name === 'base') : undefined;
    const x = nums.find((p) => p !== base);
    if (x === undefined) return undefined;
    inputs.x = x.name;
    used.add(x.name);
    if (base !== undefined) {
      inputs.base = base.name;
      used.add(base.name);
    }
    if (op === 'round' && digits === undefined) {
      const places = nums.find((p) => p !== x && /decimal|digit|place/.test(p.name));
      if (places !== undefined) {
        inputs.digits = places.name;
        roles.digitsMode = 'decimals';
        used.add(places.name);
      }
    }
    if (op === 'round') roles.digitsMode = 'decimals';
  } else {
    return undefined;
  }
  // Every other parameter must be optional: a required one this family cannot bind means the
  // tool does something else.
  if (params.some((p) => p.required && !used.has(p.name))) return undefined;
  return roles;
}

function resultKey(a: ToolAnalysis): string {
  const s = a.tool.outputSchema;
  const props = typeof s === 'object' && s !== null ? ((s.properties ?? {}) as Record<string, JsonSchemaObject>) : {};
  const keys = Object.keys(props);
  return keys.find((k) => k === 'result') ?? keys.find((k) => isNumber(nonNull(props[k]))) ?? 'result';
}

function out(key: string, v: number): string {
  return `"${key}":${JSON.stringify(v)}}`;
}

/** The self-check of one operation: a known answer, and an input it must refuse. */
function probesFor(r: Roles, a: ToolAnalysis, key: string): Probe[] {
  const i = r.inputs;
  const withDigits = (args: JsonObject, n: number): JsonObject => (i.digits !== undefined ? { ...args, [i.digits]: n } : args);
  const ok = (args: JsonObject, v: number): Probe => ({ args, changes: false, outputContains: [out(key, v)] });
  const bad = (args: JsonObject): Probe => ({ args, ok: false, changes: false });
  const list = i.list as string;
  switch (r.op) {
    case 'add':
      return i.list !== undefined ? [ok({ [list]: [1, 2, 3.5] }, 6.5)] : [ok({ [i.a as string]: 2, [i.b as string]: 3 }, 5), ok({ [i.a as string]: -4, [i.b as string]: 1.5 }, -2.5)];
    case 'multiply':
      return i.list !== undefined ? [ok({ [list]: [2, 3, 4] }, 24)] : [ok({ [i.a as string]: 6, [i.b as string]: 7 }, 42)];
    case 'subtract':
      return [ok({ [i.a as string]: 7, [i.b as string]: 3 }, 4)];
    case 'divide':
      return [ok(withDigits({ [i.a as string]: 6, [i.b as string]: 3 }, 6), 2), bad({ [i.a as string]: 6, [i.b as string]: 0 })];
    case 'modulo':
      return [ok({ [i.a as string]: 17, [i.b as string]: 5 }, 2), bad({ [i.a as string]: 1, [i.b as string]: 0 })];
    case 'power':
      return [ok({ [i.a as string]: 2, [i.b as string]: 10 }, 1024)];
    case 'percentage':
      return [ok({ [i.a as string]: 25, [i.b as string]: 200 }, 12.5), bad({ [i.a as string]: 1, [i.b as string]: 0 })];
    case 'sqrt':
      return [ok(withDigits({ [i.x as string]: 16 }, 6), 4), bad(withDigits({ [i.x as string]: -4 }, 6))];
    case 'log':
      return i.base !== undefined
        ? [ok(withDigits({ [i.x as string]: 8, [i.base]: 2 }, 6), 3), bad(withDigits({ [i.x as string]: -1, [i.base]: 10 }, 6))]
        : [ok(withDigits({ [i.x as string]: 1 }, 6), 0), bad(withDigits({ [i.x as string]: 0 }, 6))];
    case 'exp':
      return [ok({ [i.x as string]: 0 }, 1)];
    case 'abs':
      return [ok({ [i.x as string]: -7.5 }, 7.5)];
    case 'factorial':
      return [ok({ [i.x as string]: 5 }, 120), bad({ [i.x as string]: -1 })];
    case 'mean':
      return [ok({ [list]: [2, 4, 9] }, 5), bad({ [list]: [] })];
    case 'median':
      return [ok({ [list]: [3, 1, 2] }, 2), bad({ [list]: [] })];
    case 'std':
      return [ok({ [list]: [2, 4, 4, 4, 5, 5, 7, 9] }, r.sample === true ? Math.sqrt(32 / 7) : 2), bad({ [list]: [] })];
    case 'variance':
      return [ok({ [list]: [2, 4, 4, 4, 5, 5, 7, 9] }, r.sample === true ? 32 / 7 : 4), bad({ [list]: [] })];
    case 'min':
      return [ok({ [list]: [4, -2, 7] }, -2), bad({ [list]: [] })];
    case 'max':
      return [ok({ [list]: [4, -2, 7] }, 7), bad({ [list]: [] })];
    case 'round':
      return [ok(i.digits !== undefined ? { [i.x as string]: 3.14159, [i.digits]: 2 } : { [i.x as string]: 2.6 }, i.digits !== undefined ? 3.14 : 3)];
    case 'floor':
      return [ok({ [i.x as string]: 2.7 }, 2)];
    case 'ceil':
      return [ok({ [i.x as string]: 2.1 }, 3)];
    case 'convert': {
      if (r.units !== undefined) {
        const from = NAMED_UNITS[r.units.from] as [string, number];
        const to = NAMED_UNITS[r.units.to] as [string, number];
        return [ok({ [i.x as string]: 10 }, Number(((10 * from[1]) / to[1]).toPrecision(12)))];
      }
      const imperial = /imperial|feet|foot|inch|mile|pound|fahrenheit|us customary/i.test(`${a.tool.name} ${a.tool.description}`);
      const [from, to, x, v] = imperial ? ['ft', 'm', 10, 3.048] : ['km', 'm', 2, 2000];
      return [
        ok({ [i.x as string]: x, [i.from as string]: from, [i.to as string]: to }, v),
        bad({ [i.x as string]: 1, [i.from as string]: 'no-such-unit', [i.to as string]: to }),
      ];
    }
  }
}

/** Stateless calculators (see the `calculator` driver of `@autoforge/env-runtime`). */
export const calculatorFamily: Family = {
  name: 'calculator',
  match(input: FamilyInput): FamilyClaim | undefined {
    const roles: JsonObject = {};
    for (const a of input.analyses) {
      if (a.writes) continue;
      const r = rolesOf(a);
      if (r !== undefined) roles[a.tool.name] = r as unknown as JsonValue;
    }
    const tools = Object.keys(roles);
    if (tools.length === 0) return undefined;
    return { tools, sampleKeys: [], why: 'tools that compute a number from numbers (arithmetic, statistics, unit conversion)', data: roles };
  },
  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const roles = claim.data as unknown as Record<string, Roles>;
    const tools: Record<string, PlannedTool> = {};
    for (const a of input.analyses) {
      const r = roles[a.tool.name];
      if (r === undefined) continue;
      const key = resultKey(a);
      const params: JsonObject = { op: r.op, inputs: r.inputs, resultKey: key };
      if (r.units !== undefined) params.units = r.units;
      if (r.digitsMode !== undefined) params.digitsMode = r.digitsMode;
      if (r.sample !== undefined) params.sample = r.sample;
      tools[a.tool.name] = {
        implementation: { kind: 'driver', driver: 'calculator', version: 1, params },
        pattern: `calculator:${r.op}`,
        outputSchema: { type: 'object', properties: { [key]: { type: 'number' } }, required: [key] },
        access: 'read',
        probes: probesFor(r, a, key),
      };
    }
    return { state: {}, tools, notes: [] };
  },
};
