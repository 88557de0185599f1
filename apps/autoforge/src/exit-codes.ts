// The CLI's exit codes, in a module of their own: the program uses them without loading the
// error classes (and the packages behind them) on the way to `--help` or `--version`.

/** Exit codes: 0 success, 1 internal error, 2 bad input or usage. */
export const EXIT_OK = 0;
export const EXIT_INTERNAL = 1;
export const EXIT_BAD_INPUT = 2;
/** `autoforge verify` found a task whose replay does not reach its expected digest. */
export const EXIT_VERIFY_FAILED = 3;
