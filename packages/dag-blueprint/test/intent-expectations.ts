// What every compiled intent must convey, checked from the task and its environment alone.
import type { JsonValue, Task } from '@autoforge/core';
import { idReference, singularize } from '@autoforge/core';
import type { Environment } from '@autoforge/env-runtime';
import { mention } from '../src/intent.js';
import { classifyId, describeHolder } from '../src/record-description.js';

/**
 * The facts a task's intent fails to convey: a fact is conveyed when its value appears verbatim,
 * or — for an id a user would not know (an item id inside an order) — when the record it names is
 * described: the value is internal, a description tells the record apart, and the intent holds
 * the description's name and every attribute value. Empty when every fact is conveyed.
 */
export function unconveyedFacts(task: Task, environment: Environment): string[] {
  const state = environment.spec.seedState;
  const collections = environment.collections;
  const context = { state, collections, identity: task.userFacts.map((f) => f.value) };
  const missing: string[] = [];
  for (const f of task.userFacts) {
    const parameter = f.key.replace(/_\d+$/, '');
    const elements: JsonValue[] = Array.isArray(f.value) ? f.value : [f.value];
    for (const v of elements) {
      const text = mention(v);
      if (task.intent.includes(text)) continue;
      const cls = idReference(parameter) !== undefined ? classifyId(parameter, v, context) : undefined;
      if (cls?.kind !== 'internal' || cls.holder === undefined) {
        missing.push(`${f.key}: ${text}`);
        continue;
      }
      const d = describeHolder(cls.holder, [...collections.map((c) => singularize(c)), idReference(parameter)?.noun ?? '']);
      const said = [...(d.name !== undefined ? [d.name] : []), ...d.attributes.map(([, a]) => mention(a))];
      if (!d.unique || said.length === 0 || said.some((s) => !task.intent.includes(s))) missing.push(`${f.key}: ${text} (described as ${said.join(', ')})`);
    }
  }
  return missing;
}
