import type { JsonObject, JsonSchema, JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { NativeTool, ToolContext } from '../tool-context.js';
import type { DriverTool } from './driver.js';
import { DriverParamsError, defineDriver } from './driver.js';

// A hierarchical file tree with a current directory, run with POSIX-like semantics: names and
// paths are relative to the current directory (`..`, `.`, and `/`-absolute paths resolve as a
// shell does), and an agent's mistake (a missing file, a name that exists) is an error
// observation whose message says what and where (`cd: no such directory: 'x'`).
//
// The tree stays in the state in the shape it came in (a sample's format is kept, so a final
// state compares with the real system's): either nodes `{type: 'directory', contents: {name:
// node}}` / `{type: 'file', content}` with configurable key names (and optionally each node's
// own name), or plain nested objects whose leaves are file contents (strings).

/** The operations this driver runs. */
export const FILE_TREE_OPS = [
  'cd',
  'pwd',
  'ls',
  'tree',
  'mkdir',
  'touch',
  'write',
  'append',
  'echo',
  'read',
  'mv',
  'cp',
  'rm',
  'rmdir',
  'find',
  'grep',
  'wc',
  'sort',
  'diff',
  'tail',
  'head',
  'du',
  'stat',
] as const;
export type FileTreeOp = (typeof FILE_TREE_OPS)[number];

/** Argument roles: which of the tool's parameters carries what. */
export const FILE_TREE_ARG_ROLES = ['path', 'source', 'destination', 'content', 'pattern', 'name', 'lines', 'mode', 'all', 'human', 'parents', 'first', 'second'] as const;
export type FileTreeArgRole = (typeof FILE_TREE_ARG_ROLES)[number];

/** Output roles: which property of the tool's output carries what. */
export const FILE_TREE_OUT_ROLES = ['path', 'entries', 'content', 'lines', 'message', 'count', 'unit', 'diff', 'usage', 'size', 'type', 'name'] as const;
export type FileTreeOutRole = (typeof FILE_TREE_OUT_ROLES)[number];

/** How the tree is written in the state. */
export type FileTreeFormat =
  | {
      kind: 'nodes';
      /** The key naming a node's kind (`type`), and its values for directories and files. */
      typeKey: string;
      dirType: string;
      fileType: string;
      /** A directory's children, a mapping from name to node (`contents`). */
      childrenKey: string;
      /** A file's text (`content`). */
      contentKey: string;
      /** When nodes also carry their own name (`name`). */
      nameKey?: string;
    }
  | { kind: 'plain' };

/** The params of a file-tree tool (written by env-synth's file-tree family). */
export interface FileTreeParams {
  op: FileTreeOp;
  /** The state key holding the tree. */
  tree: string;
  /** The state key holding the current directory (an absolute path such as `/home/docs`). */
  cwd: string;
  format: FileTreeFormat;
  /**
   * `mapping`: the tree value maps top-level names to nodes (the virtual root `/` holds them);
   * `node`: the value is one directory node (named: `/` holds it under its name; else it is `/`).
   */
  root: 'mapping' | 'node';
  /** The current directory when the state holds none. */
  home: string;
  args: Partial<Record<FileTreeArgRole, string>>;
  /** Roles whose argument must be a bare name in the current directory (the description says so). */
  local?: FileTreeArgRole[];
  /** Argument values that mean "not given" (a declared default such as `None`). */
  none?: string[];
  out: Partial<Record<FileTreeOutRole, string>>;
  /** `mkdir` creates missing parent directories too (as `mkdir -p`). Default false. */
  parents?: boolean;
  /** Lines shown by `tail`/`head` when not given. Default 10. */
  defaultLines?: number;
  /** Names of the `wc` units in outputs. Default `lines`, `words`, `characters`. */
  units?: { lines: string; words: string; characters: string };
}

interface FileNode {
  kind: 'file';
  content: string;
  extra: JsonObject;
}
interface DirNode {
  kind: 'dir';
  entries: Map<string, TreeNode>;
  extra: JsonObject;
}
type TreeNode = FileNode | DirNode;

const UTF8 = new TextEncoder();

function fail(message: string): never {
  throw new Error(message);
}

// ---------------------------------------------------------------------------------------------
// State <-> tree

function parseNode(v: JsonValue, f: FileTreeFormat, where: string): TreeNode {
  if (f.kind === 'plain') {
    if (typeof v === 'string') return { kind: 'file', content: v, extra: {} };
    if (isJsonObject(v)) {
      const entries = new Map<string, TreeNode>();
      for (const [k, x] of Object.entries(v)) entries.set(k, parseNode(x, f, `${where}/${k}`));
      return { kind: 'dir', entries, extra: {} };
    }
    if (typeof v === 'number' || typeof v === 'boolean') return { kind: 'file', content: String(v), extra: {} };
    return fail(`the file tree is damaged at ${where}: not a file or a directory`);
  }
  if (!isJsonObject(v)) return fail(`the file tree is damaged at ${where}: not a node`);
  const extra: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (k !== f.typeKey && k !== f.childrenKey && k !== f.contentKey && k !== f.nameKey) extra[k] = x;
  if (v[f.typeKey] === f.dirType) {
    const children = v[f.childrenKey];
    const entries = new Map<string, TreeNode>();
    if (isJsonObject(children)) for (const [k, x] of Object.entries(children)) entries.set(k, parseNode(x, f, `${where}/${k}`));
    return { kind: 'dir', entries, extra };
  }
  const content = v[f.contentKey];
  return { kind: 'file', content: typeof content === 'string' ? content : content === undefined || content === null ? '' : JSON.stringify(content), extra };
}

function writeNode(n: TreeNode, name: string, f: FileTreeFormat): JsonValue {
  if (f.kind === 'plain') {
    if (n.kind === 'file') return n.content;
    const out: JsonObject = {};
    for (const [k, c] of n.entries) out[k] = writeNode(c, k, f);
    return out;
  }
  const out: JsonObject = { [f.typeKey]: n.kind === 'dir' ? f.dirType : f.fileType };
  if (f.nameKey !== undefined) out[f.nameKey] = name;
  if (n.kind === 'dir') {
    const children: JsonObject = {};
    for (const [k, c] of n.entries) children[k] = writeNode(c, k, f);
    out[f.childrenKey] = children;
  } else {
    out[f.contentKey] = n.content;
  }
  return { ...n.extra, ...out };
}

function readTreeValue(ctx: ToolContext, key: string): JsonValue | undefined {
  if (ctx.db.collections().includes(key)) {
    const out: JsonObject = {};
    for (const id of ctx.db.ids(key)) out[id] = ctx.db.get(key, id) as JsonObject;
    return out;
  }
  return ctx.db.read(key);
}

function loadRoot(ctx: ToolContext, p: FileTreeParams): DirNode {
  const value = readTreeValue(ctx, p.tree);
  if (value === undefined) return fail(`the file tree "${p.tree}" is missing from the state`);
  if (p.root === 'mapping') {
    if (!isJsonObject(value)) return fail(`the file tree "${p.tree}" is not a mapping of names to entries`);
    const entries = new Map<string, TreeNode>();
    for (const [k, x] of Object.entries(value)) entries.set(k, parseNode(x, p.format, `/${k}`));
    return { kind: 'dir', entries, extra: {} };
  }
  const node = parseNode(value, p.format, '/');
  if (node.kind !== 'dir') return fail(`the file tree "${p.tree}" is not a directory`);
  const name = p.format.kind === 'nodes' && p.format.nameKey !== undefined && isJsonObject(value) ? value[p.format.nameKey] : undefined;
  if (typeof name === 'string' && name !== '') return { kind: 'dir', entries: new Map([[name, node]]), extra: {} };
  return node;
}

function saveRoot(ctx: ToolContext, p: FileTreeParams, root: DirNode): void {
  if (p.root === 'mapping') {
    const value: JsonObject = {};
    for (const [k, c] of root.entries) value[k] = writeNode(c, k, p.format);
    if (!ctx.db.collections().includes(p.tree)) {
      ctx.db.write(p.tree, value);
      return;
    }
    const old = new Set(ctx.db.ids(p.tree));
    for (const id of old) if (!(id in value)) ctx.db.delete(p.tree, id);
    for (const [id, v] of Object.entries(value)) {
      if (!isJsonObject(v)) fail(`the top of the file tree "${p.tree}" can hold directories only`);
      if (!old.has(id) || JSON.stringify(ctx.db.get(p.tree, id)) !== JSON.stringify(v)) ctx.db.put(p.tree, id, v);
    }
    return;
  }
  const value = readTreeValue(ctx, p.tree);
  const named = p.format.kind === 'nodes' && p.format.nameKey !== undefined && isJsonObject(value) && typeof value[p.format.nameKey] === 'string' && value[p.format.nameKey] !== '';
  if (named) {
    const [only, ...more] = [...root.entries];
    if (only === undefined || more.length > 0 || only[1].kind !== 'dir') fail('the top directory cannot be removed, renamed or given siblings');
    ctx.db.write(p.tree, writeNode(only[1], only[0], p.format));
  } else {
    ctx.db.write(p.tree, writeNode(root, '', p.format));
  }
}

// ---------------------------------------------------------------------------------------------
// Paths

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/** Absolute path parts of `arg` seen from `cwd` (`..` above the root stays at the root). */
function resolveParts(cwd: readonly string[], arg: string): string[] {
  const parts = arg.startsWith('/') ? [] : [...cwd];
  for (const seg of arg.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts;
}

function pathText(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}

function nodeAt(root: DirNode, parts: readonly string[]): TreeNode | undefined {
  let cur: TreeNode = root;
  for (const seg of parts) {
    if (cur.kind !== 'dir') return undefined;
    const next: TreeNode | undefined = cur.entries.get(seg);
    if (next === undefined) return undefined;
    cur = next;
  }
  return cur;
}

function dirAt(root: DirNode, parts: readonly string[]): DirNode | undefined {
  const n = nodeAt(root, parts);
  return n?.kind === 'dir' ? n : undefined;
}

function cloneNode(n: TreeNode): TreeNode {
  if (n.kind === 'file') return { kind: 'file', content: n.content, extra: structuredClone(n.extra) };
  return { kind: 'dir', entries: new Map([...n.entries].map(([k, c]) => [k, cloneNode(c)])), extra: structuredClone(n.extra) };
}

function sizeOf(n: TreeNode): number {
  if (n.kind === 'file') return UTF8.encode(n.content).length;
  let total = 0;
  for (const c of n.entries.values()) total += sizeOf(c);
  return total;
}

function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(2)} ${units[i] as string}`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Glob (`*`, `?`) when the pattern has wildcards, else a substring test. */
function nameMatcher(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name.includes(pattern);
  return (name) => globMatch(pattern, name);
}

/**
 * Wildcard match (`*` any run, `?` one character) by the greedy two-pointer method: at most
 * |pattern| × |name| steps, never the exponential backtracking a regular expression built from
 * an agent's pattern could take.
 */
function globMatch(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/** The changed lines of two texts, `- ` for lines only in the first, `+ ` only in the second (an LCS alignment). */
function lineDiff(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  // The LCS table is n × m: past a few million cells (files an agent made huge) compare line by
  // line instead, so that a diff never exhausts the host's memory.
  if (n * m > 4_000_000) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(n, m); i++) {
      if (a[i] === b[i]) continue;
      if (i < n) out.push(`- ${a[i] as string}`);
      if (i < m) out.push(`+ ${b[i] as string}`);
    }
    return out;
  }
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j] ? ((lcs[i + 1] as number[])[j + 1] as number) + 1 : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const out: string[] = [];
  let del: string[] = [];
  let ins: string[] = [];
  const flush = (): void => {
    out.push(...del.map((l) => `- ${l}`), ...ins.map((l) => `+ ${l}`));
    del = [];
    ins = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flush();
      i++;
      j++;
    } else if (j < m && (i >= n || ((lcs[i] as number[])[j + 1] as number) >= ((lcs[i + 1] as number[])[j] as number))) {
      ins.push(b[j++] as string);
    } else {
      del.push(a[i++] as string);
    }
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------------------------
// The driver

function propType(schema: JsonSchema, prop: string | undefined): string | undefined {
  if (prop === undefined || typeof schema !== 'object' || schema === null) return undefined;
  const p = (schema.properties as Record<string, JsonSchema> | undefined)?.[prop];
  if (typeof p !== 'object' || p === null) return undefined;
  const t = p.type;
  return typeof t === 'string' ? t : Array.isArray(t) ? (t.find((x) => x !== 'null') as string | undefined) : undefined;
}

function parseParams(params: JsonValue): FileTreeParams {
  if (!isJsonObject(params)) throw new DriverParamsError('', 'file-tree params must be an object');
  const p = params as unknown as FileTreeParams;
  if (!(FILE_TREE_OPS as readonly string[]).includes(p.op)) throw new DriverParamsError('/op', `unknown file-tree operation "${String(p.op)}"`);
  if (typeof p.tree !== 'string' || p.tree === '') throw new DriverParamsError('/tree', 'tree must name a state key');
  if (typeof p.cwd !== 'string' || p.cwd === '') throw new DriverParamsError('/cwd', 'cwd must name a state key');
  if (typeof p.home !== 'string' || !p.home.startsWith('/')) throw new DriverParamsError('/home', 'home must be an absolute path');
  if (p.root !== 'mapping' && p.root !== 'node') throw new DriverParamsError('/root', 'root must be "mapping" or "node"');
  const f = p.format as FileTreeFormat | undefined;
  if (!isJsonObject(f as unknown as JsonValue) || (f?.kind !== 'plain' && f?.kind !== 'nodes')) throw new DriverParamsError('/format', 'format must be { kind: "nodes" | "plain" }');
  if (f.kind === 'nodes') {
    for (const k of ['typeKey', 'dirType', 'fileType', 'childrenKey', 'contentKey'] as const) {
      if (typeof f[k] !== 'string' || f[k] === '') throw new DriverParamsError(`/format/${k}`, `${k} must be a non-empty string`);
    }
  }
  for (const [field, roles] of [
    ['args', FILE_TREE_ARG_ROLES],
    ['out', FILE_TREE_OUT_ROLES],
  ] as const) {
    const map = (p as unknown as Record<string, unknown>)[field];
    if (!isJsonObject(map as JsonValue)) throw new DriverParamsError(`/${field}`, `${field} must be an object`);
    for (const [role, name] of Object.entries(map as JsonObject)) {
      if (!(roles as readonly string[]).includes(role)) throw new DriverParamsError(`/${field}/${role}`, `unknown role "${role}"`);
      if (typeof name !== 'string') throw new DriverParamsError(`/${field}/${role}`, 'a role names a property (string)');
    }
  }
  return p;
}

export const fileTreeDriver = defineDriver<FileTreeParams>({
  name: 'file-tree',
  version: 1,
  parse: parseParams,
  compile(p: FileTreeParams, tool: DriverTool): NativeTool {
    const who = tool.name;
    const none = new Set(p.none ?? []);
    const local = new Set(p.local ?? []);
    const units = p.units ?? { lines: 'lines', words: 'words', characters: 'characters' };
    const outTypes = new Map<FileTreeOutRole, string | undefined>();
    for (const [role, prop] of Object.entries(p.out)) outTypes.set(role as FileTreeOutRole, propType(tool.outputSchema, prop));

    const arg = (args: JsonObject, role: FileTreeArgRole): JsonValue | undefined => {
      const name = p.args[role];
      if (name === undefined) return undefined;
      const v = args[name];
      if (v === undefined || v === null || (typeof v === 'string' && none.has(v))) return undefined;
      return v;
    };
    const text = (args: JsonObject, role: FileTreeArgRole, required: boolean): string | undefined => {
      const v = arg(args, role);
      if (v === undefined) return required ? fail(`${who}: "${p.args[role] ?? role}" is required`) : undefined;
      const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fail(`${who}: "${p.args[role] ?? role}" must be a string`);
      if (required && s.trim() === '') fail(`${who}: "${p.args[role] ?? role}" must not be empty`);
      if (local.has(role) && s.includes('/')) fail(`${who}: '${s}' must be a name in the current directory, not a path`);
      return s;
    };
    const flag = (args: JsonObject, role: FileTreeArgRole): boolean => {
      const v = arg(args, role);
      return v === true || v === 'true' || v === 'True' || v === 1;
    };
    const output = (values: Partial<Record<FileTreeOutRole, JsonValue>>): JsonObject => {
      const out: JsonObject = {};
      for (const [role, v] of Object.entries(values) as [FileTreeOutRole, JsonValue][]) {
        const prop = p.out[role];
        if (prop === undefined) continue;
        const t = outTypes.get(role);
        if (t === 'array' && typeof v === 'string') out[prop] = splitLines(v);
        else if (t === 'string' && Array.isArray(v)) out[prop] = v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n');
        else if (t === 'string' && typeof v === 'number') out[prop] = String(v);
        else out[prop] = v;
      }
      return out;
    };

    return (args, ctx) => {
      const root = loadRoot(ctx, p);
      const stored = ctx.db.read(p.cwd);
      let cwd = splitPath(typeof stored === 'string' ? stored : p.home);
      // A current directory removed by an earlier call: the nearest directory above it.
      while (cwd.length > 0 && dirAt(root, cwd) === undefined) cwd = cwd.slice(0, -1);
      const at = (s: string): string[] => resolveParts(cwd, s);
      const existing = (s: string, what: string): { parts: string[]; node: TreeNode } => {
        const parts = at(s);
        const node = nodeAt(root, parts);
        if (node === undefined) fail(`${who}: no such ${what}: '${s}'`);
        return { parts, node };
      };
      const file = (s: string): FileNode => {
        const { node } = existing(s, 'file');
        if (node.kind !== 'file') fail(`${who}: '${s}' is a directory`);
        return node;
      };
      const parentOf = (s: string, parts: string[]): DirNode => {
        const dir = dirAt(root, parts.slice(0, -1));
        if (dir === undefined) fail(`${who}: no such directory: '${pathText(parts.slice(0, -1))}' (for '${s}')`);
        if (parts.length === 0) fail(`${who}: '${s}' is the root directory`);
        return dir;
      };
      const containsCwd = (parts: readonly string[]): boolean => parts.length <= cwd.length && parts.every((x, i) => cwd[i] === x);
      const newFile = (content: string): FileNode => ({ kind: 'file', content, extra: {} });

      switch (p.op) {
        case 'cd': {
          const target = text(args, 'path', false) ?? p.home;
          const parts = at(target);
          const node = nodeAt(root, parts);
          if (node === undefined) fail(`${who}: no such directory: '${target}'`);
          if (node.kind !== 'dir') fail(`${who}: not a directory: '${target}'`);
          ctx.db.write(p.cwd, pathText(parts));
          return output({ path: pathText(parts), name: parts[parts.length - 1] ?? '/' });
        }
        case 'pwd':
          return output({ path: pathText(cwd) });
        case 'ls': {
          const target = text(args, 'path', false);
          const { node } = target === undefined ? { node: dirAt(root, cwd) as DirNode } : existing(target, 'file or directory');
          const names = node.kind === 'file' ? [target as string] : [...node.entries.keys()].filter((n) => flag(args, 'all') || !n.startsWith('.')).sort();
          return output({ entries: names, content: names.join('\n') });
        }
        case 'tree': {
          const target = text(args, 'path', false);
          const { node } = target === undefined ? { node: dirAt(root, cwd) as DirNode } : existing(target, 'directory');
          const walk = (n: TreeNode, name: string): JsonObject =>
            n.kind === 'file' ? { name, type: 'file' } : { name, type: 'directory', children: [...n.entries].map(([k, c]) => walk(c, k)) };
          const tree = walk(node, target ?? (cwd[cwd.length - 1] ?? '/'));
          return output({ entries: (tree.children ?? [tree]) as JsonValue, content: JSON.stringify(tree) });
        }
        case 'mkdir': {
          const target = text(args, 'path', true) as string;
          const parts = at(target);
          if (nodeAt(root, parts) !== undefined) fail(`${who}: cannot create directory '${target}': it already exists`);
          if (p.parents === true || flag(args, 'parents')) {
            let dir = root;
            for (const seg of parts) {
              const next: TreeNode = dir.entries.get(seg) ?? { kind: 'dir', entries: new Map(), extra: {} };
              if (next.kind !== 'dir') fail(`${who}: cannot create directory '${target}': '${seg}' is a file`);
              dir.entries.set(seg, next);
              dir = next;
            }
          } else {
            parentOf(target, parts).entries.set(parts[parts.length - 1] as string, { kind: 'dir', entries: new Map(), extra: {} });
          }
          saveRoot(ctx, p, root);
          return output({ message: `'${target}' created`, path: pathText(parts) });
        }
        case 'touch': {
          const target = text(args, 'path', true) as string;
          const parts = at(target);
          if (nodeAt(root, parts) === undefined) {
            parentOf(target, parts).entries.set(parts[parts.length - 1] as string, newFile(''));
            saveRoot(ctx, p, root);
          }
          return output({ message: `'${target}' created`, path: pathText(parts) });
        }
        case 'write':
        case 'append':
        case 'echo': {
          const given = arg(args, 'content');
          if (given === undefined && p.op === 'echo') fail(`${who}: "${p.args.content ?? 'content'}" is required`);
          const content = given === undefined ? '' : typeof given === 'string' ? given : JSON.stringify(given);
          const target = text(args, 'path', p.op !== 'echo');
          if (target === undefined) return output({ content });
          const parts = at(target);
          const node = nodeAt(root, parts);
          if (node?.kind === 'dir') fail(`${who}: '${target}' is a directory`);
          if (node === undefined) parentOf(target, parts).entries.set(parts[parts.length - 1] as string, newFile(content));
          else node.content = p.op === 'append' ? (node.content === '' || node.content.endsWith('\n') ? node.content + content : `${node.content}\n${content}`) : content;
          saveRoot(ctx, p, root);
          return output({ message: `wrote ${UTF8.encode(content).length} bytes to '${target}'`, path: pathText(parts) });
        }
        case 'read': {
          const f = file(text(args, 'path', true) as string);
          return output({ content: f.content });
        }
        case 'mv':
        case 'cp': {
          const src = text(args, 'source', true) as string;
          const dest = text(args, 'destination', true) as string;
          const { parts: srcParts, node } = existing(src, 'file or directory');
          if (srcParts.length === 0) fail(`${who}: cannot ${p.op === 'mv' ? 'move' : 'copy'} the root directory`);
          const name = srcParts[srcParts.length - 1] as string;
          let destParts = at(dest);
          let shown = dest;
          const destNode = nodeAt(root, destParts);
          if (destNode?.kind === 'dir') {
            destParts = [...destParts, name];
            shown = `${dest.replace(/\/+$/, '')}/${name}`;
            if (destNode.entries.has(name)) fail(`${who}: '${shown}' already exists`);
          } else if (destNode?.kind === 'file' && node.kind === 'dir') {
            fail(`${who}: cannot overwrite the file '${dest}' with the directory '${src}'`);
          }
          if (pathText(destParts) === pathText(srcParts)) fail(`${who}: '${src}' and '${dest}' are the same`);
          if (node.kind === 'dir' && destParts.length > srcParts.length && srcParts.every((x, i) => destParts[i] === x)) {
            fail(`${who}: cannot ${p.op === 'mv' ? 'move' : 'copy'} '${src}' into itself`);
          }
          if (p.op === 'mv' && containsCwd(srcParts)) fail(`${who}: cannot move '${src}': it contains the current directory`);
          const target = parentOf(dest, destParts);
          if (p.op === 'mv') (dirAt(root, srcParts.slice(0, -1)) as DirNode).entries.delete(name);
          target.entries.set(destParts[destParts.length - 1] as string, p.op === 'mv' ? node : cloneNode(node));
          saveRoot(ctx, p, root);
          return output({ message: `'${src}' ${p.op === 'mv' ? 'moved' : 'copied'} to '${shown}'`, path: pathText(destParts) });
        }
        case 'rm':
        case 'rmdir': {
          const target = text(args, 'path', true) as string;
          const { parts, node } = existing(target, p.op === 'rmdir' ? 'directory' : 'file or directory');
          if (parts.length === 0 || containsCwd(parts)) fail(`${who}: cannot remove '${target}': it contains the current directory`);
          if (p.op === 'rmdir') {
            if (node.kind !== 'dir') fail(`${who}: failed to remove '${target}': not a directory`);
            if (node.entries.size > 0) fail(`${who}: failed to remove '${target}': directory not empty`);
          }
          (dirAt(root, parts.slice(0, -1)) as DirNode).entries.delete(parts[parts.length - 1] as string);
          saveRoot(ctx, p, root);
          return output({ message: `'${target}' removed` });
        }
        case 'find': {
          const start = text(args, 'path', false) ?? '.';
          const { node } = existing(start, 'directory');
          const name = text(args, 'name', false) ?? text(args, 'pattern', false);
          const test = name === undefined ? () => true : nameMatcher(name);
          const found: string[] = [];
          const base = start.replace(/\/+$/, '') || '/';
          const walk = (n: TreeNode, prefix: string): void => {
            if (n.kind !== 'dir') return;
            for (const [k, c] of n.entries) {
              const path = prefix === '/' ? `/${k}` : `${prefix}/${k}`;
              if (test(k)) found.push(path);
              walk(c, path);
            }
          };
          if (node.kind === 'file') {
            if (test(splitPath(start).pop() ?? start)) found.push(start);
          } else walk(node, base);
          return output({ entries: found, content: found.join('\n') });
        }
        case 'grep': {
          const pattern = text(args, 'pattern', true) as string;
          const f = file(text(args, 'path', true) as string);
          const lines = splitLines(f.content).filter((l) => l.includes(pattern));
          return output({ lines, content: lines.join('\n'), count: lines.length });
        }
        case 'wc': {
          const f = file(text(args, 'path', true) as string);
          const mode = (text(args, 'mode', false) ?? 'l').toLowerCase();
          const unit = /^(w|words?)$/.test(mode) ? 'words' : /^(c|m|chars?|characters?|bytes?)$/.test(mode) ? 'characters' : /^(l|lines?)$/.test(mode) ? 'lines' : fail(`${who}: unknown mode '${mode}' (lines, words or characters)`);
          const count = unit === 'words' ? f.content.split(/\s+/).filter((w) => w !== '').length : unit === 'characters' ? [...f.content].length : splitLines(f.content).length;
          return output({ count, unit: units[unit] });
        }
        case 'sort': {
          const f = file(text(args, 'path', true) as string);
          const sorted = splitLines(f.content).sort();
          return output({ content: sorted.join('\n'), lines: sorted });
        }
        case 'tail':
        case 'head': {
          const f = file(text(args, 'path', true) as string);
          const raw = arg(args, 'lines');
          const n = raw === undefined ? (p.defaultLines ?? 10) : Number(raw);
          if (!Number.isInteger(n) || n < 0) fail(`${who}: the number of lines must be a whole number ≥ 0, got ${JSON.stringify(raw)}`);
          const lines = splitLines(f.content);
          const part = p.op === 'tail' ? lines.slice(Math.max(0, lines.length - n)) : lines.slice(0, n);
          return output({ content: part.join('\n'), lines: part });
        }
        case 'diff': {
          const a = file(text(args, 'first', true) as string);
          const b = file(text(args, 'second', true) as string);
          const lines = lineDiff(splitLines(a.content), splitLines(b.content));
          return output({ diff: lines.join('\n'), lines });
        }
        case 'du': {
          const target = text(args, 'path', false);
          const { node } = target === undefined ? { node: dirAt(root, cwd) as DirNode } : existing(target, 'file or directory');
          const size = sizeOf(node);
          return output({ usage: flag(args, 'human') ? humanSize(size) : `${size} bytes`, size });
        }
        case 'stat': {
          const target = text(args, 'path', true) as string;
          const { parts, node } = existing(target, 'file or directory');
          return output({
            name: parts[parts.length - 1] ?? '/',
            path: pathText(parts),
            type: node.kind === 'dir' ? 'directory' : 'file',
            size: sizeOf(node),
            count: node.kind === 'dir' ? node.entries.size : splitLines(node.content).length,
          });
        }
        default:
          return fail(`${who}: unknown file-tree operation`);
      }
    };
  },
});
