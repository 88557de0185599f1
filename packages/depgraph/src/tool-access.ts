import type { ToolSpec } from '@autoforge/core';
import { toolAccess as coreToolAccess } from '@autoforge/core';
import type { AccessSource, ToolAccess } from './dependency-graph.js';
import { accessFromName } from './naming.js';

/**
 * Whether a tool reads or writes: core's `toolAccess` (declared hints and HTTP methods, then the
 * name's verb, then the description's). With `prefer: 'names'` the name's verb goes first and
 * the rest follow in core's order. When nothing says, `read`.
 */
export function toolAccess(
  tool: Pick<ToolSpec, 'name' | 'hints'> & { description?: string },
  prefer: 'hints' | 'names',
): { access: ToolAccess; accessFrom: AccessSource } {
  if (prefer === 'names') {
    const fromName = accessFromName(tool.name);
    if (fromName) return { access: fromName, accessFrom: 'name' };
  }
  const decided = coreToolAccess({ name: tool.name, description: tool.description ?? '', ...(tool.hints ? { hints: tool.hints } : {}) });
  if (decided.access === 'unknown') return { access: 'read', accessFrom: 'default' };
  const accessFrom: AccessSource = decided.source === 'hint' || decided.source === 'method' ? 'hints' : decided.source === 'description' ? 'description' : 'name';
  return { access: decided.access, accessFrom };
}
