import type { ToolSpec } from '@autoforge/core';
import type { AccessSource, ToolAccess } from './dependency-graph.js';
import { accessFromName } from './naming.js';

const TYPE_EXTENSIONS = ['x-tau2-tool-type', 'x-vita-tool-type', 'x-tool-type'];

function accessFromHints(tool: Pick<ToolSpec, 'hints' | 'extensions'>): ToolAccess | undefined {
  if (tool.hints?.readOnly === true) return 'read';
  if (tool.hints?.readOnly === false || tool.hints?.destructive === true) return 'write';
  for (const key of TYPE_EXTENSIONS) {
    const value = tool.extensions?.[key];
    if (typeof value !== 'string') continue;
    const type = value.toUpperCase();
    if (type === 'WRITE') return 'write';
    if (type === 'READ' || type === 'THINK' || type === 'GENERIC') return 'read';
  }
  return undefined;
}

/**
 * Whether a tool reads or writes. With `prefer: 'hints'` the tool's declared hints
 * (`readOnly`, `destructive`, a tau2/VitaBench tool type) decide and the name's verb is the
 * fallback; with `'names'` the verb decides first. Without either, `read`.
 */
export function toolAccess(
  tool: Pick<ToolSpec, 'name' | 'hints' | 'extensions'>,
  prefer: 'hints' | 'names',
): { access: ToolAccess; accessFrom: AccessSource } {
  const fromHints = accessFromHints(tool);
  const fromName = accessFromName(tool.name);
  const order: [ToolAccess | undefined, AccessSource][] =
    prefer === 'hints'
      ? [
          [fromHints, 'hints'],
          [fromName, 'name'],
        ]
      : [
          [fromName, 'name'],
          [fromHints, 'hints'],
        ];
  for (const [access, accessFrom] of order) if (access) return { access, accessFrom };
  return { access: 'read', accessFrom: 'default' };
}
