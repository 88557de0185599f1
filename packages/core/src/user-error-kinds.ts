import type { InjectedUserError } from './trajectory.js';

/** A kind of simulated-user error (the names of `InjectedUserError.kind`). */
export type UserErrorKind = InjectedUserError['kind'];

/**
 * Every kind of simulated-user error, in a fixed order: what simulated users inject, what
 * judges report (verdict `kinds` follow this order) and what scores are counted per.
 */
export const USER_ERROR_KINDS: readonly UserErrorKind[] = [
  'wrong_fact',
  'contradiction',
  'early_stop',
  'invented_requirement',
  'withheld_fact',
  'forbidden_choice',
  'wrong_acceptance',
  'insistence',
];
