import { AutoForgeError } from '@autoforge/core';

/** Error codes of `@autoforge/erpo`. */
export type ErpoErrorCode =
  /** A reward is not a finite number. */
  | 'E_REWARD'
  /** A mask is not 0, 1, true or false. */
  | 'E_MASK'
  /** A sample is malformed (ids not strings, advantages not aligned with samples). */
  | 'E_SAMPLE'
  /** An option is out of range or unknown. */
  | 'E_OPTIONS'
  /** A recorded turn cannot be replayed by the policy (not one of its candidate actions). */
  | 'E_POLICY'
  /** A checkpoint cannot be read or does not fit the policy. */
  | 'E_CHECKPOINT'
  /** The training loop got unusable data (no episodes, a non-finite loss). */
  | 'E_TRAIN'
  /** No tfjs backend could be initialized. */
  | 'E_BACKEND';

/** The error class of `@autoforge/erpo`. */
export class ErpoError extends AutoForgeError<ErpoErrorCode> {}
