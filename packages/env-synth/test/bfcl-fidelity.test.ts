// BFCL multi-turn base fidelity, measured on the built packages (bench/bfcl-fidelity-lib.mjs has
// the rules). The floors are the figures reached when they were last raised: a change that loses
// a matching call or entry fails here. Raise them when the figures go up.
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module of this package's bench folder, typed by its JSDoc
import { callMatches, compareClassState, measureBfclFidelity, normalizeValue, sameValue, scalarLeaves } from '../bench/bfcl-fidelity-lib.mjs';

interface Count {
  matched: number;
  total: number;
}
interface Figures {
  perClass: Record<string, { calls: Count; entries: Count & { strict: number } }>;
  overall: { calls: Count; entries: Count & { strict: number } };
}

/** Matching calls and entries per class, at least (of 1142 calls and 200 entries in all), measured 2026-12-01. */
const FLOORS: Record<string, { calls: number; entries: number }> = {
  GorillaFileSystem: { calls: 230, entries: 48 },
  MathAPI: { calls: 14, entries: 25 },
  MessageAPI: { calls: 27, entries: 12 },
  TwitterAPI: { calls: 63, entries: 36 },
  TicketAPI: { calls: 45, entries: 24 },
  TradingBot: { calls: 159, entries: 28 },
  TravelAPI: { calls: 20, entries: 23 },
  VehicleControlAPI: { calls: 137, entries: 6 },
};
// The bar: 60% of the 1142 calls (686) and 25% of the 200 entries (50).
const OVERALL_FLOOR = { calls: 706, entries: 91 };

describe('the yardstick rules', () => {
  it('a real output matches when each of its scalar leaves occurs among ours', () => {
    const real = { raised: false, output: { current_working_directory: 'document', n: 3 } };
    expect(callMatches(real, { ok: true, output: { cwd: 'document', extra: [3.0, 'x'] } })).toBe(true);
    expect(callMatches(real, { ok: true, output: { cwd: 'documents', n: 3 } })).toBe(false);
    expect(callMatches(real, { ok: false })).toBe(false);
  });
  it('a None output needs only an ok answer; a bare scalar output is a leaf', () => {
    expect(callMatches({ output: null }, { ok: true, output: { done: true } })).toBe(true);
    expect(callMatches({ output: null }, { ok: false })).toBe(false);
    expect(callMatches({ output: 'Year2024' }, { ok: true, output: { content: 'Year2024' } })).toBe(true);
    expect(callMatches({ output: 'Year2024' }, { ok: true, output: { content: 'Year2024 x' } })).toBe(false);
  });
  it('a real error (raised, or only an error key) must be an error in ours', () => {
    expect(callMatches({ output: { error: 'no such file' } }, { ok: false })).toBe(true);
    expect(callMatches({ output: { error: 'no such file' } }, { ok: true, output: { error: 'no such file' } })).toBe(false);
    expect(callMatches({ raised: true, output: 'Error during execution' }, { ok: false })).toBe(true);
  });
  it('mpf markers are numbers, compared numerically', () => {
    const real = { output: { result: { __py_type__: 'mpmath.mpf', str: '2.0', repr: "mpf('2.0')" } } };
    expect(scalarLeaves(normalizeValue(real.output))).toEqual([2]);
    expect(callMatches(real, { ok: true, output: { result: 2.0000000000001 } })).toBe(true);
    expect(callMatches(real, { ok: true, output: { result: 2.1 } })).toBe(false);
  });
  it('a named directory node equals the name-to-node mapping (initial_config shape)', () => {
    const real = { type: 'directory', name: 'ws', contents: { a: { type: 'file', name: 'a', content: 'x' } } };
    const ours = { ws: { type: 'directory', contents: { a: { type: 'file', content: 'x' } } } };
    expect(sameValue(normalizeValue(real), normalizeValue(ours))).toBe(true);
    const other = { ws: { type: 'directory', contents: { a: { type: 'file', content: 'y' } } } };
    expect(sameValue(normalizeValue(real), normalizeValue(other))).toBe(false);
  });
  it('compares only real attributes; a hidden default counts only outside strict', () => {
    const realInitial = { root: 1, long_context: false, ids: [1, 2] };
    const realFinal = { root: 2, long_context: false, ids: [1, 2] };
    const sample = { root: 1 };
    expect(compareClassState('X', realFinal, realInitial, sample, { root: 2, cwd: '/', ids: [1, 2] })).toMatchObject({ equal: true, strict: false });
    expect(compareClassState('X', realFinal, realInitial, sample, { root: 2, long_context: false, ids: [1, 2] })).toMatchObject({ equal: true, strict: true });
    expect(compareClassState('X', realFinal, realInitial, sample, { root: 3, long_context: false, ids: [1, 2] })).toMatchObject({ equal: false });
    expect(compareClassState('X', realFinal, realInitial, sample, { root: 2, long_context: false, ids: [2, 1] })).toMatchObject({ equal: false });
  });
  it('the sets the reference names compare in any order', () => {
    const s = { generated_ids: [1, 2, 3] };
    expect(compareClassState('MessageAPI', s, s, s, { generated_ids: [3, 1, 2] }).equal).toBe(true);
    expect(compareClassState('MessageAPI', s, s, s, { generated_ids: [3, 1] }).equal).toBe(false);
  });
});

describe('BFCL multi-turn base fidelity (200 entries, 1142 gold calls)', () => {
  let figures: Figures;
  beforeAll(async () => {
    figures = (await measureBfclFidelity()) as Figures;
  }, 120_000);

  it('replays every gold call of every entry', () => {
    expect(figures.overall.calls.total).toBe(1142);
    expect(figures.overall.entries.total).toBe(200);
  });
  for (const [cls, floor] of Object.entries(FLOORS)) {
    it(`${cls}: at least ${floor.calls} matching calls and ${floor.entries} matching entries`, () => {
      const f = figures.perClass[cls];
      expect(f).toBeDefined();
      expect(f?.calls.matched).toBeGreaterThanOrEqual(floor.calls);
      expect(f?.entries.matched).toBeGreaterThanOrEqual(floor.entries);
    });
  }
  it(`overall: at least ${OVERALL_FLOOR.calls} matching calls and ${OVERALL_FLOOR.entries} matching entries`, () => {
    expect(figures.overall.calls.matched).toBeGreaterThanOrEqual(OVERALL_FLOOR.calls);
    expect(figures.overall.entries.matched).toBeGreaterThanOrEqual(OVERALL_FLOOR.entries);
  });
});
