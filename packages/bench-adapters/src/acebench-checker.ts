import type { JsonObject } from '@autoforge/core';
import type { PythonCall } from './python-call.js';
import { parsePythonCalls } from './python-call.js';
import { pyRepr, pyStr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { PyFloat, isPyDict, parsePyJson, pyEquals, pyTypeName } from './python-value.js';

/** A predicted call: parsed arguments, or the raw JSON text a model sent (integral floats kept). */
export interface AceBenchCall {
  name: string;
  arguments: string | { [key: string]: PyValue } | JsonObject;
}

/** The checker's verdict, as ACEBench reports it. */
export interface AceBenchCheck {
  valid: boolean;
  /** ACEBench's error messages (empty when valid). */
  error: string[];
  /** ACEBench's error type: `wrong functions number`, `function_mismatch`, `type_error`, `value_error:string`, `lack_args`, `addition_args`, … */
  errorType: string;
}

/** Options of `scoreAceBenchCall`. */
export interface ScoreAceBenchCallOptions {
  /** The sample's function list (its `function` field), where parameter types and required names come from. */
  functions: readonly PyValue[];
  /** The sample's category (`normal_atom_list`, …): string values must match exactly in `agent` categories, as substrings otherwise. Default `normal`. */
  category?: string;
}

type Dict = { [key: string]: PyValue };
type TypeName = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'enumerate';

// PYTHON_TYPE_MAPPING of ACEBench's checker (note "number" → int and "enum" → enumerate).
const TYPE_MAPPING: Record<string, TypeName> = {
  string: 'str',
  integer: 'int',
  float: 'float',
  boolean: 'bool',
  array: 'list',
  tuple: 'list',
  dict: 'dict',
  any: 'str',
  list: 'list',
  object: 'dict',
  objectArray: 'list',
  'list(string)': 'list',
  'list(enum)': 'list',
  int: 'int',
  enum: 'enumerate',
  number: 'int',
};
const NESTED_TYPES = new Set(['array', 'tuple', 'list(string)', 'list(enum)', 'object', 'objectArray']);

const ok = (): AceBenchCheck => ({ valid: true, error: [], errorType: '' });
const fail = (errorType: string, ...error: string[]): AceBenchCheck => ({ valid: false, error, errorType });

/** ACEBench's `standardize_string`: drop ` ,./-_*^`, lower-case, `'` → `"`. */
export function aceBenchStandardize(text: string): string {
  return text.replace(/[ ,./\-_*^]/g, '').toLowerCase().replaceAll("'", '"');
}

const typeOf = (value: PyValue): string => pyTypeName(value);

interface TypeCheck {
  valid: boolean;
  isVariable: boolean;
  error: string[];
}

function typeChecker(param: string, rawValue: PyValue, answer: PyValue, expected: TypeName, nested: TypeName | undefined, funcName: string): TypeCheck {
  const answerType = answer === '' ? undefined : typeOf(answer);
  const isVariable = answerType !== undefined && answerType !== expected;
  let value = rawValue;
  if (value === 'true') value = true;
  if (value === 'false') value = false;
  if (typeOf(value) === expected) {
    if (nested === undefined) return { valid: true, isVariable, error: [] };
    // ACEBench iterates the answer's items (not the value's): only list items are checked.
    for (const item of Array.isArray(answer) ? answer : isPyDict(answer) ? Object.keys(answer) : typeof answer === 'string' ? [...answer] : []) {
      let flag = true;
      if (Array.isArray(item)) {
        for (const v of Array.isArray(value) ? value : []) {
          if (!typeChecker(param, v, item, nested, undefined, funcName).valid) {
            flag = false;
            break;
          }
        }
      }
      if (flag) return { valid: true, isVariable, error: [] };
    }
  }
  if (answerType !== undefined && (typeOf(value) === answerType || pyEquals(answer, value))) return { valid: true, isVariable: true, error: [] };
  return {
    valid: false,
    isVariable: false,
    error: [`wrong type for parameter (${param}) of api (${funcName}):[excepted: <class '${expected}'>, real: <class '${typeOf(value)}'>]`],
  };
}

function stringChecker(param: string, value: string, answer: PyValue, funcName: string, category: string): AceBenchCheck {
  const got = aceBenchStandardize(value);
  const want = aceBenchStandardize(pyStr(answer));
  const matches = category.includes('agent') ? got === want : got.includes(want);
  return matches ? ok() : fail('value_error:string', `wrong value for parameter (${param}) of api (${funcName}): [excepted: ${pyStr(answer)}, real: [${value}]]`);
}

function listChecker(param: string, value: PyValue[], answer: PyValue, funcName: string): AceBenchCheck {
  const norm = (items: readonly PyValue[]): PyValue[] => items.map((v) => (typeof v === 'string' ? aceBenchStandardize(v) : v));
  const want = Array.isArray(answer) ? norm(answer) : answer;
  return pyEquals(norm(value), want)
    ? ok()
    : fail('value_error:list/tuple', `wrong value for parameter (${pyRepr(param)}) of api (${funcName}): [expected ${pyRepr(answer)}, real: [${pyRepr(value)}]]`);
}

function dictChecker(param: string, value: PyValue, answer: PyValue, funcName: string): AceBenchCheck {
  const message = `wrong value for parameter (${param}) of api (${funcName}): [excepted: ${pyRepr(answer)}, real: [${pyRepr(value)}]]`;
  if (!isPyDict(value)) return fail('value_error', message.replace('wrong value', 'wrong type'));
  const expected: Dict = isPyDict(answer) ? answer : {};
  if (Object.keys(value).length !== Object.keys(expected).length) return fail('value_error', message);
  let result = ok();
  for (const [key, raw] of Object.entries(value)) {
    let item: PyValue = raw;
    if (item === 'true') item = true;
    if (item === 'false') item = false;
    if (!Object.prototype.hasOwnProperty.call(expected, key)) return fail('value_error', message);
    const want = expected[key] as PyValue;
    if (isPyDict(want)) {
      result = dictChecker(param, item, want, funcName);
      if (!result.valid) return result;
    } else {
      const got = typeof item === 'string' ? aceBenchStandardize(item) : item;
      const normalized = typeof want === 'string' ? aceBenchStandardize(want) : want;
      // ACEBench compares `str(answer) in str(value)`: a substring test on the printed values.
      if (!pyStr(got).includes(pyStr(normalized))) return fail('value_error', message);
    }
  }
  return result;
}

function listDictChecker(param: string, value: PyValue[], answer: PyValue, funcName: string): AceBenchCheck {
  const answers = Array.isArray(answer) ? answer : [];
  if (value.length !== answers.length) {
    return fail('value_error:list_dict_count', `wrong value for parameter (${param}) of api (${funcName}): [excepted: ${pyRepr(answer)}, real: [${pyRepr(value)}]]`);
  }
  let result = ok();
  for (const [i, item] of value.entries()) {
    result = dictChecker(param, item, answers[i] as PyValue, funcName);
    if (!result.valid) return result;
  }
  return result;
}

function simpleFunctionChecker(description: Dict, call: PythonCall, answer: Dict, category: string): AceBenchCheck {
  const parameters = description.parameters;
  const emptyParams = isPyDict(parameters) && Object.keys(parameters).length === 0;
  const modelArgs = call.arguments;
  if (Object.keys(modelArgs).length === 0 && emptyParams) return ok();
  if (Object.keys(modelArgs).length === 0 || emptyParams) return fail('wrong_param');
  if (!isPyDict(parameters)) return fail('wrong_param');
  const details: Dict = isPyDict(parameters.properties) ? parameters.properties : {};
  if (pyEquals(answer, details)) return ok();
  if (Object.keys(answer).length === 0) return fail('wrong_param');
  const funcName = String(description.name);
  if (call.name !== funcName) return fail('wrong_function_name', `wrong_function: expected ${funcName}, real ${call.name}`);
  const required = Array.isArray(parameters.required) ? parameters.required.map(String) : [];
  for (const name of required) {
    if (!Object.prototype.hasOwnProperty.call(modelArgs, name)) return fail('lack_args', `lack required_params: ${name}`);
  }
  for (const [param, raw] of Object.entries(modelArgs)) {
    if (!Object.prototype.hasOwnProperty.call(details, param) || !Object.prototype.hasOwnProperty.call(answer, param)) {
      return fail('addition_args', `addition params: ${param}`);
    }
    const detail = details[param];
    const typeName = isPyDict(detail) ? String(detail.type) : 'undefined';
    const expected = TYPE_MAPPING[typeName];
    if (expected === undefined) return fail('type_error', `unsupported parameter type ${JSON.stringify(typeName)} of (${param}) in api (${funcName})`);
    let nested: TypeName | undefined;
    if (NESTED_TYPES.has(typeName)) {
      const items = isPyDict(detail) ? detail.items : undefined;
      const itemType = isPyDict(items) && typeof items.type === 'string' ? items.type : typeName.includes('string') ? 'string' : typeName.includes('enum') ? 'enum' : 'dict';
      nested = TYPE_MAPPING[itemType] ?? 'dict';
    }
    let value: PyValue = raw;
    if (typeName === 'float' && typeOf(value) === 'int') value = new PyFloat(value as number);
    const want = answer[param] as PyValue;
    const typed = typeChecker(param, value, want, expected, nested, funcName);
    if (!typed.valid) return fail('type_error', ...typed.error);
    if (typed.isVariable) continue;
    let result = ok();
    if (expected === 'dict') result = dictChecker(param, value, want, funcName);
    else if (expected === 'list' && nested === 'dict') result = listDictChecker(param, value as PyValue[], want, funcName);
    else if (expected === 'str') result = stringChecker(param, value as string, want, funcName, category);
    else if (expected === 'list') result = listChecker(param, value as PyValue[], want, funcName);
    // ACEBench checks int, float and bool values by their type only.
    if (!result.valid) return result;
  }
  return ok();
}

function normalChecker(functions: readonly PyValue[], calls: readonly PythonCall[], answer: Dict, category: string): AceBenchCheck {
  const names = Object.keys(answer);
  if (calls.length !== names.length) return fail('wrong functions number', 'The number of functions does not match the answer.');
  // Repeated functions are numbered in the answers (`f_1`, `f_2`).
  const entries = names.map((key) => ({ key, name: key.replace(/_\d+$/, ''), args: answer[key] as PyValue }));
  const count = (list: readonly string[]): Map<string, number> => list.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<string, number>());
  const outputCounts = count(calls.map((c) => c.name));
  const answerCounts = count(entries.map((e) => e.name));
  for (const name of outputCounts.keys()) {
    if (!answerCounts.has(name)) return fail('function_mismatch', `extra function detected: ${name} is not in the ground truth`);
  }
  for (const name of answerCounts.keys()) {
    if (!outputCounts.has(name)) return fail('function_mismatch', `extra function detected: ${name} is not in the ground truth`);
  }
  for (const [name, n] of outputCounts) {
    if (n !== answerCounts.get(name)) return fail('function_mismatch', `incorrect count for function ${name}: [expected: ${answerCounts.get(name) ?? 0}, actual: ${n}]`);
  }
  let result = ok();
  for (const entry of entries) {
    // ACEBench's find_description: the first function whose name is part of the answer's key.
    const description = functions.find((f) => isPyDict(f) && typeof f.name === 'string' && entry.key.includes(f.name));
    for (const call of calls) {
      if (call.name === entry.name) {
        result = isPyDict(description) && isPyDict(entry.args) ? simpleFunctionChecker(description, call, entry.args, category) : fail('wrong_function', `no description of ${entry.key}`);
        if (result.valid) break;
      } else {
        result = fail('simple_function_checker:unclear', 'wrong_function');
      }
    }
    if (!result.valid) return result;
  }
  return result;
}

function toCalls(prediction: string | readonly AceBenchCall[]): PythonCall[] {
  if (typeof prediction === 'string') return parsePythonCalls(prediction.replace(/\s+/g, ''));
  return prediction.map((c) => {
    const args = typeof c.arguments === 'string' ? parsePyJson(c.arguments) : (c.arguments as PyValue);
    return { name: c.name, arguments: isPyDict(args) ? args : {} };
  });
}

/**
 * ACEBench's AST checker for the normal categories (`normal_checker` over every candidate
 * answer): the prediction — calls with parsed or raw-JSON arguments, or a model's text
 * `[f(a='x')]` — must call the answer's functions as many times each, give every required
 * parameter and no parameter the answer lacks, with the schema's Python type (`number` means
 * int, an int passes as a float), and matching values: strings after `standardize_string` (the
 * answer as a substring, or equal in agent categories), lists equal, dicts key by key with
 * ACEBench's `str(answer) in str(value)`. As in ACEBench, int, float and bool values are checked
 * by type only, and a parameter whose answer has another type than the schema's is not compared.
 * `possibleAnswer` is the sample's `ground_truth`: one `{function: {param: value}}` or a list of them.
 */
export function scoreAceBenchCall(prediction: string | readonly AceBenchCall[], possibleAnswer: PyValue, options: ScoreAceBenchCallOptions): AceBenchCheck {
  let calls: PythonCall[];
  try {
    calls = toCalls(prediction);
  } catch (error) {
    return fail('wrong_output_format', `Invalid syntax. Failed to decode AST. ${(error as Error).message}`);
  }
  const answers = Array.isArray(possibleAnswer) ? possibleAnswer : [possibleAnswer];
  let first: AceBenchCheck | undefined;
  for (const answer of answers) {
    const result = isPyDict(answer) ? normalChecker(options.functions, calls, answer, options.category ?? 'normal') : fail('wrong_answer_format', 'the possible answer is not a dict');
    if (result.valid) return result;
    first ??= result;
  }
  return first ?? fail('wrong_answer_format', 'no possible answer');
}

/**
 * ACEBench's check of the special categories (`special_eval`) on the model's text: for
 * `special_incomplete` the text must contain `Missing necessary parameters`, the function name and
 * every missing parameter; for `special_error_param`, `There is incorrect value` and every wrong
 * value; for `special_irrelevant`, `the limitations of the function`.
 */
export function scoreAceBenchSpecial(output: string, possibleAnswer: PyValue, category: string): AceBenchCheck {
  if (category.includes('incomplete')) {
    for (const [name, values] of Object.entries(isPyDict(possibleAnswer) ? possibleAnswer : {})) {
      const list = Array.isArray(values) ? values : [values];
      if (!output.includes('Missing necessary parameters')) return fail('error_detection', `The user's instruction is missing necessary parameters (${pyRepr(values)}) for the (${name}), but the model failed to correctly point it out`);
      if (!output.includes(name)) return fail('error_correction', `The user's instruction is missing necessary parameters (${pyRepr(values)}) for the (${name}), but the model failed to correctly point it out`);
      for (const value of list) {
        if (!output.includes(pyStr(value))) return fail('error_correction', `The user's instruction is missing necessary parameters (${pyStr(value)}) for the (${name}), but the model failed to correctly point it out`);
      }
    }
    return ok();
  }
  if (category.includes('error')) {
    for (const [name, values] of Object.entries(isPyDict(possibleAnswer) ? possibleAnswer : {})) {
      const list = Array.isArray(values) ? values : [values];
      if (!output.includes('There is incorrect value')) return fail('error_detection', `The user's instruction contains incorrect values (${pyRepr(values)}) of the parameters (${name}), but the model failed to correctly point it out`);
      for (const value of list) {
        if (!output.includes(pyStr(value))) return fail('error_correction', `The user's instruction contains incorrect values (${pyRepr(values)}) of the parameters (${name}), but the model failed to correctly point it out`);
      }
    }
    return ok();
  }
  if (category.includes('irrelevant')) {
    return output.includes('the limitations of the function') ? ok() : fail('error_detection', 'The model cannot solve this problem, due to the limitations of the function');
  }
  return fail('wrong_category', `not a special category: ${category}`);
}
