import type { JsonObject } from '@autoforge/core';
import type { PyValue } from '../python-value.js';
import { canonicalJson } from './class-replay.js';
import { BfclExecutor } from './executor.js';

/**
 * BFCL's multi-turn scoring (`multi_turn_checker.multi_turn_checker`, gorilla 6ea57973), ported:
 * the model's calls and the gold calls are replayed turn by turn on two executors of the entry;
 * after every turn with a non-empty gold list the model's turn must not be empty, every class's
 * public state must equal the gold's, and every gold result string of the turn must occur among
 * the model's results so far (as a multiset, in any order). An entry is correct when every turn
 * passes; a model stopped before the last turn (force-terminated) fails.
 */

/** One call of the model: a Python call string, or a name with its arguments. */
export type BfclModelCall = string | { name: string; arguments: Readonly<Record<string, PyValue>>; positional?: readonly PyValue[] };

/** The verdict on one entry, as BFCL's checker reports it. */
export interface BfclCheckResult {
  valid: boolean;
  /** BFCL's error type (`multi_turn:instance_state_mismatch`, …) when not valid. */
  errorType?: string;
  errorMessage?: string;
  /** The turn that failed. */
  turn?: number;
  /** The class whose state differs (state mismatches). */
  className?: string;
  /** The gold results the model's did not contain (response mismatches). */
  missing?: string[];
}

/** The entry fields the checker reads. */
export interface BfclCheckEntry {
  id: string;
  initial_config: Readonly<Record<string, unknown>>;
  involved_classes: readonly string[];
}

/** `long_context` as the checker sets it: from the entry id's category. */
export function bfclLongContext(entryId: string): boolean {
  const category = entryId.includes('_') ? entryId.slice(0, entryId.lastIndexOf('_')) : entryId;
  return category.includes('long_context') || category.includes('composite');
}

function run(ex: BfclExecutor, call: BfclModelCall): string {
  return typeof call === 'string' ? ex.callText(call).result : ex.call(call.name, call.arguments, call.positional ?? []).result;
}

/**
 * Scores a model's calls (per turn, per step, the calls of that step) against the gold calls per
 * turn. Steps with no call are dropped, as BFCL's decoder drops them.
 */
export function bfclCheck(entry: BfclCheckEntry, gold: readonly (readonly string[])[], model: readonly (readonly (readonly BfclModelCall[])[])[]): BfclCheckResult {
  if (model.length !== gold.length) {
    return {
      valid: false,
      errorType: 'multi_turn:force_terminated',
      errorMessage: `Model was force-terminated during inference phase. The length of the model result turns (${model.length}) does not match the length of the ground truth turns (${gold.length}).`,
    };
  }
  const longContext = bfclLongContext(entry.id);
  const modelEx = BfclExecutor.load(entry.initial_config, entry.involved_classes, longContext);
  const goldEx = BfclExecutor.load(entry.initial_config, entry.involved_classes, longContext);
  const allModelResults: string[] = [];
  for (let turn = 0; turn < gold.length; turn++) {
    const steps = (model[turn] as readonly (readonly BfclModelCall[])[]).filter((s) => s.length > 0);
    for (const step of steps) for (const call of step) allModelResults.push(run(modelEx, call));
    const goldCalls = gold[turn] as readonly string[];
    const goldResults = goldCalls.map((c) => goldEx.callText(c).result);
    if (goldCalls.length === 0) continue;
    if (steps.length === 0) {
      return { valid: false, errorType: 'multi_turn:empty_turn_model_response', errorMessage: `Model response list is empty for turn ${turn}`, turn };
    }
    const mine = modelEx.state();
    const theirs = goldEx.state();
    for (const cls of entry.involved_classes) {
      if (canonicalJson(mine[cls] as JsonObject) !== canonicalJson(theirs[cls] as JsonObject)) {
        return {
          valid: false,
          errorType: 'multi_turn:instance_state_mismatch',
          errorMessage: `Model instance for ${cls} does not match the state with ground truth instance.`,
          turn,
          className: cls,
        };
      }
    }
    const pool = [...allModelResults];
    const missing: string[] = [];
    for (const r of goldResults) {
      const i = pool.indexOf(r);
      if (i < 0) missing.push(r);
      else pool.splice(i, 1);
    }
    if (missing.length > 0) {
      return {
        valid: false,
        errorType: 'multi_turn:execution_response_mismatch',
        errorMessage: `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
        turn,
        missing,
      };
    }
  }
  return { valid: true };
}
