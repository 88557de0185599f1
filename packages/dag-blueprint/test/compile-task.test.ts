import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, Task } from '@autoforge/core';
import { canonicalJson, isJsonObject } from '@autoforge/core';
import type { ToolSequence } from '@autoforge/depgraph';
import { randomWalks } from '@autoforge/depgraph';
import type { Blueprint } from '../src/blueprint.js';
import type { RejectionReason } from '../src/compile-task.js';
import { compileTask, REJECTION_REASONS } from '../src/compile-task.js';
import { difficulty } from '../src/difficulty.js';
import { mergeSequences } from '../src/merge-sequences.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';
import { verifyTask } from '../src/verify-task.js';
import { unconveyedFacts } from './intent-expectations.js';

let retail: RetailFixture;
let blueprints: Blueprint[];
const ATTEMPTS = 120;

beforeAll(async () => {
  retail = await loadRetail();
  const walks = randomWalks(retail.graph, { seed: 1, count: 2 * ATTEMPTS, minLength: 3, maxLength: 6, maxWrites: 1 });
  blueprints = Array.from({ length: ATTEMPTS }, (_, i) => {
    // Every third blueprint merges two walks.
    const seqs = (i % 3 === 0 ? [walks[i], walks[i + ATTEMPTS]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    return mergeSequences(seqs, retail.graph, { seed: i, tools: retail.environment.tools });
  });
});
afterAll(() => retail.environment.close());

const users = (): Record<string, JsonObject> => retail.spec.seedState.users as Record<string, JsonObject>;
const userWith = (test: (u: JsonObject) => boolean): [string, JsonObject] => {
  const found = Object.entries(users()).find(([, u]) => test(u));
  if (!found) throw new Error('no such user in the retail DB');
  return found;
};

describe('compileTask on tau-bench retail', () => {
  const tasks: Task[] = [];
  const tally = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<RejectionReason, number>;

  it(`compiles ${ATTEMPTS} merged walks into tasks or counted rejections`, () => {
    for (const [i, bp] of blueprints.entries()) {
      const r = compileTask(bp, retail.environment, { seed: i, envId: 'retail' });
      if (r.ok) tasks.push(r.value);
      else {
        expect(REJECTION_REASONS).toContain(r.reason);
        expect(r.issues.length).toBeGreaterThan(0);
        tally[r.reason]++;
      }
    }
    const rejected = Object.values(tally).reduce((a, b) => a + b, 0);
    expect(tasks.length + rejected).toBe(ATTEMPTS);
    expect(tasks.length).toBeGreaterThan(ATTEMPTS / 5);
    const hard = tasks.filter((t) => t.goldCalls.length >= 4 && (t.metadata?.difficulty as { reasoningNodes: number }).reasoningNodes > 0);
    expect(hard.length).toBeGreaterThan(0);
    console.log(`dag-blueprint retail: ${tasks.length}/${ATTEMPTS} compiled, ${hard.length} with >=4 calls and a reasoning node; rejected ${JSON.stringify(tally)}`);
  });

  it('every compiled task replays to its expected digest', () => {
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) expect(verifyTask(t, retail.environment).ok, t.id).toBe(true);
  });

  it('tasks with writes change the state (unless a condition skips them all); read-only tasks require an output', () => {
    for (const t of tasks) {
      const writes = (t.metadata?.difficulty as { writes: number }).writes;
      const branches = Object.values((t.metadata?.branches ?? {}) as Record<string, boolean>);
      const skipped = branches.filter((taken) => !taken).length;
      if (writes > skipped) expect(t.expectedFinalDigest).not.toBe(t.initialDigest);
      else expect(t.requiredOutputs).toHaveLength(1);
      expect(t.intent.length).toBeGreaterThan(0);
      // Every fact verbatim, or the record an internal id names described (see unconveyedFacts).
      expect(unconveyedFacts(t, retail.environment), t.intent).toEqual([]);
    }
  });

  it('the same seed gives byte-identical tasks', () => {
    for (const [i, bp] of blueprints.slice(0, 20).entries()) {
      const a = compileTask(bp, retail.environment, { seed: i, envId: 'retail' });
      const b = compileTask(bp, retail.environment, { seed: i, envId: 'retail' });
      expect(canonicalJson(a)).toBe(canonicalJson(b));
    }
  });

  it('searches: backtracking over user records, criteria and named ids compiles more than one try each', () => {
    const first = blueprints.slice(0, 50);
    const once = first.filter((bp, i) => compileTask(bp, retail.environment, { seed: i, choices: 1, attempts: 1 }).ok).length;
    const searched = first.filter((bp, i) => compileTask(bp, retail.environment, { seed: i }).ok).length;
    expect(searched).toBeGreaterThan(once);
  });

  it('chooses the branch of a conditional write when compiling: taken, it changes the state; not taken, nothing runs', () => {
    const conditional = tasks.filter((t) => t.metadata?.branches !== undefined);
    expect(conditional.length).toBeGreaterThan(0);
    for (const t of conditional) {
      const [taken] = Object.values(t.metadata?.branches as Record<string, boolean>);
      expect(t.requiredOutputs).toHaveLength(1); // the compared value, either way
      const bp = blueprints.find((b) => b.id === t.metadata?.blueprintId) as Blueprint;
      const write = bp.nodes.find((n) => n.kind === 'tool' && n.when !== undefined) as { tool: string };
      expect(t.goldCalls.some((c) => c.name === write.tool)).toBe(taken);
      if (!taken) expect(t.expectedFinalDigest).toBe(t.initialDigest);
    }
  });

  it('verifyTask names the first divergent step', () => {
    const t = tasks.find((x) => x.goldCalls.length >= 3) as Task;
    const steps = t.metadata?.stepDigests as string[];
    expect(steps).toHaveLength(t.goldCalls.length);
    const pass = verifyTask(t, retail.environment);
    expect(pass).toEqual({ ok: true, value: { steps: t.goldCalls.length, finalDigest: t.expectedFinalDigest } });

    const finalWrong = verifyTask({ ...t, expectedFinalDigest: '0'.repeat(64) }, retail.environment);
    expect(finalWrong).toMatchObject({ ok: false, issues: [{ code: 'E_FINAL_DIGEST', step: t.goldCalls.length - 1, pointer: '/expectedFinalDigest', actual: t.expectedFinalDigest }] });

    const initialWrong = verifyTask({ ...t, initialDigest: 'f'.repeat(64) }, retail.environment);
    expect(initialWrong).toMatchObject({ ok: false, issues: [{ code: 'E_INITIAL_DIGEST', step: -1, pointer: '/initialDigest' }] });

    // A gold call that fails on replay: named by its index and tool.
    const broken = t.goldCalls.map((c, i) => (i === 1 ? { ...c, name: 'no_such_tool' } : c));
    const failing = verifyTask({ ...t, goldCalls: broken }, retail.environment);
    expect(failing).toMatchObject({ ok: false, issues: [{ code: 'E_GOLD_CALL', step: 1, pointer: '/goldCalls/1', tool: 'no_such_tool' }] });
    expect(!failing.ok && failing.issues[0]?.message).toMatch(/^step 2 \(no_such_tool\): the gold call fails: unknown_tool/);

    // A step whose state differs from the one recorded at compile time, though every call succeeds.
    const k = steps.findIndex((d, i) => i > 0 && d !== steps[i - 1]);
    const recorded = steps.map((d, i) => (i === k ? '0'.repeat(d.length) : d));
    const drifted = verifyTask({ ...t, metadata: { ...t.metadata, stepDigests: recorded } }, retail.environment);
    expect(drifted).toMatchObject({ ok: false, issues: [{ code: 'E_STEP_DIGEST', step: k, pointer: `/metadata/stepDigests/${k}`, tool: t.goldCalls[k]?.name }] });
  });
});

describe('compileTask rejections', () => {
  it('execution_failed: a gold call answers ok:false', () => {
    const bp: Blueprint = {
      id: 'bp-missing-user',
      nodes: [{ kind: 'tool', id: 'get', tool: 'get_user_details', access: 'read', args: { user_id: { const: 'nobody_0000' } } }],
      edges: [],
    };
    expect(compileTask(bp, retail.environment, { seed: 1 })).toMatchObject({ ok: false, reason: 'execution_failed' });
  });

  it('unbound_parameter: a required parameter without a source', () => {
    const bp: Blueprint = { id: 'bp-unbound', nodes: [{ kind: 'tool', id: 'get', tool: 'get_user_details', access: 'read', args: {} }], edges: [] };
    expect(compileTask(bp, retail.environment, { seed: 1 })).toMatchObject({ ok: false, reason: 'unbound_parameter' });
  });

  it('no_state_change: a write that writes what is already there', () => {
    const [id, user] = userWith((u) => isJsonObject(u.address));
    const address = user.address as JsonObject;
    const args = Object.fromEntries(
      ['address1', 'address2', 'city', 'state', 'country', 'zip'].map((k) => [k, { const: address[k] ?? '' }]),
    );
    const bp: Blueprint = {
      id: 'bp-same-address',
      nodes: [{ kind: 'tool', id: 'modify', tool: 'modify_user_address', access: 'write', args: { user_id: { const: id }, ...args } }],
      edges: [],
    };
    expect(compileTask(bp, retail.environment, { seed: 1 })).toMatchObject({ ok: false, reason: 'no_state_change' });
  });

  it('ambiguous_predicate: a fixed predicate that matches two orders', () => {
    const [id] = userWith((u) => Array.isArray(u.orders) && u.orders.length >= 2);
    const bp: Blueprint = {
      id: 'bp-ambiguous',
      nodes: [
        { kind: 'tool', id: 'get', tool: 'get_user_details', access: 'read', args: { user_id: { const: id } } },
        {
          kind: 'reasoning',
          id: 'pick',
          op: 'select',
          input: { from: 'get', path: 'orders[]' },
          params: { field: 'user_id', value: id, via: { tool: 'get_order_details', parameter: 'order_id' } },
        },
        { kind: 'tool', id: 'order', tool: 'get_order_details', access: 'read', args: { order_id: { from: 'pick', path: '$' } } },
      ],
      edges: [
        { from: 'get', to: 'pick', parameter: 'input' },
        { from: 'pick', to: 'order', parameter: 'order_id' },
      ],
    };
    expect(compileTask(bp, retail.environment, { seed: 1 })).toMatchObject({ ok: false, reason: 'ambiguous_predicate' });
  });

  it('no_candidate_values: a user fact nothing in the state can supply', () => {
    const bp: Blueprint = {
      id: 'bp-think',
      nodes: [
        { kind: 'user', id: 'user:thought', fact: 'thought', description: 'your thought' },
        { kind: 'tool', id: 'think', tool: 'think', access: 'read', args: { thought: { user: 'thought' } } },
      ],
      edges: [{ from: 'user:thought', to: 'think', parameter: 'thought' }],
    };
    expect(compileTask(bp, retail.environment, { seed: 1 })).toMatchObject({ ok: false, reason: 'no_candidate_values' });
  });

  it('throws E_OPTIONS without a seed or with a bad attempts, choices or maxCalls', () => {
    const bp = blueprints[0] as Blueprint;
    expect(() => compileTask(bp, retail.environment, {} as never)).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
    for (const bad of [{ attempts: 0 }, { choices: 1.5 }, { maxCalls: -3 }]) {
      expect(() => compileTask(bp, retail.environment, { seed: 1, ...bad })).toThrow(expect.objectContaining({ code: 'E_OPTIONS' }));
    }
    expect(difficulty(bp).toolCalls).toBeGreaterThan(0);
  });
});
