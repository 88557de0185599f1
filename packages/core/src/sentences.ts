// Sentences of a text: a general splitter for anything that reads messages sentence by sentence.

/**
 * Splits a text into sentences at `.`, `?`, `!` followed by white space, and at line breaks,
 * never inside a double-quoted string (values such as `"St. Louis"` stay whole).
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && inQuote) {
      i++;
      continue;
    }
    if (c === '"') inQuote = !inQuote;
    else if (c === '\n' || (!inQuote && (c === '.' || c === '?' || c === '!') && (i + 1 === text.length || /\s/.test(text[i + 1] as string)))) {
      const s = text.slice(start, i + 1).trim();
      if (s !== '') out.push(s);
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest !== '') out.push(rest);
  return out;
}
