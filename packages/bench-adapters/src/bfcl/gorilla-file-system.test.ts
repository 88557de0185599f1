import type { JsonObject, JsonValue } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callPort, canonicalJson, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { gorillaFileSystemPort as port } from './gorilla-file-system.js';
import type { GorillaFileSystem } from './gorilla-file-system.js';
import { longContextValue } from './long-context.js';
import { bfclResultText } from './result.js';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';

// GorillaFileSystem calls in each reference replay, counted in expected/*.expected.json
// (long_context adds 60 `rm`s of populated files).
const CALLS: Record<BfclCategory, number> = { base: 231, miss_func: 231, miss_param: 231, long_context: 291 };
const ENTRIES = 50;

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();
beforeAll(() => {
  for (const category of BFCL_CATEGORIES) data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
});

function loaded(category: BfclCategory): { entries: BfclEntry[]; expected: BfclExpectedEntry[] } {
  const found = data.get(category);
  if (found === undefined) throw new Error(`${category} not loaded`);
  return found;
}

describe.each(BFCL_CATEGORIES)('gorillaFileSystemPort: gold replay of %s', (category) => {
  it('holds as many GorillaFileSystem calls as counted', () => {
    const calls = loaded(category).expected.flatMap((e) => e.turns.flatMap((t) => t.calls)).filter((c) => c.class === 'GorillaFileSystem');
    expect(calls.length).toBe(CALLS[category]);
  });

  it.each([false, true])('matches every result, output and state (viaSnapshot %s)', (viaSnapshot) => {
    const { entries, expected } = loaded(category);
    const report = replayClass(port, entries, expected, { viaSnapshot });
    expect(report.mismatches).toEqual([]);
    expect(report.entries).toBe(ENTRIES);
    expect(report.calls).toBe(CALLS[category]);
  });
});

const CONFIG: JsonObject = {
  root: {
    ws: {
      type: 'directory',
      contents: {
        a: { type: 'directory', contents: { b: { type: 'directory', contents: { 'f.txt': { type: 'file', content: 'deep' } } } } },
        d: { type: 'directory', contents: { 'f.txt': { type: 'file', content: 'in d' } } },
        'f.txt': { type: 'file', content: 'one\ntwo\nthree' },
      },
    },
  },
};

/** Runs calls in order on one instance and returns the executor's strings. */
function run(fs: GorillaFileSystem, calls: [string, Record<string, PyValue>][]): string[] {
  return calls.map(([name, args]) => callPort(port, fs, name, args).result);
}

function fresh(): GorillaFileSystem {
  return port.load(structuredClone(CONFIG), false);
}

function roundTrip(fs: GorillaFileSystem): GorillaFileSystem {
  return port.restore(JSON.parse(JSON.stringify(fs.snapshot())) as JsonValue);
}

// Every expected string below was produced by BFCL's own class under Python 3.11.7.
describe('gorillaFileSystemPort: model errors as Python raises them', () => {
  it('reports wrong-typed arguments with the TypeError or AttributeError text', () => {
    expect(
      run(fresh(), [
        ['cd', { folder: 5 }],
        ['mkdir', { dir_name: null }],
        ['cat', { file_name: ['a'] }],
        ['tail', { file_name: 'f.txt', lines: '3' }],
        ['tail', { file_name: 'f.txt', lines: 2.5 }],
        ['find', { path: null }],
        ['grep', { file_name: 'f.txt', pattern: 1 }],
        ['echo', { content: 'x', file_name: 'a' }],
      ]),
    ).toEqual([
      "Error during execution: 'int' object has no attribute 'rstrip'",
      "Error during execution: argument of type 'NoneType' is not iterable",
      "Error during execution: unhashable type: 'list'",
      "Error during execution: '>' not supported between instances of 'str' and 'int'",
      'Error during execution: slice indices must be integers or None or have an __index__ method',
      "Error during execution: 'NoneType' object has no attribute 'rstrip'",
      "Error during execution: 'in <string>' requires string as left operand, not int",
      "Error during execution: 'Directory' object has no attribute '_write'",
    ]);
  });

  it('binds arguments as Python does: missing and unknown keywords raise TypeError', () => {
    expect(run(fresh(), [['cd', {}], ['diff', {}], ['ls', { b: true }]])).toEqual([
      "Error during execution: GorillaFileSystem.cd() missing 1 required positional argument: 'folder'",
      "Error during execution: GorillaFileSystem.diff() missing 2 required positional arguments: 'file_name1' and 'file_name2'",
      "Error during execution: GorillaFileSystem.ls() got an unexpected keyword argument 'b'",
    ]);
  });

  it('returns the error dicts for missing records, bad names and paths', () => {
    expect(
      run(fresh(), [
        ['cat', { file_name: 'nope' }],
        ['wc', { file_name: 'f.txt', mode: 'x' }],
        ['cd', { folder: 'a/b' }],
        ['cd', { folder: '..' }],
        ['mv', { source: 'f.txt', destination: 'a/x' }],
        ['touch', { file_name: 'a' }],
        ['mkdir', { dir_name: 'q:r' }],
        ['find', { path: 'zz' }],
      ]),
    ).toEqual([
      '{"error": "cat: \'nope\': No such file or directory"}',
      '{"error": "wc: invalid mode \'x\'"}',
      '{"error": "cd: a/b: Unsupported path. Only one folder level at a time is supported."}',
      '{"error": "Current directory is already the root. Cannot go back."}',
      '{"error": "mv: path not allowed in destination. Provide only a file or directory name."}',
      '{"error": "touch: cannot touch \'a\': File exists"}',
      '{"error": "mkdir: cannot create directory \'q:r\': Invalid character"}',
      '{"error": "find: \'zz\': No such file or directory"}',
    ]);
  });

  it('reports cp into a directory that already holds the name as _add_file\'s ValueError', () => {
    expect(run(fresh(), [['cp', { source: 'f.txt', destination: 'd' }]])).toEqual([
      "Error during execution: File 'f.txt' already exists in directory 'd'.",
    ]);
  });

  it('keeps Python values: tail of 0 and -1 lines, an integral float, None, a round-half-even du', () => {
    const fs = port.load({ root: { ws: { type: 'directory', contents: { big: { type: 'file', content: 'x'.repeat(1149) }, 't.txt': { type: 'file', content: 'one\ntwo\nthree' } } } } }, false);
    expect(
      run(fs, [
        ['tail', { file_name: 't.txt', lines: 0 }],
        ['tail', { file_name: 't.txt', lines: -1 }],
        ['echo', { content: new PyFloat(2) }],
        ['echo', { content: 'new', file_name: 't.txt' }],
        ['du', { human_readable: true }],
        ['du', {}],
      ]),
    ).toEqual([
      '{"last_lines": "one\\ntwo\\nthree"}',
      '{"last_lines": "two\\nthree"}',
      '{"terminal_output": 2.0}',
      'None',
      '{"disk_usage": "1.12 KB"}',
      '{"disk_usage": "1152 bytes"}',
    ]);
  });
});

describe('gorillaFileSystemPort: pwd, mv and cp quirks', () => {
  it('pwd includes the root directory\'s name, `//` for the default root', () => {
    expect(run(fresh(), [['cd', { folder: 'a' }], ['pwd', {}]])).toEqual(['{"current_working_directory": "a"}', '{"current_working_directory": "/ws/a"}']);
    expect(run(port.load(undefined, false), [['pwd', {}], ['mkdir', { dir_name: 'd' }], ['cd', { folder: 'd' }], ['pwd', {}]])).toEqual([
      '{"current_working_directory": "//"}',
      'None',
      '{"current_working_directory": "d"}',
      '{"current_working_directory": "///d"}',
    ]);
  });

  it.each([false, true])('after mv of a directory its children still name the old parent (through snapshots %s)', (viaSnapshot) => {
    let fs = fresh();
    const out: string[] = [];
    for (const [name, args] of [
      ['mv', { source: 'a', destination: 'c' }],
      ['cd', { folder: 'c' }],
      ['cd', { folder: 'b' }],
      ['pwd', {}],
      ['cd', { folder: '..' }],
      ['pwd', {}],
    ] as [string, Record<string, PyValue>][]) {
      if (viaSnapshot) fs = roundTrip(fs);
      out.push(callPort(port, fs, name, args).result);
    }
    expect(out.slice(3)).toEqual(['{"current_working_directory": "/ws/a/b"}', '{}', '{"current_working_directory": "/ws/a"}']);
  });

  it.each([false, true])('mv into a directory keeps the contents dict, reachable through the detached old one (through snapshots %s)', (viaSnapshot) => {
    let fs = fresh();
    const out: string[] = [];
    for (const [name, args] of [
      ['mv', { source: 'a', destination: 'd' }],
      ['cd', { folder: 'd' }],
      ['cd', { folder: 'a' }],
      ['cd', { folder: 'b' }],
      ['cd', { folder: '..' }],
      ['mkdir', { dir_name: 'via_old' }],
      ['pwd', {}],
      ['cd', { folder: '..' }],
      ['pwd', {}],
      ['cd', { folder: 'd' }],
      ['cd', { folder: 'a' }],
      ['ls', {}],
    ] as [string, Record<string, PyValue>][]) {
      if (viaSnapshot) fs = roundTrip(fs);
      out.push(callPort(port, fs, name, args).result);
    }
    expect(out).toEqual([
      '{"result": "\'a\' moved to \'d/a\'"}',
      '{"current_working_directory": "d"}',
      '{"current_working_directory": "a"}',
      '{"current_working_directory": "b"}',
      '{}',
      'None',
      '{"current_working_directory": "/ws/a"}',
      '{}',
      '{"current_working_directory": "/ws"}',
      '{"current_working_directory": "d"}',
      '{"current_working_directory": "a"}',
      '{"current_directory_content": ["b", "via_old"]}',
    ]);
    const root = fs.publicState().root as { contents: Record<string, { contents: Record<string, { contents: Record<string, unknown> }> }> };
    expect(Object.keys(root.contents)).toEqual(['d', 'f.txt']);
    expect(Object.keys(root.contents.d?.contents.a?.contents ?? {})).toEqual(['b', 'via_old']);
  });

  it.each([false, true])('cp of a directory shares the children with the original (through snapshots %s)', (viaSnapshot) => {
    let fs = fresh();
    run(fs, [['cp', { source: 'a', destination: 'copy' }], ['cd', { folder: 'copy' }], ['cd', { folder: 'b' }]]);
    if (viaSnapshot) fs = roundTrip(fs);
    run(fs, [['echo', { content: 'changed', file_name: 'f.txt' }]]);
    if (viaSnapshot) fs = roundTrip(fs);
    const root = fs.publicState().root as { contents: Record<string, { contents: Record<string, { contents: Record<string, { content: string }> }> }> };
    expect(root.contents.a?.contents.b?.contents['f.txt']?.content).toBe('changed');
    expect(root.contents.copy?.contents.b?.contents['f.txt']?.content).toBe('changed');
    expect(run(fs, [['pwd', {}]])).toEqual(['{"current_working_directory": "/ws/a/b"}']);
    // A file directly inside the copied directory is the same File object too.
    run(fs, [['cd', { folder: '/' }], ['cp', { source: 'd', destination: 'd2' }], ['cd', { folder: 'd2' }]]);
    if (viaSnapshot) fs = roundTrip(fs);
    run(fs, [['echo', { content: 'via d2', file_name: 'f.txt' }], ['cd', { folder: '..' }], ['cd', { folder: 'd' }]]);
    expect(run(fs, [['cat', { file_name: 'f.txt' }]])).toEqual(['{"file_content": "via d2"}']);
  });

  it('cp of a directory into itself makes a cycle: find and du hit Python\'s recursion limit', () => {
    const fs = fresh();
    expect(run(fs, [['cp', { source: 'a', destination: 'a' }], ['find', {}], ['du', {}], ['ls', {}]])).toEqual([
      '{"result": "\'a\' copied to \'a/a\'"}',
      'Error during execution: maximum recursion depth exceeded while calling a Python object',
      'Error during execution: maximum recursion depth exceeded',
      '{"current_directory_content": ["a", "d", "f.txt"]}',
    ]);
    const state = canonicalJson(fs.publicState());
    expect(state).toContain('"type":"cycle"');
    expect(canonicalJson(roundTrip(fs).publicState())).toBe(state);
  });
});

describe('gorillaFileSystemPort: instances share nothing', () => {
  it('mutating one instance leaves the config and a fresh load unchanged', () => {
    const config = structuredClone(CONFIG);
    const before = canonicalJson(config);
    const a = port.load(config, false);
    const pristine = canonicalJson(port.load(config, false).publicState());
    run(a, [
      ['echo', { content: 'mutated', file_name: 'f.txt' }],
      ['cd', { folder: 'a' }],
      ['cd', { folder: 'b' }],
      ['echo', { content: 'mutated', file_name: 'f.txt' }],
      ['cd', { folder: '..' }],
      ['rm', { file_name: 'b' }],
    ]);
    expect(canonicalJson(a.publicState())).not.toBe(pristine);
    expect(canonicalJson(config)).toBe(before);
    expect(canonicalJson(port.load(config, false).publicState())).toBe(pristine);
  });

  it('stored echo content is a copy of the argument', () => {
    const fs = fresh();
    const content: PyValue[] = ['x'];
    run(fs, [['echo', { content, file_name: 'f.txt' }]]);
    content.push('y');
    expect(run(fs, [['cat', { file_name: 'f.txt' }]])).toEqual(['{"file_content": ["x"]}']);
  });

  it('long context: extension content and populated files are per instance; the constants stay intact', () => {
    const extension = longContextValue('FILE_CONTENT_EXTENSION');
    const populate = longContextValue('POPULATE_FILE_EXTENSION') as string[];
    const a = port.load(structuredClone(CONFIG), true);
    const pristine = canonicalJson(port.load(structuredClone(CONFIG), true).publicState());
    expect(run(a, [['cat', { file_name: 'f.txt' }]])).toEqual([bfclResultText({ file_content: `one\ntwo\nthree${extension as string}` })]);
    run(a, [['echo', { content: 'mutated', file_name: 'f.txt' }], ['cd', { folder: 'd' }], ['rm', { file_name: populate[0] as string }]]);
    expect(canonicalJson(port.load(structuredClone(CONFIG), true).publicState())).toBe(pristine);
    expect(longContextValue('FILE_CONTENT_EXTENSION')).toEqual(extension);
    expect(longContextValue('POPULATE_FILE_EXTENSION')).toEqual(populate);
    expect(run(port.load(structuredClone(CONFIG), true), [['cd', { folder: 'd' }], ['ls', {}]])).toEqual([
      '{"current_working_directory": "d"}',
      bfclResultText({ current_directory_content: ['f.txt', ...populate] }),
    ]);
  });
});
