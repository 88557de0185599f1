import type { JsonObject, JsonValue } from '@autoforge/core';
import { longContextValue } from './long-context.js';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError } from './port.js';
import { pyStr } from '../python-repr.js';
import { PyFloat, isPyDict, pyEquals, pyTypeName } from '../python-value.js';
import type { PyValue } from '../python-value.js';

/**
 * BFCL's `GorillaFileSystem` (gorilla_file_system.py at gorilla 6ea57973, Apache-2.0), ported
 * with its object graph intact: `Directory` and `File` are objects with identity, a directory's
 * `contents` is a dict that two directories can share, and `parent` is a pointer that is set once.
 * Python's `mv` hands the moved directory's dict to the new one and `cp` copies it shallowly, so
 * children end up shared between two places and their parents point at detached directories;
 * `pwd` and `cd ..` follow those pointers. Every such effect is observable, so none is tidied up.
 */

/** A `File`: its content is whatever `echo` wrote (a str unless a model sent something else). */
export class FsFile {
  constructor(
    public name: string,
    public content: PyValue,
  ) {}
}

/** A `Directory`: `contents` is a Python dict (insertion-ordered) that may be shared. */
export class FsDirectory {
  contents: Map<string, FsNode> = new Map();
  constructor(
    public name: string,
    public parent: FsDirectory | null,
  ) {}

  /** `Directory._get_item`: `.` is the directory itself, even where a child is named `.`. */
  getItem(name: string): FsNode | undefined {
    return name === '.' ? this : this.contents.get(name);
  }

  /** `Directory._add_file`. */
  addFile(name: string, content: PyValue = ''): void {
    if (this.contents.has(name)) throw new BfclPyError(`File '${name}' already exists in directory '${this.name}'.`);
    this.contents.set(name, new FsFile(name, content));
  }

  /** `Directory._add_directory`. */
  addDirectory(name: string): FsDirectory {
    if (this.contents.has(name)) throw new BfclPyError(`Directory '${name}' already exists in directory '${this.name}'.`);
    const dir = new FsDirectory(name, this);
    this.contents.set(name, dir);
    return dir;
  }
}

/** A node of the tree. */
export type FsNode = FsFile | FsDirectory;

// ---- long context ---------------------------------------------------------------------------

// Strings and name lists only: immutable once read, so one decoded copy serves every instance.
const FILE_CONTENT_EXTENSION = longContextValue('FILE_CONTENT_EXTENSION') as string;
const FILES_TAIL_USED: readonly string[] = longContextValue('FILES_TAIL_USED') as string[];
const POPULATE_FILE_EXTENSION: readonly string[] = longContextValue('POPULATE_FILE_EXTENSION') as string[];

// ---- Python semantics on model-supplied values ------------------------------------------------

function typeName(value: PyValue | undefined): string {
  return pyTypeName(value);
}

function attributeError(value: PyValue | undefined, attr: string): BfclPyError {
  return new BfclPyError(`'${typeName(value)}' object has no attribute '${attr}'`);
}

/** `str(value)`, as an f-string prints it. */
function fmt(value: PyValue): string {
  return pyStr(value);
}

/** Python truthiness. */
function truthy(value: PyValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

/**
 * The key `value` would be in a dict whose keys are all str: the str itself, `null` for a
 * hashable non-str (an int, float, bool or None never equals a str key), and Python's TypeError
 * for an unhashable list or dict.
 */
function dictKey(value: PyValue): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) || isPyDict(value)) throw new BfclPyError(`unhashable type: '${typeName(value)}'`);
  return null;
}

/** `key in contents`. */
function hasKey(contents: Map<string, FsNode>, key: PyValue): boolean {
  const k = dictKey(key);
  return k !== null && contents.has(k);
}

/** `needle in container` for a str needle: substring, list element or dict key. */
function strIn(needle: string, container: PyValue): boolean {
  if (typeof container === 'string') return container.includes(needle);
  if (Array.isArray(container)) return container.some((x) => x === needle);
  if (isPyDict(container)) return Object.prototype.hasOwnProperty.call(container, needle);
  throw new BfclPyError(`argument of type '${typeName(container)}' is not iterable`);
}

/** `needle in text` for a str `text`: Python insists on a str needle. */
function inText(needle: PyValue, text: string): boolean {
  if (typeof needle !== 'string') throw new BfclPyError(`'in <string>' requires string as left operand, not ${typeName(needle)}`);
  return text.includes(needle);
}

// eslint-disable-next-line no-control-regex -- U+001C–U+001E are line boundaries to Python
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** `str.splitlines()`: every Unicode line boundary, no trailing empty line. */
function splitlines(value: PyValue): string[] {
  if (typeof value !== 'string') throw attributeError(value, 'splitlines');
  const lines: string[] = [];
  let start = 0;
  for (const m of value.matchAll(LINE_BREAK)) {
    lines.push(value.slice(start, m.index));
    start = m.index + m[0].length;
  }
  if (start < value.length) lines.push(value.slice(start));
  return lines;
}

// str.isspace() characters: JS's \s adds U+FEFF and lacks U+001C–U+001F and U+0085.
// eslint-disable-next-line no-control-regex -- U+001C–U+001F are whitespace to Python
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `str.split()` with no separator. */
function splitWords(value: PyValue): string[] {
  if (typeof value !== 'string') throw attributeError(value, 'split');
  return value.split(PY_WHITESPACE).filter((w) => w !== '');
}

/** `len(value)`: code points for a str. */
function pyLen(value: PyValue): number {
  if (typeof value === 'string') return Array.from(value).length;
  if (Array.isArray(value)) return value.length;
  if (isPyDict(value)) return Object.keys(value).length;
  throw new BfclPyError(`object of type '${typeName(value)}' has no len()`);
}

/** Python's str ordering: by code point (UTF-16 order differs above U+D7FF). */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx - cy;
  }
}

/** `len(text.encode("utf-8"))`, with Python's error for a lone surrogate. */
function utf8Length(value: PyValue): number {
  if (typeof value !== 'string') throw attributeError(value, 'encode');
  let bytes = 0;
  let position = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      throw new BfclPyError(`'utf-8' codec can't encode character '\\u${cp.toString(16)}' in position ${position}: surrogates not allowed`);
    }
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    position++;
  }
  return bytes;
}

/**
 * `f"{x:.2f}"` for a finite non-negative double: the exact binary value rounded half to even
 * (`toFixed` breaks exact ties upwards, and `du` sizes are sums divided by 1024, so ties such as
 * 1.125 do occur).
 */
function fixed2(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent = -1074;
  if (exponentBits !== 0) {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  let num = mantissa * 100n;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  let q = num / den;
  const twice = 2n * (num - q * den);
  if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  const digits = q.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** `a > b` for an int `b`. */
function greaterThanInt(a: PyValue, b: number): boolean {
  if (typeof a === 'number') return a > b;
  if (typeof a === 'boolean') return (a ? 1 : 0) > b;
  if (a instanceof PyFloat) return a.value > b;
  throw new BfclPyError(`'>' not supported between instances of '${typeName(a)}' and 'int'`);
}

/** An int usable as a slice index (`bool` is an int). */
function sliceIndex(value: PyValue): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new BfclPyError('slice indices must be integers or None or have an __index__ method');
}

/** A deep copy of a model-supplied value, so that nothing the caller holds is stored. */
function copyValue(value: PyValue): PyValue {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof PyFloat) return new PyFloat(value.value);
  if (Array.isArray(value)) return value.map(copyValue);
  const out: { [key: string]: PyValue } = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: copyValue(v), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Python `==` between two nodes (`Directory.__eq__`, `File.__eq__`), identity first as dicts do. */
function nodeEquals(a: FsNode, b: FsNode): boolean {
  if (a === b) return true;
  if (a instanceof FsFile) return b instanceof FsFile && a.name === b.name && pyEquals(a.content, b.content);
  if (!(b instanceof FsDirectory) || a.name !== b.name || a.contents.size !== b.contents.size) return false;
  for (const [k, v] of a.contents) {
    const w = b.contents.get(k);
    if (w === undefined || !nodeEquals(v, w)) return false;
  }
  return true;
}

function plainValue(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(plainValue);
  if (isPyDict(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  return value;
}

// ---- the class --------------------------------------------------------------------------------

type FsResult = PyOut;

/** A live `GorillaFileSystem` instance: the public methods under their Python names. */
export class GorillaFileSystem implements BfclInstance {
  /** `self.root`. */
  root: FsDirectory;
  /** `self.long_context`, a public attribute the state checker compares. */
  long_context: boolean;
  /** `self._current_dir`. */
  private currentDir: FsDirectory;

  /** An instance in a given state (see `load` for `_load_scenario`). */
  constructor(root: FsDirectory, longContext: boolean, currentDir: FsDirectory = root) {
    this.root = root;
    this.long_context = longContext;
    this.currentDir = currentDir;
  }

  /** `cls()` then `_load_scenario(copy.deepcopy(scenario), long_context=longContext)`. */
  static load(scenario: JsonObject | undefined, longContext: boolean): GorillaFileSystem {
    const config = scenario ?? {};
    if (!Object.prototype.hasOwnProperty.call(config, 'root')) return new GorillaFileSystem(new FsDirectory('/', null), longContext);
    const rootSpec = config.root;
    if (!isJsonObject(rootSpec)) throw new BfclPyError(`'${jsonTypeName(rootSpec)}' object has no attribute 'keys'`);
    const rootName = Object.keys(rootSpec)[0];
    if (rootName === undefined) throw new BfclPyError('list index out of range');
    const root = new FsDirectory(rootName, null);
    loadDirectory(field(rootSpec[rootName], 'contents'), root, longContext);
    return new GorillaFileSystem(root, longContext);
  }

  /** The public attributes: `root` as a `{type, name, contents}` tree and `long_context`. */
  publicState(): JsonObject {
    return { root: treeJson(this.root, new Set()), long_context: this.long_context };
  }

  /** The whole object graph (shared dicts, parent pointers, detached directories) as JSON. */
  snapshot(): FsSnapshot {
    return snapshotOf(this.root, this.currentDir, this.long_context);
  }

  /** An instance from `snapshot()`. */
  static restore(snapshot: JsonValue): GorillaFileSystem {
    return restoreSnapshot(snapshot);
  }

  /** `pwd()`. Python compares each name with the root *object*, so the root's name is included. */
  pwd(): FsResult {
    const path: string[] = [];
    for (let dir: FsDirectory | null = this.currentDir; dir !== null; dir = dir.parent) path.push(dir.name);
    return { current_working_directory: `/${path.reverse().join('/')}` };
  }

  /** `ls(a=False)`. */
  ls(a: PyValue = false): FsResult {
    let contents = [...this.currentDir.contents.keys()];
    if (!truthy(a)) contents = contents.filter((item) => !item.startsWith('.'));
    return { current_directory_content: contents };
  }

  /** `cd(folder)`. */
  cd(folder: PyValue): FsResult {
    if (typeof folder !== 'string') throw attributeError(folder, 'rstrip');
    let target = folder.replace(/\/+$/, '');
    if (target === '') target = '/';
    if (target !== '.' && target !== '..' && target !== '/' && target.includes('/')) {
      return { error: `cd: ${target}: Unsupported path. Only one folder level at a time is supported.` };
    }
    if (target === '..') {
      const current = this.currentDir;
      if (current.parent !== null) this.currentDir = current.parent;
      else if (nodeEquals(this.root, current)) return { error: 'Current directory is already the root. Cannot go back.' };
      else return { error: 'cd: ..: No such directory' };
      return {};
    }
    const dir = this.navigate(target);
    if (!(dir instanceof FsDirectory)) return dir;
    this.currentDir = dir;
    return { current_working_directory: dir.name };
  }

  /** `mkdir(dir_name)`. */
  mkdir(dir_name: PyValue): FsResult {
    if (!validName(dir_name)) return { error: `mkdir: cannot create directory '${fmt(dir_name)}': Invalid character` };
    if (hasKey(this.currentDir.contents, dir_name)) return { error: `mkdir: cannot create directory '${fmt(dir_name)}': File exists` };
    this.currentDir.addDirectory(strKey(dir_name));
    return null;
  }

  /** `touch(file_name)`. */
  touch(file_name: PyValue): FsResult {
    if (!validName(file_name)) return { error: `touch: cannot touch '${fmt(file_name)}': Invalid character` };
    if (hasKey(this.currentDir.contents, file_name)) return { error: `touch: cannot touch '${fmt(file_name)}': File exists` };
    this.currentDir.addFile(strKey(file_name));
    return null;
  }

  /** `echo(content, file_name=None)`: returns None after writing to a file. */
  echo(content: PyValue, file_name: PyValue = null): FsResult {
    if (file_name === null) return { terminal_output: copyValue(content) };
    if (!validName(file_name)) return { error: `echo: cannot write to '${fmt(file_name)}': Invalid character` };
    if (!truthy(file_name)) return { terminal_output: copyValue(content) };
    if (!hasKey(this.currentDir.contents, file_name)) return { error: `echo: cannot write to '${fmt(file_name)}': No such file` };
    const item = this.currentDir.getItem(strKey(file_name));
    if (!(item instanceof FsFile)) throw new BfclPyError("'Directory' object has no attribute '_write'");
    item.content = copyValue(content);
    return null;
  }

  /** `cat(file_name)`. */
  cat(file_name: PyValue): FsResult {
    if (!validName(file_name)) return { error: `cat: '${fmt(file_name)}': Invalid character` };
    if (!hasKey(this.currentDir.contents, file_name)) return { error: `cat: '${fmt(file_name)}': No such file or directory` };
    const item = this.currentDir.getItem(strKey(file_name));
    if (item instanceof FsFile) return { file_content: copyValue(item.content) };
    return { error: `cat: '${fmt(file_name)}': Is a directory` };
  }

  /** `find(path=".", name=None)`. */
  find(path: PyValue = '.', name: PyValue = null): FsResult {
    const target = this.navigate(path);
    if (!(target instanceof FsDirectory)) {
      const message = typeof target.error === 'string' ? target.error : '';
      return message.startsWith('cd:') ? { error: message.replace('cd:', 'find:') } : target;
    }
    if (typeof path !== 'string') throw attributeError(path, 'rstrip');
    const matches: string[] = [];
    const onStack = new Set<FsDirectory>();
    const search = (dir: FsDirectory, basePath: string): void => {
      // A directory inside itself (`cp a a` makes one) recurses until Python gives up.
      if (onStack.has(dir)) throw new BfclPyError('maximum recursion depth exceeded while calling a Python object');
      onStack.add(dir);
      for (const [itemName, item] of dir.contents) {
        const itemPath = `${basePath}/${itemName}`;
        if (name === null || inText(name, itemName)) matches.push(itemPath);
        if (item instanceof FsDirectory) search(item, itemPath);
      }
      onStack.delete(dir);
    };
    search(target, path.replace(/\/+$/, ''));
    return { matches };
  }

  /** `wc(file_name, mode="l")`. */
  wc(file_name: PyValue, mode: PyValue = 'l'): FsResult {
    if (mode !== 'l' && mode !== 'w' && mode !== 'c') return { error: `wc: invalid mode '${fmt(mode)}'` };
    const file = this.localFile(file_name);
    if (file !== undefined) {
      const content = file.content;
      if (mode === 'l') return { count: splitlines(content).length, type: 'lines' };
      if (mode === 'w') return { count: splitWords(content).length, type: 'words' };
      return { count: pyLen(content), type: 'characters' };
    }
    return { error: `wc: ${fmt(file_name)}: No such file or directory` };
  }

  /** `sort(file_name)`. */
  sort(file_name: PyValue): FsResult {
    const file = this.localFile(file_name);
    if (file !== undefined) return { sorted_content: splitlines(file.content).sort(compareCodePoints).join('\n') };
    return { error: `sort: ${fmt(file_name)}: No such file or directory` };
  }

  /** `grep(file_name, pattern)`. */
  grep(file_name: PyValue, pattern: PyValue): FsResult {
    const file = this.localFile(file_name);
    if (file !== undefined) return { matching_lines: splitlines(file.content).filter((line) => inText(pattern, line)) };
    return { error: `grep: ${fmt(file_name)}: No such file or directory` };
  }

  /** `du(human_readable=False)`: the current directory's size. */
  du(human_readable: PyValue = false): FsResult {
    const onStack = new Set<FsDirectory>();
    const size = (item: FsNode): number => {
      if (item instanceof FsFile) return utf8Length(item.content);
      if (onStack.has(item)) throw new BfclPyError('maximum recursion depth exceeded');
      onStack.add(item);
      let total = 0;
      for (const child of item.contents.values()) total += size(child);
      onStack.delete(item);
      return total;
    };
    let total = size(this.currentDir);
    if (!truthy(human_readable)) return { disk_usage: `${total} bytes` };
    for (const unit of ['B', 'KB', 'MB', 'GB', 'TB']) {
      if (total < 1024) return { disk_usage: `${fixed2(total)} ${unit}` };
      total /= 1024;
    }
    return { disk_usage: `${fixed2(total)} PB` };
  }

  /** `tail(file_name, lines=10)`; `lines=0` gives the whole file, as `content[-0:]` does. */
  tail(file_name: PyValue, lines: PyValue = 10): FsResult {
    const file = this.localFile(file_name);
    if (file !== undefined) {
      const content = splitlines(file.content);
      let count = lines;
      if (greaterThanInt(count, content.length)) count = content.length;
      let start = -sliceIndex(count);
      if (start < 0) start = Math.max(0, start + content.length);
      return { last_lines: content.slice(start).join('\n') };
    }
    return { error: `tail: ${fmt(file_name)}: No such file or directory` };
  }

  /** `diff(file_name1, file_name2)`. */
  diff(file_name1: PyValue, file_name2: PyValue): FsResult {
    const contents = this.currentDir.contents;
    if (hasKey(contents, file_name1) && hasKey(contents, file_name2)) {
      const file1 = this.currentDir.getItem(strKey(file_name1));
      const file2 = this.currentDir.getItem(strKey(file_name2));
      if (file1 instanceof FsFile && file2 instanceof FsFile) {
        const lines1 = splitlines(file1.content);
        const lines2 = splitlines(file2.content);
        const out: string[] = [];
        for (let i = 0; i < Math.min(lines1.length, lines2.length); i++) {
          const a = lines1[i] as string;
          const b = lines2[i] as string;
          if (a !== b) out.push(`- ${a}\n+ ${b}`);
        }
        return { diff_lines: out.join('\n') };
      }
    }
    return { error: `diff: ${fmt(file_name1)} or ${fmt(file_name2)}: No such file or directory` };
  }

  /** `mv(source, destination)`: a moved directory is a new one holding the old `contents` dict. */
  mv(source: PyValue, destination: PyValue): FsResult {
    const here = this.currentDir;
    if (!hasKey(here.contents, source)) return { error: `mv: cannot move '${fmt(source)}': No such file or directory` };
    const src = strKey(source);
    const item = here.getItem(src) as FsNode;
    if (strIn('/', destination)) return { error: 'mv: path not allowed in destination. Provide only a file or directory name.' };
    if (hasKey(here.contents, destination)) {
      const dest = strKey(destination);
      const destItem = here.getItem(dest);
      if (!(destItem instanceof FsDirectory)) return { error: `mv: cannot move '${src}' to '${dest}': Not a directory` };
      if (destItem.contents.has(src)) return { error: `mv: cannot move '${src}' to '${dest}/${src}': File exists` };
      here.contents.delete(src);
      if (item instanceof FsFile) destItem.addFile(src, item.content);
      else destItem.addDirectory(src).contents = item.contents;
      return { result: `'${src}' moved to '${dest}/${src}'` };
    }
    const dest = strKey(destination);
    here.contents.delete(src);
    if (item instanceof FsFile) here.addFile(dest, item.content);
    else here.addDirectory(dest).contents = item.contents;
    return { result: `'${src}' moved to '${dest}'` };
  }

  /** `rm(file_name)`: files and directories alike. */
  rm(file_name: PyValue): FsResult {
    if (!hasKey(this.currentDir.contents, file_name)) return { error: `rm: cannot remove '${fmt(file_name)}': No such file or directory` };
    const name = strKey(file_name);
    this.currentDir.contents.delete(name);
    return { result: `'${name}' removed` };
  }

  /** `rmdir(dir_name)`. */
  rmdir(dir_name: PyValue): FsResult {
    if (!hasKey(this.currentDir.contents, dir_name)) return { error: `rmdir: cannot remove '${fmt(dir_name)}': No such file or directory` };
    const name = strKey(dir_name);
    const item = this.currentDir.getItem(name);
    if (!(item instanceof FsDirectory)) return { error: `rmdir: cannot remove '${name}': Not a directory` };
    if (item.contents.size > 0) return { error: `rmdir: cannot remove '${name}': Directory not empty` };
    this.currentDir.contents.delete(name);
    return { result: `'${name}' removed` };
  }

  /**
   * `cp(source, destination)`: a copied directory gets a shallow copy of the `contents` dict, so
   * its children are the original's. The "already there" check tests `destination/source`, which
   * no key can be, so a clash surfaces as `_add_file`'s ValueError.
   */
  cp(source: PyValue, destination: PyValue): FsResult {
    const here = this.currentDir;
    if (!hasKey(here.contents, source)) return { error: `cp: cannot copy '${fmt(source)}': No such file or directory` };
    const src = strKey(source);
    const item = here.getItem(src) as FsNode;
    if (strIn('/', destination)) return { error: 'cp: path not allowed in destination. Provide only a file or directory name.' };
    if (hasKey(here.contents, destination)) {
      const dest = strKey(destination);
      const destItem = here.getItem(dest);
      if (!(destItem instanceof FsDirectory)) return { error: `cp: cannot copy '${src}' to '${dest}': Not a directory` };
      if (destItem.contents.has(`${dest}/${src}`)) return { error: `cp: cannot copy '${src}' to '${dest}/${src}': File exists` };
      if (item instanceof FsFile) destItem.addFile(src, item.content);
      else {
        const copy = destItem.addDirectory(src);
        copy.contents = new Map(item.contents);
      }
      return { result: `'${src}' copied to '${dest}/${src}'` };
    }
    const dest = strKey(destination);
    if (item instanceof FsFile) here.addFile(dest, item.content);
    else {
      const copy = here.addDirectory(dest);
      copy.contents = new Map(item.contents);
    }
    return { result: `'${src}' copied to '${dest}'` };
  }

  /** `_navigate_to_directory(path)`: the directory, or the `cd:` error dict. */
  private navigate(path: PyValue): FsDirectory | { [key: string]: PyOut } {
    if (path === null || path === '.') return this.currentDir;
    if (path === '/') return this.root;
    if (typeof path !== 'string') throw attributeError(path, 'strip');
    let dir = path.startsWith('/') ? this.root : this.currentDir;
    for (const part of path.replace(/^\/+|\/+$/g, '').split('/')) {
      const next = dir.getItem(part);
      if (!(next instanceof FsDirectory)) return { error: `cd: '${path}': No such file or directory` };
      dir = next;
    }
    return dir;
  }

  /** The `File` a per-file command works on: `name in contents` and then a `File` there. */
  private localFile(fileName: PyValue): FsFile | undefined {
    if (!hasKey(this.currentDir.contents, fileName)) return undefined;
    const item = this.currentDir.getItem(strKey(fileName));
    return item instanceof FsFile ? item : undefined;
  }
}

/** `_validate_file_or_directory_name`: `c in name` for each forbidden character. */
function validName(name: PyValue): boolean {
  for (const c of '|/\\?%*:"><') if (strIn(c, name)) return false;
  return true;
}

/**
 * A value that has just been found among the keys: every key is a str, so it is one. (Only a
 * str passes `hasKey` as true, or survives `strIn` and then `dictKey` on the way to a create.)
 */
function strKey(value: PyValue): string {
  if (typeof value !== 'string') throw new Error(`gorilla-file-system: expected a str key, got ${typeName(value)}`);
  return value;
}

// ---- loading ------------------------------------------------------------------------------------

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonTypeName(value: JsonValue | undefined): string {
  return typeName(value as PyValue | undefined);
}

/** `value[key]` on a scenario dict, with Python's KeyError / TypeError. */
function field(value: JsonValue | undefined, key: string): JsonValue {
  if (!isJsonObject(value)) {
    if (typeof value === 'string' || Array.isArray(value)) throw new BfclPyError(`${typeName(value)} indices must be integers`);
    throw new BfclPyError(`'${jsonTypeName(value)}' object is not subscriptable`);
  }
  if (!Object.prototype.hasOwnProperty.call(value, key)) throw new BfclPyError(`'${key}'`);
  return value[key] as JsonValue;
}

/** `_load_directory`, with long context's extension content and populated leaf directories. */
function loadDirectory(spec: JsonValue, parent: FsDirectory, longContext: boolean): void {
  if (!isJsonObject(spec)) throw new BfclPyError(`'${jsonTypeName(spec)}' object has no attribute 'items'`);
  let bottommost = true;
  for (const [name, data] of Object.entries(spec)) {
    const kind = field(data, 'type');
    if (kind === 'directory') {
      bottommost = false;
      const dir = new FsDirectory(name, parent);
      loadDirectory(field(data, 'contents'), dir, longContext);
      parent.contents.set(name, dir);
    } else if (kind === 'file') {
      let content = copyValue(field(data, 'content') as PyValue);
      if (longContext && !FILES_TAIL_USED.includes(name)) {
        if (typeof content !== 'string') throw new BfclPyError(`unsupported operand type(s) for +=: '${typeName(content)}' and 'str'`);
        content += FILE_CONTENT_EXTENSION;
      }
      parent.contents.set(name, new FsFile(name, content));
    }
  }
  if (bottommost && longContext) for (const name of POPULATE_FILE_EXTENSION) parent.addFile(name);
}

// ---- state and snapshot --------------------------------------------------------------------------

/**
 * A node as the reference replays write it. A directory that contains itself (after `cp a a`)
 * is an infinite tree to Python, never equal to a finite one: it is cut with a `cycle` node,
 * which no reference state holds either.
 */
function treeJson(node: FsNode, ancestors: Set<FsDirectory>): JsonObject {
  if (node instanceof FsFile) return { type: 'file', name: node.name, content: plainValue(node.content) };
  if (ancestors.has(node)) return { type: 'cycle', name: node.name };
  ancestors.add(node);
  const contents: JsonObject = {};
  for (const [k, v] of node.contents) Object.defineProperty(contents, k, { value: treeJson(v, ancestors), enumerable: true, writable: true, configurable: true });
  ancestors.delete(node);
  return { type: 'directory', name: node.name, contents };
}

/**
 * `GorillaFileSystem.snapshot()`: the object graph, flat. `dirs[i]` is a `Directory` (its
 * `parent` and its `contents` dict by index), `dicts[j]` a `contents` dict as ordered
 * `[name, 'd' | 'f', index]` entries, `files[k]` a `File` (its content tagged where it is not a
 * str: `{f}` an integral float, `{l}` a list, `{d}` a dict's entries). `_current_dir` is the
 * current directory's path from the root when it is reachable by name, else null; `current` is
 * what `restore` uses.
 */
export interface FsSnapshot {
  [key: string]: JsonValue;
  long_context: boolean;
  _current_dir: string[] | null;
  root: number;
  current: number;
  dirs: { name: string; parent: number | null; contents: number }[];
  dicts: [string, 'd' | 'f', number][][];
  files: { name: string; content: JsonValue }[];
}

function encodeContent(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return { f: value.value };
  if (Array.isArray(value)) return { l: value.map(encodeContent) };
  if (isPyDict(value)) return { d: Object.entries(value).map(([k, v]) => [k, encodeContent(v)]) };
  return value;
}

function decodeContent(value: JsonValue | undefined): PyValue {
  if (value === undefined) throw snapshotError('file content missing');
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) throw snapshotError('untagged list content');
  if (typeof value.f === 'number') return new PyFloat(value.f);
  if (Array.isArray(value.l)) return value.l.map(decodeContent);
  if (Array.isArray(value.d)) {
    const out: { [key: string]: PyValue } = {};
    for (const pair of value.d) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'string') throw snapshotError('bad dict content');
      Object.defineProperty(out, pair[0], { value: decodeContent(pair[1]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  throw snapshotError('bad content tag');
}

function snapshotOf(root: FsDirectory, current: FsDirectory, longContext: boolean): FsSnapshot {
  const dirIds = new Map<FsDirectory, number>();
  const dictIds = new Map<Map<string, FsNode>, number>();
  const fileIds = new Map<FsFile, number>();
  const dirs: FsSnapshot['dirs'] = [];
  const dicts: FsSnapshot['dicts'] = [];
  const files: FsSnapshot['files'] = [];
  const pending: FsDirectory[] = [];
  const dirId = (dir: FsDirectory): number => {
    let id = dirIds.get(dir);
    if (id === undefined) {
      id = dirs.length;
      dirIds.set(dir, id);
      dirs.push({ name: dir.name, parent: null, contents: -1 });
      pending.push(dir);
    }
    return id;
  };
  const dictId = (dict: Map<string, FsNode>): number => {
    let id = dictIds.get(dict);
    if (id === undefined) {
      id = dicts.length;
      dictIds.set(dict, id);
      const entries: [string, 'd' | 'f', number][] = [];
      dicts.push(entries);
      for (const [k, v] of dict) {
        if (v instanceof FsDirectory) entries.push([k, 'd', dirId(v)]);
        else {
          let fid = fileIds.get(v);
          if (fid === undefined) {
            fid = files.length;
            fileIds.set(v, fid);
            files.push({ name: v.name, content: encodeContent(v.content) });
          }
          entries.push([k, 'f', fid]);
        }
      }
    }
    return id;
  };
  const rootId = dirId(root);
  const currentId = dirId(current);
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const record = dirs[dirIds.get(dir) as number] as FsSnapshot['dirs'][number];
    record.parent = dir.parent === null ? null : dirId(dir.parent);
    record.contents = dictId(dir.contents);
  }
  return { long_context: longContext, _current_dir: pathFromRoot(root, current), root: rootId, current: currentId, dirs, dicts, files };
}

/** The names from the root down to `dir` along parent pointers, when each is its parent's child by that name. */
function pathFromRoot(root: FsDirectory, dir: FsDirectory): string[] | null {
  const names: string[] = [];
  let node = dir;
  while (node !== root) {
    const parent = node.parent;
    if (parent === null || parent.contents.get(node.name) !== node) return null;
    names.push(node.name);
    node = parent;
  }
  return names.reverse();
}

function snapshotError(what: string): Error {
  return new Error(`gorilla-file-system: bad snapshot: ${what}`);
}

function restoreSnapshot(snapshot: JsonValue): GorillaFileSystem {
  if (!isJsonObject(snapshot)) throw snapshotError('not an object');
  const { dirs, dicts, files, root, current, long_context: longContext } = snapshot;
  if (!Array.isArray(dirs) || !Array.isArray(dicts) || !Array.isArray(files) || typeof root !== 'number' || typeof current !== 'number' || typeof longContext !== 'boolean') {
    throw snapshotError('missing fields');
  }
  const fileObjects = files.map((f) => {
    if (!isJsonObject(f) || typeof f.name !== 'string') throw snapshotError('bad file');
    return new FsFile(f.name, decodeContent(f.content));
  });
  const dirObjects = dirs.map((d) => {
    if (!isJsonObject(d) || typeof d.name !== 'string') throw snapshotError('bad directory');
    return new FsDirectory(d.name, null);
  });
  const pick = <T>(list: T[], index: JsonValue | undefined): T => {
    const found = typeof index === 'number' ? list[index] : undefined;
    if (found === undefined) throw snapshotError(`bad index ${String(index)}`);
    return found;
  };
  const dictObjects = dicts.map(() => new Map<string, FsNode>());
  dicts.forEach((entries, i) => {
    if (!Array.isArray(entries)) throw snapshotError('bad dict');
    const dict = dictObjects[i] as Map<string, FsNode>;
    for (const entry of entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw snapshotError('bad dict entry');
      dict.set(entry[0], entry[1] === 'd' ? pick(dirObjects, entry[2]) : pick(fileObjects, entry[2]));
    }
  });
  dirs.forEach((d, i) => {
    const record = d as JsonObject;
    const dir = dirObjects[i] as FsDirectory;
    dir.parent = record.parent === null ? null : pick(dirObjects, record.parent);
    dir.contents = pick(dictObjects, record.contents);
  });
  return new GorillaFileSystem(pick(dirObjects, root), longContext, pick(dirObjects, current));
}

// ---- the port -------------------------------------------------------------------------------------

type Args = Readonly<Record<string, PyValue>>;

/** Python's binding of keyword arguments: its TypeErrors for unknown and missing ones. */
function bind(name: string, params: readonly (readonly [string, boolean])[], args: Args): (PyValue | undefined)[] {
  const known = new Set(params.map(([p]) => p));
  for (const key of Object.keys(args)) {
    if (!known.has(key)) throw new BfclPyError(`GorillaFileSystem.${name}() got an unexpected keyword argument '${key}'`);
  }
  const has = (p: string): boolean => Object.prototype.hasOwnProperty.call(args, p);
  const missing = params.filter(([p, hasDefault]) => !hasDefault && !has(p)).map(([p]) => `'${p}'`);
  if (missing.length > 0) {
    const list = missing.length === 1 ? missing[0] : missing.length === 2 ? missing.join(' and ') : `${missing.slice(0, -1).join(', ')}, and ${missing.at(-1) ?? ''}`;
    throw new BfclPyError(`GorillaFileSystem.${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
  }
  return params.map(([p]) => (has(p) ? args[p] : undefined));
}

function method(
  name: string,
  params: readonly (readonly [string, boolean])[],
  run: (fs: GorillaFileSystem, values: (PyValue | undefined)[]) => PyOut,
): BfclMethod<GorillaFileSystem> {
  return { params, call: (fs, args) => run(fs, bind(name, params, args)) };
}

/** A required argument: `bind` has checked that it is there. */
function req(value: PyValue | undefined): PyValue {
  return value === undefined ? null : value;
}

/** The BFCL port of `GorillaFileSystem`. */
export const gorillaFileSystemPort: BfclClassPort<GorillaFileSystem> = {
  className: 'GorillaFileSystem',
  stateless: false,
  load: (config, longContext) => GorillaFileSystem.load(config, longContext),
  restore: (snapshot) => GorillaFileSystem.restore(snapshot),
  methods: {
    pwd: method('pwd', [], (fs) => fs.pwd()),
    ls: method('ls', [['a', true]], (fs, [a]) => fs.ls(a)),
    cd: method('cd', [['folder', false]], (fs, [folder]) => fs.cd(req(folder))),
    mkdir: method('mkdir', [['dir_name', false]], (fs, [dirName]) => fs.mkdir(req(dirName))),
    touch: method('touch', [['file_name', false]], (fs, [fileName]) => fs.touch(req(fileName))),
    echo: method('echo', [['content', false], ['file_name', true]], (fs, [content, fileName]) => fs.echo(req(content), fileName)),
    cat: method('cat', [['file_name', false]], (fs, [fileName]) => fs.cat(req(fileName))),
    find: method('find', [['path', true], ['name', true]], (fs, [path, name]) => fs.find(path, name)),
    wc: method('wc', [['file_name', false], ['mode', true]], (fs, [fileName, mode]) => fs.wc(req(fileName), mode)),
    sort: method('sort', [['file_name', false]], (fs, [fileName]) => fs.sort(req(fileName))),
    grep: method('grep', [['file_name', false], ['pattern', false]], (fs, [fileName, pattern]) => fs.grep(req(fileName), req(pattern))),
    du: method('du', [['human_readable', true]], (fs, [humanReadable]) => fs.du(humanReadable)),
    tail: method('tail', [['file_name', false], ['lines', true]], (fs, [fileName, lines]) => fs.tail(req(fileName), lines)),
    diff: method('diff', [['file_name1', false], ['file_name2', false]], (fs, [a, b]) => fs.diff(req(a), req(b))),
    mv: method('mv', [['source', false], ['destination', false]], (fs, [source, destination]) => fs.mv(req(source), req(destination))),
    rm: method('rm', [['file_name', false]], (fs, [fileName]) => fs.rm(req(fileName))),
    rmdir: method('rmdir', [['dir_name', false]], (fs, [dirName]) => fs.rmdir(req(dirName))),
    cp: method('cp', [['source', false], ['destination', false]], (fs, [source, destination]) => fs.cp(req(source), req(destination))),
  },
};
