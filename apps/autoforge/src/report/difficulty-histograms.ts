import type { Task } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { Blueprint, Difficulty } from '@autoforge/dag-blueprint';
import { difficulty } from '@autoforge/dag-blueprint';
import { integerHistogram } from './bar-chart.js';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * A task's difficulty: `metadata.difficulty` as `autoforge synth` records it, else computed from
 * its blueprint (`metadata.blueprintId`) when that is known; `undefined` otherwise.
 */
export function taskDifficulty(task: Task, blueprints: ReadonlyMap<string, Blueprint>): Difficulty | undefined {
  const stored = task.metadata?.difficulty;
  if (isJsonObject(stored) && isCount(stored.toolCalls) && isCount(stored.depth) && isCount(stored.reasoningNodes)) {
    return {
      toolCalls: stored.toolCalls,
      depth: stored.depth,
      reasoningNodes: stored.reasoningNodes,
      width: isCount(stored.width) ? stored.width : 0,
      distinctTools: isCount(stored.distinctTools) ? stored.distinctTools : 0,
      writes: isCount(stored.writes) ? stored.writes : 0,
    };
  }
  const id = task.metadata?.blueprintId;
  const blueprint = typeof id === 'string' ? blueprints.get(id) : undefined;
  if (!blueprint) return undefined;
  try {
    return difficulty(blueprint);
  } catch {
    // A cyclic or otherwise broken blueprint has no difficulty; the task is simply not counted.
    return undefined;
  }
}

/**
 * Histograms of task difficulty: tool calls, reasoning nodes and depth per task. Returns the
 * charts and how many tasks had a known difficulty.
 */
export function difficultyHistograms(tasks: readonly Task[], blueprints: ReadonlyMap<string, Blueprint>): { charts: string[]; counted: number } {
  const known = tasks.map((t) => taskDifficulty(t, blueprints)).filter((d): d is Difficulty => d !== undefined);
  if (known.length === 0) return { charts: [], counted: 0 };
  const options = { width: 380, height: 250, yLabel: 'tasks' };
  return {
    counted: known.length,
    charts: [
      integerHistogram(known.map((d) => d.toolCalls), { ...options, title: 'Tool calls per task', xLabel: 'tool calls', color: '#0072b2' }),
      integerHistogram(known.map((d) => d.reasoningNodes), { ...options, title: 'Reasoning nodes per task', xLabel: 'reasoning nodes', color: '#a23b7d' }),
      integerHistogram(known.map((d) => d.depth), { ...options, title: 'Depth per task', xLabel: 'longest dependency chain', color: '#009e73' }),
    ],
  };
}
