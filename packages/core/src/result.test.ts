import { describe, expect, it } from 'vitest';
import { AutoForgeError, CoreError, formatLocation, isAutoForgeError } from './error.js';
import { getAtPointer, parsePointer, toPointer } from './json-pointer.js';
import { err, ok, unwrap } from './result.js';

describe('Result', () => {
  it('ok carries a value and warnings only when there are some', () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 });
    expect(ok(1, [{ code: 'W', message: 'w' }])).toEqual({ ok: true, value: 1, warnings: [{ code: 'W', message: 'w' }] });
  });

  it('err wraps one issue in a list', () => {
    expect(err({ code: 'E', message: 'bad' })).toEqual({ ok: false, issues: [{ code: 'E', message: 'bad' }] });
  });

  it('unwrap throws every issue message', () => {
    expect(() => unwrap(err([{ code: 'A', message: 'one' }, { code: 'B', message: 'two' }]))).toThrow('one\ntwo');
    expect(unwrap(ok('v'))).toBe('v');
  });
});

describe('AutoForgeError', () => {
  it('has a code, a location and a cause, and its subclass name', () => {
    const cause = new Error('inner');
    const e = new CoreError('E_RNG', 'x', { cause, location: { file: 'a.json', pointer: '/a' } });
    expect(e.name).toBe('CoreError');
    expect(e.code).toBe('E_RNG');
    expect(e.cause).toBe(cause);
    expect(e).toBeInstanceOf(AutoForgeError);
    expect(isAutoForgeError(e)).toBe(true);
    expect(isAutoForgeError(new Error('x'))).toBe(false);
  });

  it('formats locations as file:line:column pointer', () => {
    expect(formatLocation({ file: 'a.yaml', line: 3, column: 5, pointer: '/paths/~1x' })).toBe('a.yaml:3:5 /paths/~1x');
    expect(formatLocation({ pointer: '' })).toBe('/');
  });
});

describe('JSON pointer', () => {
  it('escapes ~ and / and round-trips', () => {
    const tokens = ['paths', '/orders/{id}', 'a~b', '0'];
    expect(toPointer(tokens)).toBe('/paths/~1orders~1{id}/a~0b/0');
    expect(parsePointer(toPointer(tokens))).toEqual(tokens);
  });

  it('reads values, including URI-fragment pointers, and answers undefined for missing paths', () => {
    const doc = { a: [{ 'b/c': 1 }] };
    expect(getAtPointer(doc, '/a/0/b~1c')).toBe(1);
    expect(getAtPointer(doc, '#/a/0')).toEqual({ 'b/c': 1 });
    expect(getAtPointer(doc, '/a/1')).toBeUndefined();
    expect(getAtPointer(doc, '/a/01')).toBeUndefined();
    expect(() => parsePointer('a')).toThrow(/must start with/);
  });
});
