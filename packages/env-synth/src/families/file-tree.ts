import type { JsonObject, JsonSchema, JsonSchemaObject, JsonValue, ToolEffect } from '@autoforge/core';
import { createRng, isJsonObject, splitWords } from '@autoforge/core';
import type { ToolAnalysis } from '../analyze-tool.js';
import { seededFaker } from '../values/realistic.js';
import type { Family, FamilyClaim, FamilyInput, FamilyPlan, PlannedTool, Probe } from './family.js';

// A hierarchical file tree with a current directory (the `file-tree` driver of env-runtime).
// Recognised from tools named like shell commands or file operations (`ls`, `mkdir`, `cat`,
// `read_file`, `move_file`, `list_directory`…) whose parameters play file-system roles
// (`file_name`, `folder`, `path`, `dir_name`, `source`/`destination`, `content`). With a sample
// state, a tree in it is adopted in its own format (nodes `{type: 'directory', contents}` /
// `{type: 'file', content}`, or plain nested objects whose leaves are file contents), so a final
// state compares with the real system's. Without one, a small realistic tree is generated.

type Op =
  | 'cd'
  | 'pwd'
  | 'ls'
  | 'tree'
  | 'mkdir'
  | 'touch'
  | 'write'
  | 'append'
  | 'echo'
  | 'read'
  | 'mv'
  | 'cp'
  | 'rm'
  | 'rmdir'
  | 'find'
  | 'grep'
  | 'wc'
  | 'sort'
  | 'diff'
  | 'tail'
  | 'head'
  | 'du'
  | 'stat';
type ArgRole = 'path' | 'source' | 'destination' | 'content' | 'pattern' | 'name' | 'lines' | 'mode' | 'all' | 'human' | 'parents' | 'first' | 'second';
type OutRole = 'path' | 'entries' | 'content' | 'lines' | 'message' | 'count' | 'unit' | 'diff' | 'usage' | 'size' | 'type' | 'name';

/** Tool names that are shell commands, and the operation each runs. */
const COMMANDS: Record<string, Op> = {
  cd: 'cd',
  chdir: 'cd',
  pwd: 'pwd',
  ls: 'ls',
  dir: 'ls',
  tree: 'tree',
  mkdir: 'mkdir',
  touch: 'touch',
  echo: 'echo',
  cat: 'read',
  mv: 'mv',
  cp: 'cp',
  rm: 'rm',
  unlink: 'rm',
  rmdir: 'rmdir',
  find: 'find',
  grep: 'grep',
  wc: 'wc',
  sort: 'sort',
  diff: 'diff',
  tail: 'tail',
  head: 'head',
  du: 'du',
  stat: 'stat',
};
/** Commands whose name alone says "file system" (the others, like `sort` or `find`, need context). */
const UNAMBIGUOUS = new Set(['cd', 'chdir', 'pwd', 'ls', 'mkdir', 'rmdir', 'touch', 'cat', 'mv', 'cp', 'rm', 'grep', 'wc', 'du', 'unlink']);

const FILE_NOUNS = new Set(['file', 'files', 'filename']);
const DIR_NOUNS = new Set(['directory', 'directories', 'dir', 'dirs', 'folder', 'folders', 'cwd']);
const PATH_NOUNS = new Set(['path', 'paths']);

const FS_PARAM = /^(file|files|file_?names?|filename|file_?path|filepath|path|paths|dir|dir_?name|dirname|directory|directory_?path|folder|folder_?name|source|destination|src|dest|source_?path|destination_?path|file_?name_?[12]|file[12]|path[12])$/i;

function wordsOf(name: string): string[] {
  return splitWords(name).map((w) => w.toLowerCase());
}

/** The file-tree operation a tool's name announces (and whether the name alone says "files"). */
function opOf(a: ToolAnalysis): { op: Op; strong: boolean } | undefined {
  const w = wordsOf(a.tool.name);
  const joined = w.join('');
  const first = w[0] ?? '';
  if (w.length === 1 && COMMANDS[joined] !== undefined) return { op: COMMANDS[joined] as Op, strong: UNAMBIGUOUS.has(joined) };
  const has = (set: ReadonlySet<string>): boolean => w.some((x) => set.has(x));
  const any = (...xs: string[]): boolean => xs.some((x) => w.includes(x));
  const file = has(FILE_NOUNS);
  const dir = has(DIR_NOUNS);
  const path = has(PATH_NOUNS);
  const fsNoun = file || dir || path;
  const params = a.params.map((p) => p.name.toLowerCase());
  const hasContent = params.some((p) => /^(content|contents|text|data|body)$/.test(p));
  if (!fsNoun && !any('disk')) return undefined;
  if (any('tree') && dir) return { op: 'tree', strong: true };
  if (any('cd', 'chdir') || (dir && any('change', 'enter', 'go', 'switch', 'set', 'navigate'))) return { op: 'cd', strong: true };
  if (dir && any('current', 'working', 'pwd') && !any('list', 'ls', 'content', 'contents')) return { op: 'pwd', strong: true };
  if (any('disk') && any('usage', 'size')) return { op: 'du', strong: true };
  if (any('info', 'stat', 'metadata', 'stats', 'size') && (file || path)) return { op: 'stat', strong: true };
  if (any('append')) return { op: 'append', strong: true };
  if (any('mkdir') || (dir && any('create', 'make', 'new', 'add'))) return { op: 'mkdir', strong: true };
  if (any('rmdir') || (dir && any('delete', 'remove', 'rm', 'erase'))) return { op: first === 'rmdir' ? 'rmdir' : 'rm', strong: true };
  if (any('move', 'rename', 'mv')) return { op: 'mv', strong: true };
  if (any('copy', 'duplicate', 'cp')) return { op: 'cp', strong: true };
  if (any('delete', 'remove', 'rm', 'unlink', 'erase')) return { op: 'rm', strong: true };
  if (any('grep') || ((any('search', 'find', 'grep') && any('content', 'contents', 'text', 'in', 'inside', 'within')) && file)) return { op: 'grep', strong: true };
  if (any('search', 'find', 'locate')) return { op: 'find', strong: true };
  if (any('list', 'ls') || (any('get', 'show', 'view') && (dir || any('files')) && !file)) return { op: 'ls', strong: true };
  if (any('count') && any('line', 'lines', 'word', 'words', 'character', 'characters')) return { op: 'wc', strong: true };
  if (any('compare', 'diff')) return { op: 'diff', strong: true };
  if (any('tail')) return { op: 'tail', strong: true };
  if (any('head')) return { op: 'head', strong: true };
  if (any('sort')) return { op: 'sort', strong: true };
  if (file && any('create', 'new', 'make', 'add', 'touch')) return { op: hasContent ? 'write' : 'touch', strong: true };
  if (file && any('write', 'save', 'put', 'overwrite', 'update', 'set', 'edit') && hasContent) return { op: 'write', strong: true };
  if (file && any('read', 'get', 'show', 'view', 'open', 'display', 'print', 'cat', 'load')) return { op: 'read', strong: true };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Parameter roles

interface Param {
  name: string;
  schema: JsonSchemaObject;
  required: boolean;
  description: string;
}

function typeOfSchema(s: JsonSchemaObject): string | undefined {
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  return typeof t === 'string' ? t : undefined;
}

function paramsOf(a: ToolAnalysis): Param[] {
  return a.params.map((p) => ({ name: p.name, schema: p.schema, required: p.required, description: p.description }));
}

const DIR_PARAM_NAMES = ['folder', 'dir_name', 'dirname', 'directory', 'dir', 'folder_name', 'directory_path', 'path', 'name'];
const FILE_PARAM_NAMES = ['file_name', 'filename', 'file', 'file_path', 'filepath', 'path', 'name', 'target'];
const NAMES: Record<Exclude<ArgRole, 'path'>, string[]> = {
  source: ['source', 'src', 'from', 'source_path', 'old_path', 'old_name', 'from_path'],
  destination: ['destination', 'dest', 'target', 'to', 'destination_path', 'new_path', 'new_name', 'to_path'],
  content: ['content', 'contents', 'text', 'data', 'body'],
  pattern: ['pattern', 'query', 'regex', 'search', 'keyword', 'term', 'search_term'],
  name: ['name', 'pattern', 'query', 'file_name', 'filename'],
  lines: ['lines', 'n', 'num_lines', 'number_of_lines', 'line_count', 'count', 'limit'],
  mode: ['mode', 'unit', 'count_type', 'type'],
  all: ['a', 'all', 'show_hidden', 'hidden', 'include_hidden', 'all_files'],
  human: ['human_readable', 'human', 'h', 'readable'],
  parents: ['p', 'parents', 'recursive', 'create_parents'],
  first: [],
  second: [],
};
const BOOLEAN_ROLES = new Set<ArgRole>(['all', 'human', 'parents']);
const DIR_OPS = new Set<Op>(['cd', 'mkdir', 'rmdir', 'ls', 'tree', 'du', 'find']);

/** Which roles each operation reads (the first `path`-like parameter is the target). */
const OP_ROLES: Record<Op, ArgRole[]> = {
  cd: ['path'],
  pwd: [],
  ls: ['path', 'all'],
  tree: ['path'],
  mkdir: ['path', 'parents'],
  touch: ['path'],
  write: ['path', 'content'],
  append: ['path', 'content'],
  echo: ['content', 'path'],
  read: ['path'],
  mv: ['source', 'destination'],
  cp: ['source', 'destination'],
  rm: ['path'],
  rmdir: ['path'],
  find: ['path', 'name'],
  grep: ['path', 'pattern'],
  wc: ['path', 'mode'],
  sort: ['path'],
  diff: ['first', 'second'],
  tail: ['path', 'lines'],
  head: ['path', 'lines'],
  du: ['path', 'human'],
  stat: ['path'],
};

interface RoleMap {
  args: Partial<Record<ArgRole, string>>;
  local: ArgRole[];
  none: string[];
  defaultLines?: number;
  /** Required parameters no role covers (the tool cannot be run faithfully). */
  unknownRequired: string[];
}

const LOCAL_TEXT = /no (?:file )?paths? (?:is |are )?allowed|not allow(?:ed)? (?:a )?paths?|does not allow paths?|cannot be a path|local to the current directory|only (?:change )?one (?:folder|directory) level|only (?:create|perform|do)[^.]* (?:at|in|on|from) (?:the )?(?:current|local) directory/i;

function roleMap(op: Op, params: readonly Param[]): RoleMap {
  const args: Partial<Record<ArgRole, string>> = {};
  const used = new Set<string>();
  const byName = (names: readonly string[], type?: string): Param | undefined => {
    for (const n of names) {
      const p = params.find((x) => !used.has(x.name) && x.name.toLowerCase() === n && (type === undefined || typeOfSchema(x.schema) === type || (type === 'integer' && typeOfSchema(x.schema) === 'number')));
      if (p !== undefined) return p;
    }
    return undefined;
  };
  for (const role of OP_ROLES[op]) {
    let p: Param | undefined;
    if (role === 'path') p = byName(DIR_OPS.has(op) ? DIR_PARAM_NAMES : FILE_PARAM_NAMES, 'string');
    else if (role === 'first' || role === 'second') {
      const idx = role === 'first' ? 0 : 1;
      const paired = params.filter((x) => !used.has(x.name) && typeOfSchema(x.schema) === 'string' && (/(?:^|_)(?:1|2|first|second|a|b|old|new|left|right)$|^(?:first|second|old|new|left|right)_/i.test(x.name) || /[12]$/.test(x.name)));
      p = paired.length >= 2 - idx ? paired[0] : undefined;
    } else if (BOOLEAN_ROLES.has(role)) p = byName(NAMES[role], 'boolean');
    else if (role === 'lines') p = byName(NAMES.lines, 'integer');
    else p = byName(NAMES[role], 'string');
    if (p !== undefined) {
      args[role] = p.name;
      used.add(p.name);
    }
  }
  // A single string parameter left, required, with no role: the target when the op has one.
  const leftStrings = params.filter((x) => !used.has(x.name) && typeOfSchema(x.schema) === 'string');
  if (OP_ROLES[op].includes('path') && args.path === undefined && leftStrings.length === 1 && (leftStrings[0] as Param).required && FS_PARAM.test((leftStrings[0] as Param).name)) {
    args.path = (leftStrings[0] as Param).name;
    used.add((leftStrings[0] as Param).name);
  }
  const local: ArgRole[] = [];
  const none: string[] = [];
  let defaultLines: number | undefined;
  for (const [role, name] of Object.entries(args) as [ArgRole, string][]) {
    const p = params.find((x) => x.name === name) as Param;
    const text = `${p.description} ${typeof p.schema.description === 'string' ? p.schema.description : ''}`;
    if (LOCAL_TEXT.test(text) && ['path', 'source', 'destination', 'first', 'second'].includes(role)) local.push(role);
    const d = p.schema.default;
    if (typeof d === 'string' && /^(none|null|nil|undefined)$/i.test(d) && !none.includes(d)) none.push(d);
    if (role === 'lines' && typeof d === 'number') defaultLines = d;
  }
  const unknownRequired = params.filter((x) => x.required && !used.has(x.name)).map((x) => x.name);
  const out: RoleMap = { args, local, none, unknownRequired };
  if (defaultLines !== undefined) out.defaultLines = defaultLines;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Output roles

interface OutWant {
  role: OutRole;
  types: string[];
  words?: RegExp;
  primary?: boolean;
}
const OUT_WANTS: Record<Op, OutWant[]> = {
  // `cd` reports the directory it entered: a property named for a path gets the path, one named
  // for the directory (`current_working_directory`) its name; `pwd` prints the path.
  cd: [
    { role: 'path', types: ['string'], words: /path|location/ },
    { role: 'name', types: ['string'], words: /dir|folder/ },
    { role: 'path', types: ['string'], primary: true },
  ],
  pwd: [{ role: 'path', types: ['string'], words: /dir|path|cwd|folder|location/, primary: true }],
  ls: [
    { role: 'entries', types: ['array'], primary: true },
    { role: 'content', types: ['string'], words: /content|list|output|result|entries|files/ },
  ],
  tree: [
    { role: 'entries', types: ['array'], primary: true },
    { role: 'content', types: ['string'], words: /tree|content|output|result/ },
  ],
  mkdir: [{ role: 'message', types: ['string'], primary: true }],
  touch: [{ role: 'message', types: ['string'], primary: true }],
  write: [{ role: 'message', types: ['string'], primary: true }],
  append: [{ role: 'message', types: ['string'], primary: true }],
  echo: [{ role: 'content', types: ['string'], primary: true }],
  read: [
    { role: 'content', types: ['string'], primary: true },
    { role: 'lines', types: ['array'] },
  ],
  mv: [{ role: 'message', types: ['string'], primary: true }],
  cp: [{ role: 'message', types: ['string'], primary: true }],
  rm: [{ role: 'message', types: ['string'], primary: true }],
  rmdir: [{ role: 'message', types: ['string'], primary: true }],
  find: [
    { role: 'entries', types: ['array'], primary: true },
    { role: 'content', types: ['string'], words: /match|result|path|files|output/ },
  ],
  grep: [
    { role: 'lines', types: ['array'], primary: true },
    { role: 'content', types: ['string'], words: /line|match|result|output/ },
    { role: 'count', types: ['integer', 'number'], words: /count|total|number/ },
  ],
  wc: [
    { role: 'count', types: ['integer', 'number'], primary: true },
    { role: 'unit', types: ['string'], words: /type|unit|mode|kind/ },
  ],
  sort: [
    { role: 'content', types: ['string'], primary: true },
    { role: 'lines', types: ['array'] },
  ],
  diff: [
    { role: 'diff', types: ['string'], primary: true },
    { role: 'lines', types: ['array'] },
  ],
  tail: [
    { role: 'content', types: ['string'], primary: true },
    { role: 'lines', types: ['array'] },
  ],
  head: [
    { role: 'content', types: ['string'], primary: true },
    { role: 'lines', types: ['array'] },
  ],
  du: [
    { role: 'usage', types: ['string'], primary: true },
    { role: 'size', types: ['integer', 'number'], words: /size|bytes|usage|total/ },
  ],
  stat: [
    { role: 'size', types: ['integer', 'number'], words: /size|bytes/ },
    { role: 'type', types: ['string'], words: /type|kind/ },
    { role: 'name', types: ['string'], words: /name/ },
    { role: 'path', types: ['string'], words: /path|location/ },
  ],
};
const DEFAULT_OUT: Record<OutRole, { name: string; schema: JsonSchemaObject }> = {
  path: { name: 'current_directory', schema: { type: 'string', description: 'The path of the directory.' } },
  entries: { name: 'entries', schema: { type: 'array', items: {}, description: 'The names or paths found.' } },
  content: { name: 'content', schema: { type: 'string', description: 'The text.' } },
  lines: { name: 'matching_lines', schema: { type: 'array', items: { type: 'string' }, description: 'The lines.' } },
  message: { name: 'result', schema: { type: 'string', description: 'What the operation did.' } },
  count: { name: 'count', schema: { type: 'integer', description: 'The count.' } },
  unit: { name: 'unit', schema: { type: 'string', description: 'What was counted.' } },
  diff: { name: 'diff', schema: { type: 'string', description: 'The changed lines: `- ` only in the first, `+ ` only in the second.' } },
  usage: { name: 'disk_usage', schema: { type: 'string', description: 'The disk usage.' } },
  size: { name: 'size', schema: { type: 'integer', description: 'The size in bytes.' } },
  type: { name: 'type', schema: { type: 'string', enum: ['file', 'directory'] } },
  name: { name: 'name', schema: { type: 'string' } },
};

function propsOfSchema(schema: JsonSchema | undefined): Record<string, JsonSchemaObject> | undefined {
  if (schema === undefined || typeof schema !== 'object' || schema === null) return undefined;
  const p = schema.properties;
  return p !== undefined && typeof p === 'object' ? (p as Record<string, JsonSchemaObject>) : undefined;
}

/** Output property per role: the document's output schema when it has one, else our defaults. */
function outMap(op: Op, declared: JsonSchema | undefined): { out: Partial<Record<OutRole, string>>; schema: JsonSchemaObject } {
  const props = propsOfSchema(declared);
  const out: Partial<Record<OutRole, string>> = {};
  if (props === undefined) {
    const properties: Record<string, JsonSchemaObject> = {};
    for (const want of OUT_WANTS[op]) {
      if (out[want.role] !== undefined || (op === 'cd' && want.role === 'name')) continue;
      const d = DEFAULT_OUT[want.role];
      const name = op === 'find' && want.role === 'entries' ? 'matches' : op === 'ls' && want.role === 'entries' ? 'entries' : d.name;
      if (want.role === 'content' && OUT_WANTS[op].some((w) => w.primary === true && w.role !== 'content')) continue;
      if (want.role === 'lines' && op !== 'grep') continue;
      out[want.role] = name;
      properties[name] = d.schema;
    }
    if (op === 'mv' || op === 'cp') {
      out.path = 'path';
      properties.path = { type: 'string', description: 'The new path.' };
    }
    return { out, schema: { type: 'object', properties } };
  }
  const used = new Set<string>();
  for (const want of OUT_WANTS[op]) {
    if (out[want.role] !== undefined) continue;
    const fits = Object.entries(props).filter(([k, s]) => !used.has(k) && want.types.includes(typeOfSchema(s) ?? ''));
    const byWords = want.words === undefined ? undefined : fits.find(([k]) => (want.words as RegExp).test(k.toLowerCase()));
    const pick = byWords ?? (want.primary === true ? fits[0] : undefined);
    if (pick !== undefined) {
      out[want.role] = pick[0];
      used.add(pick[0]);
    }
  }
  return { out, schema: declared as JsonSchemaObject };
}

/** `wc` unit names from an output property's enum (`lines`, `words`, `characters`), when it lists them. */
function unitNames(declared: JsonSchema | undefined, prop: string | undefined): { lines: string; words: string; characters: string } | undefined {
  if (prop === undefined) return undefined;
  const s = propsOfSchema(declared)?.[prop];
  if (s === undefined) return undefined;
  let values = Array.isArray(s.enum) ? s.enum.filter((x): x is string => typeof x === 'string') : [];
  if (values.length === 0 && typeof s.description === 'string') {
    const m = /\[enum\]:\s*\[([^\]]*)\]/i.exec(s.description);
    if (m !== null) values = [...(m[1] as string).matchAll(/["']([^"']+)["']/g)].map((x) => x[1] as string);
  }
  const find = (re: RegExp): string | undefined => values.find((v) => re.test(v));
  const lines = find(/line/i);
  const words = find(/word/i);
  const characters = find(/char|byte/i);
  return lines !== undefined && words !== undefined && characters !== undefined ? { lines, words, characters } : undefined;
}

// ---------------------------------------------------------------------------------------------
// The tree in a sample state

type Format =
  | { kind: 'nodes'; typeKey: string; dirType: string; fileType: string; childrenKey: string; contentKey: string; nameKey?: string }
  | { kind: 'plain' };

const TYPE_KEYS = ['type', 'kind', 'node_type'];
const DIR_TYPES = ['directory', 'dir', 'folder'];
const FILE_TYPES = ['file'];
const CHILDREN_KEYS = ['contents', 'children', 'entries', 'items', 'files'];
const CONTENT_KEYS = ['content', 'contents', 'data', 'text', 'body'];
const TREE_KEY_WORDS = /^(root|tree|fs|filesystem|file_?system|files|directory|directories|dir|folders?|disk|drive|home|workspace|storage)$/i;

interface NodeShape {
  typeKey: string;
  dir: boolean;
  typeValue: string;
  childrenKey?: string;
  contentKey?: string;
}

function nodeShape(v: JsonValue | undefined): NodeShape | undefined {
  if (!isJsonObject(v)) return undefined;
  for (const typeKey of TYPE_KEYS) {
    const t = v[typeKey];
    if (typeof t !== 'string') continue;
    if (DIR_TYPES.includes(t.toLowerCase())) {
      const childrenKey = CHILDREN_KEYS.find((k) => isJsonObject(v[k]));
      if (childrenKey !== undefined) return { typeKey, dir: true, typeValue: t, childrenKey };
    }
    if (FILE_TYPES.includes(t.toLowerCase())) {
      const contentKey = CONTENT_KEYS.find((k) => typeof v[k] === 'string');
      return { typeKey, dir: false, typeValue: t, ...(contentKey !== undefined ? { contentKey } : {}) };
    }
  }
  return undefined;
}

interface Detected {
  format: Format;
  root: 'mapping' | 'node';
}

/** A tree of `{type: 'directory'|'file', contents|content}` nodes (one node, or a mapping of them). */
function detectNodes(value: JsonValue): Detected | undefined {
  const top = nodeShape(value);
  const nodes: [string | undefined, JsonObject, NodeShape][] = [];
  let root: 'mapping' | 'node';
  if (top?.dir === true) {
    root = 'node';
    nodes.push([undefined, value as JsonObject, top]);
  } else if (isJsonObject(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) {
      const s = nodeShape(v);
      if (s === undefined) return undefined;
      nodes.push([k, v as JsonObject, s]);
    }
    if (!nodes.some(([, , s]) => s.dir)) return undefined;
    root = 'mapping';
  } else return undefined;
  // Walk every node: one type key, one children key, one content key; names carried or not.
  let typeKey: string | undefined;
  let dirType: string | undefined;
  let fileType: string | undefined;
  let childrenKey: string | undefined;
  let contentKey: string | undefined;
  let named = 0;
  let total = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const [key, node, shape] = stack.pop() as [string | undefined, JsonObject, NodeShape];
    total++;
    typeKey ??= shape.typeKey;
    if (shape.typeKey !== typeKey) return undefined;
    if (key !== undefined && node.name === key) named++;
    else if (key === undefined && typeof node.name === 'string') named++;
    if (shape.dir) {
      dirType ??= shape.typeValue;
      childrenKey ??= shape.childrenKey;
      const children = node[childrenKey as string];
      if (!isJsonObject(children)) return undefined;
      for (const [k, c] of Object.entries(children)) {
        const s = nodeShape(c);
        if (s === undefined) return undefined;
        stack.push([k, c as JsonObject, s]);
      }
    } else {
      fileType ??= shape.typeValue;
      contentKey ??= shape.contentKey;
    }
  }
  const format: Format = {
    kind: 'nodes',
    typeKey: typeKey as string,
    dirType: dirType ?? 'directory',
    fileType: fileType ?? 'file',
    childrenKey: childrenKey ?? 'contents',
    contentKey: contentKey ?? 'content',
  };
  if (named > 0 && named === total) format.nameKey = 'name';
  return { format, root };
}

/** Plain nested objects whose leaves are file contents (strings), under a key named like a file system. */
function detectPlain(key: string, value: JsonValue): Detected | undefined {
  if (!isJsonObject(value) || Object.keys(value).length === 0) return undefined;
  let fileLike = 0;
  let leaves = 0;
  let dirs = 0;
  const walk = (v: JsonObject, depth: number): boolean => {
    if (depth > 32) return false;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') {
        leaves++;
        if (/\.[A-Za-z0-9]{1,6}$/.test(k)) fileLike++;
      } else if (isJsonObject(x)) {
        dirs++;
        if (!walk(x, depth + 1)) return false;
      } else return false;
    }
    return true;
  };
  if (!walk(value, 0) || leaves === 0) return undefined;
  if (!TREE_KEY_WORDS.test(key) && fileLike * 2 < leaves) return undefined;
  if (dirs === 0 && fileLike === 0) return undefined;
  return { format: { kind: 'plain' }, root: 'mapping' };
}

// ---------------------------------------------------------------------------------------------
// A small view of the seed tree (for the home directory and the probes)

interface VFile {
  kind: 'file';
  content: string;
}
interface VDir {
  kind: 'dir';
  entries: Map<string, VNode>;
}
type VNode = VFile | VDir;

function view(value: JsonValue, d: Detected): VDir {
  const node = (v: JsonValue): VNode => {
    if (d.format.kind === 'plain') {
      if (isJsonObject(v)) return { kind: 'dir', entries: new Map(Object.entries(v).map(([k, x]) => [k, node(x)])) };
      return { kind: 'file', content: typeof v === 'string' ? v : String(v) };
    }
    const f = d.format;
    const o = v as JsonObject;
    if (o[f.typeKey] === f.dirType) return { kind: 'dir', entries: new Map(Object.entries((o[f.childrenKey] ?? {}) as JsonObject).map(([k, x]) => [k, node(x)])) };
    const c = o[f.contentKey];
    return { kind: 'file', content: typeof c === 'string' ? c : '' };
  };
  if (d.root === 'mapping') return { kind: 'dir', entries: new Map(Object.entries(value as JsonObject).map(([k, x]) => [k, node(x)])) };
  const top = node(value) as VDir;
  const name = d.format.kind === 'nodes' && d.format.nameKey !== undefined ? (value as JsonObject)[d.format.nameKey] : undefined;
  return typeof name === 'string' && name !== '' ? { kind: 'dir', entries: new Map([[name, top]]) } : top;
}

/**
 * The directory a session starts in: the first top-level directory (a tree given as a mapping
 * of top directories starts in the first, as a home directory), else the root.
 */
function homeOf(root: VDir): string[] {
  const first = [...root.entries].find(([, n]) => n.kind === 'dir');
  return first !== undefined ? [first[0]] : [];
}

function dirAt(root: VDir, parts: readonly string[]): VDir | undefined {
  let cur: VNode = root;
  for (const p of parts) {
    if (cur.kind !== 'dir') return undefined;
    const next = cur.entries.get(p);
    if (next === undefined) return undefined;
    cur = next;
  }
  return cur.kind === 'dir' ? cur : undefined;
}

// ---------------------------------------------------------------------------------------------
// A generated tree (no sample)

const DIR_NAMES = ['documents', 'projects', 'reports', 'archive', 'notes', 'data', 'drafts', 'invoices', 'research', 'backups'];
const EXTENSIONS = ['txt', 'md', 'csv', 'log'];
const STEMS: Record<string, string[]> = {
  txt: ['notes', 'todo', 'meeting_notes', 'ideas', 'reading_list', 'draft', 'contacts'],
  md: ['readme', 'project_plan', 'summary', 'roadmap', 'retrospective', 'report'],
  csv: ['budget', 'expenses', 'sales', 'inventory', 'attendance', 'grades'],
  log: ['server', 'build', 'access', 'backup', 'deploy'],
};

function generateTree(seed: FamilyInput['seed']): { value: JsonValue; detected: Detected } {
  const rng = createRng(seed, 'env-synth', 'file-tree', 'generate');
  const faker = seededFaker(rng);
  const text = (ext: string): string => {
    if (ext === 'csv') {
      const rows = ['name,amount,date'];
      for (let i = 0; i < rng.int(2, 4); i++) rows.push(`${faker.person.firstName()},${rng.int(10, 999)},2025-0${rng.int(1, 9)}-1${rng.int(0, 9)}`);
      return rows.join('\n');
    }
    if (ext === 'log') {
      const lines: string[] = [];
      for (let i = 0; i < rng.int(3, 5); i++) lines.push(`${rng.pick(['INFO', 'INFO', 'WARN', 'ERROR'])} ${faker.hacker.phrase()}`);
      return lines.join('\n');
    }
    const lines: string[] = [];
    for (let i = 0; i < rng.int(2, 4); i++) lines.push(faker.hacker.phrase());
    return lines.join('\n');
  };
  const fileName = (taken: Set<string>): string => {
    for (;;) {
      const ext = rng.pick(EXTENSIONS);
      const stem = rng.pick(STEMS[ext] as string[]);
      const name = `${stem}${rng.bool(0.4) ? `_${rng.int(2021, 2025)}` : ''}.${ext}`;
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  };
  const fileNode = (name: string): JsonObject => ({ type: 'file', content: text(name.split('.').pop() as string) });
  const home: JsonObject = {};
  const taken = new Set<string>();
  for (let i = 0; i < 2; i++) home[fileName(taken)] = fileNode([...taken].pop() as string);
  const dirs = [...DIR_NAMES];
  for (let i = 0; i < 3; i++) {
    const name = dirs.splice(rng.int(0, dirs.length - 1), 1)[0] as string;
    const contents: JsonObject = {};
    const inner = new Set<string>();
    for (let j = 0; j < (i === 2 ? 0 : rng.int(1, 3)); j++) {
      const f = fileName(inner);
      contents[f] = fileNode(f);
    }
    home[name] = { type: 'directory', contents };
  }
  const user = faker.person.firstName().toLowerCase().replace(/[^a-z]/g, '') || 'user';
  return {
    value: { [user]: { type: 'directory', contents: home } },
    detected: { format: { kind: 'nodes', typeKey: 'type', dirType: 'directory', fileType: 'file', childrenKey: 'contents', contentKey: 'content' }, root: 'mapping' },
  };
}

// ---------------------------------------------------------------------------------------------
// The family

interface Candidate {
  tool: string;
  op: Op;
  strong: boolean;
  fsParams: boolean;
}

interface ClaimData {
  treeKey?: string;
  cwdKey?: string;
}

function candidates(analyses: readonly ToolAnalysis[]): Candidate[] {
  const out: Candidate[] = [];
  for (const a of analyses) {
    const r = opOf(a);
    if (r === undefined) continue;
    out.push({ tool: a.tool.name, op: r.op, strong: r.strong, fsParams: a.params.some((p) => FS_PARAM.test(p.name)) });
  }
  return out;
}

const STRUCTURAL = new Set<Op>(['cd', 'ls', 'mkdir', 'touch', 'write', 'read', 'tree']);
const CWD_KEY = /^(cwd|pwd|current_?dir(?:ectory)?|working_?dir(?:ectory)?|current_?path|current_?folder)$/i;

function freeKey(base: string, input: FamilyInput): string {
  const taken = (k: string): boolean => input.takenKeys.has(k) || (input.sample !== undefined && k in input.sample);
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}_${i}`)) return `${base}_${i}`;
}

export const fileTreeFamily: Family = {
  name: 'file-tree',
  match(input: FamilyInput): FamilyClaim | undefined {
    const found = candidates(input.analyses);
    // The document is about files when at least three tools name a file operation with file-system
    // evidence (a shell command, a file or directory noun, a file-system parameter), one of them
    // structural (navigate, list, create, read).
    const evident = found.filter((c) => c.strong || c.fsParams);
    if (evident.length < 3 || !evident.some((c) => STRUCTURAL.has(c.op))) return undefined;
    const tools = found.filter((c) => c.strong || c.fsParams || evident.length >= 5).map((c) => c.tool);
    const sampleKeys: string[] = [];
    const data: ClaimData = {};
    if (input.sample !== undefined) {
      const keys = Object.keys(input.sample).filter((k) => !input.takenKeys.has(k));
      const tree = keys.find((k) => detectNodes(input.sample?.[k] as JsonValue) !== undefined) ?? keys.find((k) => detectPlain(k, input.sample?.[k] as JsonValue) !== undefined);
      if (tree !== undefined) {
        sampleKeys.push(tree);
        data.treeKey = tree;
      }
      const cwd = keys.find((k) => CWD_KEY.test(k) && typeof input.sample?.[k] === 'string' && (input.sample[k] as string).startsWith('/'));
      if (cwd !== undefined && tree !== undefined) {
        sampleKeys.push(cwd);
        data.cwdKey = cwd;
      }
    }
    return {
      tools,
      sampleKeys,
      why: `${evident.length} tools name file operations on a directory tree${data.treeKey !== undefined ? ` (the sample's "${data.treeKey}" is a tree)` : ''}`,
      data: data as JsonObject,
    };
  },

  plan(claim: FamilyClaim, input: FamilyInput): FamilyPlan {
    const data = (claim.data ?? {}) as ClaimData;
    const notes: string[] = [];
    let treeKey: string;
    let value: JsonValue;
    let detected: Detected;
    if (data.treeKey !== undefined && input.sample !== undefined) {
      treeKey = data.treeKey;
      value = input.sample[treeKey] as JsonValue;
      detected = detectNodes(value) ?? (detectPlain(treeKey, value) as Detected);
      notes.push(`the tree is the sample's "${treeKey}" (${detected.format.kind === 'plain' ? 'plain nested objects' : 'directory and file nodes'})`);
    } else {
      treeKey = freeKey('file_system', input);
      ({ value, detected } = generateTree(input.seed));
      notes.push(`generated a small tree under "${treeKey}"`);
    }
    const root = view(value, detected);
    const sampleCwd = data.cwdKey !== undefined ? (input.sample?.[data.cwdKey] as string) : undefined;
    const homeParts = sampleCwd !== undefined ? sampleCwd.split('/').filter((s) => s !== '') : homeOf(root);
    const home = `/${homeParts.join('/')}`;
    const cwdKey = data.cwdKey ?? freeKey('current_directory', input);

    const state: FamilyPlan['state'] = {
      [treeKey]: { schema: treeSchema(detected), value },
    };
    if (data.cwdKey === undefined) state[cwdKey] = { schema: { type: 'string', description: 'The current directory (an absolute path).' }, value: home };

    // Plan every claimed tool.
    const byTool = new Map(input.analyses.map((a) => [a.tool.name, a]));
    const plannedOps = new Map<string, { op: Op; roles: RoleMap; out: Partial<Record<OutRole, string>> }>();
    const found = candidates(input.analyses).filter((c) => claim.tools.includes(c.tool));
    const tools: Record<string, PlannedTool> = {};
    for (const c of found) {
      const a = byTool.get(c.tool) as ToolAnalysis;
      const roles = roleMap(c.op, paramsOf(a));
      const needs = OP_ROLES[c.op].filter((r) => ['path', 'source', 'destination', 'first', 'second', 'pattern'].includes(r));
      const essential = c.op === 'echo' ? ['content'] : ['ls', 'tree', 'du', 'find', 'cd'].includes(c.op) ? [] : needs;
      if (essential.some((r) => roles.args[r as ArgRole] === undefined) || (c.op === 'echo' && roles.args.content === undefined)) {
        notes.push(`${c.tool}: left to other families (no parameter for ${essential.filter((r) => roles.args[r as ArgRole] === undefined).join(', ')})`);
        continue;
      }
      if ((c.op === 'write' || c.op === 'append') && roles.args.content === undefined) continue;
      const { out, schema } = outMap(c.op, a.tool.outputSchema);
      const params: JsonObject = {
        op: c.op,
        tree: treeKey,
        cwd: cwdKey,
        format: detected.format as unknown as JsonObject,
        root: detected.root,
        home,
        args: roles.args as JsonObject,
        out: out as JsonObject,
      };
      if (roles.local.length > 0) params.local = roles.local;
      if (roles.none.length > 0) params.none = roles.none;
      if (roles.defaultLines !== undefined) params.defaultLines = roles.defaultLines;
      if (c.op === 'mkdir' && /nested|parent|recursive|intermediate|-p\b/i.test(a.tool.description ?? '')) params.parents = true;
      if (c.op === 'wc') {
        const u = unitNames(a.tool.outputSchema, out.unit);
        if (u !== undefined) params.units = u;
      }
      plannedOps.set(c.tool, { op: c.op, roles, out });
      tools[c.tool] = {
        implementation: { kind: 'driver', driver: 'file-tree', version: 1, params },
        pattern: `file-tree:${c.op}`,
        outputSchema: schema,
        access: ['pwd', 'ls', 'tree', 'read', 'find', 'grep', 'wc', 'sort', 'diff', 'tail', 'head', 'du', 'stat'].includes(c.op) || (c.op === 'echo' && roles.args.path === undefined) ? 'read' : 'write',
        probes: [],
        effects: effectsOf(c.op, roles, out, a),
      };
      if (roles.unknownRequired.length > 0) notes.push(`${c.tool}: required ${roles.unknownRequired.join(', ')} not used by the file tree`);
    }
    const probeCtx: ProbeContext = { root, home: homeParts, ops: plannedOps, byTool };
    for (const [name, planned] of Object.entries(tools)) planned.probes = probesFor(name, probeCtx);
    return { state, tools, notes };
  },
};

// ---------------------------------------------------------------------------------------------
// Effects: what each operation does to files, directories and the working directory, through
// which parameter (for the dependency graph and task compilation)

const WD = 'working directory';

function effectsOf(op: Op, roles: RoleMap, out: Partial<Record<OutRole, string>>, a: ToolAnalysis): ToolEffect[] {
  const required = new Set(a.params.filter((p) => p.required).map((p) => p.name));
  // An optional target (`ls [path]`) defaults to the working directory: only a required one names an instance.
  const via = (role: ArgRole, write = false): { via: string } | undefined => {
    const p = roles.args[role];
    return p !== undefined && (write || required.has(p)) ? { via: p } : undefined;
  };
  const on = (action: ToolEffect['action'], resource: string, role: ArgRole, write = false): ToolEffect[] => {
    const v = via(role, write);
    return v !== undefined ? [{ action, resource, ...v }] : [];
  };
  const here: ToolEffect = { action: 'reads', resource: WD };
  switch (op) {
    case 'cd':
      return [...on('reads', 'directory', 'path'), { action: 'changes', resource: WD }];
    case 'pwd':
    case 'du':
    case 'find':
      return [here];
    case 'ls':
    case 'tree': {
      const listed: ToolEffect[] = out.entries !== undefined && via('path') === undefined ? [{ action: 'lists', resource: 'file', path: `${out.entries}[]` }, { action: 'lists', resource: 'directory', path: `${out.entries}[]` }] : [];
      return [here, ...on('reads', 'directory', 'path'), ...listed];
    }
    case 'mkdir':
      return [here, ...on('creates', 'directory', 'path', true)];
    case 'touch':
      return [here, ...on('creates', 'file', 'path', true)];
    case 'write':
    case 'append':
    case 'echo':
      // Without a file, `echo` only shows its text: it touches nothing.
      return roles.args.path === undefined ? [] : [here, ...on('changes', 'file', 'path', true)];
    case 'read':
    case 'grep':
    case 'wc':
    case 'sort':
    case 'tail':
    case 'head':
    case 'stat':
      return [here, ...on('reads', 'file', 'path')];
    case 'diff':
      return [here, ...on('reads', 'file', 'first'), ...on('reads', 'file', 'second')];
    case 'mv':
      return [here, ...on('removes', 'file', 'source', true), ...on('creates', 'file', 'destination', true)];
    case 'cp':
      return [here, ...on('reads', 'file', 'source'), ...on('creates', 'file', 'destination', true)];
    case 'rm':
      return [here, ...on('removes', 'file', 'path', true)];
    case 'rmdir':
      return [here, ...on('removes', 'directory', 'path', true)];
  }
}

function treeSchema(d: Detected): JsonSchemaObject {
  if (d.format.kind === 'plain') return { type: 'object', description: 'A file tree: directories are objects, files are their text.' };
  const f = d.format;
  const description = `A file tree of nodes: {${f.typeKey}: "${f.dirType}", ${f.childrenKey}: {name: node}} and {${f.typeKey}: "${f.fileType}", ${f.contentKey}: text}.`;
  return d.root === 'mapping' ? { type: 'object', description, additionalProperties: { type: 'object' } } : { type: 'object', description };
}

// ---------------------------------------------------------------------------------------------
// Probes

interface ProbeContext {
  root: VDir;
  home: string[];
  ops: Map<string, { op: Op; roles: RoleMap; out: Partial<Record<OutRole, string>> }>;
  byTool: Map<string, ToolAnalysis>;
}

type Call = { name: string; args: JsonObject };

/** A word of a text that its JSON form shows unescaped. */
function wordOf(text: string, last = false): string | undefined {
  const words = text.match(/[A-Za-z0-9]{3,}/g) ?? [];
  return last ? words[words.length - 1] : words[0];
}

function probesFor(tool: string, ctx: ProbeContext): Probe[] {
  const me = ctx.ops.get(tool);
  if (me === undefined) return [];
  const toolOf = (op: Op, need: ArgRole[] = []): string | undefined => {
    for (const [name, o] of ctx.ops) if (o.op === op && name !== tool && need.every((r) => o.roles.args[r] !== undefined)) return name;
    return undefined;
  };
  const argsFor = (name: string, values: Partial<Record<ArgRole, JsonValue>>): JsonObject | undefined => {
    const o = ctx.ops.get(name);
    if (o === undefined) return undefined;
    const args: JsonObject = {};
    for (const [role, v] of Object.entries(values) as [ArgRole, JsonValue][]) {
      const p = o.roles.args[role];
      if (p === undefined) continue;
      args[p] = v;
    }
    if (o.roles.unknownRequired.some((r) => !(r in args))) return undefined;
    return args;
  };
  const call = (name: string | undefined, values: Partial<Record<ArgRole, JsonValue>>): Call | undefined => {
    if (name === undefined) return undefined;
    const args = argsFor(name, values);
    return args === undefined ? undefined : { name, args };
  };
  const mine = (values: Partial<Record<ArgRole, JsonValue>>): JsonObject | undefined => argsFor(tool, values);
  const lister = toolOf('ls');
  const listCall = lister !== undefined ? call(lister, { path: '.' }) : undefined;
  const reader = toolOf('read', ['path']);
  const cdTool = toolOf('cd', ['path']);
  const home = dirAt(ctx.root, ctx.home) as VDir;

  // Where a file with text is: its directory below home (entered with cd), its name and text.
  let place: { dirs: string[]; name: string; content: string; dir: VDir } | undefined;
  const queue: { dirs: string[]; dir: VDir }[] = [{ dirs: [], dir: home }];
  while (queue.length > 0 && place === undefined) {
    const { dirs, dir } = queue.shift() as { dirs: string[]; dir: VDir };
    for (const [k, n] of dir.entries) {
      if (n.kind === 'file' && wordOf(n.content) !== undefined && /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(k)) {
        place = { dirs, name: k, content: n.content, dir };
        break;
      }
    }
    for (const [k, n] of dir.entries) if (n.kind === 'dir' && /^[A-Za-z0-9_.-]+$/.test(k)) queue.push({ dirs: [...dirs, k], dir: n });
  }
  const fresh = (dir: VDir, base: string): string => {
    for (let i = 1; ; i++) {
      const n = `${base}${i}`;
      if (![...dir.entries.keys()].some((k) => k.startsWith(n))) return n;
    }
  };
  // No file with text anywhere: write one in the home directory first, when a tool can.
  let setup: Call[] = [];
  if (place === undefined) {
    const writer = toolOf('write', ['path', 'content']) ?? toolOf('echo', ['path', 'content']);
    const name = `${fresh(home, 'probe_seed')}.txt`;
    const made = call(writer, { path: name, content: 'probe seed line' });
    if (made !== undefined) {
      place = { dirs: [], name, content: 'probe seed line', dir: { kind: 'dir', entries: new Map([...home.entries, [name, { kind: 'file', content: 'probe seed line' }]]) } };
      setup = [made];
    }
  }
  const enter = (dirs: string[]): Call[] | undefined => {
    if (dirs.length === 0) return [...setup];
    if (cdTool === undefined) return undefined;
    const calls = dirs.map((d) => call(cdTool, { path: d }));
    return calls.every((c) => c !== undefined) ? [...setup, ...(calls as Call[])] : undefined;
  };
  const withBefore = (p: Probe, before: Call[] | undefined): Probe | undefined => {
    if (before === undefined) return undefined;
    return before.length > 0 ? { ...p, before } : p;
  };
  const q = (s: string): string => JSON.stringify(s);
  const out: (Probe | undefined)[] = [];
  const fileProbe = (args: Partial<Record<ArgRole, JsonValue>>, check: Omit<Probe, 'args'>): void => {
    if (place === undefined) return;
    const a = mine(args);
    if (a === undefined) return;
    out.push(withBefore({ args: a, ...check }, enter(place.dirs)));
  };

  switch (me.op) {
    case 'cd': {
      // Into a directory of home (made first when home has none, and a tool can make one).
      let sub = [...home.entries].find(([k, n]) => n.kind === 'dir' && /^[A-Za-z0-9_.-]+$/.test(k));
      let before: Call[] = [];
      if (sub === undefined) {
        const name = fresh(home, 'probe_dir');
        const made = call(toolOf('mkdir', ['path']), { path: name });
        if (made !== undefined) {
          sub = [name, { kind: 'dir', entries: new Map() }];
          before = [made];
        }
      }
      const a = sub !== undefined ? mine({ path: sub[0] }) : undefined;
      if (sub === undefined || a === undefined) break;
      const inner = [...(sub[1] as VDir).entries.keys()].find((k) => !k.startsWith('.'));
      const pwd = toolOf('pwd');
      const then = pwd !== undefined ? [{ name: pwd, args: {}, contains: [sub[0]] }] : listCall !== undefined && inner !== undefined ? [{ ...listCall, contains: [q(inner)] }] : [];
      out.push(withBefore({ args: a, changes: true, then }, before));
      const missing = mine({ path: fresh(home, 'no_such_dir_') });
      if (missing !== undefined) out.push({ args: missing, ok: false, changes: false });
      break;
    }
    case 'pwd': {
      const a = mine({});
      if (a !== undefined) out.push({ args: a, changes: false, outputContains: [ctx.home.length > 0 ? (ctx.home[ctx.home.length - 1] as string) : '/'] });
      break;
    }
    case 'ls':
    case 'tree': {
      const first = [...home.entries.keys()].find((k) => !k.startsWith('.'));
      const a = mine({ path: '.' });
      if (a === undefined) break;
      if (first !== undefined) out.push({ args: a, changes: false, outputContains: [q(first)] });
      else {
        const maker = toolOf('mkdir', ['path']) ?? toolOf('touch', ['path']);
        const made = call(maker, { path: 'probe_entry1' });
        if (made !== undefined) out.push({ args: a, changes: false, before: [made], outputContains: ['probe_entry1'] });
      }
      break;
    }
    case 'mkdir':
    case 'touch': {
      const name = fresh(home, me.op === 'mkdir' ? 'probe_dir' : 'probe_file');
      const a = mine({ path: name });
      const verify = listCall ?? call(toolOf('find'), { path: '.' });
      if (a === undefined || verify === undefined) break;
      out.push({ args: a, changes: true, then: [{ ...verify, contains: [q(name)] }] });
      const existing = [...home.entries].find(([k, n]) => (me.op === 'mkdir' || n.kind === 'dir') && /^[A-Za-z0-9_.-]+$/.test(k));
      if (me.op === 'mkdir' && existing !== undefined) {
        const again = mine({ path: existing[0] });
        if (again !== undefined) out.push({ args: again, ok: false, changes: false });
      }
      break;
    }
    case 'write':
    case 'append':
    case 'echo': {
      const text = 'probe text alpha';
      if (me.op === 'echo' && me.out.content !== undefined) {
        const shown = mine({ content: text });
        if (shown !== undefined) out.push({ args: shown, changes: false, outputContains: [text] });
      }
      if (me.roles.args.path === undefined) break;
      const name = `${fresh(home, 'probe_note')}.txt`;
      const a = mine({ path: name, content: text });
      const read = call(reader, { path: name });
      if (a === undefined || read === undefined) break;
      out.push({ args: a, changes: true, then: [{ ...read, contains: [text] }] });
      break;
    }
    case 'read': {
      if (place === undefined) break;
      fileProbe({ path: place.name }, { changes: false, outputContains: [wordOf(place.content) as string] });
      const missing = mine({ path: `${fresh(home, 'no_such_file')}.txt` });
      if (missing !== undefined) out.push({ args: missing, ok: false, changes: false });
      break;
    }
    case 'mv':
    case 'cp': {
      if (place === undefined) break;
      const target = `${fresh(place.dir, 'probe_copy')}.txt`;
      const verify = listCall ?? (reader !== undefined ? call(reader, { path: target }) : undefined);
      if (verify === undefined) break;
      const contains = verify.name === lister ? [q(target), ...(me.op === 'cp' ? [q(place.name)] : [])] : [wordOf(place.content) as string];
      const lacks = verify.name === lister && me.op === 'mv' ? [q(place.name)] : [];
      fileProbe({ source: place.name, destination: target }, { changes: true, then: [{ ...verify, contains, lacks }] });
      break;
    }
    case 'rm': {
      if (place === undefined || listCall === undefined) break;
      fileProbe({ path: place.name }, { changes: true, then: [{ ...listCall, lacks: [q(place.name)] }] });
      break;
    }
    case 'rmdir': {
      const maker = call(toolOf('mkdir', ['path']), { path: 'probe_empty1' });
      const a = mine({ path: 'probe_empty1' });
      if (maker === undefined || a === undefined || listCall === undefined || home.entries.has('probe_empty1')) break;
      out.push({ args: a, changes: true, before: [maker], then: [{ ...listCall, lacks: [q('probe_empty1')] }] });
      break;
    }
    case 'find': {
      if (place === undefined) break;
      const a = mine({ path: '.', name: place.name });
      if (a !== undefined) out.push(withBefore({ args: a, changes: false, outputContains: [place.name] }, [...setup]));
      break;
    }
    case 'grep': {
      if (place === undefined) break;
      const w = wordOf(place.content) as string;
      fileProbe({ path: place.name, pattern: w }, { changes: false, outputContains: [w] });
      break;
    }
    case 'wc': {
      if (place === undefined || me.out.count === undefined) break;
      const lines = place.content === '' ? 0 : place.content.split(/\r?\n/).filter((l, i, all) => i < all.length - 1 || l !== '').length;
      fileProbe({ path: place.name }, { changes: false, outputContains: [`${q(me.out.count)}:${lines}`] });
      break;
    }
    case 'sort':
    case 'tail':
    case 'head': {
      if (place === undefined) break;
      const lines = place.content.split(/\r?\n/).filter((l) => l !== '');
      const line = me.op === 'sort' ? [...lines].sort()[0] : me.op === 'tail' ? lines[lines.length - 1] : lines[0];
      const w = wordOf(line ?? '', me.op === 'tail');
      if (w === undefined) break;
      fileProbe({ path: place.name, lines: 1 }, { changes: false, outputContains: [w] });
      break;
    }
    case 'diff': {
      if (place === undefined) break;
      const other = [...place.dir.entries].find(([k, n]) => k !== place?.name && n.kind === 'file' && n.content !== place?.content && /^[A-Za-z0-9_.-]+$/.test(k));
      if (other !== undefined) {
        const w = wordOf((other[1] as VFile).content.split(/\r?\n/).find((l) => !place?.content.split(/\r?\n/).includes(l)) ?? '');
        if (w !== undefined) fileProbe({ first: place.name, second: other[0] }, { changes: false, outputContains: [w] });
        break;
      }
      const writer = toolOf('write', ['path', 'content']) ?? toolOf('echo', ['path', 'content']);
      const second = `${fresh(place.dir, 'probe_other')}.txt`;
      const made = call(writer, { path: second, content: 'probe other line' });
      const a = mine({ first: place.name, second });
      const before = enter(place.dirs);
      if (made === undefined || a === undefined || before === undefined) break;
      out.push({ args: a, changes: false, before: [...before, made], outputContains: ['probe other line'] });
      break;
    }
    case 'du': {
      const size = (n: VNode): number => (n.kind === 'file' ? new TextEncoder().encode(n.content).length : [...n.entries.values()].reduce((s, c) => s + size(c), 0));
      const a = mine({ path: '.' });
      if (a === undefined) break;
      const total = size(home);
      if (me.out.size !== undefined) out.push({ args: a, changes: false, outputContains: [`${q(me.out.size)}:${total}`] });
      else if (me.out.usage !== undefined) out.push({ args: a, changes: false, outputContains: [`${total} bytes`] });
      break;
    }
    case 'stat': {
      if (place === undefined) break;
      fileProbe({ path: place.name }, { changes: false, outputContains: me.out.name !== undefined ? [place.name] : me.out.type !== undefined ? ['file'] : [] });
      break;
    }
  }
  return out.filter((p): p is Probe => p !== undefined && (p.outputContains?.length !== 0 || (p.then?.length ?? 0) > 0 || p.ok === false || p.changes !== undefined));
}
