import type { Trajectory, Verdict } from '@autoforge/core';
import type { UserErrorKind } from '@autoforge/core';
import { USER_ERROR_KINDS } from '@autoforge/core';

/** Counts and rates of one binary decision. Rates are `NaN` where undefined (0 / 0). */
export interface PrecisionRecall {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  /** tp / (tp + fp). */
  precision: number;
  /** tp / (tp + fn). */
  recall: number;
  /** Harmonic mean of precision and recall. */
  f1: number;
  /** Positives in the ground truth (tp + fn). */
  support: number;
}

/** How well verdicts find the errors injected on purpose. */
export interface JudgeScore {
  /** Trajectories that have a verdict (only these are scored). */
  scored: number;
  /** Ids of trajectories without a verdict. */
  missing: string[];
  /** Per kind: a trajectory is positive iff an error of that kind was injected; predicted iff the kind is in `verdict.kinds`. */
  perKind: Record<UserErrorKind, PrecisionRecall>;
  /** Micro-average over the kinds (counts summed). */
  overall: PrecisionRecall;
  /** Episode level: positive iff any error was injected; predicted iff `verdict.userError`. */
  userError: PrecisionRecall;
}

function rates(tp: number, fp: number, fn: number, tn: number): PrecisionRecall {
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const f1 = (2 * precision * recall) / (precision + recall);
  return { truePositives: tp, falsePositives: fp, falseNegatives: fn, trueNegatives: tn, precision, recall, f1, support: tp + fn };
}

/**
 * Scores verdicts against `trajectory.injectedUserErrors` (the scripted user's ground truth):
 * precision, recall and F1 per error kind, micro-averaged over kinds, and at the episode level
 * (`userError`). Trajectories without a verdict are listed in `missing` and not scored;
 * verdicts of other trajectories are ignored.
 */
export function scoreJudge(verdicts: readonly Verdict[], trajectories: readonly Trajectory[]): JudgeScore {
  const byId = new Map(verdicts.map((v) => [v.trajectoryId, v]));
  const counts = Object.fromEntries(USER_ERROR_KINDS.map((k) => [k, [0, 0, 0, 0]])) as Record<UserErrorKind, number[]>;
  const episode = [0, 0, 0, 0];
  const missing: string[] = [];
  let scored = 0;
  const add = (c: number[], truth: boolean, predicted: boolean) => {
    const i = truth ? (predicted ? 0 : 2) : predicted ? 1 : 3;
    c[i] = (c[i] as number) + 1;
  };
  for (const t of trajectories) {
    const v = byId.get(t.id);
    if (!v) {
      missing.push(t.id);
      continue;
    }
    scored += 1;
    const injected = new Set(t.injectedUserErrors.map((e) => e.kind));
    for (const k of USER_ERROR_KINDS) add(counts[k], injected.has(k), v.kinds.includes(k));
    add(episode, injected.size > 0, v.userError);
  }
  const perKind = Object.fromEntries(
    USER_ERROR_KINDS.map((k) => {
      const [tp, fp, fn, tn] = counts[k] as [number, number, number, number];
      return [k, rates(tp, fp, fn, tn)];
    }),
  ) as Record<UserErrorKind, PrecisionRecall>;
  const sum = (i: number) => USER_ERROR_KINDS.reduce((s, k) => s + (counts[k][i] as number), 0);
  const [tp, fp, fn, tn] = episode as [number, number, number, number];
  return { scored, missing, perKind, overall: rates(sum(0), sum(1), sum(2), sum(3)), userError: rates(tp, fp, fn, tn) };
}

/** A hand label of one episode (the format of `judge-real/labels.json`). */
export interface EpisodeLabel {
  trajectoryId: string;
  /** The episode's reward. */
  reward: number;
  /**
   * `user`: the simulated user's deviation caused the failure; `agent`: the failure is the
   * agent's; `ambiguous`: both, or an underspecified task (not scored); `none` and
   * `user_harmless`: successful episodes (with or without a deviation that changed nothing).
   */
  label: 'user' | 'agent' | 'ambiguous' | 'none' | 'user_harmless';
}

/** How well verdicts agree with hand labels of real dialogues. */
export interface LabelScore {
  /** On failed episodes: `user` positive, `agent` negative, predicted iff `verdict.userError`. */
  failed: PrecisionRecall;
  /** Successful episodes (`none`, `user_harmless`) with a verdict. */
  successful: number;
  /** Of those, how many the verdicts mask (`userError`), and their ids. */
  masked: number;
  maskedIds: string[];
  /** Failed episodes labelled `ambiguous` (left out). */
  ambiguous: number;
  /** Labelled episodes without a verdict. */
  missing: string[];
  /** The ids behind the false positives and false negatives, for reading. */
  falsePositiveIds: string[];
  falseNegativeIds: string[];
}

/**
 * Scores verdicts against hand labels of real dialogues: precision and recall of `userError`
 * for `user` against `agent` on failed episodes (`ambiguous` left out), and the share of
 * successful episodes masked — every one of those a good training sample thrown away.
 */
export function scoreJudgeOnLabels(verdicts: readonly Verdict[], labels: readonly EpisodeLabel[]): LabelScore {
  const byId = new Map(verdicts.map((v) => [v.trajectoryId, v]));
  const c = [0, 0, 0, 0];
  const out: LabelScore = { failed: rates(0, 0, 0, 0), successful: 0, masked: 0, maskedIds: [], ambiguous: 0, missing: [], falsePositiveIds: [], falseNegativeIds: [] };
  for (const l of labels) {
    const v = byId.get(l.trajectoryId);
    if (!v) {
      out.missing.push(l.trajectoryId);
      continue;
    }
    if (l.label === 'none' || l.label === 'user_harmless') {
      out.successful += 1;
      if (v.userError) {
        out.masked += 1;
        out.maskedIds.push(l.trajectoryId);
      }
    } else if (l.label === 'ambiguous') {
      out.ambiguous += 1;
    } else {
      const truth = l.label === 'user';
      const i = truth ? (v.userError ? 0 : 2) : v.userError ? 1 : 3;
      c[i] = (c[i] as number) + 1;
      if (truth && !v.userError) out.falseNegativeIds.push(l.trajectoryId);
      if (!truth && v.userError) out.falsePositiveIds.push(l.trajectoryId);
    }
  }
  const [tp, fp, fn, tn] = c as [number, number, number, number];
  out.failed = rates(tp, fp, fn, tn);
  return out;
}
