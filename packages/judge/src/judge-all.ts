import pLimit from 'p-limit';
import type { JsonlStore, Task, Trajectory, Verdict } from '@autoforge/core';
import { canonicalJson, CoreError, isJsonObject, openJsonlStore } from '@autoforge/core';
import { JudgeError } from './error.js';
import type { Judge } from './judge.js';

/** Options of {@link judgeAll}. */
export interface JudgeAllOptions {
  /**
   * Path of `verdicts.jsonl`: append-only, one verdict per line in the order of
   * `trajectories`; trajectories that already have a line are skipped (resume), and a torn
   * last line left by a crash is dropped and judged again. Default: no file.
   */
  out?: string;
  /** Trajectories judged at once. Default `4`. */
  concurrency?: number;
  /** Called after each new verdict is written, with the number of new verdicts so far. Default: none. */
  onVerdict?: (verdict: Verdict, done: number) => void;
}

/** A trajectory the judge could not judge. No line is written for it, so a rerun tries again. */
export interface JudgeFailure {
  trajectoryId: string;
  /** `E_MISSING_TASK`, a `JudgeError` code such as `E_MODEL`, or `E_UNKNOWN`. */
  code: string;
  message: string;
  error: unknown;
}

/** What {@link judgeAll} did. */
export interface JudgeAllSummary {
  /** A verdict for every judged trajectory, in input order: read from `out` or new. */
  verdicts: Verdict[];
  /** New verdicts. */
  judged: number;
  /** Trajectories whose verdict was already in `out`. */
  skipped: number;
  /** Trajectories without a verdict (model failures, missing tasks), in input order. */
  failures: JudgeFailure[];
}

type TaskLookup = ReadonlyMap<string, Task> | Readonly<Record<string, Task>>;

function taskOf(tasks: TaskLookup, id: string): Task | undefined {
  if (tasks instanceof Map) return (tasks as ReadonlyMap<string, Task>).get(id);
  return Object.prototype.hasOwnProperty.call(tasks, id) ? (tasks as Readonly<Record<string, Task>>)[id] : undefined;
}

/**
 * `verdicts.jsonl` opened with core's JSON Lines store (ids: trajectory ids; a torn last line is
 * cut off and judged again; two verdicts for one trajectory are rejected), and the verdicts in it.
 */
async function openVerdicts(path: string): Promise<{ store: JsonlStore<Verdict>; existing: Map<string, Verdict> }> {
  let store: JsonlStore<Verdict>;
  try {
    store = await openJsonlStore<Verdict>(path, {
      serialize: canonicalJson,
      idOf: (v) => (isJsonObject(v as unknown) && typeof v.trajectoryId === 'string' ? v.trajectoryId : undefined),
    });
  } catch (error) {
    const line = error instanceof CoreError && error.code === 'E_JSONL_LINE' ? error.location?.line : undefined;
    const message = line !== undefined ? `${path}:${line}: not a verdict (only a torn last line is repaired)` : (error as Error).message;
    throw new JudgeError('E_VERDICTS_FILE', message, { cause: error });
  }
  const existing = new Map<string, Verdict>();
  for (const { value, line } of store.lines) {
    if (!isJsonObject(value) || typeof value.trajectoryId !== 'string') {
      await store.close();
      throw new JudgeError('E_VERDICTS_FILE', `${path}:${line}: not a verdict (only a torn last line is repaired)`);
    }
    existing.set(value.trajectoryId, value as unknown as Verdict);
  }
  return { store, existing };
}

function failureOf(trajectoryId: string, error: unknown): JudgeFailure {
  const code = error instanceof JudgeError ? error.code : 'E_UNKNOWN';
  return { trajectoryId, code, message: error instanceof Error ? error.message : String(error), error };
}

/**
 * Judges every trajectory with `judge` (at most `concurrency` at once), writing each verdict
 * as a line of canonical JSON to `out` in the order of `trajectories` — so the file is the same
 * byte for byte whatever the timing — and skipping trajectories already in the file.
 *
 * A judge that throws (e.g. the LLM judge's `E_MODEL`) or a trajectory whose task is missing
 * does not stop the batch: it is reported in `failures`, and no line is written for it.
 *
 * @throws JudgeError `E_OPTIONS` for a bad `concurrency`; `E_DUPLICATE_ID` for two trajectories
 *   with one id; `E_VERDICTS_FILE` when `out` holds a broken line other than the last, or cannot
 *   be written.
 * @example
 * const { verdicts, failures } = await judgeAll(trajectories, new Map(tasks.map((t) => [t.id, t])), createRuleJudge(), { out: 'runs/a/verdicts.jsonl' });
 * const mask = verdicts.map(meuMask);
 */
export async function judgeAll(
  trajectories: readonly Trajectory[],
  tasksById: TaskLookup,
  judge: Judge,
  options: JudgeAllOptions = {},
): Promise<JudgeAllSummary> {
  const concurrency = options.concurrency ?? 4;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new JudgeError('E_OPTIONS', `judgeAll: \`concurrency\` must be a positive integer, got ${String(concurrency)}`);
  }
  const opened = options.out === undefined ? undefined : await openVerdicts(options.out);
  const existing = opened?.existing ?? new Map<string, Verdict>();
  try {
    return await judgeRest(trajectories, tasksById, judge, options, concurrency, existing, opened?.store);
  } finally {
    await opened?.store.close();
  }
}

async function judgeRest(
  trajectories: readonly Trajectory[],
  tasksById: TaskLookup,
  judge: Judge,
  options: JudgeAllOptions,
  concurrency: number,
  existing: ReadonlyMap<string, Verdict>,
  file: JsonlStore<Verdict> | undefined,
): Promise<JudgeAllSummary> {
  // One duplicate-id policy across the project: reject (as rolloutMany does), never judge one of two.
  const seen = new Map<string, number>();
  const todo: Trajectory[] = [];
  trajectories.forEach((t, i) => {
    const first = seen.get(t.id);
    if (first !== undefined) {
      throw new JudgeError('E_DUPLICATE_ID', `judgeAll: trajectories ${first} and ${i} (0-based) share the id "${t.id}"; several rollouts of a task need their own rollout index`);
    }
    seen.set(t.id, i);
    if (!existing.has(t.id)) todo.push(t);
  });

  const results: ({ ok: true; verdict: Verdict } | { ok: false; failure: JudgeFailure } | undefined)[] = new Array(todo.length);
  const fresh = new Map<string, Verdict>();
  const failures: JudgeFailure[] = [];
  let written = 0;
  let done = 0;
  let writing: Promise<void> = Promise.resolve();

  // Writes finished results in input order; a slow trajectory holds back the lines after it.
  const flush = async (): Promise<void> => {
    while (written < results.length) {
      const r = results[written];
      if (r === undefined) return;
      written += 1;
      if (!r.ok) {
        failures.push(r.failure);
        continue;
      }
      if (file) await file.append(r.verdict);
      fresh.set(r.verdict.trajectoryId, r.verdict);
      done += 1;
      options.onVerdict?.(r.verdict, done);
    }
  };

  const limit = pLimit(concurrency);
  // Set by the first failed write, before the pool starts another judgement: none starts after it.
  let failed: { error: unknown } | undefined;
  const judgeOne = async (t: Trajectory, i: number): Promise<void> => {
    if (failed) throw failed.error;
    try {
      await judgeAndWrite(t, i);
    } catch (error) {
      failed ??= { error };
      limit.clearQueue();
      throw error;
    }
  };
  const judgeAndWrite = async (t: Trajectory, i: number): Promise<void> => {
    const task = taskOf(tasksById, t.taskId);
    if (!task) {
      const error = new JudgeError('E_MISSING_TASK', `judgeAll: trajectory ${t.id} names task ${t.taskId}, which is not in tasksById`);
      results[i] = { ok: false, failure: failureOf(t.id, error) };
    } else {
      try {
        results[i] = { ok: true, verdict: await judge.judge(t, task) };
      } catch (error) {
        results[i] = { ok: false, failure: failureOf(t.id, error) };
      }
    }
    writing = writing.then(flush);
    await writing;
  };

  try {
    // At most `concurrency` judgements at once; a failed write starts no further one.
    await Promise.all(todo.map((t, i) => limit(judgeOne, t, i)));
  } catch (error) {
    throw error instanceof JudgeError
      ? error
      : new JudgeError('E_VERDICTS_FILE', error instanceof CoreError ? error.message : `${options.out ?? 'verdicts'}: cannot be written: ${(error as Error).message}`, { cause: error });
  }

  const verdicts: Verdict[] = [];
  for (const id of seen.keys()) {
    const v = existing.get(id) ?? fresh.get(id);
    if (v) verdicts.push(v);
  }
  return { verdicts, judged: fresh.size, skipped: seen.size - todo.length, failures };
}
