export type { CliIo } from './io.js';
export { processIo } from './io.js';
export { runCli, VERSION } from './program.js';
export type { CliErrorCode } from './errors.js';
export { CliError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_VERIFY_FAILED } from './errors.js';
// The environment server lives in @autoforge/env-server; re-exported for existing importers.
export type { ApiProblem, CloseReason, EnvironmentServer, EnvironmentServerOptions, ManagedSession, ServeCatalog, ServeErrorCode, SessionRegistryOptions } from '@autoforge/env-server';
export { createEnvironmentServer, loadRunDirectory, ServeError, SessionRegistry } from '@autoforge/env-server';
export { loadServeCatalog } from './commands/serve.js';
export type { WriteReportOptions } from './report/write-report.js';
export { writeReport } from './report/write-report.js';
