import { AutoForgeError } from '@autoforge/core';

/** Exit codes: 0 success, 1 internal error, 2 bad input or usage. */
export const EXIT_OK = 0;
export const EXIT_INTERNAL = 1;
export const EXIT_BAD_INPUT = 2;
/** `autoforge verify` found a task whose replay does not reach its expected digest. */
export const EXIT_VERIFY_FAILED = 3;

/** Error codes of the CLI. */
export type CliErrorCode = 'E_USAGE' | 'E_INPUT';

/**
 * A user mistake (bad file, bad option): printed as one or more located lines on stderr,
 * exit code 2, never a stack trace.
 */
export class CliError extends AutoForgeError<CliErrorCode> {
  /** Further lines to print after the message (one per issue). */
  readonly details: string[];

  constructor(code: CliErrorCode, message: string, details: string[] = []) {
    super(code, message);
    this.details = details;
  }
}
