// Fidelity, measured: the offline synthesizer compiles tau-bench retail's and airline's tools
// against their databases; every gold action sequence of the test split is replayed on a fresh
// session and the final state digest compared with the reference's (shared/benchmarks/expected). Nothing here
// tunes the synthesizer: the table says where general rules and the benchmark's code part.
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { digest } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';
import { loadJson, loadTauBenchDb, loadToolDoc } from './test-support.js';

interface Task {
  actions: { name: string; kwargs: JsonObject }[];
}
interface Expected {
  index: number;
  actions: { name: string; output: string }[];
  final_digest: string;
  changed: Record<string, Record<string, JsonValue>>;
}

function fieldDiffs(ours: JsonValue | undefined, theirs: JsonValue | undefined, path: string, out: Set<string>): void {
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return;
  const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(ours) && isObj(theirs)) {
    for (const k of new Set([...Object.keys(ours), ...Object.keys(theirs)])) fieldDiffs(ours[k], theirs[k], `${path}.${k}`, out);
    return;
  }
  out.add(`${path}${ours === undefined ? ' (missing)' : theirs === undefined ? ' (extra)' : ''}`);
}

function pct(a: number, b: number): string {
  return `${a}/${b} (${b === 0 ? '-' : ((100 * a) / b).toFixed(1)}%)`;
}

interface Replay {
  total: number;
  matched: number;
  rows: Record<'readOnlyActions' | 'unchanged' | 'changed', number[]>;
  unmatchedReadOnly: number[];
}

/** Replays a tau-bench domain's test split and prints the table; returns the figures. */
async function replay(domain: 'retail' | 'airline'): Promise<Replay> {
  {
    const doc = await loadToolDoc(`tau-bench/${domain}/tools.json`);
    const db = loadTauBenchDb(domain);
    const result = synthesizeEnvironment(doc, { seed: 0, sampleState: db });
    if (!result.ok) throw new Error('synthesis failed');
    const { spec, report } = result.value;
    const standIns = new Set(report.standIns ?? []);
    const writeTools = new Set(report.tools.filter((t) => ['create', 'update', 'transition', 'delete'].includes(t.pattern)).map((t) => t.tool));
    const tasks = loadJson<Task[]>(`tau-bench/${domain}/tasks_test.json`);
    const expected = loadJson<Expected[]>(`expected/taubench_${domain}_test.expected.json`);

    const env = await createEnvironment(spec, { validateSeed: false });
    const session = env.createSession();
    const rows = { readOnlyActions: [0, 0], unchanged: [0, 0], changed: [0, 0] };
    const perTool = new Map<string, { tasks: number; matched: number; errorDisagreements: number }>();
    const divergent = new Map<string, Set<string>>();
    const unmatchedReadOnly: number[] = [];
    try {
      tasks.forEach((task, i) => {
        const exp = expected[i] as Expected;
        session.reset();
        task.actions.forEach((a, j) => {
          const res = session.stepSync({ id: `${i}-${j}`, name: a.name, arguments: JSON.stringify(a.kwargs) });
          const theirError = (exp.actions[j]?.output ?? '').startsWith('Error');
          const stat = perTool.get(a.name) ?? { tasks: 0, matched: 0, errorDisagreements: 0 };
          if (res.ok === theirError) stat.errorDisagreements++;
          perTool.set(a.name, stat);
        });
        // The reference DB holds the benchmark's collections; state other families add is not its.
        const now = session.state();
        const extra = Object.keys(now).some((k) => !(k in db));
        const ours = extra ? digest(Object.fromEntries(Object.keys(db).map((k) => [k, now[k] as JsonValue]))) : session.digest();
        const match = ours === exp.final_digest;
        const usesWrites = task.actions.some((a) => writeTools.has(a.name));
        const changed = Object.values(exp.changed).some((c) => Object.keys(c).length > 0);
        const row = !usesWrites ? rows.readOnlyActions : changed ? rows.changed : rows.unchanged;
        row[1] = (row[1] as number) + 1;
        if (match) row[0] = (row[0] as number) + 1;
        // A stand-in answers every call with an error: a task calling one is not a read-only task.
        if (!usesWrites && !match && !task.actions.some((a) => standIns.has(a.name))) unmatchedReadOnly.push(i);
        for (const name of new Set(task.actions.map((a) => a.name))) {
          if (!writeTools.has(name)) continue;
          const stat = perTool.get(name) as { tasks: number; matched: number };
          stat.tasks++;
          if (match) stat.matched++;
        }
        if (!match) {
          // Which fields differ from the reference's final records, blamed on the task's write tools.
          const state = session.state();
          const paths = new Set<string>();
          for (const [col, records] of Object.entries(exp.changed)) {
            for (const [id, rec] of Object.entries(records)) fieldDiffs((state[col] as JsonObject)[id], rec, col, paths);
          }
          for (const col of Object.keys(db)) {
            const ours = state[col] as JsonObject;
            const base = db[col] as JsonObject;
            for (const id of Object.keys(ours)) {
              if (exp.changed[col]?.[id] === undefined && ours[id] !== base[id]) fieldDiffs(ours[id], base[id], col, paths);
            }
          }
          // Blame is clear only when the task has one write tool.
          const writes = [...new Set(task.actions.map((a) => a.name).filter((n) => writeTools.has(n)))];
          const blame = writes.length === 1 ? (writes[0] as string) : 'several write tools';
          for (const p of paths) {
            const key = `${blame}: ${p.replace(/\.[^.]*\d[^.]*(?=\.|$| )/g, '.*')}`;
            divergent.set(key, (divergent.get(key) ?? new Set()).add(String(i)));
          }
        }
      });
    } finally {
      env.close();
    }

    const total = tasks.length;
    const matched = rows.readOnlyActions[0]! + rows.unchanged[0]! + rows.changed[0]!;
    const lines = [
      `tau-bench ${domain} test, ${total} tasks: final state digest equals the reference for ${pct(matched, total)}`,
      `  tasks calling only read tools        ${pct(rows.readOnlyActions[0]!, rows.readOnlyActions[1]!)}`,
      `  write tasks, reference DB unchanged   ${pct(rows.unchanged[0]!, rows.unchanged[1]!)}`,
      `  write tasks, reference DB changed     ${pct(rows.changed[0]!, rows.changed[1]!)}`,
      `  by expected outcome: no DB change ${pct(rows.readOnlyActions[0]! + rows.unchanged[0]!, rows.readOnlyActions[1]! + rows.unchanged[1]!)}, DB change ${pct(rows.changed[0]!, rows.changed[1]!)}`,
      '  per tool: pattern | tasks using it whose final state matches | calls where exactly one side returned an error',
      ...report.tools.map((t) => {
        const s = perTool.get(t.tool);
        const used = s && writeTools.has(t.tool) ? pct(s.matched, s.tasks) : '-';
        return `    ${t.tool.padEnd(32)} ${t.pattern.padEnd(11)} ${used.padEnd(16)} ${s?.errorDisagreements ?? 0}`;
      }),
      '  fields that differ from the reference in unmatched tasks (tool: field: tasks):',
      ...[...divergent.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k, v]) => `    ${k}: ${v.size}`),
    ];
    console.log(lines.join('\n'));
    return { total, matched, rows, unmatchedReadOnly };
  }
}

// Floors actually reached (measured, not tuned to): every task that calls only read tools (and
// no stand-in) ends in the reference state, and at least the count below of all tasks does.
describe('fidelity on tau-bench retail (test split)', () => {
  it('replays the gold actions and compares final state digests', async () => {
    const r = await replay('retail');
    expect(r.unmatchedReadOnly).toEqual([]);
    expect(r.matched).toBeGreaterThanOrEqual(113);
  });
});

describe('fidelity on tau-bench airline (test split)', () => {
  it('replays the gold actions and compares final state digests', async () => {
    const r = await replay('airline');
    expect(r.unmatchedReadOnly).toEqual([]);
    expect(r.matched).toBeGreaterThanOrEqual(27);
  });
});
