import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints, digest } from './canonical-json.js';
import { CoreError } from './error.js';

const benchmarks = join(import.meta.dirname, '../../../../shared/benchmarks');
const expected = JSON.parse(readFileSync(join(benchmarks, 'expected/initial_digests.json'), 'utf8')) as Record<
  string,
  { digest: string; digest_of_raw_db_json?: string; collections: Record<string, string> }
>;

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(join(benchmarks, path), 'utf8'));
}

function tauBenchDb(domain: string, collections: string[]): Record<string, unknown> {
  return Object.fromEntries(collections.map((c) => [c, readJson(`tau-bench/${domain}/data/${c}.json`)]));
}

describe('canonicalJson', () => {
  it('sorts keys by code point and writes integer-like keys in that order, not V8 enumeration order', () => {
    expect(canonicalJson({ b: 1, a: 2, '429815': 3, '10': 4 })).toBe('{"10":4,"429815":3,"a":2,"b":1}');
  });

  it('writes numbers as JavaScript prints them, -0 as 0', () => {
    expect(canonicalJson([100.0, 12.5, 0.00001, -0, 0.04999999999999716, 2 ** 53])).toBe(
      '[100,12.5,0.00001,0,0.04999999999999716,9007199254740992]',
    );
  });

  it('escapes strings exactly as JSON.stringify, leaving non-ASCII and U+2028 raw', () => {
    const s = '"\\\b\f\n\r\t\u0001\u001f é \u2028 😀';
    expect(canonicalJson(s)).toBe(JSON.stringify(s));
    expect(canonicalJson(s)).toContain('\u2028');
  });

  it('has no whitespace and omits undefined properties like JSON.stringify', () => {
    expect(canonicalJson({ a: [1, { c: null, b: true }], d: undefined })).toBe('{"a":[1,{"b":true,"c":null}]}');
  });

  it.each([
    ['NaN', Number.NaN, /non-finite number NaN at \/x/],
    ['Infinity', Number.POSITIVE_INFINITY, /non-finite number Infinity at \/x/],
    ['a lone surrogate', '\ud800x', /lone surrogate in string at \/x/],
    ['a bigint', 1n, /bigint is not JSON at \/x/],
    ['a Date', new Date(0), /not a plain object at \/x/],
  ])('rejects %s with a located CoreError', (_name, bad, message) => {
    expect(() => canonicalJson({ x: bad })).toThrow(message);
    expect(() => canonicalJson({ x: bad })).toThrow(CoreError);
  });

  it('rejects cycles', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => canonicalJson(a)).toThrow(/cycle at \/self/);
  });

  it('writes values nested deeper than its fast path the same way, and locates errors deep inside them', () => {
    let deep: unknown = { z: 1, a: [true, 'x'] };
    for (let i = 0; i < 2000; i++) deep = i % 2 ? { k: deep } : [deep];
    const text = canonicalJson(deep);
    expect(text.length).toBeGreaterThan(4000);
    expect(text).toContain('{"a":[true,"x"],"z":1}');
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    let bad: unknown = { x: Number.NaN };
    for (let i = 0; i < 600; i++) bad = { k: bad };
    expect(() => canonicalJson(bad)).toThrow(new RegExp(`non-finite number NaN at ${'/k'.repeat(600)}/x$`));
  });

  fcTest.prop([fc.jsonValue()], { numRuns: 300 })('round-trips: parsing the canonical text gives an equal value', (v) => {
    const text = canonicalJson(v);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  fcTest.prop([fc.dictionary(fc.string(), fc.integer())], { numRuns: 300 })(
    'does not depend on key insertion order',
    (obj) => {
      const reversed = Object.fromEntries(Object.entries(obj).reverse());
      expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
    },
  );
});

describe('compareCodePoints', () => {
  it('orders astral characters after the whole BMP (unlike UTF-16 sort)', () => {
    expect(compareCodePoints('\uffff', '😀')).toBeLessThan(0);
    expect(['😀', '\uffff'].sort()).toEqual(['😀', '\uffff']);
    expect(['😀', '\uffff'].sort(compareCodePoints)).toEqual(['\uffff', '😀']);
  });
});

describe('digest', () => {
  it('reproduces the tau-bench retail initial-DB digest and its per-collection digests', () => {
    const db = tauBenchDb('retail', ['orders', 'products', 'users']);
    const ref = expected.taubench_retail!;
    expect(digest(db)).toBe(ref.digest);
    for (const [name, d] of Object.entries(ref.collections)) expect(digest(db[name])).toBe(d);
  });

  it('reproduces the tau-bench airline initial-DB digest (integer-like reservation ids)', () => {
    const db = tauBenchDb('airline', ['flights', 'reservations', 'users']);
    expect(digest(db)).toBe(expected.taubench_airline!.digest);
  });

  it.each(['retail', 'airline'])('reproduces the digest of tau2 %s db.json as parsed', (domain) => {
    const db = readJson(`tau2-bench/${domain}/db.json`);
    expect(digest(db)).toBe(expected[`tau2_${domain}`]!.digest_of_raw_db_json);
  });

  it('is the SHA-256 of the canonical text', () => {
    expect(digest({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});
