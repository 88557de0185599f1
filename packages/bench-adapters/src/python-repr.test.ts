import { describe, expect, it } from 'vitest';
import { pyStrRepr } from './python-repr.js';

describe('pyStrRepr', () => {
  it('quotes and escapes as CPython 3.11 repr does (values printed by python3)', () => {
    const cases: [string, string][] = [
      ["it's", `"it's"`],
      ['say "hi"', `'say "hi"'`],
      [`both ' and "`, `'both \\' and "'`],
      ['a\u3000b', "'a\\u3000b'"],
      ['x\x85y', "'x\\x85y'"],
      ['\u2028', "'\\u2028'"],
      ['\u200b', "'\\u200b'"],
      ['é’', "'é’'"],
      ['\ud800', "'\\ud800'"],
      ['😀', "'😀'"],
      ['tab\t\x01', "'tab\\t\\x01'"],
      ['\u{e0001}', "'\\U000e0001'"],
    ];
    for (const [text, repr] of cases) expect(pyStrRepr(text), JSON.stringify(text)).toBe(repr);
  });
});
