// Facts about JSON text read without parsing it: where it nests too deep, and where an offset is.

/**
 * Where JSON text first nests deeper than `max` arrays and objects (the offset of the bracket
 * that opens level `max + 1`), read in one pass outside strings without parsing, so that text
 * nested too deep never reaches a recursive parser, validator or serializer; `undefined` when it
 * never does.
 *
 * @example
 * jsonTooDeepAt('[[1]]', 2); // undefined
 * jsonTooDeepAt('[[[1]]]', 2); // 2
 * jsonTooDeepAt('{"a":"[[[["}', 1); // undefined: brackets inside strings do not count
 */
export function jsonTooDeepAt(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

/** A 1-based line and column in a text. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The 1-based line and column of a character offset in a text (an offset past the end is the
 * position just after the last character), for located errors (`file:line:column`).
 *
 * @example
 * lineColumnAt('{\n  "a": x\n}', 9); // { line: 2, column: 8 }
 */
export function lineColumnAt(text: string, offset: number): TextPosition {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}
