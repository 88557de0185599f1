/**
 * Text folding for tolerant id and name matching, as tau2 does for spoken ids: Unicode
 * compatibility decomposition, combining marks removed, lower case, surrounding whitespace
 * trimmed and inner whitespace collapsed. (tau2's `fold_for_match` is not in the benchmark data;
 * this reproduces what its documentation says it folds: case, diacritics and whitespace.)
 */
export function foldForMatch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** tau2's `_resolve_key_folded`: the exact key, the trimmed key, else the first key that folds equal. */
export function resolveKeyFolded(ids: readonly string[], has: (id: string) => boolean, key: string): string | undefined {
  if (has(key)) return key;
  const stripped = key.trim();
  if (has(stripped)) return stripped;
  const folded = foldForMatch(stripped);
  return ids.find((id) => foldForMatch(id) === folded);
}
