import type { Result } from '@autoforge/core';
import { err, ok } from '@autoforge/core';
import { pyFloatRepr, pyRound } from './python-number.js';

/** A Python number: ints and floats behave differently on division and in error messages. */
interface PyNumber {
  value: number;
  int: boolean;
}

class PythonError extends Error {}

const ALLOWED = new Set('0123456789+-*/(). ');

type Token = { kind: 'num'; value: PyNumber } | { kind: 'op'; op: string } | { kind: 'end' };

function syntaxError(message = 'invalid syntax'): PythonError {
  return new PythonError(`${message} (<string>, line 1)`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ') {
      i += 1;
    } else if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const match = /^(?:\d+\.?\d*|\.\d+)/.exec(text.slice(i)) as RegExpExecArray;
      const literal = match[0];
      if (text[i + literal.length] === '.') throw syntaxError();
      const isInt = !literal.includes('.');
      if (isInt && /^0+[1-9]/.test(literal)) {
        throw syntaxError('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers');
      }
      tokens.push({ kind: 'num', value: { value: Number(literal), int: isInt } });
      i += literal.length;
    } else if ((c === '*' || c === '/') && text[i + 1] === c) {
      tokens.push({ kind: 'op', op: c + c });
      i += 2;
    } else if (c === '.') {
      throw syntaxError();
    } else {
      tokens.push({ kind: 'op', op: c });
      i += 1;
    }
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

const typeName = (n: PyNumber): string => (n.int ? 'int' : 'float');

function binary(op: string, a: PyNumber, b: PyNumber): PyNumber {
  const int = a.int && b.int;
  switch (op) {
    case '+':
      return { value: a.value + b.value, int };
    case '-':
      return { value: a.value - b.value, int };
    case '*':
      return { value: a.value * b.value, int };
    case '/':
      if (b.value === 0) throw new PythonError(int ? 'division by zero' : 'float division by zero');
      return { value: a.value / b.value, int: false };
    case '//':
      if (b.value === 0) throw new PythonError(int ? 'integer division or modulo by zero' : 'float floor division by zero');
      return { value: Math.floor(a.value / b.value), int };
    default: {
      // '**'
      if (a.value === 0 && b.value < 0) throw new PythonError('0.0 cannot be raised to a negative power');
      const value = a.value ** b.value;
      if (Number.isNaN(value)) throw new PythonError("float() argument must be a string or a real number, not 'complex'");
      return { value, int: int && b.value >= 0 };
    }
  }
}

class Parser {
  #tokens: Token[];
  #pos = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  #peek(): Token {
    return this.#tokens[this.#pos] as Token;
  }

  #isOp(...ops: string[]): string | undefined {
    const t = this.#peek();
    return t.kind === 'op' && ops.includes(t.op) ? t.op : undefined;
  }

  parse(): PyNumber {
    if (this.#peek().kind === 'end') throw syntaxError();
    const value = this.#expr();
    const t = this.#peek();
    if (t.kind === 'op' && t.op === ')') throw syntaxError("unmatched ')'");
    if (t.kind !== 'end') throw syntaxError();
    return value;
  }

  #expr(): PyNumber {
    let left = this.#term();
    for (let op = this.#isOp('+', '-'); op; op = this.#isOp('+', '-')) {
      this.#pos += 1;
      left = binary(op, left, this.#term());
    }
    return left;
  }

  #term(): PyNumber {
    let left = this.#factor();
    for (let op = this.#isOp('*', '/', '//'); op; op = this.#isOp('*', '/', '//')) {
      this.#pos += 1;
      left = binary(op, left, this.#factor());
    }
    return left;
  }

  #factor(): PyNumber {
    const sign = this.#isOp('+', '-');
    if (sign) {
      this.#pos += 1;
      const operand = this.#factor();
      return sign === '-' ? { value: -operand.value, int: operand.int } : operand;
    }
    return this.#power();
  }

  #power(): PyNumber {
    const base = this.#atom();
    if (this.#isOp('**')) {
      this.#pos += 1;
      return binary('**', base, this.#factor());
    }
    return base;
  }

  #atom(): PyNumber {
    const t = this.#peek();
    let value: PyNumber;
    if (t.kind === 'num') {
      this.#pos += 1;
      value = t.value;
    } else if (t.kind === 'op' && t.op === '(') {
      this.#pos += 1;
      if (this.#isOp(')')) throw new PythonError("float() argument must be a string or a real number, not 'tuple'");
      value = this.#expr();
      if (this.#peek().kind === 'end') throw syntaxError("'(' was never closed");
      if (!this.#isOp(')')) throw syntaxError();
      this.#pos += 1;
    } else if (t.kind === 'op' && t.op === ')') {
      throw syntaxError("unmatched ')'");
    } else {
      throw syntaxError();
    }
    // `2 (3)` parses in Python as a call of the number 2.
    if (this.#isOp('(')) throw new PythonError(`'${typeName(value)}' object is not callable`);
    return value;
  }
}

/**
 * tau-bench's `calculate`: Python's `str(round(float(eval(expression)), 2))` over the characters
 * `0123456789+-*\/(). ` (`"8276.23"`, `"1200.0"`), or the message of the error tau-bench reports
 * after `Error: ` (`invalid characters in expression`, `division by zero`, a `SyntaxError`'s
 * text). Python's `//` and `**` are understood; integers beyond 2^53 are not exact.
 */
export function pythonCalculate(expression: string): Result<string, { code: 'python_error'; message: string }> {
  for (const c of expression) {
    if (!ALLOWED.has(c)) return err({ code: 'python_error', message: 'invalid characters in expression' });
  }
  try {
    const result = new Parser(tokenize(expression)).parse();
    return ok(pyFloatRepr(pyRound(result.value, 2)));
  } catch (e) {
    if (e instanceof PythonError) return err({ code: 'python_error', message: e.message });
    throw e;
  }
}
