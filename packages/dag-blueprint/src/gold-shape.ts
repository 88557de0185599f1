import type { Task } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';

/**
 * A task's gold-call shape: its calls in order, each as the tool and the names of the arguments
 * it was given, without their values (`find(email) > get(id) > cancel(id,reason)`); a run of
 * equal calls counts once (however many orders were looked at). Two tasks of one shape do the
 * same kind of work on different records.
 */
export function goldCallShape(task: Pick<Task, 'goldCalls'>): string {
  const calls: string[] = [];
  for (const call of task.goldCalls) {
    const text = `${call.name}(${Object.keys(call.arguments).sort().join(',')})`;
    if (calls[calls.length - 1] !== text) calls.push(text);
  }
  return calls.join(' > ');
}

/** The tool a task is about: its first write, else its last call. */
export function principalTool(task: Pick<Task, 'goldCalls'>, writes: ReadonlySet<string>): string {
  return (task.goldCalls.find((c) => writes.has(c.name)) ?? task.goldCalls[task.goldCalls.length - 1])?.name ?? '';
}

/** The gold calls with their arguments, canonical: equal for tasks that make the very same calls. */
export function goldCallKey(task: Pick<Task, 'goldCalls'>): string {
  return canonicalJson(task.goldCalls.map((c) => [c.name, c.arguments]));
}
