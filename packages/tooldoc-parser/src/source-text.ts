import { createRequire } from 'node:module';
import { parsePointer } from '@autoforge/core';
import type * as Jsonc from 'jsonc-parser';
import type * as Yaml from 'yaml';
import type { Document, Pair, Node as YamlNode, YAMLMap } from 'yaml';
import type { IssueList } from './issue.js';

// yaml and jsonc-parser load with the first YAML document or JSON text read here, not with the
// package: a tool doc given as a value (as the benchmark adapters give theirs) needs neither.
const requireLib = createRequire(import.meta.url);
let yamlLib: typeof Yaml | undefined;
let jsoncLib: typeof Jsonc | undefined;
const yaml = (): typeof Yaml => (yamlLib ??= requireLib('yaml') as typeof Yaml);
const jsonc = (): typeof Jsonc => (jsoncLib ??= requireLib('jsonc-parser') as typeof Jsonc);

/** A 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** Maps a JSON pointer into the parsed value back to where it was written. */
export type Locator = (pointer: string) => Position | undefined;

/** Which syntax a text was read as. */
export type TextSyntax = 'json' | 'jsonl' | 'yaml';

/** A text document turned into a value, with the way back from pointers to positions. */
export interface ParsedText {
  value: unknown;
  syntax: TextSyntax;
  locate: Locator;
  /** Where nesting first goes deeper than `maxDepth` (JSON text only: its trees are too deep to build then). */
  locateDepth?: (maxDepth: number) => Position | undefined;
}

/**
 * Offset of the first `{` or `[` nested deeper than `maxDepth` (the root container is depth 0,
 * as in `checkJson`), skipping strings; `undefined` when there is none.
 */
function depthOffset(text: string, maxDepth: number, startDepth: number): number | undefined {
  let depth = startDepth;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth >= maxDepth) return i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x0a && startDepth > 0) {
      depth = startDepth; // JSON Lines: every line is a record of the outer array
    }
  }
  return undefined;
}

/** Options of {@link parseText}. */
export interface ParseTextOptions {
  maxBytes: number;
  maxAliasCount: number;
}

/** Line starts of a text, for offset → line/column. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] as number) + 1 };
  }
}

function safePointer(pointer: string): string[] | undefined {
  try {
    return parsePointer(pointer);
  } catch {
    return undefined;
  }
}

// Objects with thousands of keys (an OpenAPI `paths` map) would make every lookup a scan.
const propertyIndex = new WeakMap<Jsonc.Node, Map<string, Jsonc.Node>>();

function propertyOf(node: Jsonc.Node, key: string): Jsonc.Node | undefined {
  let index = propertyIndex.get(node);
  if (index === undefined) {
    index = new Map();
    // JSON.parse keeps the last of duplicated keys, so the last one is the one in the value.
    for (const property of node.children ?? []) {
      const name: unknown = property.children?.[0]?.value;
      if (typeof name === 'string') index.set(name, property);
    }
    propertyIndex.set(node, index);
  }
  return index.get(key);
}

/** Offset of the deepest node on `tokens` in a jsonc-parser tree (a property's key when the last step was a key). */
function jsonOffset(root: Jsonc.Node, tokens: readonly string[]): number {
  let node = root;
  let offset = root.offset;
  for (const token of tokens) {
    let next: Jsonc.Node | undefined;
    let at: number | undefined;
    if (node.type === 'object') {
      const property = propertyOf(node, token);
      next = property?.children?.[1];
      at = property?.offset;
    } else if (node.type === 'array' && /^(0|[1-9]\d*)$/.test(token)) {
      next = node.children?.[Number(token)];
      at = next?.offset;
    }
    if (next === undefined || at === undefined) break;
    node = next;
    offset = at;
  }
  return offset;
}

function jsonTree(text: string): Jsonc.Node | undefined {
  try {
    return jsonc().parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  } catch {
    // Deeply nested text can exhaust the stack of jsonc-parser's recursive descent.
    return undefined;
  }
}

function camelToWords(text: string): string {
  return text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Where and why a JSON text fails to parse. */
function jsonSyntaxError(text: string, cause: unknown): { offset: number; detail: string } {
  let first: Jsonc.ParseError | undefined;
  try {
    const errors: Jsonc.ParseError[] = [];
    jsonc().parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    first = errors[0];
  } catch {
    first = undefined;
  }
  const atEnd = (offset: number) => text.slice(offset).trim() === '';
  if (first) {
    const what = camelToWords(jsonc().printParseErrorCode(first.error));
    return {
      offset: first.offset,
      detail: `invalid JSON: ${what}${atEnd(first.offset) ? ' (the text ends early: truncated?)' : ''}`,
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  const match = /position (\d+)/.exec(message);
  const offset = match ? Number(match[1]) : /end of JSON input/i.test(message) ? text.length : 0;
  return { offset, detail: `invalid JSON: ${message}${atEnd(offset) ? ' (the text ends early: truncated?)' : ''}` };
}

/**
 * Keys repeated within one object of valid JSON text (at most `max`), with the offset of the
 * repetition, read in one pass (JSON.parse keeps the last silently).
 */
export function duplicateKeys(text: string, max: number): { key: string; offset: number }[] {
  const found: { key: string; offset: number }[] = [];
  const stack: { keys: Set<string> | undefined; wantKey: boolean }[] = [];
  for (let i = 0; i < text.length && found.length < max; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.keys !== undefined && top.wantKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) found.push({ key, offset: i });
        else top.keys.add(key);
        top.wantKey = false;
      }
      i = end;
    } else if (c === 123) stack.push({ keys: new Set(), wantKey: true });
    else if (c === 91) stack.push({ keys: undefined, wantKey: false });
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.keys !== undefined) top.wantKey = true;
    }
  }
  return found;
}

function parseJson(text: string, lines: LineIndex, issues: IssueList): ParsedText | undefined {
  try {
    const value: unknown = JSON.parse(text);
    let tree: Jsonc.Node | undefined | null = null;
    const locate: Locator = (pointer) => {
      if (tree === null) tree = jsonTree(text);
      const tokens = safePointer(pointer);
      if (tree === undefined || tokens === undefined) return undefined;
      return lines.position(jsonOffset(tree, tokens));
    };
    const locateDepth = (maxDepth: number) => {
      const offset = depthOffset(text, maxDepth, 0);
      return offset === undefined ? undefined : lines.position(offset);
    };
    for (const dup of duplicateKeys(text, 20)) {
      issues.add('W_DUPLICATE_KEY', '', `the key ${JSON.stringify(dup.key)} appears twice in one object; the last one is kept`, lines.position(dup.offset));
    }
    return { value, syntax: 'json', locate, locateDepth };
  } catch (cause) {
    const jsonl = parseJsonLines(text, lines, issues);
    if (jsonl !== false) return jsonl;
    const { offset, detail } = jsonSyntaxError(text, cause);
    issues.add('E_SYNTAX', '', detail, lines.position(offset));
    return undefined;
  }
}

/**
 * JSON Lines: one JSON value per non-blank line. Tried when the whole text is not JSON but its
 * first line is. The value is the array of the lines' values, so `/3/function/0` is the first
 * function of the fourth non-blank line. Returns `false` when the text is not JSON Lines at all.
 */
function parseJsonLines(text: string, lines: LineIndex, issues: IssueList): ParsedText | undefined | false {
  const records: { start: number; text: string }[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== '') records.push({ start, text: line });
    start = end + 1;
  }
  if (records.length < 2) return false;
  try {
    JSON.parse((records[0] as { text: string }).text);
  } catch {
    return false;
  }
  const value: unknown[] = [];
  let failed = false;
  for (const record of records) {
    try {
      value.push(JSON.parse(record.text));
    } catch (cause) {
      failed = true;
      const { offset, detail } = jsonSyntaxError(record.text, cause);
      issues.add('E_SYNTAX', `/${value.length}`, `JSON Lines record: ${detail}`, lines.position(record.start + offset));
      value.push(null);
    }
  }
  if (failed) return undefined;
  const trees = new Map<number, Jsonc.Node | undefined>();
  const locate: Locator = (pointer) => {
    const tokens = safePointer(pointer);
    if (tokens === undefined) return undefined;
    if (tokens.length === 0) return lines.position(0);
    const head = tokens[0] as string;
    const index = /^(0|[1-9]\d*)$/.test(head) ? Number(head) : -1;
    const record = records[index];
    if (record === undefined) return lines.position(0);
    if (!trees.has(index)) trees.set(index, jsonTree(record.text));
    const tree = trees.get(index);
    const leading = record.text.length - record.text.trimStart().length;
    return lines.position(record.start + (tree ? jsonOffset(tree, tokens.slice(1)) : leading));
  };
  const locateDepth = (maxDepth: number) => {
    const offset = depthOffset(text, maxDepth, 1);
    return offset === undefined ? undefined : lines.position(offset);
  };
  return { value, syntax: 'jsonl', locate, locateDepth };
}

const pairIndex = new WeakMap<object, Map<string, Pair>>();

function yamlKeyName(key: unknown): string {
  if (yaml().isScalar(key)) return String(key.value ?? '');
  return key === null || key === undefined ? '' : String(key);
}

function pairOf(map: YAMLMap, token: string): Pair | undefined {
  let index = pairIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const pair of map.items) index.set(yamlKeyName(pair.key), pair);
    pairIndex.set(map, index);
  }
  return index.get(token);
}

function yamlOffset(doc: Document, tokens: readonly string[]): number | undefined {
  let node: unknown = doc.contents;
  let offset = (node as YamlNode | null)?.range?.[0];
  for (const token of tokens) {
    if (yaml().isAlias(node)) node = node.resolve(doc);
    let next: unknown;
    let at: number | undefined;
    if (yaml().isMap(node)) {
      const pair = pairOf(node, token);
      next = pair?.value;
      at = yaml().isScalar(pair?.key) ? pair.key.range?.[0] : (next as YamlNode | null)?.range?.[0];
    } else if (yaml().isSeq(node) && /^(0|[1-9]\d*)$/.test(token)) {
      next = node.items[Number(token)];
      at = (next as YamlNode | null)?.range?.[0];
    }
    if (at === undefined) break;
    offset = at;
    if (next === undefined || next === null) break;
    node = next;
  }
  return offset;
}

function parseYaml(text: string, options: ParseTextOptions, issues: IssueList): ParsedText | undefined {
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    const seen = new Set<string>();
    for (const error of doc.errors) {
      const firstLine = error.message.split('\n')[0] ?? error.message;
      // Nested errors repeat at every level: one of each kind is enough.
      const key = firstLine;
      if (seen.has(key)) continue;
      seen.add(key);
      if (/call stack/i.test(firstLine)) issues.add('E_TOO_DEEP', '', 'YAML nesting too deep to parse', position(error.pos[0]));
      else issues.add('E_SYNTAX', '', `invalid YAML: ${firstLine}`, position(error.pos[0]));
      if (seen.size === 10) break;
    }
    return undefined;
  }
  if (doc.contents === null) {
    issues.add('E_EMPTY_DOCUMENT', '', 'the YAML document has no content', position(0));
    return undefined;
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: options.maxAliasCount });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/alias/i.test(message)) {
      issues.add(
        'E_YAML_ALIAS_LIMIT',
        '',
        `YAML aliases expand too often (maxAliasCount ${options.maxAliasCount}): ${message}`,
        position(0),
      );
    } else {
      issues.add('E_SYNTAX', '', `invalid YAML: ${message}`, position(0));
    }
    return undefined;
  }
  const locate: Locator = (pointer) => {
    const tokens = safePointer(pointer);
    if (tokens === undefined) return undefined;
    const offset = yamlOffset(doc, tokens);
    return offset === undefined ? undefined : position(offset);
  };
  return { value, syntax: 'yaml', locate };
}

/** UTF-8 byte length of `text`, without encoding it when the answer is clear from its length. */
function exceedsBytes(text: string, maxBytes: number): number | undefined {
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > maxBytes ? bytes : undefined;
}

/**
 * Parses document text as JSON (text starting with `{` or `[`), JSON Lines (JSON whose lines
 * each parse) or YAML 1.2 (everything else). Problems go to `issues`; the result is then
 * `undefined`.
 */
export function parseText(input: string, options: ParseTextOptions, issues: IssueList): ParsedText | undefined {
  const bytes = exceedsBytes(input, options.maxBytes);
  if (bytes !== undefined) {
    issues.add('E_TOO_LARGE', '', `the document has ${bytes} bytes, more than maxBytes (${options.maxBytes})`, {
      line: 1,
      column: 1,
    });
    return undefined;
  }
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const lines = new LineIndex(text);
  const first = /\S/.exec(text);
  if (first === null) {
    issues.add('E_EMPTY_DOCUMENT', '', 'the document is empty', { line: 1, column: 1 });
    return undefined;
  }
  if (first[0] === '{' || first[0] === '[') return parseJson(text, lines, issues);
  return parseYaml(text, options, issues);
}
