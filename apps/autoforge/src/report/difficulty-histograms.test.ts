import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '@autoforge/core';
import type { Blueprint } from '@autoforge/dag-blueprint';
import { difficulty } from '@autoforge/dag-blueprint';
import { describe, expect, it } from 'vitest';
import { difficultyHistograms, taskDifficulty } from './difficulty-histograms.js';

const lines = <T>(file: string): T[] => readFileSync(join(import.meta.dirname, 'fixtures/run', file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);
const tasks = lines<Task>('tasks.jsonl');
const blueprints = new Map(lines<Blueprint>('blueprints.jsonl').map((b) => [b.id, b]));

describe('taskDifficulty', () => {
  it('reads metadata.difficulty, else computes it from the blueprint, else gives up', () => {
    const task = tasks[0]!;
    const stored = taskDifficulty(task, new Map());
    expect(stored).toEqual(task.metadata!.difficulty);
    const { difficulty: _dropped, ...rest } = task.metadata!;
    const bare: Task = { ...task, metadata: rest };
    expect(taskDifficulty(bare, blueprints)).toEqual(difficulty(blueprints.get(task.metadata!.blueprintId as string)!));
    expect(taskDifficulty(bare, new Map())).toBeUndefined();
  });
});

describe('difficultyHistograms', () => {
  it('draws tool calls, reasoning nodes and depth per task, counting every task once', () => {
    const { charts, counted } = difficultyHistograms(tasks, blueprints);
    expect(counted).toBe(tasks.length);
    expect(charts.map((c) => /<title>([^<]*)<\/title>/.exec(c)![1])).toEqual(['Tool calls per task', 'Reasoning nodes per task', 'Depth per task']);
    for (const c of charts) {
      const total = [...c.matchAll(/class="bar"[^>]*><title>[^<]*: (\d+)<\/title>/g)].reduce((a, m) => a + Number(m[1]), 0);
      expect(total).toBe(tasks.length);
    }
  });

  it('draws nothing when no task has a known difficulty', () => {
    expect(difficultyHistograms([{ ...tasks[0]!, metadata: {} }], new Map())).toEqual({ charts: [], counted: 0 });
  });
});
