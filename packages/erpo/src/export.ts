import { mkdir, appendFile, writeFile } from 'node:fs/promises';
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

/** Records as JSON Lines text (one record per line, a final newline; empty for no records). */
export function advantagesToJsonl(records: readonly AdvantageRecord[]): string {
  let text = '';
  for (const r of records) {
    text += `${JSON.stringify({
      env_id: r.env_id,
      task_id: r.task_id,
      uid: r.uid,
      rollout: r.rollout,
      trajectory_id: r.trajectory_id,
      reward: r.reward,
      mask: r.mask,
      advantage: r.advantage,
    })}\n`;
  }
  return text;
}

/** Options of `writeAdvantagesJsonl`. */
export interface WriteAdvantagesJsonlOptions {
  /** Append to the file instead of replacing it (run directories are append-only). Default false. */
  append?: boolean;
}

/** Writes records to a JSON Lines file, creating its folder. */
export async function writeAdvantagesJsonl(
  path: string,
  records: readonly AdvantageRecord[],
  options: WriteAdvantagesJsonlOptions = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const text = advantagesToJsonl(records);
  if (options.append) await appendFile(path, text, 'utf8');
  else await writeFile(path, text, 'utf8');
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
