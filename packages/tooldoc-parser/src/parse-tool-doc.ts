import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Result, SourceLocation, ToolDoc, ToolDocFormat, ToolSpec } from '@autoforge/core';
import { err, ok } from '@autoforge/core';
import { detectFormat, toolEntries } from './detect-format.js';
import { ToolDocParserError } from './error.js';
import type { ToolDocIssue } from './issue.js';
import { IssueList, finishIssue } from './issue.js';
import { checkJson, describeType, isObject, own } from './json-value.js';
import { readBfcl } from './read-bfcl.js';
import { readMcp } from './read-mcp.js';
import { readOpenAI } from './read-openai.js';
import { readOpenApi } from './read-openapi.js';
import { dereferenceTool } from './tool-builder.js';
import type { ReadContext, ReadOutput } from './reader.js';
import type { Locator, ParsedText } from './source-text.js';
import { parseText } from './source-text.js';

/** Options of {@link parseToolDoc} and {@link parseToolDocFile}. */
export interface ParseToolDocOptions {
  /** The document format; `'auto'` (default) detects it with {@link detectFormat}. */
  format?: ToolDocFormat | 'auto';
  /** The file name to put in sources and messages. Default: none (`parseToolDocFile` sets the path). */
  file?: string;
  /** Most YAML alias expansions allowed (the `yaml` package's `maxAliasCount`). Default `100`; `-1` disables the check. */
  maxAliasCount?: number;
  /** Largest text accepted, in UTF-8 bytes. Default `33554432` (32 MiB). */
  maxBytes?: number;
  /** Deepest nesting of arrays and objects accepted. Default `256`. */
  maxDepth?: number;
  /** Read only this sample (ACEBench sample id) or group (OpenAPI tag). Default: all tools. */
  sample?: string;
}

/** The result of parsing a tool document. */
export type ToolDocResult = Result<ToolDoc, ToolDocIssue>;

const FORMATS: readonly ToolDocFormat[] = ['openai-chat', 'openai-responses', 'openapi', 'mcp', 'json-schema-defs', 'bfcl', 'vitabench'];

interface Settings {
  format: ToolDocFormat | 'auto';
  file: string | undefined;
  maxAliasCount: number;
  maxBytes: number;
  maxDepth: number;
  sample: string | undefined;
}

function settings(options: unknown): Settings {
  if (options !== undefined && !isObject(options)) {
    throw new ToolDocParserError('E_INVALID_OPTIONS', `tooldoc-parser: options must be an object, not ${describeType(options)}`);
  }
  const o = (options ?? {}) as ParseToolDocOptions;
  const bad = (name: string, expected: string, value: unknown): never => {
    throw new ToolDocParserError('E_INVALID_OPTIONS', `tooldoc-parser: options.${name} must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`);
  };
  const format = o.format ?? 'auto';
  if (format !== 'auto' && !FORMATS.includes(format)) bad('format', `"auto" or one of ${FORMATS.join(', ')}`, format);
  if (o.file !== undefined && typeof o.file !== 'string') bad('file', 'a string', o.file);
  const maxAliasCount = o.maxAliasCount ?? 100;
  if (!Number.isInteger(maxAliasCount) || maxAliasCount < -1) bad('maxAliasCount', 'an integer >= -1', maxAliasCount);
  const maxBytes = o.maxBytes ?? 32 * 1024 * 1024;
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0) bad('maxBytes', 'a number >= 0', maxBytes);
  const maxDepth = o.maxDepth ?? 256;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 10_000) bad('maxDepth', 'an integer from 1 to 10000', maxDepth);
  if (o.sample !== undefined && typeof o.sample !== 'string') bad('sample', 'a string', o.sample);
  return { format, file: o.file, maxAliasCount, maxBytes, maxDepth, sample: o.sample };
}

const READERS: Record<ToolDocFormat, (value: unknown, ctx: ReadContext) => ReadOutput> = {
  'openai-chat': readOpenAI,
  'openai-responses': readOpenAI,
  'json-schema-defs': readOpenAI,
  vitabench: readOpenAI,
  mcp: readMcp,
  bfcl: readBfcl,
  openapi: readOpenApi,
};

/** Says why a value is not a tool document, as precisely as it can. */
function explainUnknown(value: unknown, issues: IssueList): void {
  if (value === null) {
    issues.add('E_EMPTY_DOCUMENT', '', 'the document is null');
    return;
  }
  if (typeof value === 'string') {
    const text = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    issues.add('E_UNKNOWN_FORMAT', '', `the document is plain text (${JSON.stringify(text)}), not a tool description`);
    return;
  }
  if (isObject(value) && own(value, 'swagger') !== undefined) {
    issues.add('E_UNSUPPORTED_VERSION', '/swagger', 'Swagger 2.0 documents are not supported; convert the document to OpenAPI 3 first');
    return;
  }
  const found = toolEntries(value);
  if (found && found.entries.length === 0) {
    issues.add('E_NO_TOOLS', found.pointer, 'the document has an empty list of tools');
    return;
  }
  if (found) {
    const first = found.entries[0] as { value: unknown; pointer: string };
    const what = isObject(first.value) ? `an object with keys ${Object.keys(first.value).slice(0, 8).join(', ') || '(none)'}` : describeType(first.value);
    issues.add(
      'E_UNKNOWN_FORMAT',
      first.pointer,
      `expected a tool ({ "type": "function", "function": {…} }, { "name", "inputSchema" } or { "name", "parameters" }), found ${what}`,
    );
    return;
  }
  const what = isObject(value) ? `an object with keys ${Object.keys(value).slice(0, 8).join(', ') || '(none)'}` : describeType(value);
  issues.add(
    'E_UNKNOWN_FORMAT',
    '',
    `not a tool document: expected OpenAI tools, an OpenAPI 3.x document, an MCP tools/list result, BFCL/ACEBench functions or samples; found ${what}`,
  );
}

function selectSample(read: ReadOutput, sample: string, issues: IssueList): ReadOutput {
  const group = read.groups?.find((g) => g.id === sample);
  if (!group) {
    const ids = (read.groups ?? []).slice(0, 10).map((g) => JSON.stringify(g.id));
    issues.add('E_SAMPLE_NOT_FOUND', '', `no sample or group has the id ${JSON.stringify(sample)}${ids.length > 0 ? ` (ids: ${ids.join(', ')}${(read.groups?.length ?? 0) > 10 ? ', …' : ''})` : ''}`);
    return { ...read, tools: [] };
  }
  const names = new Set(group.tools);
  return { ...read, tools: read.tools.filter((t) => names.has(t.name)), groups: [group] };
}

function checkDuplicates(tools: readonly ToolSpec[], issues: IssueList, describe: (pointer: string) => string): void {
  const first = new Map<string, ToolSpec>();
  for (const tool of tools) {
    const previous = first.get(tool.name);
    if (previous) {
      issues.add('E_DUPLICATE_TOOL', tool.source.pointer, `tool name "${tool.name}" is already used by the tool at ${describe(previous.source.pointer)}`);
    } else {
      first.set(tool.name, tool);
    }
  }
}

/** The located reference to another place, for messages: `/3/function/0 (line 4)`. */
function describer(state: { locate: Locator }): (pointer: string) => string {
  return (pointer) => {
    const position = safeLocate(state.locate, pointer);
    return position ? `${pointer || '/'} (line ${position.line})` : pointer || '/';
  };
}

function safeLocate(locate: Locator, pointer: string): { line: number; column: number } | undefined {
  try {
    return locate(pointer);
  } catch {
    return undefined;
  }
}

function convert(input: unknown, s: Settings, issues: IssueList, state: { locate: Locator }): ToolDoc | undefined {
  let value: unknown = input;
  let parsed: ParsedText | undefined;
  if (typeof input === 'string') {
    parsed = parseText(input, s, issues);
    if (!parsed) return undefined;
    value = parsed.value;
    state.locate = parsed.locate;
  }
  const problem = checkJson(value, s.maxDepth);
  if (problem?.kind === 'too-deep') {
    const position = parsed?.locateDepth?.(s.maxDepth);
    const pointer = problem.pointer.length > 80 ? `${problem.pointer.slice(0, 77)}...` : problem.pointer;
    issues.add('E_TOO_DEEP', problem.pointer, `values nest deeper than maxDepth (${s.maxDepth}) at ${pointer}`, position);
    return undefined;
  }
  if (problem) {
    issues.add('E_NOT_JSON', problem.pointer, problem.detail);
    return undefined;
  }
  const format = s.format === 'auto' ? detectFormat(value) : s.format;
  if (format === undefined) {
    explainUnknown(value, issues);
    return undefined;
  }
  const ctx: ReadContext = { issues, format, sample: s.sample, describe: describer(state) };
  let read = READERS[format](value, ctx);
  if (s.sample !== undefined && !read.sampleApplied) read = selectSample(read, s.sample, issues);
  checkDuplicates(read.tools, issues, ctx.describe);
  for (const tool of read.tools) dereferenceTool(tool);
  if (read.tools.length === 0 && issues.errorCount === 0) issues.add('E_NO_TOOLS', '', 'the document defines no tools');
  const doc: ToolDoc = { format, tools: read.tools };
  if (read.info) doc.info = read.info;
  if (read.groups && read.groups.length > 0) doc.groups = read.groups;
  return doc;
}

function locateSource(source: SourceLocation, file: string | undefined, locate: Locator): void {
  if (file !== undefined) source.file = file;
  const position = safeLocate(locate, source.pointer);
  if (position) {
    source.line = position.line;
    source.column = position.column;
  }
}

/**
 * Parses a tool description document into a normalized {@link ToolDoc}.
 *
 * `input` is document text (JSON, JSON Lines or YAML, detected from the text) or an
 * already-parsed value. The format is detected ({@link detectFormat}) unless `options.format`
 * forces one. Never throws for any input and never hangs: every problem comes back as a
 * located {@link ToolDocIssue} (`ok: false`); warnings ride along in `warnings`.
 *
 * @throws {@link ToolDocParserError} `E_INVALID_OPTIONS` when an option has the wrong type or range.
 *
 * @example
 * const result = parseToolDoc('[{"type":"function","function":{"name":"ping","parameters":{"type":"object"}}}]');
 * if (result.ok) console.log(result.value.tools[0]?.name); // ping
 * else for (const issue of result.issues) console.error(formatIssue(issue));
 */
export function parseToolDoc(input: string | unknown, options: ParseToolDocOptions = {}): ToolDocResult {
  const s = settings(options);
  const issues = new IssueList();
  const state: { locate: Locator } = { locate: () => undefined };
  let doc: ToolDoc | undefined;
  try {
    doc = convert(input, s, issues, state);
  } catch (cause) {
    const message = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    issues.add(
      cause instanceof RangeError && /call stack/i.test(message) ? 'E_TOO_DEEP' : 'E_INTERNAL',
      '',
      `the parser failed on this input (${message})`,
    );
    doc = undefined;
  }
  const finished = issues.items.map((pending) => finishIssue(pending, s.file, (p) => safeLocate(state.locate, p)));
  const errors = finished.filter((issue) => issue.severity === 'error');
  if (errors.length > 0 || doc === undefined) {
    return err(finished.length > 0 ? finished : [finishIssue({ code: 'E_INTERNAL', pointer: '', detail: 'no result' }, s.file, () => undefined)]);
  }
  if (s.file !== undefined) doc.file = s.file;
  for (const tool of doc.tools) locateSource(tool.source, s.file, state.locate);
  for (const group of doc.groups ?? []) locateSource(group.source, s.file, state.locate);
  return ok(doc, finished);
}

/**
 * Reads a file and parses it with {@link parseToolDoc}; `file` defaults to `path` as given.
 * Read failures (missing file, a directory, no permission) and files over `maxBytes` come back
 * as issues (`E_READ`, `E_TOO_LARGE`), never as exceptions.
 *
 * @throws {@link ToolDocParserError} `E_INVALID_OPTIONS` for a path that is not a string or URL, or bad options.
 *
 * @example
 * const result = await parseToolDocFile('openapi.yaml');
 */
export async function parseToolDocFile(path: string | URL, options: ParseToolDocOptions = {}): Promise<ToolDocResult> {
  if (typeof path !== 'string' && !(path instanceof URL)) {
    throw new ToolDocParserError('E_INVALID_OPTIONS', `tooldoc-parser: path must be a string or a URL, got ${describeType(path)}`);
  }
  const s = settings(options);
  const file = s.file ?? (path instanceof URL ? fileURLToPathSafe(path) : path);
  const fail = (code: 'E_READ' | 'E_TOO_LARGE', detail: string): ToolDocResult => err(finishIssue({ code, pointer: '', detail }, file, () => undefined));
  let text: string;
  try {
    const info = await stat(path);
    if (info.isDirectory()) return fail('E_READ', 'cannot read the file: it is a directory');
    if (info.size > s.maxBytes) return fail('E_TOO_LARGE', `the file has ${info.size} bytes, more than maxBytes (${s.maxBytes})`);
    const bytes = await readFile(path);
    const decoded = decodeUtf8(bytes);
    if (typeof decoded !== 'string') {
      return err(finishIssue({ code: 'E_ENCODING', pointer: '', detail: `the file is not valid UTF-8: byte ${decoded.byte} (0x${decoded.value.toString(16).padStart(2, '0')}) starts no character`, line: decoded.line, column: decoded.column }, file, () => undefined));
    }
    text = decoded;
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    const message = cause instanceof Error ? cause.message : String(cause);
    return fail('E_READ', `cannot read the file${typeof code === 'string' ? ` (${code})` : ''}: ${message}`);
  }
  return parseToolDoc(text, { ...options, file });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of UTF-8 bytes, or where the first invalid sequence starts (1-based line and column). */
function decodeUtf8(bytes: Uint8Array): string | { byte: number; value: number; line: number; column: number } {
  try {
    return UTF8.decode(bytes);
  } catch {
    let i = 0;
    let line = 1;
    let column = 1;
    while (i < bytes.length) {
      const b = bytes[i] as number;
      const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      let ok = n > 0 && i + n <= bytes.length;
      for (let k = 1; ok && k < n; k++) ok = ((bytes[i + k] as number) & 0xc0) === 0x80;
      if (ok && n > 1) {
        // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
        const c1 = bytes[i + 1] as number;
        if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 >= 0xa0) || (b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 >= 0x90)) ok = false;
      }
      if (!ok) return { byte: i, value: b, line, column };
      if (b === 0x0a) {
        line += 1;
        column = 1;
      } else column += 1;
      i += n;
    }
    return { byte: bytes.length, value: 0, line, column };
  }
}

function fileURLToPathSafe(url: URL): string {
  try {
    return fileURLToPath(url);
  } catch {
    return url.href;
  }
}
