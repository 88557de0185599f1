/** Where the CLI writes; tests pass buffers, the bin passes the process streams. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Current directory for relative paths. */
  cwd: string;
  /** Environment variables. */
  env: Record<string, string | undefined>;
}

// C0 and C1 control characters other than tab and line feed (ESC starts colour and title
// sequences): what a document or a tool name carries is shown, never run by a terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text with its control characters (but tab and newline) written as `\uXXXX`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The process's own streams. Messages on stderr are always escaped; stdout is escaped when it
 * is a terminal (piped output stays byte-exact).
 */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(process.stdout.isTTY ? escapeControls(t) : t),
    stderr: (t) => process.stderr.write(escapeControls(t)),
    cwd: process.cwd(),
    env: process.env,
  };
}
