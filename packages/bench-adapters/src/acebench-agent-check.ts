import type { JsonObject, JsonValue } from '@autoforge/core';
import type { PythonCall } from './python-call.js';
import { pyRound } from './python-number.js';
import { pyRepr } from './python-repr.js';
import type { PyValue } from './python-value.js';
import { isPyDict, pyEquals } from './python-value.js';

/** One class's saved attributes, as ACEBench writes an agent's result: `{ FoodPlatform: { users, … } }`. */
export type AceBenchClassResult = Record<string, JsonObject>;

/** The verdict of `aceBenchAgentCheck`. */
export interface AceBenchAgentCheck {
  /** True when every class of the ground truth matches (ACEBench's end-to-end accuracy). */
  valid: boolean;
  /** ACEBench's messages for each mismatch. */
  errors: string[];
  /** `""`, `wrong number of class` or `class attributes wrong`. */
  errorType: string;
}

function classCheck(model: AceBenchClassResult, answer: AceBenchClassResult): { valid: boolean; errors: string[] } {
  const scenario = Object.keys(answer)[0] as string;
  const expected = Object.values(answer)[0] as JsonObject;
  const actual = Object.values(model)[0] as JsonObject;
  const errors: string[] = [];
  for (const [attribute, value] of Object.entries(actual)) {
    if (!Object.prototype.hasOwnProperty.call(expected, attribute)) {
      errors.push(`class(${scenario}) attributes(${attribute}) missing in possible_answer.`);
      continue;
    }
    const want = expected[attribute] as JsonValue;
    if (isPyDict(want as PyValue)) {
      for (const [key, item] of Object.entries(want as JsonObject)) {
        const got = isPyDict(value as PyValue) ? (value as JsonObject)[key] : undefined;
        if (got === undefined) {
          errors.push(`class(${scenario}) attributes(${attribute}) wrong, [expected: ${pyRepr(want as PyValue)}, real: ${pyRepr(value as PyValue)}]`);
        } else if (!pyEquals(item as PyValue, got as PyValue)) {
          errors.push(`class(${scenario}) attributes(${attribute}.${key}) wrong, [expected: ${pyRepr(item as PyValue)}, real: ${pyRepr(got as PyValue)}]`);
        }
      }
    } else if (!pyEquals(want as PyValue, value as PyValue)) {
      errors.push(`class(${scenario}) attributes(${attribute}) wrong, [expected: ${pyRepr(want as PyValue)}, real: ${pyRepr(value as PyValue)}]`);
    }
  }
  return { valid: errors.length === 0, errors };
}

/**
 * ACEBench's end-to-end check of an agent sample (`agent_eval` with `agent_checker`): the result
 * must have as many classes as the ground truth; each ground-truth class is compared with the
 * result class of the same name, attribute by attribute (a dict attribute only on the ground
 * truth's keys, other values with Python's `==`; an attribute the ground truth lacks is an
 * error). As in ACEBench, a ground-truth class that no result class is named like (the answer
 * files misspell some: `ReminderAPI`, `BaseAPI`) is not compared.
 */
export function aceBenchAgentCheck(result: readonly AceBenchClassResult[], groundTruth: readonly AceBenchClassResult[]): AceBenchAgentCheck {
  if (result.length !== groundTruth.length) return { valid: false, errors: [], errorType: 'wrong number of class' };
  const errors: string[] = [];
  let valid = true;
  let errorType = '';
  // ACEBench keeps the last comparison's verdict when a class has no counterpart.
  let last = { valid: true, errors: [] as string[] };
  for (const answer of groundTruth) {
    const name = Object.keys(answer).join('\u0000');
    const model = result.find((r) => Object.keys(r).join('\u0000') === name);
    if (model !== undefined) last = classCheck(model, answer);
    if (!last.valid) {
      valid = false;
      errors.push(...last.errors);
      errorType = 'class attributes wrong';
    }
  }
  return { valid, errors, errorType };
}

function stepMatches(step: readonly PythonCall[], stone: readonly PythonCall[]): boolean {
  return (
    step.length === stone.length &&
    step.every((call, i) => {
      const want = stone[i] as PythonCall;
      return call.name === want.name && pyEquals(call.arguments, want.arguments);
    })
  );
}

function subsequenceShare(process: readonly (readonly PythonCall[])[], stones: readonly (readonly PythonCall[])[]): number {
  if (stones.length === 0) return 1;
  let at = 0;
  let found = 0;
  for (const stone of stones) {
    while (at < process.length) {
      const matched = stepMatches(process[at] as readonly PythonCall[], stone);
      at += 1;
      if (matched) {
        found += 1;
        break;
      }
    }
  }
  return found / stones.length;
}

const round3 = (x: number): number => pyRound(x, 3);

/**
 * ACEBench's process (milestone) accuracy of one agent sample (`agent_eval_process`): the share
 * of milestones found, in order, as a subsequence of the agent's execution steps (a greedy scan;
 * each milestone is one step, a call list). With several milestone paths, the best one counts
 * (rounded to 3 decimals, as ACEBench rounds it). A sample that passed the end-to-end check scores 1.
 *
 * ACEBench compares the model's raw step text with the milestone text (after `strip()`); here
 * both sides are parsed calls compared by name and Python `==` on the arguments, so spacing and
 * quoting do not matter (the milestone files' `'Domino's'` is not valid Python anyway).
 */
export function aceBenchProcessAccuracy(
  process: readonly (readonly PythonCall[])[],
  milestones: readonly (readonly (readonly PythonCall[])[])[],
  options: { endToEnd?: boolean } = {},
): number {
  if (options.endToEnd === true) return 1;
  if (milestones.length === 1) return subsequenceShare(process, milestones[0] as readonly (readonly PythonCall[])[]);
  return Math.max(...milestones.map((path) => round3(subsequenceShare(process, path))));
}

/** A run's ACEBench agent scores: end-to-end and process accuracy, each rounded to 3 decimals. */
export function aceBenchAgentSummary(samples: readonly { endToEnd: boolean; processAccuracy: number }[]): { endToEndAccuracy: number; processAccuracy: number } {
  if (samples.length === 0) return { endToEndAccuracy: 0, processAccuracy: 0 };
  const correct = samples.filter((s) => s.endToEnd).length;
  const process = samples.reduce((sum, s) => sum + (s.endToEnd ? 1 : s.processAccuracy), 0);
  return { endToEndAccuracy: round3(correct / samples.length), processAccuracy: round3(process / samples.length) };
}
