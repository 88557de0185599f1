import { pyRepr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { PyFloat } from './python-value.js';

/** One call of a Python-syntax call list: `name(key=value, …)`. */
export interface PythonCall {
  /** The function name, dotted paths kept (`ImageConverter.convertJPEGtoPNG`). */
  name: string;
  /** Keyword arguments in the order written. */
  arguments: { [key: string]: PyValue };
  /** Positional arguments, in order (only with the `positional` option, and only when there are any). */
  positional?: PyValue[];
}

/** Options of `parsePythonCalls`. */
export interface ParsePythonCallsOptions {
  /** Accept positional arguments (`sort('a.txt')`) before the keyword ones. Default false. */
  positional?: boolean;
}

const CLOSERS = new Set([',', ')', ']', '}', ':']);

/**
 * Parses a call list in the syntax ACEBench's models write and its answer files use:
 * `[f(a='x', b=2), g()]` (the brackets optional). Values are Python literals: strings in single or
 * double quotes, ints, floats (`5.0` stays a `PyFloat`), `True`/`False`/`None`, lists, tuples
 * (read as lists) and dicts. It is lenient where ACEBench's milestone strings are not valid Python:
 * a quote that is not followed by `,`, `)`, `]`, `}`, `:` or the end is part of the string
 * (`'Domino's'` is `Domino's`). Throws `SyntaxError` (with the position) for anything else.
 */
export function parsePythonCalls(text: string, options: ParsePythonCallsOptions = {}): PythonCall[] {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i} of ${JSON.stringify(text.slice(0, 200))}`);
  };
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i] as string)) i += 1;
  };
  const nextNonSpace = (from: number): string | undefined => {
    let j = from;
    while (j < text.length && /\s/.test(text[j] as string)) j += 1;
    return text[j];
  };
  const identifier = (): string => {
    const match = /^[A-Za-z_][\w.]*/.exec(text.slice(i));
    if (match === null) return fail('expected a name');
    i += match[0].length;
    return match[0];
  };
  const string = (): string => {
    const quote = text[i] as string;
    i += 1;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const ch = text[i] as string;
      if (ch === '\\' && i + 1 < text.length) {
        const next = text[i + 1] as string;
        // Python's \x, \u and \U escapes (`management\u2019s`), then the one-letter ones.
        const hex = { x: 2, u: 4, U: 8 }[next];
        const digits = hex !== undefined ? text.slice(i + 2, i + 2 + hex) : '';
        if (hex !== undefined && digits.length === hex && /^[0-9a-fA-F]+$/.test(digits) && Number.parseInt(digits, 16) <= 0x10ffff) {
          out += String.fromCodePoint(Number.parseInt(digits, 16));
          i += 2 + hex;
          continue;
        }
        const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };
        out += escapes[next] ?? `\\${next}`;
        i += 2;
        continue;
      }
      if (ch === quote) {
        const after = nextNonSpace(i + 1);
        if (after === undefined || CLOSERS.has(after)) {
          i += 1;
          return out;
        }
      }
      out += ch;
      i += 1;
    }
  };
  const sequence = (close: string): PyValue[] => {
    const items: PyValue[] = [];
    ws();
    if (text[i] === close) {
      i += 1;
      return items;
    }
    for (;;) {
      items.push(value());
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (text[i] === close) {
          i += 1;
          return items;
        }
        continue;
      }
      if (text[i] === close) {
        i += 1;
        return items;
      }
      fail(`expected "," or "${close}"`);
    }
  };
  const value = (): PyValue => {
    ws();
    const ch = text[i];
    if (ch === "'" || ch === '"') return string();
    if (ch === '[') {
      i += 1;
      return sequence(']');
    }
    if (ch === '(') {
      i += 1;
      return sequence(')');
    }
    if (ch === '{') {
      i += 1;
      const out: { [key: string]: PyValue } = {};
      ws();
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      for (;;) {
        const key = value();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i += 1;
        Object.defineProperty(out, typeof key === 'string' ? key : pyRepr(key), { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i += 1;
          ws();
          if (text[i] === '}') {
            i += 1;
            return out;
          }
          continue;
        }
        if (text[i] === '}') {
          i += 1;
          return out;
        }
        fail('expected "," or "}"');
      }
    }
    const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number !== null) {
      i += number[0].length;
      const n = Number(number[0]);
      return /[.eE]/.test(number[0]) && Number.isInteger(n) ? new PyFloat(n) : n;
    }
    const name = identifier();
    if (name === 'True') return true;
    if (name === 'False') return false;
    if (name === 'None') return null;
    // A bare name (a variable in the model's text) is read as its name, as ACEBench's decoder does.
    return name;
  };
  // `name =` (not `==`) ahead: a keyword argument.
  const isKeywordAhead = (): boolean => {
    const m = /^[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)/.exec(text.slice(i, i + 200));
    return m !== null;
  };
  const call = (): PythonCall => {
    ws();
    const name = identifier();
    ws();
    if (text[i] !== '(') fail(`expected "(" after ${name}`);
    i += 1;
    const args: { [key: string]: PyValue } = {};
    const positional: PyValue[] = [];
    const done = (): PythonCall => (positional.length > 0 ? { name, arguments: args, positional } : { name, arguments: args });
    ws();
    if (text[i] === ')') {
      i += 1;
      return done();
    }
    for (;;) {
      ws();
      if (options.positional === true && !isKeywordAhead()) {
        if (Object.keys(args).length > 0) fail('positional argument follows keyword argument');
        positional.push(value());
      } else {
        const key = identifier();
        ws();
        if (text[i] !== '=') fail(`expected "=" after argument ${key}`);
        i += 1;
        Object.defineProperty(args, key, { value: value(), enumerable: true, writable: true, configurable: true });
      }
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (text[i] === ')') {
          i += 1;
          return done();
        }
        continue;
      }
      if (text[i] === ')') {
        i += 1;
        return done();
      }
      fail('expected "," or ")"');
    }
  };
  ws();
  const bracketed = text[i] === '[';
  if (bracketed) i += 1;
  const calls: PythonCall[] = [];
  ws();
  if (bracketed && text[i] === ']') {
    i += 1;
  } else {
    for (;;) {
      calls.push(call());
      ws();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      break;
    }
    if (bracketed) {
      if (text[i] !== ']') fail('expected "]"');
      i += 1;
    }
  }
  ws();
  if (i !== text.length) fail('unexpected text after the calls');
  return calls;
}

/** A call list in ACEBench's syntax: `[f(a='x', b=2), g()]`, values as Python `repr` prints them. */
export function pythonCallsText(calls: readonly PythonCall[]): string {
  return `[${calls.map((c) => `${c.name}(${Object.entries(c.arguments).map(([k, v]) => `${k}=${pyRepr(v)}`).join(', ')})`).join(', ')}]`;
}
