const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML and SVG element content and for double- or single-quoted attribute
 * values. Every string that comes from a run directory (tool outputs, user messages, tool names)
 * goes through here, so none of it can open a tag or close an attribute.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/**
 * A number for SVG coordinates: one decimal, within ±1e9, never `NaN` or `Infinity` (0 instead), no `-0`, so
 * the same layout always prints the same bytes.
 */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '0';
  // Far beyond any drawing; clamping keeps value * 10 from overflowing to Infinity.
  const clamped = Math.min(1e9, Math.max(-1e9, value));
  const rounded = Math.round(clamped * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/** Shortens `text` to at most `max` characters, saying how much was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
