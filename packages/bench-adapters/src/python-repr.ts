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
    else out += ch;
  }
  return out + quote;
}

/** Python's `str(list_of_str)`: `['a', "it's"]`. */
export function pyStrListRepr(items: readonly string[]): string {
  return `[${items.map(pyStrRepr).join(', ')}]`;
}
