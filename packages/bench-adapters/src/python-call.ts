import { pyRepr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { PyFloat } from './python-value.js';

/** One call of a Python-syntax call list: `name(key=value, …)`. */
export interface PythonCall {
  /** The function name, dotted paths kept (`ImageConverter.convertJPEGtoPNG`). */
  name: string;
  /** Keyword arguments in the order written. */
  arguments: { [key: string]: PyValue };
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
export function parsePythonCalls(text: string): PythonCall[] {
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
        const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
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
  const call = (): PythonCall => {
    ws();
    const name = identifier();
    ws();
    if (text[i] !== '(') fail(`expected "(" after ${name}`);
    i += 1;
    const args: { [key: string]: PyValue } = {};
    ws();
    if (text[i] === ')') {
      i += 1;
      return { name, arguments: args };
    }
    for (;;) {
      ws();
      const key = identifier();
      ws();
      if (text[i] !== '=') fail(`expected "=" after argument ${key}`);
      i += 1;
      Object.defineProperty(args, key, { value: value(), enumerable: true, writable: true, configurable: true });
      ws();
      if (text[i] === ',') {
        i += 1;
        ws();
        if (text[i] === ')') {
          i += 1;
          return { name, arguments: args };
        }
        continue;
      }
      if (text[i] === ')') {
        i += 1;
        return { name, arguments: args };
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
