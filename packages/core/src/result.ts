import type { Location } from './error.js';

/**
 * A problem found in an input (a document, LLM output, an agent's tool call). `C` is the
 * package's union of issue codes (`E_*` for errors, `W_*` for warnings), e.g.
 * `Issue<SpecIssueCode>` from `@autoforge/env-runtime`.
 */
export interface Issue<C extends string = string> extends Location {
  /** A stable, machine-readable code: `E_` or `W_` and upper-case words. */
  code: C;
  /** What is wrong, for a person. */
  message: string;
  /** `error` makes the whole result fail; `warning` is reported beside a value. */
  severity?: 'error' | 'warning';
}

/** The outcome of an operation whose failure is expected (bad input). */
export type Result<T, I = Issue> = { ok: true; value: T; warnings?: I[] } | { ok: false; issues: I[] };

/** A successful result. */
export function ok<T, I = Issue>(value: T, warnings?: I[]): Result<T, I> {
  return warnings && warnings.length > 0 ? { ok: true, value, warnings } : { ok: true, value };
}

/** A failed result. At least one issue is required. */
export function err<T = never, I = Issue>(issues: I | I[]): Result<T, I> {
  const list = Array.isArray(issues) ? issues : [issues];
  return { ok: false, issues: list };
}

/** The value of a successful result; throws with every issue's message otherwise. */
export function unwrap<T, I extends { message: string }>(result: Result<T, I>): T {
  if (result.ok) return result.value;
  throw new Error(result.issues.map((i) => i.message).join('\n'));
}
