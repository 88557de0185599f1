import type { Issue } from '@autoforge/core';
import { formatLocation } from '@autoforge/core';

/**
 * The codes of the issues `parseToolDoc` reports. `E_*` are errors (the result fails), `W_*`
 * warnings (reported beside a value in `Result.warnings`).
 *
 * - `E_READ` the file could not be read.
 * - `E_ENCODING` the file is not valid UTF-8 (located at the first bad byte).
 * - `E_TOO_LARGE` the input is larger than `maxBytes`.
 * - `E_EMPTY_DOCUMENT` the input is empty, blank, or a YAML document without content.
 * - `E_SYNTAX` the JSON, JSON Lines or YAML text does not parse.
 * - `E_YAML_ALIAS_LIMIT` YAML aliases expand more than `maxAliasCount` times (an alias bomb).
 * - `E_TOO_DEEP` values nest deeper than `maxDepth`.
 * - `E_NOT_JSON` an already-parsed input holds something JSON cannot (a cycle, a function, NaN…).
 * - `E_UNKNOWN_FORMAT` the document is none of the supported formats.
 * - `E_UNSUPPORTED_VERSION` a known format in a version this parser does not read (Swagger 2.0).
 * - `E_INVALID_TOOL` a tool entry is not an object or lacks a required member.
 * - `E_EMPTY_NAME` a tool's name is empty.
 * - `E_INVALID_NAME` a tool's name has characters not every tool-calling API accepts (the rule
 *   is `^[A-Za-z0-9_.-]{1,64}$`: letters, digits, `_`, `.`, `-`).
 * - `E_DUPLICATE_TOOL` two tools (or two definitions within one sample) share a name.
 * - `E_INVALID_SCHEMA` a parameter or output schema is not valid JSON Schema.
 * - `E_REF_NOT_FOUND` a local `$ref` points nowhere.
 * - `E_REF_EXTERNAL` a `$ref` points outside the document (not supported).
 * - `E_INVALID_OPENAPI` an OpenAPI structure is malformed (a parameter without `in`, …).
 * - `E_NO_TOOLS` the document defines no tools.
 * - `E_SAMPLE_NOT_FOUND` `options.sample` names no sample or group of the document.
 * - `E_INTERNAL` a bug in this parser (please report it); the input caused no exception.
 * - `W_CONFLICTING_TOOL` samples define one tool name differently; the first definition is kept.
 * - `W_SKIPPED_TOOL` a non-function tool (an OpenAI built-in such as `web_search`) was skipped.
 * - `W_RENAMED` a generated tool name or a parameter name collided and was renamed.
 * - `W_UNDECLARED_PARAMETER` an OpenAPI path template variable has no parameter; it was added as a string.
 * - `W_LONG_NAME` a tool's name is longer than the 64 characters some APIs accept.
 * - `W_DUPLICATE_KEY` an object of the JSON text has the same key twice (the last one is kept).
 * - `W_PATTERN_REWRITTEN` a `pattern` that only compiles as a legacy (non-`u`) regular expression
 *   was rewritten to an equivalent one that Ajv (which uses the `u` flag) compiles.
 */
export type ToolDocIssueCode =
  | 'E_READ'
  | 'E_ENCODING'
  | 'E_TOO_LARGE'
  | 'E_EMPTY_DOCUMENT'
  | 'E_SYNTAX'
  | 'E_YAML_ALIAS_LIMIT'
  | 'E_TOO_DEEP'
  | 'E_NOT_JSON'
  | 'E_UNKNOWN_FORMAT'
  | 'E_UNSUPPORTED_VERSION'
  | 'E_INVALID_TOOL'
  | 'E_EMPTY_NAME'
  | 'E_INVALID_NAME'
  | 'E_DUPLICATE_TOOL'
  | 'E_INVALID_SCHEMA'
  | 'E_REF_NOT_FOUND'
  | 'E_REF_EXTERNAL'
  | 'E_INVALID_OPENAPI'
  | 'E_NO_TOOLS'
  | 'E_SAMPLE_NOT_FOUND'
  | 'E_INTERNAL'
  | 'W_CONFLICTING_TOOL'
  | 'W_SKIPPED_TOOL'
  | 'W_RENAMED'
  | 'W_UNDECLARED_PARAMETER'
  | 'W_PATTERN_REWRITTEN'
  | 'W_DUPLICATE_KEY'
  | 'W_LONG_NAME';

/**
 * One problem found in a tool document. `message` is complete on its own and says where:
 * `tooldoc-parser: openapi.yaml:12:5 /paths/~1orders/post/requestBody: $ref "#/components/schemas/X" not found`.
 * `pointer` is always set (RFC 6901, into the parsed document; `""` is the root); `line` and
 * `column` (1-based) whenever the input was text; `file` when known.
 */
export interface ToolDocIssue extends Issue {
  code: ToolDocIssueCode;
  severity: 'error' | 'warning';
  pointer: string;
}

/**
 * Renders one issue on one line: its message (newlines folded) followed by `[CODE]`, or
 * `[warning CODE]` for warnings. Issues from elsewhere whose message does not say where get
 * their location (`file:line:column /pointer`) in front.
 *
 * @example
 * formatIssue(issue) // 'tooldoc-parser: tools.json:3:5 /0/function: tool name is empty [E_EMPTY_NAME]'
 */
export function formatIssue(issue: Issue): string {
  let text = issue.message
    .split(/[\r\n]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
  const where = formatLocation(issue);
  if (where !== '' && !text.includes(where)) text = `${where}: ${text}`;
  const tag = issue.severity === 'warning' ? `warning ${issue.code}` : issue.code;
  return `${text} [${tag}]`;
}

/** An issue before its location is resolved to a line and its message is written. */
export interface PendingIssue {
  code: ToolDocIssueCode;
  pointer: string;
  detail: string;
  /** A line and column known directly (syntax errors), instead of from the pointer. */
  line?: number;
  column?: number;
}

/** Collects issues while a document is converted. */
export class IssueList {
  readonly items: PendingIssue[] = [];

  add(code: ToolDocIssueCode, pointer: string, detail: string, position?: { line: number; column: number }): void {
    this.items.push(position ? { code, pointer, detail, line: position.line, column: position.column } : { code, pointer, detail });
  }

  get errorCount(): number {
    let n = 0;
    for (const item of this.items) if (item.code.startsWith('E_')) n++;
    return n;
  }
}

/** Writes the final issue: location resolved, message prefixed with `tooldoc-parser: <where>`. */
export function finishIssue(
  pending: PendingIssue,
  file: string | undefined,
  locate: (pointer: string) => { line: number; column: number } | undefined,
): ToolDocIssue {
  const position =
    pending.line !== undefined ? { line: pending.line, column: pending.column ?? 1 } : locate(pending.pointer);
  const issue: ToolDocIssue = {
    code: pending.code,
    severity: pending.code.startsWith('W_') ? 'warning' : 'error',
    pointer: pending.pointer,
    message: '',
  };
  if (file !== undefined) issue.file = file;
  if (position) {
    issue.line = position.line;
    issue.column = position.column;
  }
  issue.message = `tooldoc-parser: ${formatLocation(issue)}: ${pending.detail}`;
  return issue;
}
