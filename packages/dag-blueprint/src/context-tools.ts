import type { EffectfulTool } from './effect-facts.js';

/**
 * Whether a tool only opens a context (a sign-in), as its declared effects say: it creates a
 * resource no parameter or output names that another tool `requires` (a session), and otherwise
 * only reads or requires. (A tool that creates records no tool requires makes data, not a context.)
 */
export function opensContext(tool: string, toolByName: ReadonlyMap<string, EffectfulTool>): boolean {
  const effects = toolByName.get(tool)?.effects ?? [];
  const context = (e: (typeof effects)[number]): boolean => e.action === 'creates' && e.via === undefined && e.path === undefined;
  if (!effects.some(context) || !effects.every((e) => e.action === 'reads' || e.action === 'requires' || context(e))) return false;
  const opened = new Set(effects.filter(context).map((e) => e.resource));
  for (const [name, other] of toolByName) {
    if (name !== tool && (other.effects ?? []).some((e) => e.action === 'requires' && opened.has(e.resource))) return true;
  }
  return false;
}
