export type { CliIo } from './io.js';
export { processIo } from './io.js';
export { runCli, VERSION } from './program.js';
export type { CliErrorCode } from './errors.js';
export { CliError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_VERIFY_FAILED } from './errors.js';
