import type { JsonValue } from './json.js';

/**
 * The JSON literal at the start of `text` — a string, number, `true` / `false` / `null`, array
 * or object, brackets matched outside strings — with how many characters it takes; `undefined`
 * when `text` does not start with one that parses.
 */
export function jsonLiteralAt(text: string): { value: JsonValue; length: number } | undefined {
  const first = text[0];
  if (first === '"') {
    for (let i = 1; i < text.length; i++) {
      if (text[i] === '\\') {
        i++;
        continue;
      }
      if (text[i] === '"') return parse(text.slice(0, i + 1));
    }
    return undefined;
  }
  if (first === '[' || first === '{') {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') {
        depth--;
        if (depth === 0) return parse(text.slice(0, i + 1));
      }
    }
    return undefined;
  }
  const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?![\w.]*\w)/.exec(text);
  return m ? parse(m[1] as string) : undefined;
}

function parse(literal: string): { value: JsonValue; length: number } | undefined {
  try {
    return { value: JSON.parse(literal) as JsonValue, length: literal.length };
  } catch {
    return undefined;
  }
}
