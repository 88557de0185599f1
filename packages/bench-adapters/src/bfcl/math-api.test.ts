import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { callPort, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { mathApiPort } from './math-api.js';

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function goldCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === 'MathAPI').length, 0), 0);
}

describe('mathApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`${category}${viaSnapshot ? ' via snapshots' : ''}: every MathAPI call and state matches`, () => {
        const { entries, expected } = data.get(category)!;
        const report = replayClass(mathApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(goldCalls(expected)).toBe(14);
        expect(report.calls).toBe(14);
        expect(report.entries).toBe(25);
      });
    }
  }
});

const f = (x: number): PyFloat => new PyFloat(x);

/**
 * Results of BFCL's own `math_api.py` (Python 3.11.7, mpmath 1.3.0, glibc), formatted by the
 * executor's rules, for arguments a model may send: mpmath digits at many precisions, complex
 * results, strings, Decimal exponents, Python's round, float-versus-int, and every error path.
 */
const PYTHON: readonly [string, Record<string, PyValue>, string][] = [
  ["logarithm", { "value": f(36.0), "base": f(6.0), "precision": 4 }, "{'result': mpf('2.0')}"],
  ["logarithm", { "value": 12345.678, "base": 7, "precision": 30 }, "{'result': mpf('4.84146779637564569879761506403873')}"],
  ["logarithm", { "value": 0.1, "base": 10, "precision": 50 }, "{'result': mpf('-0.99999999999999997589181333616782290113291847829986797')}"],
  ["logarithm", { "value": f(1e+300), "base": 2, "precision": 0 }, "{'result': mpf('896.0')}"],
  ["logarithm", { "value": 5, "base": 3, "precision": 4.9 }, "{'result': mpf('1.464966')}"],
  ["logarithm", { "value": 5, "base": 3, "precision": "5" }, "{'result': mpf('1.4649734')}"],
  ["logarithm", { "value": 1e-300, "base": 10, "precision": 15 }, "{'result': mpf('-299.99999999999994')}"],
  ["logarithm", { "value": 1.0000000000000002, "base": 10, "precision": 20 }, "{'result': mpf('9.6432746655328700365768e-17')}"],
  ["logarithm", { "value": 7, "base": 0.9999999999999999, "precision": 12 }, "{'result': mpf('-1.75272004443648e+16')}"],
  ["logarithm", { "value": -8, "base": 2, "precision": 5 }, "{'result': mpc(real='3.0', imag='4.5323639')}"],
  ["logarithm", { "value": 8, "base": -2, "precision": 5 }, "{'result': mpc(real='0.13926077', imag='-0.63118076')}"],
  ["logarithm", { "value": -8, "base": -2, "precision": 5 }, "{'result': mpc(real='1.0928402', imag='-0.42078733')}"],
  ["logarithm", { "value": "2+3j", "base": 10, "precision": 5 }, "{'result': mpc(real='0.55697155', imag='0.42682171')}"],
  ["logarithm", { "value": "-1.5-2j", "base": "3j", "precision": 8 }, "{'result': mpc(real='-0.67265284527', imag='-1.0537810568')}"],
  ["logarithm", { "value": "1/3", "base": 2, "precision": 10 }, "{'result': mpf('-1.584962500725')}"],
  ["logarithm", { "value": " 7.25 ", "base": "1_000", "precision": 6 }, "{'result': mpf('0.286779344')}"],
  ["logarithm", { "value": "1e5", "base": 10, "precision": 6 }, "{'result': mpf('5.0')}"],
  ["logarithm", { "value": 0, "base": 10, "precision": 5 }, "{'result': mpf('-inf')}"],
  ["logarithm", { "value": "inf", "base": 10, "precision": 5 }, "{'result': mpf('+inf')}"],
  ["logarithm", { "value": 1, "base": 1, "precision": 5 }, "{\"error\": \"\"}"],
  ["logarithm", { "value": 2, "base": true, "precision": 3 }, "{\"error\": \"\"}"],
  ["logarithm", { "value": "3/0", "base": 2, "precision": 3 }, "{\"error\": \"\"}"],
  ["logarithm", { "value": "abc", "base": 10, "precision": 5 }, "{\"error\": \"cannot create mpf from 'abc'\"}"],
  ["logarithm", { "value": null, "base": 10, "precision": 5 }, "{\"error\": \"cannot create mpf from None\"}"],
  ["logarithm", { "value": [1], "base": 10, "precision": 5 }, "{\"error\": \"cannot create mpf from [1]\"}"],
  ["logarithm", { "value": "infinity", "base": 10, "precision": 5 }, "{\"error\": \"cannot create mpf from 'infinity'\"}"],
  ["logarithm", { "value": 100, "base": 10, "precision": "abc" }, "{\"error\": \"invalid literal for int() with base 10: 'abc'\"}"],
  ["logarithm", { "value": 100, "base": 10, "precision": null }, "{\"error\": \"int() argument must be a string, a bytes-like object or a real number, not 'NoneType'\"}"],
  ["logarithm", { "value": 100, "base": 10, "precision": [3] }, "{\"error\": \"int() argument must be a string, a bytes-like object or a real number, not 'list'\"}"],
  ["logarithm", { "value": 1024, "base": 2, "precision": 3 }, "{'result': mpf('10.0')}"],
  ["logarithm", { "value": 3, "base": 9, "precision": 6 }, "{'result': mpf('0.5')}"],
  ["logarithm", { "value": 2, "base": 10, "precision": 100 }, "{'result': mpf('0.3010299956639811952137388947244930267681898814621085413104274611271081892744245094869272521181861720381')}"],
  ["logarithm", { "value": 999.5, "base": 10, "precision": 1 }, "{'result': mpf('3.0')}"],
  ["power", { "base": 2, "exponent": 10 }, "{\"result\": 1024}"],
  ["power", { "base": 2, "exponent": -1 }, "{\"result\": 0.5}"],
  ["power", { "base": 2, "exponent": 0.5 }, "{\"result\": 1.4142135623730951}"],
  ["power", { "base": -8, "exponent": 0.3333333333333333 }, "{'result': (1.0000000000000002+1.7320508075688772j)}"],
  ["power", { "base": -1.5, "exponent": 2.5 }, "{'result': (8.436824361685386e-16+2.7556759606310752j)}"],
  ["power", { "base": 0, "exponent": -1 }, "Error during execution: 0.0 cannot be raised to a negative power"],
  ["power", { "base": f(10.0), "exponent": 400 }, "Error during execution: (34, 'Numerical result out of range')"],
  ["power", { "base": f(10.0), "exponent": -400 }, "{\"result\": 0.0}"],
  ["power", { "base": f(2.0), "exponent": -1074 }, "{\"result\": 5e-324}"],
  ["power", { "base": 10, "exponent": 5000 }, "Error during execution: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"],
  ["power", { "base": 123.456, "exponent": 7.89 }, "{\"result\": 3.1771028258180936e+16}"],
  ["power", { "base": 1.0000001, "exponent": f(10000000.0) }, "{\"result\": 2.7182816941320818}"],
  ["power", { "base": "a", "exponent": 2 }, "{\"error\": \"Both inputs must be numbers\"}"],
  ["power", { "base": true, "exponent": 2 }, "{\"result\": 1}"],
  ["round_number", { "number": 2.675, "decimal_places": 2 }, "{\"result\": 2.67}"],
  ["round_number", { "number": 1234.5, "decimal_places": -2 }, "{\"result\": 1200.0}"],
  ["round_number", { "number": 2.5, "decimal_places": null }, "{\"result\": 2}"],
  ["round_number", { "number": 25, "decimal_places": -1 }, "{\"result\": 20}"],
  ["round_number", { "number": f(1.7e+308), "decimal_places": -308 }, "Error during execution: rounded value too large to represent"],
  ["round_number", { "number": -0.4, "decimal_places": 0 }, "{\"result\": -0.0}"],
  ["round_number", { "number": "x", "decimal_places": 0 }, "{\"error\": \"First input must be a number, second input must be an integer\"}"],
  ["round_number", { "number": 2.5, "decimal_places": f(1.0) }, "{\"error\": \"First input must be a number, second input must be an integer\"}"],
  ["round_number", { "number": true, "decimal_places": 1 }, "{\"result\": 1}"],
  ["square_root", { "number": 2, "precision": 10 }, "{'result': Decimal('1.414213562')}"],
  ["square_root", { "number": f(1e+20), "precision": 2 }, "{'result': Decimal('1.0E+10')}"],
  ["square_root", { "number": 0.25, "precision": 5 }, "{'result': Decimal('0.5')}"],
  ["square_root", { "number": 0.0001, "precision": 3 }, "{'result': Decimal('0.0100')}"],
  ["square_root", { "number": f(-0.0), "precision": 3 }, "{'result': Decimal('-0')}"],
  ["square_root", { "number": 16, "precision": 28 }, "{'result': Decimal('4')}"],
  ["square_root", { "number": 144, "precision": 2 }, "{'result': Decimal('12')}"],
  ["square_root", { "number": 5e-324, "precision": 20 }, "{'result': Decimal('2.2227587494850774834E-162')}"],
  ["square_root", { "number": -1, "precision": 3 }, "{\"error\": \"Cannot calculate square root of a negative number\"}"],
  ["square_root", { "number": 2, "precision": 0 }, "Error during execution: valid range for prec is [1, MAX_PREC]"],
  ["square_root", { "number": 2, "precision": 1.5 }, "{\"error\": \"Input must be a number or computation resulted in an invalid operation\"}"],
  ["square_root", { "number": "2", "precision": 5 }, "{\"error\": \"Input must be a number or computation resulted in an invalid operation\"}"],
  ["mean", { "numbers": [37] }, "{\"result\": 37.0}"],
  ["mean", { "numbers": [true, false] }, "{\"result\": 0.5}"],
  ["mean", { "numbers": [1, "a"] }, "{\"error\": \"All elements in the list must be numbers\"}"],
  ["mean", { "numbers": 0 }, "{\"error\": \"Cannot calculate mean of an empty list\"}"],
  ["mean", { "numbers": "abc" }, "{\"error\": \"All elements in the list must be numbers\"}"],
  ["mean", { "numbers": [f(1e+308), f(1e+308)] }, "{\"result\": Infinity}"],
  ["standard_deviation", { "numbers": [1, 2, 3, 4] }, "{\"result\": 1.118033988749895}"],
  ["standard_deviation", { "numbers": [5] }, "{\"result\": 0.0}"],
  ["standard_deviation", { "numbers": [f(1e+200), f(-1e+200)] }, "Error during execution: (34, 'Numerical result out of range')"],
  ["sum_values", { "numbers": [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1] }, "{\"result\": 0.9999999999999999}"],
  ["sum_values", { "numbers": [1.5, 2, true] }, "{\"result\": 4.5}"],
  ["min_value", { "numbers": [[1, 2], [1]] }, "{\"result\": [1]}"],
  ["max_value", { "numbers": { "b": 1, "a": 2 } }, "{\"result\": \"b\"}"],
  ["min_value", { "numbers": [null] }, "{\"result\": null}"],
  ["max_value", { "numbers": [1, true, f(1.0)] }, "{\"result\": 1}"],
  ["min_value", { "numbers": [3, f(1.0), 2] }, "{\"result\": 1.0}"],
  ["max_value", { "numbers": ["b", "a", "B"] }, "{\"result\": \"b\"}"],
  ["min_value", { "numbers": [1, "a"] }, "{\"error\": \"All elements in the list must be numbers\"}"],
  ["add", { "a": "a", "b": "b" }, "{\"result\": \"ab\"}"],
  ["add", { "a": [1], "b": [2] }, "{\"result\": [1, 2]}"],
  ["add", { "a": true, "b": true }, "{\"result\": 2}"],
  ["add", { "a": 1, "b": f(2.0) }, "{\"result\": 3.0}"],
  ["add", { "a": null, "b": 1 }, "{\"error\": \"Both inputs must be numbers\"}"],
  ["add", { "a": 0.1, "b": 0.2 }, "{\"result\": 0.30000000000000004}"],
  ["subtract", { "a": "a", "b": "b" }, "{\"error\": \"Both inputs must be numbers\"}"],
  ["multiply", { "a": true, "b": 2.5 }, "{\"result\": 2.5}"],
  ["multiply", { "a": "a", "b": 2 }, "{\"error\": \"Both inputs must be numbers\"}"],
  ["divide", { "a": 1, "b": false }, "{\"error\": \"Cannot divide by zero\"}"],
  ["divide", { "a": 7, "b": 2 }, "{\"result\": 3.5}"],
  ["divide", { "a": f(1e+308), "b": 1e-10 }, "{\"result\": Infinity}"],
  ["divide", { "a": 5, "b": "0" }, "{\"error\": \"Both inputs must be numbers\"}"],
  ["percentage", { "part": 1, "whole": 3 }, "{\"result\": 33.33333333333333}"],
  ["percentage", { "part": 1, "whole": f(0.0) }, "{\"error\": \"Whole value cannot be zero\"}"],
  ["si_unit_conversion", { "value": 5, "unit_in": "km", "unit_out": "um" }, "{\"result\": 5000000000.0}"],
  ["si_unit_conversion", { "value": true, "unit_in": "km", "unit_out": "nm" }, "{\"result\": 999999999999.9999}"],
  ["si_unit_conversion", { "value": 3, "unit_in": "mm", "unit_out": "cm" }, "{\"result\": 0.3}"],
  ["si_unit_conversion", { "value": 3, "unit_in": "x", "unit_out": "cm" }, "{\"error\": \"Conversion from 'x' to 'cm' is not supported\"}"],
  ["si_unit_conversion", { "value": 3, "unit_in": ["km"], "unit_out": "m" }, "Error during execution: unhashable type: 'list'"],
  ["si_unit_conversion", { "value": "3", "unit_in": "km", "unit_out": "m" }, "{\"error\": \"Value must be a number\"}"],
  ["imperial_si_conversion", { "value": 100, "unit_in": "celsius", "unit_out": "fahrenheit" }, "{\"result\": 212.0}"],
  ["imperial_si_conversion", { "value": 50, "unit_in": "fahrenheit", "unit_out": "celsius" }, "{\"result\": 10.0}"],
  ["imperial_si_conversion", { "value": true, "unit_in": "a", "unit_out": "a" }, "{\"result\": true}"],
  ["imperial_si_conversion", { "value": 5, "unit_in": null, "unit_out": "x" }, "{\"error\": \"Conversion from 'None' to 'x' is not supported\"}"],
  ["imperial_si_conversion", { "value": 1.5, "unit_in": "kg", "unit_out": "lb" }, "{\"result\": 3.3069299999999995}"],
  ["absolute_value", { "number": -3 }, "{\"result\": 3}"],
  ["absolute_value", { "number": f(-0.0) }, "{\"result\": 0.0}"],
  ["absolute_value", { "number": [1] }, "{\"error\": \"Input must be a number\"}"],
];

describe('mathApiPort against Python results for model-style arguments', () => {
  it.each(PYTHON.map(([name, args, want], i) => [i, name, args, want] as const))('#%i %s', (_i, name, args, want) => {
    expect(callPort(mathApiPort, mathApiPort.load(undefined, false), name, args).result).toBe(want);
  });
});

describe('mathApiPort on calls a model may make', () => {
  const api = mathApiPort.load(undefined, false);

  it('returns integral float results as floats and int results as ints', () => {
    expect(callPort(mathApiPort, api, 'mean', { numbers: [5000, 7000, 6000, 8000] }).result).toBe('{"result": 6500.0}');
    expect(callPort(mathApiPort, api, 'sum_values', { numbers: [1, 2, 3] }).result).toBe('{"result": 6}');
    expect(callPort(mathApiPort, api, 'sum_values', { numbers: [1, f(2), 3] }).result).toBe('{"result": 6.0}');
    expect(callPort(mathApiPort, api, 'max_value', { numbers: [f(3), 1] }).result).toBe('{"result": 3.0}');
  });

  it('reports a missing argument as Python does, without a JS TypeError', () => {
    expect(callPort(mathApiPort, api, 'add', { a: 1 }).result).toBe("Error during execution: MathAPI.add() missing 1 required positional argument: 'b'");
  });

  it('keeps an mpf result out of JSON: str(dict) with repr, and str for the output', () => {
    const got = callPort(mathApiPort, api, 'logarithm', { value: 20, base: 10, precision: 2 });
    expect(got.result).toBe("{'result': mpf('1.3027')}");
    expect(got.output).toEqual({ result: { __py_type__: 'mpmath.mpf', repr: "mpf('1.3027')", str: '1.3' } });
  });

  it('is stateless: load ignores the config and snapshots are empty', () => {
    const a = mathApiPort.load({ precision: 3 }, true);
    expect(a.publicState()).toEqual({});
    expect(a.snapshot()).toEqual({});
    callPort(mathApiPort, a, 'logarithm', { value: 2, base: 10, precision: 40 });
    // mpmath's global precision persists in Python, but every logarithm call sets it first.
    expect(callPort(mathApiPort, mathApiPort.load(undefined, false), 'logarithm', { value: 20, base: 10, precision: 2 }).result).toBe(
      "{'result': mpf('1.3027')}",
    );
  });

  it('never mutates list arguments', () => {
    const numbers: PyValue[] = [3, 1, 2];
    callPort(mathApiPort, api, 'min_value', { numbers });
    callPort(mathApiPort, api, 'add', { a: numbers, b: [4] });
    expect(numbers).toEqual([3, 1, 2]);
  });

  it('refuses precisions it cannot compute in reasonable time, with a port message', () => {
    expect(callPort(mathApiPort, api, 'logarithm', { value: 2, base: 10, precision: 10 ** 9 }).result).toMatch(/^Error during execution: MathAPI port: /);
  });
});
