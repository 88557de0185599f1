// @ts-check
// The BFCL multi-turn fidelity yardstick: synthesize each class from its function doc, replay the
// gold calls of the reference replays (shared/benchmarks/bfcl/expected/base.expected.json), and
// compare outputs and final states with what BFCL's own classes produced. Used by
// bench/bfcl-fidelity.mjs (the CLI) and test/bfcl-fidelity.test.ts (floors against regressions).
//
// Choices, documented here once:
// - Sample state of a class in an entry: the entry's `initial_config[Class]` when present (what
//   BFCL's `_load_scenario` receives, the data a user of the synthesizer would have); else the
//   class's state in the reference's `initial_state` (the class's DEFAULT_STATE after loading),
//   because with no config the real class starts from defaults the synthesizer could not know.
//   Specs are synthesized with `seed: 0` and cached per (class, canonical JSON of the sample).
// - calls: a gold call matches when (a) the real call was an error (`raised`, or an output whose
//   only key is `error`) and ours answered ok:false, or (b) the real call was not an error, ours
//   answered ok, and every scalar leaf (string, number, boolean) of the real output occurs among
//   the scalar leaves of ours (strings exactly, numbers numerically; a bare scalar output is its
//   own leaf; `null` has no leaf, so `None` outputs only need ok). A call answered by a tool that
//   failed the synthesis self-check (`report.coverage[].works` false) counts as an error answer,
//   whatever it returned: such a tool is a stand-in, which must never pass for a working one.
// - entries: an entry matches for a class when, after the normalisation below, every public
//   attribute of the real final state (its keys) equals ours. Ours may have more keys (a current
//   directory, a session): BFCL keeps those private. `entries` treats a real attribute that ours
//   lacks as equal when the sample did not give it and no call changed it (real initial = real
//   final): it is a hidden default of the class, which no synthesizer can see. `entriesStrict`
//   counts those as mismatches too.
// - Normalisation (expected/README.md's mapping of non-JSON values), applied to both sides:
//   key order ignored; numbers compared numerically (relative 1e-9); `mpmath.mpf` and
//   `decimal.Decimal` markers are numbers; the Ellipsis marker is the string `...`; the other
//   `__py_type__` markers are their text; Python sets (the README names `MessageAPI.generated_ids`)
//   compare as sets; Directory/File nodes (`{type: 'directory'|'file', name, contents|content}`)
//   drop a `name` equal to their key in the parent mapping, and a named node standing alone (the
//   root attribute) is the mapping `{[name]: node}` — the shape `initial_config` uses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { canonicalJson } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDoc } from '@autoforge/tooldoc-parser';

/** The shared BFCL folder, resolved from this file (repo/packages/env-synth/bench → ../shared). */
export const BFCL_DIR = fileURLToPath(new URL('../../../../shared/benchmarks/bfcl', import.meta.url));

/** The function doc of each class (BFCL's README). */
export const CLASS_FILES = {
  GorillaFileSystem: 'gorilla_file_system',
  MathAPI: 'math_api',
  MessageAPI: 'message_api',
  TwitterAPI: 'posting_api',
  TicketAPI: 'ticket_api',
  TradingBot: 'trading_bot',
  TravelAPI: 'travel_booking',
  VehicleControlAPI: 'vehicle_control',
};

/** Attributes that are Python sets (serialised as sorted arrays), per expected/README.md. */
const SET_ATTRIBUTES = { MessageAPI: ['generated_ids'] };

/** @param {string} file */
function readJsonLines(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim().replace(/,$/, ''))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** @param {unknown} v @returns {v is Record<string, any>} */
function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** @param {unknown} v */
function isTreeNode(v) {
  return isObject(v) && ((v.type === 'directory' && isObject(v.contents)) || (v.type === 'file' && 'content' in v));
}

/**
 * The README's non-JSON mappings, applied the same way to both sides.
 * @param {any} v @param {string | undefined} key the key of `v` in its parent mapping
 * @returns {any}
 */
export function normalizeValue(v, key = undefined) {
  if (Array.isArray(v)) return v.map((x) => normalizeValue(x));
  if (!isObject(v)) return v;
  if (typeof v.__py_type__ === 'string') {
    const t = v.__py_type__;
    if (t === 'mpmath.mpf' || t === 'decimal.Decimal') return Number(v.str);
    if (t === 'ellipsis') return '...';
    return typeof v.str === 'string' ? v.str : typeof v.repr === 'string' ? v.repr : t;
  }
  if (isTreeNode(v) && typeof v.name === 'string' && key === undefined) {
    return normalizeValue({ [v.name]: v });
  }
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'name' && isTreeNode(v) && x === key) continue;
    out[k] = normalizeValue(x, isTreeNode(x) ? k : undefined);
  }
  return out;
}

/** @param {number} a @param {number} b */
function sameNumber(a, b) {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Deep equality after normalisation: key order ignored, numbers numerically. @param {any} a @param {any} b @returns {boolean} */
export function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return sameNumber(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return a === b;
}

/** Scalar leaves (strings, numbers, booleans) of a JSON value. @param {any} v @param {any[]} [out] */
export function scalarLeaves(v, out = []) {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(v);
  else if (Array.isArray(v)) for (const x of v) scalarLeaves(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) scalarLeaves(x, out);
  return out;
}

/** @param {{ raised?: boolean, output: any }} call */
function realError(call) {
  return call.raised === true || (isObject(call.output) && Object.keys(call.output).length === 1 && 'error' in call.output);
}

/**
 * Does our result carry the real output's information?
 * @param {{ raised?: boolean, output: any }} real
 * @param {{ ok: boolean, output?: any }} ours
 */
export function callMatches(real, ours) {
  if (realError(real)) return !ours.ok;
  if (!ours.ok) return false;
  const mine = scalarLeaves(normalizeValue(ours.output));
  return scalarLeaves(normalizeValue(real.output)).every((leaf) =>
    mine.some((m) => (typeof leaf === 'number' ? typeof m === 'number' && sameNumber(leaf, m) : m === leaf)),
  );
}

/**
 * Compares one class's final state.
 * @param {string} cls
 * @param {Record<string, any>} realFinal
 * @param {Record<string, any>} realInitial
 * @param {Record<string, any>} sample
 * @param {Record<string, any>} ours
 * @returns {{ equal: boolean, strict: boolean, diverging: string[] }}
 */
export function compareClassState(cls, realFinal, realInitial, sample, ours) {
  const sets = new Set(/** @type {Record<string, string[]>} */ (SET_ATTRIBUTES)[cls] ?? []);
  /** @param {string} k @param {any} v */
  const norm = (k, v) => {
    const n = normalizeValue(v);
    return sets.has(k) && Array.isArray(n) ? [...n].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)) : n;
  };
  let equal = true;
  let strict = true;
  /** @type {string[]} */
  const diverging = [];
  for (const [k, v] of Object.entries(realFinal)) {
    if (!(k in ours)) {
      strict = false;
      const hiddenDefault = !(k in sample) && sameValue(normalizeValue(v), normalizeValue(realInitial[k]));
      if (!hiddenDefault) {
        equal = false;
        diverging.push(`${k} (missing)`);
      }
      continue;
    }
    if (!sameValue(norm(k, v), norm(k, ours[k]))) {
      equal = false;
      strict = false;
      diverging.push(k);
    }
  }
  return { equal, strict, diverging };
}

/**
 * @typedef {{ matched: number, total: number }} Count
 * @typedef {{ call: string, real: any, ours: any }} Divergence
 * @typedef {{
 *   calls: Count, entries: Count & { strict: number },
 *   tools: { specs: number, worksMin: number, worksMax: number, tools: number, standIns: string[] },
 *   divergences: Divergence[], stateDivergences: Record<string, number>, divergingEntries: string[], synthesisErrors: string[]
 * }} ClassFigures
 * @typedef {{ perClass: Record<string, ClassFigures>, overall: { calls: Count, entries: Count & { strict: number } } }} FidelityFigures
 */

/**
 * Measures BFCL multi-turn base fidelity.
 * @param {{ dir?: string, only?: string, every?: number, maxDivergences?: number }} [options]
 *   `dir`: the BFCL folder (default {@link BFCL_DIR}); `only`: one class (default all eight);
 *   `every`: keep every n-th entry (default 1, all 200); `maxDivergences`: diverging calls kept
 *   per class (default 5).
 * @returns {Promise<FidelityFigures>}
 */
export async function measureBfclFidelity(options = {}) {
  const dir = options.dir ?? BFCL_DIR;
  const every = options.every ?? 1;
  const maxDiv = options.maxDivergences ?? 5;
  const data = readJsonLines(join(dir, 'data/BFCL_v4_multi_turn_base.json'));
  const expected = readJsonLines(join(dir, 'expected/base.expected.json'));
  const byId = new Map(expected.map((e) => [e.id, e]));
  const classes = options.only !== undefined ? [options.only] : Object.keys(CLASS_FILES);

  /** @type {Map<string, any>} */
  const docs = new Map();
  const docOf = (/** @type {string} */ cls) => {
    if (!docs.has(cls)) {
      const file = /** @type {Record<string, string>} */ (CLASS_FILES)[cls];
      if (file === undefined) throw new Error(`bfcl-fidelity: unknown class ${cls}`);
      const path = join(dir, 'data/multi_turn_func_doc', `${file}.json`);
      const parsed = parseToolDoc(readFileSync(path, 'utf8'), { file: path });
      if (!parsed.ok) throw new Error(`bfcl-fidelity: cannot parse ${path}`);
      docs.set(cls, parsed.value);
    }
    return docs.get(cls);
  };

  /** @type {Map<string, { env?: any, standIns?: Set<string>, error?: string }>} */
  const specs = new Map();
  /** @type {Record<string, ClassFigures>} */
  const perClass = {};
  for (const cls of classes) {
    perClass[cls] = {
      calls: { matched: 0, total: 0 },
      entries: { matched: 0, total: 0, strict: 0 },
      tools: { specs: 0, worksMin: Infinity, worksMax: 0, tools: 0, standIns: [] },
      divergences: [],
      stateDivergences: {},
      divergingEntries: [],
      synthesisErrors: [],
    };
  }
  const overall = { calls: { matched: 0, total: 0 }, entries: { matched: 0, total: 0, strict: 0 } };

  try {
    for (let i = 0; i < data.length; i += every) {
      const entry = data[i];
      const exp = byId.get(entry.id);
      if (exp === undefined) throw new Error(`bfcl-fidelity: no reference replay for ${entry.id}`);
      const involved = exp.involved_classes.filter((/** @type {string} */ c) => classes.includes(c));
      if (involved.length === 0) continue;
      /** @type {Map<string, any>} */
      const sessions = new Map();
      /** @type {Map<string, Record<string, any>>} */
      const samples = new Map();
      for (const cls of involved) {
        const sample = entry.initial_config?.[cls] ?? exp.initial_state[cls] ?? {};
        samples.set(cls, sample);
        const key = `${cls}\u0000${canonicalJson(sample)}`;
        let made = specs.get(key);
        if (made === undefined) {
          /** @type {any} */
          let result;
          try {
            result = synthesizeEnvironment(docOf(cls), { seed: 0, sampleState: JSON.parse(JSON.stringify(sample)) });
          } catch (e) {
            // A synthesizer defect counts against the class (every call fails), not the yardstick.
            result = { ok: false, issues: [{ message: `synthesis threw: ${e instanceof Error ? e.message : String(e)}` }] };
          }
          if (!result.ok) {
            made = { error: result.issues.map((/** @type {{ message: string }} */ x) => x.message).join('; ') };
            perClass[cls]?.synthesisErrors.push(made.error ?? '');
          } else {
            const coverage = result.value.report.coverage ?? [];
            made = {
              env: await createEnvironment(result.value.spec, { validateSeed: false }).catch((e) => {
                perClass[cls]?.synthesisErrors.push(`the spec does not run: ${e instanceof Error ? e.message : String(e)}`);
                return undefined;
              }),
              standIns: new Set(coverage.filter((/** @type {{ works: boolean }} */ c) => !c.works).map((/** @type {{ tool: string }} */ c) => c.tool)),
            };
            const figures = /** @type {ClassFigures} */ (perClass[cls]);
            const works = coverage.filter((/** @type {{ works: boolean }} */ c) => c.works).length;
            figures.tools.specs++;
            figures.tools.tools = coverage.length;
            figures.tools.worksMin = Math.min(figures.tools.worksMin, works);
            figures.tools.worksMax = Math.max(figures.tools.worksMax, works);
            for (const c of coverage) if (!c.works && !figures.tools.standIns.includes(c.tool)) figures.tools.standIns.push(c.tool);
          }
          specs.set(key, made);
        }
        if (made.env !== undefined) sessions.set(cls, { session: made.env.createSession(), standIns: made.standIns });
      }

      let step = 0;
      for (const turn of exp.turns) {
        for (const call of turn.calls) {
          const figures = perClass[call.class];
          if (figures === undefined) continue;
          const open = sessions.get(call.class);
          let res = open !== undefined
            ? open.session.stepSync({ id: `bfcl-${step++}`, name: call.name, arguments: JSON.stringify(call.arguments) })
            : { ok: false, error: { code: 'tool_error', message: 'synthesis failed' } };
          if (res.ok && open?.standIns?.has(call.name)) res = { ok: false, error: { code: 'tool_error', message: `stand-in (self-check failed), answered ${JSON.stringify(res.output)}` } };
          const match = callMatches(call, res);
          figures.calls.total++;
          overall.calls.total++;
          if (match) {
            figures.calls.matched++;
            overall.calls.matched++;
          } else if (figures.divergences.length < maxDiv) {
            figures.divergences.push({ call: `${entry.id}: ${call.call}`, real: call.output, ours: res.ok ? res.output : { error: res.error.message } });
          }
        }
      }

      let all = true;
      let allStrict = true;
      for (const cls of involved) {
        const figures = /** @type {ClassFigures} */ (perClass[cls]);
        const open = sessions.get(cls);
        const cmp = open !== undefined
          ? compareClassState(cls, exp.final_state[cls] ?? {}, exp.initial_state[cls] ?? {}, samples.get(cls) ?? {}, open.session.state())
          : { equal: false, strict: false, diverging: ['(no environment)'] };
        figures.entries.total++;
        if (cmp.equal) figures.entries.matched++;
        if (cmp.strict) figures.entries.strict++;
        for (const d of cmp.diverging) figures.stateDivergences[d] = (figures.stateDivergences[d] ?? 0) + 1;
        if (!cmp.equal && figures.divergingEntries.length < maxDiv) figures.divergingEntries.push(`${entry.id} (${cmp.diverging.join(', ')})`);
        all &&= cmp.equal;
        allStrict &&= cmp.strict;
      }
      overall.entries.total++;
      if (all) overall.entries.matched++;
      if (allStrict) overall.entries.strict++;
      for (const s of sessions.values()) s.session.close();
    }
  } finally {
    for (const made of specs.values()) made.env?.close();
  }
  for (const f of Object.values(perClass)) if (f.tools.specs === 0) f.tools.worksMin = 0;
  return { perClass, overall };
}

/** `x/y (pct%)`. @param {number} a @param {number} b */
export function pct(a, b) {
  return `${a}/${b} (${b === 0 ? '-' : ((100 * a) / b).toFixed(1)}%)`;
}
