import { mkdir, writeFile } from 'node:fs/promises';
import { CoreError, openJsonlStore } from '@autoforge/core';
import { dirname } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { AdvantageSample } from './advantages.js';
import { ErpoError } from './error.js';

/**
 * One line of `advantages.jsonl`: snake_case fields as verl, OpenRLHF and TRL data loaders
 * name them. `uid` is the group id GRPO-style trainers group rollouts by.
 */
export interface AdvantageRecord {
  env_id: string;
  task_id: string;
  /** The task group: `<env_id>/<task_id>`, or the task id where it already starts with `<env_id>/` (see `groupUid`). */
  uid: string;
  /** Index of the rollout among its task's rollouts. */
  rollout: number;
  trajectory_id: string;
  reward: number;
  /** 1 = trained on, 0 = masked (the simulated user spoiled the episode). */
  mask: 0 | 1;
  advantage: number;
}

/** A sample with the trajectory fields a record needs (see `samplesFromTrajectories`). */
export interface ExportSample extends AdvantageSample {
  trajectoryId: string;
  rollout: number;
}

/**
 * The `uid` of a task group: `<envId>/<taskId>` (task ids are unique only within an
 * environment), or the task id itself where it already starts with `<envId>/` (synthesized
 * tasks' ids do), so the environment id is never repeated.
 */
export function groupUid(envId: string, taskId: string): string {
  return taskId.startsWith(`${envId}/`) ? taskId : `${envId}/${taskId}`;
}

/**
 * Pairs samples with their advantages (`computeAdvantages(samples).advantages`) as records.
 *
 * @throws ErpoError `E_SAMPLE` when the lengths differ.
 */
export function toAdvantageRecords(samples: readonly ExportSample[], advantages: ArrayLike<number>): AdvantageRecord[] {
  if (samples.length !== advantages.length) {
    throw new ErpoError('E_SAMPLE', `erpo: toAdvantageRecords: ${samples.length} samples but ${advantages.length} advantages`);
  }
  return samples.map((s, i) => {
    const masked = s.mask === 0 || s.mask === false;
    return {
      env_id: s.envId,
      task_id: s.taskId,
      uid: groupUid(s.envId, s.taskId),
      rollout: s.rollout,
      trajectory_id: s.trajectoryId,
      reward: s.reward,
      mask: masked ? 0 : 1,
      advantage: masked ? 0 : (advantages[i] as number),
    };
  });
}

/** One record as its JSON line (fields in a fixed order, no newline). */
function advantageLine(r: AdvantageRecord): string {
  return JSON.stringify({
    env_id: r.env_id,
    task_id: r.task_id,
    uid: r.uid,
    rollout: r.rollout,
    trajectory_id: r.trajectory_id,
    reward: r.reward,
    mask: r.mask,
    advantage: r.advantage,
  });
}

/** Records as JSON Lines text (one record per line, a final newline; empty for no records). */
export function advantagesToJsonl(records: readonly AdvantageRecord[]): string {
  let text = '';
  for (const r of records) text += `${advantageLine(r)}\n`;
  return text;
}

/** Options of `writeAdvantagesJsonl`. */
export interface WriteAdvantagesJsonlOptions {
  /**
   * Append to the file instead of replacing it (run directories are append-only): a torn last
   * line left by a crash is cut off first. Default false.
   */
  append?: boolean;
}

/**
 * Writes records to a JSON Lines file through core's JSON Lines store (`openJsonlStore`),
 * creating its folder. A record is keyed by its `trajectory_id`: one already in the file (when
 * appending) or twice in `records` rejects with core's `E_JSONL_DUPLICATE_ID` before anything
 * is written.
 */
export async function writeAdvantagesJsonl(
  path: string,
  records: readonly AdvantageRecord[],
  options: WriteAdvantagesJsonlOptions = {},
): Promise<void> {
  // Checked before the file is opened: opening without `append` empties it.
  const seen = new Map<string, number>();
  for (const [k, r] of records.entries()) {
    const first = seen.get(r.trajectory_id);
    if (first !== undefined) {
      throw new CoreError('E_JSONL_DUPLICATE_ID', `${path}: records[${k}]: trajectory_id ${JSON.stringify(r.trajectory_id)} is already records[${first}]`, { location: { file: path } });
    }
    seen.set(r.trajectory_id, k);
  }
  const store = await openJsonlStore<AdvantageRecord>(path, {
    fresh: options.append !== true,
    idOf: (r) => (typeof r.trajectory_id === 'string' ? r.trajectory_id : undefined),
    serialize: advantageLine,
  });
  try {
    await store.append(records);
  } finally {
    await store.close();
  }
}

/** Records as a Parquet file's bytes (one row group, Snappy; column types STRING, INT32, DOUBLE). */
export function advantagesToParquet(records: readonly AdvantageRecord[]): Uint8Array {
  const col = <K extends keyof AdvantageRecord>(key: K): AdvantageRecord[K][] => records.map((r) => r[key]);
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'env_id', data: col('env_id'), type: 'STRING', nullable: false },
      { name: 'task_id', data: col('task_id'), type: 'STRING', nullable: false },
      { name: 'uid', data: col('uid'), type: 'STRING', nullable: false },
      { name: 'rollout', data: Int32Array.from(col('rollout')), type: 'INT32', nullable: false },
      { name: 'trajectory_id', data: col('trajectory_id'), type: 'STRING', nullable: false },
      { name: 'reward', data: Float64Array.from(col('reward')), type: 'DOUBLE', nullable: false },
      { name: 'mask', data: Int32Array.from(col('mask')), type: 'INT32', nullable: false },
      { name: 'advantage', data: Float64Array.from(col('advantage')), type: 'DOUBLE', nullable: false },
    ],
  });
  return new Uint8Array(buffer);
}

/** Writes records to a Parquet file (see `advantagesToParquet`), creating its folder. */
export async function writeAdvantagesParquet(path: string, records: readonly AdvantageRecord[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, advantagesToParquet(records));
}
