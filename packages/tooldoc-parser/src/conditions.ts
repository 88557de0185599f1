import type { ToolConditions } from '@autoforge/core';

// No lazy group before `[ \t]*$`: that backtracks quadratically on long runs of blanks.
const HEADER = /^[ \t]*(pre|post)[- ]?conditions?[ \t]*:(.*)$/i;
const BULLET = /^[ \t]*(?:[-*+\u2022]|\d+[.)])[ \t]+(.*)$/;

/** A description with its pre/postcondition blocks taken out. */
export interface ParsedConditions {
  /** The description without the blocks (blank-line runs collapsed, trimmed). */
  description: string;
  /** The conditions; `undefined` when the description has no block. */
  conditions: ToolConditions | undefined;
}

/**
 * Takes `Preconditions:` / `Postconditions:` blocks (VitaBench style) out of a tool description.
 * A block is its header line (text after the colon counts as an item) and the bulleted lines
 * (`-`, `*`, `+`, `•`, `1.`) after it; indented lines continue the previous item. The block
 * ends at the next header or at the first line that is neither bulleted nor indented.
 *
 * @example
 * parseConditions('Book a flight.\n\nPreconditions:\n  - the user is logged in\nPostconditions:\n  - a booking exists')
 * // { description: 'Book a flight.', conditions: { preconditions: ['the user is logged in'], postconditions: ['a booking exists'] } }
 */
export function parseConditions(description: string): ParsedConditions {
  const lines = description.split(/\r?\n/);
  const kept: string[] = [];
  const conditions: ToolConditions = { preconditions: [], postconditions: [] };
  let found = false;
  let current: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const header = HEADER.exec(line);
    if (header) {
      found = true;
      current = (header[1] as string).toLowerCase() === 'pre' ? conditions.preconditions : conditions.postconditions;
      const inline = (header[2] as string).trim();
      if (inline) current.push(inline);
      continue;
    }
    if (current) {
      const bullet = BULLET.exec(line);
      if (bullet) {
        const item = (bullet[1] as string).trim();
        if (item) current.push(item);
        continue;
      }
      if (line.trim() === '') {
        // A blank line inside a block: the block goes on only if a bullet or indent follows.
        const next = lines.slice(i + 1).find((l) => l.trim() !== '');
        if (next !== undefined && (BULLET.test(next) || /^[ \t]/.test(next)) && !HEADER.test(next)) continue;
        current = undefined;
        kept.push(line);
        continue;
      }
      if (/^[ \t]/.test(line) && current.length > 0) {
        current[current.length - 1] = `${current[current.length - 1]} ${line.trim()}`;
        continue;
      }
      current = undefined;
    }
    kept.push(line);
  }
  const cleaned = kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  return { description: found ? cleaned : description, conditions: found ? conditions : undefined };
}

/** True when a description carries at least one pre/postcondition block. */
export function hasConditions(description: string): boolean {
  return description.split(/\r?\n/).some((line) => HEADER.test(line));
}
