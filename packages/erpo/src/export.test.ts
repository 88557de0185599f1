import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { computeAdvantages } from './advantages.js';
import { ErpoError } from './error.js';
import type { AdvantageRecord } from './export.js';
import { advantagesToJsonl, advantagesToParquet, groupUid, toAdvantageRecords, writeAdvantagesJsonl, writeAdvantagesParquet } from './export.js';
import { samplesFromTrajectories } from './samples.js';

const dir = mkdtempSync(join(tmpdir(), 'erpo-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trajectories = [
  { id: 'cancel#0', envId: 'shop', taskId: 'cancel', rollout: 0, reward: 1 },
  { id: 'cancel#1', envId: 'shop', taskId: 'cancel', rollout: 1, reward: 0 },
  { id: 'cancel#2', envId: 'shop', taskId: 'cancel', rollout: 2, reward: 1 },
];
const samples = samplesFromTrajectories(trajectories, { verdicts: [{ trajectoryId: 'cancel#2', userError: true }] });
const records = toAdvantageRecords(samples, computeAdvantages(samples).advantages);

describe('toAdvantageRecords', () => {
  it('pairs samples and advantages as snake_case records grouped by uid', () => {
    expect(records).toEqual([
      { env_id: 'shop', task_id: 'cancel', uid: 'shop/cancel', rollout: 0, trajectory_id: 'cancel#0', reward: 1, mask: 1, advantage: expect.closeTo(0.999998, 6) },
      { env_id: 'shop', task_id: 'cancel', uid: 'shop/cancel', rollout: 1, trajectory_id: 'cancel#1', reward: 0, mask: 1, advantage: expect.closeTo(-0.999998, 6) },
      { env_id: 'shop', task_id: 'cancel', uid: 'shop/cancel', rollout: 2, trajectory_id: 'cancel#2', reward: 1, mask: 0, advantage: 0 },
    ]);
    expect(groupUid('a', 'b')).toBe('a/b');
    // Regression (issue 16): a task id that already names its environment gave "env/env/task".
    expect(groupUid('synth-1', 'synth-1/task-00000')).toBe('synth-1/task-00000');
    expect(groupUid('synth-1', 'synth-10/task-00000')).toBe('synth-1/synth-10/task-00000');
  });

  it('throws E_SAMPLE when the advantages are not aligned', () => {
    expect(() => toAdvantageRecords(samples, [1])).toThrowError(ErpoError);
  });
});

describe('writeAdvantagesJsonl', () => {
  it('writes one record per line with fields in a fixed order, and appends on request', async () => {
    const path = join(dir, 'run', 'advantages.jsonl');
    await writeAdvantagesJsonl(path, records.slice(0, 2));
    await writeAdvantagesJsonl(path, records.slice(2), { append: true });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(advantagesToJsonl(records));
    const lines = text.split('\n');
    expect(lines).toHaveLength(records.length + 1);
    expect(lines.at(-1)).toBe('');
    expect(lines[2]).toBe('{"env_id":"shop","task_id":"cancel","uid":"shop/cancel","rollout":2,"trajectory_id":"cancel#2","reward":1,"mask":0,"advantage":0}');
    expect(JSON.parse(lines[1] as string)).toEqual(records[1]);
    expect(advantagesToJsonl([])).toBe('');
    // Without append the file is replaced.
    await writeAdvantagesJsonl(path, records.slice(0, 1));
    expect(readFileSync(path, 'utf8')).toBe(advantagesToJsonl(records.slice(0, 1)));
  });

  it('rejects a trajectory_id already in the file, writing nothing (one duplicate policy with the run directory)', async () => {
    const path = join(dir, 'dup', 'advantages.jsonl');
    await writeAdvantagesJsonl(path, records.slice(0, 2));
    await expect(writeAdvantagesJsonl(path, records.slice(1, 3), { append: true })).rejects.toMatchObject({ code: 'E_JSONL_DUPLICATE_ID' });
    await expect(writeAdvantagesJsonl(path, records.slice(1, 3), { append: true })).rejects.toThrow(/:3: id "cancel#1" is already on line 2$/);
    const twice = [records[2], records[2]] as AdvantageRecord[];
    await expect(writeAdvantagesJsonl(path, twice)).rejects.toThrow(/records\[1\]: trajectory_id "cancel#2" is already records\[0\]/);
    expect(readFileSync(path, 'utf8')).toBe(advantagesToJsonl(records.slice(0, 2)));
  });

  it('cuts a torn last line (a crash mid-write) before appending', async () => {
    const path = join(dir, 'torn', 'advantages.jsonl');
    await writeAdvantagesJsonl(path, records.slice(0, 1));
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"env_id":"sh`);
    await writeAdvantagesJsonl(path, records.slice(1, 2), { append: true });
    expect(readFileSync(path, 'utf8')).toBe(advantagesToJsonl(records.slice(0, 2)));
  });
});

describe('writeAdvantagesParquet', () => {
  it('writes a Parquet file that a Parquet reader reads back as the same records', async () => {
    const path = join(dir, 'run', 'advantages.parquet');
    await writeAdvantagesParquet(path, records);
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = await parquetReadObjects({ file });
    expect(rows).toEqual(records);
    expect(advantagesToParquet([]).byteLength).toBeGreaterThan(8);
  });
});
