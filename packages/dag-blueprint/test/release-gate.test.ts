import type { JsonObject, Task } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ambiguousLookups } from '../src/ambiguous-lookups.js';
import type { Blueprint } from '../src/blueprint.js';
import { checkRelease, GATE_REASONS } from '../src/release-gate.js';
import { synthesizeTasks } from '../src/synthesize-tasks.js';
import { buildTaskGraph } from '../src/task-graph.js';
import { stepDigests } from '../src/verify-task.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

let retail: RetailFixture;
let entries: { task: Task; blueprint: Blueprint }[];
beforeAll(async () => {
  retail = await loadRetail();
  const run = await synthesizeTasks(retail.spec, buildTaskGraph(retail.spec), { count: 10, seed: 11, workers: 0 });
  const plans = new Map(run.blueprints.filter((b) => b.status === 'accepted').map((b) => [b.id, b]));
  entries = run.tasks.map((task) => ({ task, blueprint: plans.get(String(task.metadata?.blueprintId)) as Blueprint }));
}, 120_000);
afterAll(() => retail.environment.close());

/**
 * The task on a copy of the seed state where the record that a lookup by a told value found has
 * a twin under another id (holding the same values, so it matches the same facts); its digests
 * are those of that state. Undefined when the task has no such lookup.
 */
function withTwin(task: Task): { task: Task; call: number } | undefined {
  const seed = retail.spec.seedState;
  const told = new Set(task.userFacts.map((f) => canonicalJson(f.value)));
  const session = retail.environment.createSession();
  let twin: { state: JsonObject; call: number } | undefined;
  try {
    for (const [k, call] of task.goldCalls.entries()) {
      const r = session.stepSync({ id: `t${k}`, name: call.name, arguments: JSON.stringify(call.arguments) });
      if (!r.ok) return undefined;
      const output = r.output;
      if (typeof output !== 'string' || !Object.values(call.arguments).some((v) => told.has(canonicalJson(v)))) continue;
      const name = retail.environment.collections.find((c) => isJsonObject(seed[c]) && Object.hasOwn(seed[c], output));
      if (name === undefined) continue;
      const col = seed[name] as JsonObject;
      twin = { state: { ...seed, [name]: { ...col, [`${output}-twin`]: col[output] as JsonObject } }, call: k };
      break;
    }
  } finally {
    session.close();
  }
  if (!twin) return undefined;
  const replay = retail.environment.createSession({ initialState: twin.state });
  try {
    const initialDigest = replay.digest();
    for (const [k, call] of task.goldCalls.entries()) replay.stepSync({ id: `r${k}`, name: call.name, arguments: JSON.stringify(call.arguments) });
    const steps = stepDigests({ initialState: twin.state, goldCalls: task.goldCalls }, retail.environment) ?? [];
    const metadata = { ...task.metadata, stepDigests: steps };
    return { task: { ...task, initialState: twin.state, initialDigest, expectedFinalDigest: replay.digest(), metadata }, call: twin.call };
  } finally {
    replay.close();
  }
}

describe('checkRelease', () => {
  it('passes the released tasks on all three checks', async () => {
    expect(entries.length).toBeGreaterThan(5);
    for (const { task, blueprint } of entries) expect(await checkRelease(task, blueprint, retail.environment, { all: true })).toEqual({ ok: true });
  });

  it('unsolved:replay: a task whose expected digest the gold calls do not reach', async () => {
    const { task, blueprint } = entries[0] as { task: Task; blueprint: Blueprint };
    const r = await checkRelease({ ...task, expectedFinalDigest: '0'.repeat(64) }, blueprint, retail.environment, { all: true });
    expect(r.ok).toBe(false);
    // The oracle reaches the real final state, not the tampered one: both checks fail.
    expect(r.ok ? [] : r.failed.map((f) => f.reason)).toEqual(['unsolved:replay', 'unsolved:dialogue']);
  });

  it('unsolved:dialogue: a task whose user cannot tell the facts the oracle must ask for', async () => {
    const entry = entries.find((e) => e.task.userFacts.length > 0) as { task: Task; blueprint: Blueprint };
    const r = await checkRelease({ ...entry.task, userFacts: [] }, entry.blueprint, retail.environment);
    expect(r).toMatchObject({ ok: false, failed: [{ reason: 'unsolved:dialogue' }] });
    const none = await checkRelease(entry.task, undefined, retail.environment);
    expect(none).toMatchObject({ ok: false, failed: [{ reason: 'unsolved:dialogue' }] });
  });

  it('ambiguous:lookup: a lookup by told values that another record matches as well', async () => {
    const found = entries.map((e) => ({ ...e, twin: withTwin(e.task) })).find((e) => e.twin !== undefined);
    expect(found).toBeDefined();
    if (!found?.twin) return;
    const { task, call } = found.twin;
    const issues = ambiguousLookups(task, retail.environment);
    expect(issues.map((i) => i.pointer)).toContain(`/goldCalls/${call}`);
    expect(issues.map((i) => i.message).join('\n')).toMatch(/-twin/);
    expect(ambiguousLookups(found.task, retail.environment)).toEqual([]);
    const r = await checkRelease(task, found.blueprint, retail.environment, { dialogue: false });
    expect(r).toMatchObject({ ok: false, failed: [{ reason: 'ambiguous:lookup' }] });
  });

  it('lists its reasons in the order the checks run', () => {
    expect(GATE_REASONS).toEqual(['unsolved:replay', 'ambiguous:lookup', 'unsolved:dialogue']);
  });
});
