import type { JsonValue } from '@autoforge/core';
import { pluralize, singularize } from '../naming.js';
import type { FamilyInput } from './family.js';

/**
 * The names a family must not give the state keys it creates: keys other families took, keys of
 * the sample, and the collection names keyed records may infer from the tools the family leaves
 * (the plural and singular of their nouns and of the nouns their id parameters name).
 */
export function reservedKeys(input: FamilyInput, claimed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>([...input.takenKeys, ...Object.keys(input.sample ?? {})]);
  for (const a of input.analyses) {
    if (claimed.has(a.tool.name)) continue;
    const nouns = [...a.nounWords, ...a.params.map((p) => p.ref?.noun).filter((n): n is string => n !== undefined && n !== '')];
    for (const n of nouns) {
      out.add(pluralize(n));
      out.add(singularize(n));
    }
  }
  return out;
}

/** `name`, or `name_2`, `name_3`, … : the first that is neither reserved nor already used. */
export function freeKey(name: string, reserved: ReadonlySet<string>, owned: Record<string, JsonValue>): string {
  let k = name;
  let n = 2;
  while (reserved.has(k) || k in owned) k = `${name}_${n++}`;
  return k;
}
