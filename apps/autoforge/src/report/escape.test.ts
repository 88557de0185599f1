import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, num, truncate } from './escape.js';

const unescape = (s: string): string =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('escapeHtml', () => {
  it('escapes the five characters that can open a tag or close an attribute', () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;');
  });

  it('escaped text has no markup characters and unescapes to the original (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const e = escapeHtml(s);
        expect(/[<>"']/.test(e)).toBe(false);
        expect(unescape(e)).toBe(s);
      }),
    );
  });
});

describe('num', () => {
  it('prints one decimal and never NaN, Infinity or -0', () => {
    expect(num(1.26)).toBe('1.3');
    expect(num(2)).toBe('2');
    expect(num(Number.NaN)).toBe('0');
    expect(num(Number.POSITIVE_INFINITY)).toBe('0');
    expect(num(-0.01)).toBe('0');
  });

  it('always prints a finite number (property)', () => {
    fc.assert(
      fc.property(fc.double(), (x) => {
        expect(Number.isFinite(Number(num(x)))).toBe(true);
      }),
    );
  });
});

describe('truncate', () => {
  it('keeps short text and says how much of long text was cut', () => {
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncate('abcdefgh', 3)).toBe('abc… (5 more characters)');
  });
});
