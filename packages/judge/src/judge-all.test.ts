import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task, Trajectory, Verdict } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { JudgeError } from './error.js';
import type { Judge } from './judge.js';
import { judgeAll } from './judge-all.js';

const task: Task = { id: 't', envId: 'e', intent: 'x', userFacts: [], goldCalls: [], expectedFinalDigest: '0', requiredOutputs: [] };
const tasks = new Map([[task.id, task]]);

function traj(i: number, taskId = 't'): Trajectory {
  return {
    id: `${taskId}#${i}`,
    envId: 'e',
    taskId,
    rollout: i,
    seed: i,
    messages: [],
    steps: [],
    termination: 'user_stop',
    finalDigest: '0',
    reward: i % 2,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
  };
}

/** A judge whose verdicts finish in reverse order (later trajectories first), and that can fail. */
function slowJudge(fail: (t: Trajectory) => boolean = () => false): Judge & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'slow',
    calls,
    judge: (t: Trajectory): Promise<Verdict> =>
      new Promise((resolve, reject) => {
        calls.push(t.id);
        setTimeout(
          () => {
            if (fail(t)) reject(new JudgeError('E_MODEL', `judge: ${t.id}: model down`));
            else resolve({ trajectoryId: t.id, taskId: t.taskId, envId: t.envId, rollout: t.rollout, userError: t.reward === 0, kinds: [], blame: t.reward === 0 ? 'agent' : 'none', evidence: [], judge: 'slow' });
          },
          (20 - t.rollout) * 2,
        );
      }),
  };
}

const tmp = () => join(mkdtempSync(join(tmpdir(), 'judge-all-')), 'run', 'verdicts.jsonl');
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

describe('judgeAll', () => {
  it('writes one canonical JSON line per trajectory in input order, whatever the timing', async () => {
    const trajectories = Array.from({ length: 12 }, (_, i) => traj(i));
    const out = tmp();
    const seen: number[] = [];
    const summary = await judgeAll(trajectories, tasks, slowJudge(), { out, concurrency: 5, onVerdict: (_v, done) => seen.push(done) });
    expect(summary.judged).toBe(12);
    expect(summary.skipped).toBe(0);
    expect(summary.failures).toEqual([]);
    expect(summary.verdicts.map((v) => v.trajectoryId)).toEqual(trajectories.map((t) => t.id));
    expect(lines(out)).toEqual(summary.verdicts.map((v) => canonicalJson(v)));
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const sequential = tmp();
    await judgeAll(trajectories, tasks, slowJudge(), { out: sequential, concurrency: 1 });
    expect(readFileSync(sequential, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('resumes: skips trajectories already in the file and returns their stored verdicts', async () => {
    const out = tmp();
    const trajectories = Array.from({ length: 6 }, (_, i) => traj(i));
    await judgeAll(trajectories.slice(0, 4), tasks, slowJudge(), { out });
    const judge = slowJudge();
    const summary = await judgeAll(trajectories, { t: task }, judge, { out });
    expect(judge.calls).toEqual(['t#4', 't#5']);
    expect(summary).toMatchObject({ judged: 2, skipped: 4 });
    expect(summary.verdicts).toHaveLength(6);
    expect(lines(out)).toHaveLength(6);
  });

  it('drops a torn last line left by a crash and judges that trajectory again', async () => {
    const out = tmp();
    const trajectories = Array.from({ length: 3 }, (_, i) => traj(i));
    await judgeAll(trajectories.slice(0, 2), tasks, slowJudge(), { out });
    const text = readFileSync(out, 'utf8');
    const cut = text.slice(0, text.length - 15);
    writeFileSync(out, cut);
    const judge = slowJudge();
    await judgeAll(trajectories, tasks, judge, { out });
    expect(judge.calls).toEqual(['t#1', 't#2']);
    expect(lines(out).map((l) => (JSON.parse(l) as Verdict).trajectoryId)).toEqual(['t#0', 't#1', 't#2']);
  });

  it('refuses a file with a broken line that is not the last one', async () => {
    const out = tmp();
    await judgeAll([traj(0)], tasks, slowJudge(), { out });
    writeFileSync(out, `{"broken\n${readFileSync(out, 'utf8')}`);
    await expect(judgeAll([traj(1)], tasks, slowJudge(), { out })).rejects.toMatchObject({ code: 'E_VERDICTS_FILE', message: expect.stringContaining('verdicts.jsonl:1: not a verdict') });
  });

  it('reports judge failures and missing tasks without a line, so that a rerun retries them', async () => {
    const out = tmp();
    const trajectories = [traj(0), traj(1), traj(2, 'ghost'), traj(3)];
    const summary = await judgeAll(trajectories, tasks, slowJudge((t) => t.rollout === 1), { out, concurrency: 3 });
    expect(summary.failures.map((f) => [f.trajectoryId, f.code])).toEqual([
      ['t#1', 'E_MODEL'],
      ['ghost#2', 'E_MISSING_TASK'],
    ]);
    expect(summary.failures[1]?.message).toBe('judge: judgeAll: trajectory ghost#2 names task ghost, which is not in tasksById');
    expect(lines(out).map((l) => (JSON.parse(l) as Verdict).trajectoryId)).toEqual(['t#0', 't#3']);
    const retry = slowJudge();
    await judgeAll(trajectories, tasks, retry, { out });
    expect(retry.calls).toEqual(['t#1']);
  });

  it('works without a file, rejects two trajectories with one id (judging nothing), and rejects a bad concurrency', async () => {
    const judge = slowJudge();
    const summary = await judgeAll([traj(0), traj(1)], tasks, judge);
    expect(summary.verdicts).toHaveLength(2);
    const before = judge.calls.length;
    const twice = await judgeAll([traj(0), traj(1), traj(0)], tasks, judge).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(JudgeError);
    expect(twice).toMatchObject({ code: 'E_DUPLICATE_ID', message: expect.stringContaining('trajectories 0 and 2 (0-based) share the id "t#0"') });
    expect(judge.calls.length).toBe(before);
    await expect(judgeAll([], tasks, judge, { concurrency: 0 })).rejects.toThrow(/concurrency/);
  });
});
