import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePythonCalls, pythonCallsText } from './python-call.js';
import { pyJsonDumps, pyRepr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { PyFloat, parsePyJson, pyEquals, pyTypeName } from './python-value.js';

// Python values: JSON with integral floats kept as floats.
const pyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).filter((x) => !Number.isInteger(x)),
    fc.integer({ min: -1000, max: 1000 }).map((n) => new PyFloat(n)),
    fc.string({ maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== '__proto__'), tie('value'), { maxKeys: 4 }),
  ),
})).value as unknown as fc.Arbitrary<PyValue>;

function sameTypes(a: PyValue, b: PyValue): boolean {
  if (pyTypeName(a) !== pyTypeName(b)) return false;
  if (Array.isArray(a)) return a.every((x, i) => sameTypes(x, (b as PyValue[])[i] as PyValue));
  if (pyTypeName(a) === 'dict') return Object.entries(a as Record<string, PyValue>).every(([k, v]) => sameTypes(v, (b as Record<string, PyValue>)[k] as PyValue));
  return true;
}

describe('parsePyJson and pyJsonDumps', () => {
  it('invariant: json.loads(json.dumps(v)) gives v back with its Python types (5.0 stays a float)', () => {
    fc.assert(
      fc.property(pyValue, (v) => {
        const back = parsePyJson(pyJsonDumps(v));
        return pyEquals(back, v) && sameTypes(back, v);
      }),
      { numRuns: 300 },
    );
  });

  it("writes Python's json.dumps: ', ' and ': ' separators, float repr, ASCII escapes", () => {
    expect(pyJsonDumps({ a: [1, new PyFloat(2), 2.5, true, null], 'é': 'ü\n' })).toBe('{"a": [1, 2.0, 2.5, true, null], "\\u00e9": "\\u00fc\\n"}');
    expect(pyJsonDumps({ price: 68 }, { floatKeys: new Set(['price']) })).toBe('{"price": 68.0}');
    expect(pyTypeName(parsePyJson('1e3'))).toBe('float');
    expect(() => parsePyJson('{"a": 1,}')).toThrow(SyntaxError);
  });
});

describe('pyRepr', () => {
  it("writes Python's repr: quotes as Python picks them, True/None, float keys", () => {
    expect(pyRepr({ msg: "Domino's", ok: true, none: null, n: [1, 1.5] })).toBe(`{'msg': "Domino's", 'ok': True, 'none': None, 'n': [1, 1.5]}`);
    expect(pyRepr([{ price: 25 }], { floatKeys: new Set(['price']) })).toBe("[{'price': 25.0}]");
  });
});

describe('parsePythonCalls', () => {
  it("reads ACEBench's milestone strings, quotes inside words included ('Domino's')", () => {
    expect(parsePythonCalls("[add_food_delivery_order(username='Eve', merchant_name='Domino's', items=[{'product': 'Super Supreme', 'quantity': 1}])] ")).toEqual([
      { name: 'add_food_delivery_order', arguments: { username: 'Eve', merchant_name: "Domino's", items: [{ product: 'Super Supreme', quantity: 1 }] } },
    ]);
    expect(parsePythonCalls('[login_device(), ns.f(x=-2, y=(1, 2.0), z=None)]')).toEqual([
      { name: 'login_device', arguments: {} },
      { name: 'ns.f', arguments: { x: -2, y: [1, new PyFloat(2)], z: null } },
    ]);
    expect(() => parsePythonCalls('[f(a=1')).toThrow(SyntaxError);
  });

  it('invariant: parsing the text of calls gives the calls back', () => {
    const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
    const call = fc.record({ name, arguments: fc.dictionary(name, pyValue, { maxKeys: 3 }) });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 3 }), (calls) => {
        const back = parsePythonCalls(pythonCallsText(calls));
        return back.length === calls.length && back.every((c, i) => c.name === calls[i]?.name && pyEquals(c.arguments, calls[i]?.arguments ?? {}) && sameTypes(c.arguments, calls[i]?.arguments ?? {}));
      }),
      { numRuns: 200 },
    );
  });
});
