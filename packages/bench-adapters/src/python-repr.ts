import { pyFloatRepr } from './python-number.js';
import type { PyValue } from './python-value.js';
import { PyFloat } from './python-value.js';

/**
 * Characters Python's `str.isprintable()` rejects, which `repr` escapes: other and separator
 * categories (Cc, Cf, Cs, Co, Cn, Zl, Zp, and Zs except the ASCII space).
 */
const NOT_PRINTABLE = /^(?:[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs})$/u;

function pyEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python's `repr(str)`: single quotes unless the text has a single quote and no double quote. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code > 0x7f && NOT_PRINTABLE.test(ch)) out += pyEscape(code);
    else out += ch;
  }
  return out + quote;
}

/** Python's `str(list_of_str)`: `['a', "it's"]`. */
export function pyStrListRepr(items: readonly string[]): string {
  return `[${items.map(pyStrRepr).join(', ')}]`;
}

/** How `pyRepr` and `pyJsonDumps` print numbers that came from state (plain JSON numbers). */
export interface PyFormatOptions {
  /**
   * Keys whose number values are Python floats even when integral (`balance: 500` prints
   * `500.0`). Numbers elsewhere print as ints when integral. `PyFloat`s always print as floats.
   */
  floatKeys?: ReadonlySet<string>;
}

function pyNumberRepr(value: number | PyFloat, key: string | undefined, options: PyFormatOptions): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (!Number.isInteger(value)) return pyFloatRepr(value);
  return key !== undefined && options.floatKeys?.has(key) === true ? pyFloatRepr(value) : String(value);
}

/** Python's `repr()` of a value (`{'a': 1.0, 'b': [True, None]}`). */
export function pyRepr(value: PyValue | undefined, options: PyFormatOptions = {}, key?: string): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || value instanceof PyFloat) return pyNumberRepr(value, key, options);
  if (typeof value === 'string') return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map((v) => pyRepr(v, options, key)).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v, options, k)}`).join(', ')}}`;
}

/** Python's `str()`: the text itself for a string, `repr()` for everything else. */
export function pyStr(value: PyValue | undefined, options: PyFormatOptions = {}, key?: string): string {
  return typeof value === 'string' ? value : pyRepr(value, options, key);
}

/** Options of `pyJsonDumps`. */
export interface PyJsonDumpsOptions extends PyFormatOptions {
  /** `ensure_ascii`: escape every character outside printable ASCII. Default true (Python's default). */
  ensureAscii?: boolean;
}

/** A JSON string literal as Python's `json.dumps` writes it (`ensure_ascii` escapes all but printable ASCII). */
export function pyJsonString(text: string, ensureAscii = true): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const code = text.charCodeAt(i);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (code < 0x20 || (ensureAscii && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Python's `json.dumps(value)` with its default separators (`", "`, `": "`) and float repr. */
export function pyJsonDumps(value: PyValue | undefined, options: PyJsonDumpsOptions = {}, key?: string): string {
  const ascii = options.ensureAscii ?? true;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || value instanceof PyFloat) return pyNumberRepr(value, key, options);
  if (typeof value === 'string') return pyJsonString(value, ascii);
  if (Array.isArray(value)) return `[${value.map((v) => pyJsonDumps(v, options, key)).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyJsonString(k, ascii)}: ${pyJsonDumps(v, options, k)}`).join(', ')}}`;
}
