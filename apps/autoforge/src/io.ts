/** Where the CLI writes; tests pass buffers, the bin passes the process streams. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Current directory for relative paths. */
  cwd: string;
  /** Environment variables. */
  env: Record<string, string | undefined>;
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    env: process.env,
  };
}
