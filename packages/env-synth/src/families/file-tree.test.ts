import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchema, JsonValue, ToolDoc, ToolSpec } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import type { Session } from '@autoforge/env-runtime';
import { createEnvironmentSync } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';

// Documents written here for the rule, in two common styles: shell commands acting on the
// current directory, and path-based file operations. Nothing here comes from a benchmark.

type P = Record<string, JsonSchema>;
function tool(name: string, description: string, properties: P, required: string[] = [], outputSchema?: JsonSchema): ToolSpec {
  const t: ToolSpec = { name, description, parameters: { type: 'object', properties, required }, source: { format: 'mcp', pointer: `/tools/${name}` } };
  if (outputSchema !== undefined) t.outputSchema = outputSchema;
  return t;
}
const str = (description = ''): JsonSchema => ({ type: 'string', description });
const out = (props: Record<string, 'string' | 'array' | 'integer'>): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([k, t]): [string, JsonSchema] => [k, t === 'array' ? { type: 'array', items: { type: 'string' } } : { type: t }])),
});

const SHELL: ToolDoc = {
  format: 'mcp',
  tools: [
    tool('cd', 'Enter a directory.', { path: str('A directory name in the current directory; one level at a time.') }, ['path'], out({ cwd: 'string' })),
    tool('pwd', 'Show the current directory.', {}, [], out({ cwd: 'string' })),
    tool('ls', 'List the current directory.', { all: { type: 'boolean', description: 'Include hidden entries.' } }, [], out({ entries: 'array' })),
    tool('mkdir', 'Make a directory here.', { dir_name: str('No path is allowed.') }, ['dir_name']),
    tool('touch', 'Create an empty file.', { file_name: str() }, ['file_name']),
    tool('echo', 'Print text, or write it to a file.', { content: str(), file_name: { type: 'string', default: 'None' } }, ['content'], out({ output: 'string' })),
    tool('cat', 'Print a file.', { file_name: str() }, ['file_name'], out({ text: 'string' })),
    tool('mv', 'Move or rename.', { source: str(), destination: str() }, ['source', 'destination'], out({ result: 'string' })),
    tool('cp', 'Copy.', { source: str(), destination: str() }, ['source', 'destination'], out({ result: 'string' })),
    tool('rm', 'Remove a file or directory.', { file_name: str() }, ['file_name'], out({ result: 'string' })),
    tool('rmdir', 'Remove an empty directory.', { dir_name: str() }, ['dir_name'], out({ result: 'string' })),
    tool('find', 'Find entries whose name contains a text.', { path: { type: 'string', default: '.' }, name: str() }, [], out({ matches: 'array' })),
    tool('grep', 'Lines of a file that contain a pattern.', { file_name: str(), pattern: str() }, ['file_name', 'pattern'], out({ matching_lines: 'array' })),
    tool('wc', 'Count lines, words or characters.', { file_name: str(), mode: { type: 'string', default: 'l' } }, ['file_name'], out({ count: 'integer', unit: 'string' })),
    tool('sort', 'Sort the lines of a file.', { file_name: str() }, ['file_name'], out({ sorted: 'string' })),
    tool('tail', 'Last lines of a file.', { file_name: str(), lines: { type: 'integer', default: 10 } }, ['file_name'], out({ last: 'string' })),
    tool('diff', 'Compare two files line by line.', { first_file: str(), second_file: str() }, ['first_file', 'second_file'], out({ changes: 'string' })),
    tool('du', 'Disk usage of the current directory.', { human_readable: { type: 'boolean' } }, [], out({ usage: 'string' })),
  ],
};

const PATHS: ToolDoc = {
  format: 'mcp',
  tools: [
    tool('read_file', 'Read a text file.', { path: str() }, ['path']),
    tool('write_file', 'Create or overwrite a file.', { path: str(), content: str() }, ['path', 'content']),
    tool('create_directory', 'Create a directory, with any missing parent directories (nested).', { path: str() }, ['path']),
    tool('list_directory', 'List a directory.', { path: str() }, ['path']),
    tool('move_file', 'Move or rename a file or directory.', { source: str(), destination: str() }, ['source', 'destination']),
    tool('search_files', 'Find files and directories whose names match a pattern.', { path: str(), pattern: str() }, ['path', 'pattern']),
    tool('get_file_info', 'Size and type of a file or directory.', { path: str() }, ['path']),
  ],
};

function synth(doc: ToolDoc, sampleState?: JsonObject, seed = 0) {
  const r = synthesizeEnvironment(doc, { seed, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('; '));
  return r.value;
}

let n = 0;
function step(s: Session, name: string, args: JsonObject = {}): { ok: boolean; output: JsonValue; error: string } {
  const r = s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
  return r.ok ? { ok: true, output: r.output, error: '' } : { ok: false, output: null, error: r.error.message };
}

describe('file-tree family: shell commands on a generated tree', () => {
  const { spec, report } = synth(SHELL);
  const env = createEnvironmentSync(spec);

  it('claims every tool and every tool passes its self-check', () => {
    const cov = report.coverage ?? [];
    expect(cov.filter((c) => c.family === 'file-tree').map((c) => c.tool).sort()).toEqual(SHELL.tools.map((t) => t.name).sort());
    expect(cov.filter((c) => !c.works)).toEqual([]);
    expect(spec.tools.find((t) => t.name === 'mkdir')?.pattern).toBe('file-tree:mkdir');
  });

  it('seeds a small tree of named folders and text files, the same bytes for the same seed', () => {
    const again = synth(SHELL);
    expect(canonicalJson(again.spec.seedState)).toBe(canonicalJson(spec.seedState));
    expect(canonicalJson(synth(SHELL, undefined, 7).spec.seedState)).not.toBe(canonicalJson(spec.seedState));
    const text = JSON.stringify(spec.seedState);
    expect(text).toMatch(/"[a-z0-9_]+\.(txt|md|csv|log)"/);
    expect(text).toMatch(/"type":"directory"/);
  });

  it('mkdir then ls shows it; rm then ls lacks it; cd changes pwd', () => {
    const s = env.createSession();
    expect(step(s, 'mkdir', { dir_name: 'reports2025' }).ok).toBe(true);
    expect(step(s, 'ls').output).toMatchObject({ entries: expect.arrayContaining(['reports2025']) });
    const before = step(s, 'pwd').output as { cwd: string };
    expect(step(s, 'cd', { path: 'reports2025' }).output).toEqual({ cwd: `${before.cwd}/reports2025` });
    expect(step(s, 'pwd').output).toEqual({ cwd: `${before.cwd}/reports2025` });
    expect(step(s, 'ls').output).toEqual({ entries: [] });
    expect(step(s, 'cd', { path: '..' }).output).toEqual(before);
    expect(step(s, 'rm', { file_name: 'reports2025' }).output).toEqual({ result: "'reports2025' removed" });
    expect((step(s, 'ls').output as { entries: string[] }).entries).not.toContain('reports2025');
  });

  it('touch and echo then cat shows the content; grep finds the line; wc counts; tail and sort read it', () => {
    const s = env.createSession();
    expect(step(s, 'touch', { file_name: 'todo.txt' }).ok).toBe(true);
    expect(step(s, 'cat', { file_name: 'todo.txt' }).output).toEqual({ text: '' });
    expect(step(s, 'echo', { content: 'pay rent\nbuy milk\ncall mom', file_name: 'todo.txt' }).ok).toBe(true);
    expect(step(s, 'cat', { file_name: 'todo.txt' }).output).toEqual({ text: 'pay rent\nbuy milk\ncall mom' });
    expect(step(s, 'grep', { file_name: 'todo.txt', pattern: 'milk' }).output).toEqual({ matching_lines: ['buy milk'] });
    expect(step(s, 'wc', { file_name: 'todo.txt' }).output).toEqual({ count: 3, unit: 'lines' });
    expect(step(s, 'wc', { file_name: 'todo.txt', mode: 'w' }).output).toEqual({ count: 6, unit: 'words' });
    expect(step(s, 'tail', { file_name: 'todo.txt', lines: 1 }).output).toEqual({ last: 'call mom' });
    expect(step(s, 'sort', { file_name: 'todo.txt' }).output).toEqual({ sorted: 'buy milk\ncall mom\npay rent' });
    expect(step(s, 'echo', { content: 'hello' }).output).toEqual({ output: 'hello' });
    expect(step(s, 'echo', { content: 'x', file_name: 'None' }).output).toEqual({ output: 'x' });
  });

  it('mv and cp are visible in ls; find lists paths below the start; diff shows changed lines; du sums bytes', () => {
    const s = env.createSession();
    step(s, 'mkdir', { dir_name: 'box' });
    step(s, 'echo', { content: 'alpha\nbeta', file_name: 'a.txt' });
    expect(step(s, 'cp', { source: 'a.txt', destination: 'box' }).output).toEqual({ result: "'a.txt' copied to 'box/a.txt'" });
    expect(step(s, 'mv', { source: 'a.txt', destination: 'b.txt' }).output).toEqual({ result: "'a.txt' moved to 'b.txt'" });
    const ls = (step(s, 'ls').output as { entries: string[] }).entries;
    expect(ls).toContain('b.txt');
    expect(ls).not.toContain('a.txt');
    expect(step(s, 'find', { name: 'a.txt' }).output).toEqual({ matches: ['./box/a.txt'] });
    step(s, 'echo', { content: 'alpha\ngamma', file_name: 'c.txt' });
    expect(step(s, 'diff', { first_file: 'b.txt', second_file: 'c.txt' }).output).toEqual({ changes: '- beta\n+ gamma' });
    step(s, 'cd', { path: 'box' });
    expect(step(s, 'du', { human_readable: true }).output).toEqual({ usage: '10.00 B' });
    expect(step(s, 'du').output).toEqual({ usage: '10 bytes' });
  });

  it('matches find patterns as globs without regular expressions, and diffs files too large for the alignment table line by line', () => {
    const s = env.createSession();
    step(s, 'touch', { file_name: 'report-2024.txt' });
    step(s, 'touch', { file_name: 'report.md' });
    const found = (name: string): string[] => (step(s, 'find', { name }).output as { matches: string[] }).matches;
    expect(found('report-*.txt')).toEqual(['./report-2024.txt']);
    expect(found('report.??')).toEqual(['./report.md']);
    expect(found('*port*')).toEqual(expect.arrayContaining(['./report-2024.txt', './report.md']));
    expect(found('r*x')).toEqual([]);
    // An agent's pattern with many stars against a long name: a greedy glob answers (a regular
    // expression built from it could backtrack for ever).
    step(s, 'touch', { file_name: `${'a'.repeat(3000)}.txt` });
    expect(found(`${'*a'.repeat(40)}*b`)).toEqual([]);
    // 3000 × 3000 lines: no 9-million-cell table; the changed line is still reported.
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    step(s, 'echo', { content: lines.join('\n'), file_name: 'big1.txt' });
    step(s, 'echo', { content: lines.map((l, i) => (i === 1500 ? 'changed' : l)).join('\n'), file_name: 'big2.txt' });
    expect(step(s, 'diff', { first_file: 'big1.txt', second_file: 'big2.txt' }).output).toEqual({ changes: '- line 1500\n+ changed' });
  });

  it('answers mistakes with clear error observations and changes nothing', () => {
    const s = env.createSession();
    const digest = s.digest();
    expect(step(s, 'cd', { path: 'no_such_place' }).error).toMatch(/cd: no such directory: 'no_such_place'/);
    expect(step(s, 'cat', { file_name: 'missing.txt' }).error).toMatch(/no such file/);
    expect(step(s, 'mkdir', { dir_name: 'a/b' }).error).toMatch(/must be a name in the current directory/);
    step(s, 'mkdir', { dir_name: 'full' });
    const afterMkdir = s.digest();
    expect(step(s, 'mkdir', { dir_name: 'full' }).error).toMatch(/already exists/);
    step(s, 'cd', { path: 'full' });
    step(s, 'touch', { file_name: 'x.txt' });
    step(s, 'cd', { path: '..' });
    const d = s.digest();
    expect(step(s, 'rmdir', { dir_name: 'full' }).error).toMatch(/directory not empty/);
    expect(step(s, 'cat', { file_name: 'full' }).error).toMatch(/is a directory/);
    expect(step(s, 'mv', { source: 'full', destination: 'full' }).ok).toBe(false);
    expect(s.digest()).toBe(d);
    expect(afterMkdir).not.toBe(digest);
  });
});

describe('file-tree family: a sample tree is adopted in its own format', () => {
  const nodes = {
    root: {
      home: {
        type: 'directory',
        contents: {
          'notes.txt': { type: 'file', content: 'first line\nsecond line' },
          docs: { type: 'directory', contents: {} },
        },
      },
    },
    owner: 'sam',
  };

  it('keeps the node format and its keys after writes, and starts in the top directory', () => {
    const { spec, report } = synth(SHELL, nodes);
    expect((report.coverage ?? []).filter((c) => !c.works)).toEqual([]);
    const env = createEnvironmentSync(spec);
    const s = env.createSession();
    expect(step(s, 'pwd').output).toEqual({ cwd: '/home' });
    step(s, 'mv', { source: 'notes.txt', destination: 'docs' });
    step(s, 'mkdir', { dir_name: 'old' });
    expect(s.state().root).toEqual({
      home: {
        type: 'directory',
        contents: {
          docs: { type: 'directory', contents: { 'notes.txt': { type: 'file', content: 'first line\nsecond line' } } },
          old: { type: 'directory', contents: {} },
        },
      },
    });
    expect(s.state().owner).toBe('sam');
  });

  it('keeps node names when the nodes carry them (one named top node)', () => {
    const named = { tree: { type: 'directory', name: 'work', contents: { 'a.md': { type: 'file', name: 'a.md', content: 'hi there' } } } };
    const { spec } = synth(SHELL, named);
    const s = createEnvironmentSync(spec).createSession();
    expect(step(s, 'pwd').output).toEqual({ cwd: '/work' });
    step(s, 'cp', { source: 'a.md', destination: 'b.md' });
    expect(s.state().tree).toEqual({
      type: 'directory',
      name: 'work',
      contents: { 'a.md': { type: 'file', name: 'a.md', content: 'hi there' }, 'b.md': { type: 'file', name: 'b.md', content: 'hi there' } },
    });
  });

  it('adopts plain nested objects whose leaves are file texts, and runs path-based tools on them', () => {
    const plain = { files: { projects: { 'plan.md': '# Plan\nship it', src: { 'main.py': 'print(1)' } }, 'readme.txt': 'hello' } };
    const { spec, report } = synth(PATHS, plain);
    expect((report.coverage ?? []).filter((c) => c.family === 'file-tree').length).toBe(PATHS.tools.length);
    expect((report.coverage ?? []).filter((c) => !c.works)).toEqual([]);
    const s = createEnvironmentSync(spec).createSession();
    expect(step(s, 'read_file', { path: '/projects/src/main.py' }).output).toEqual({ content: 'print(1)' });
    expect(step(s, 'create_directory', { path: '/archive/2024/q1' }).ok).toBe(true);
    expect(step(s, 'move_file', { source: '/projects/plan.md', destination: '/archive/2024/q1' }).ok).toBe(true);
    expect(step(s, 'write_file', { path: '/readme.txt', content: 'bye' }).ok).toBe(true);
    expect(step(s, 'list_directory', { path: '/archive/2024/q1' }).output).toEqual({ entries: ['plan.md'] });
    expect(step(s, 'search_files', { path: '/', pattern: '*.py' }).output).toEqual({ matches: ['/projects/src/main.py'] });
    expect(step(s, 'get_file_info', { path: '/readme.txt' }).output).toMatchObject({ type: 'file', size: 3 });
    expect(s.state().files).toEqual({ projects: { src: { 'main.py': 'print(1)' } }, 'readme.txt': 'bye', archive: { '2024': { q1: { 'plan.md': '# Plan\nship it' } } } });
  });
});

describe('file-tree family: documents about other things', () => {
  it('does not claim record tools whose verbs are shell words (sort, find, head)', () => {
    const doc: ToolDoc = {
      format: 'mcp',
      tools: [
        tool('find_customer', 'Find a customer by email.', { email: str() }, ['email']),
        tool('sort_orders', 'Sort orders by date.', { customer_id: str() }, ['customer_id']),
        tool('head_office', 'The head office address.', {}),
        tool('list_orders', 'List orders.', { customer_id: str() }),
        tool('void_purchase', 'Cancel an order.', { order_id: str() }, ['order_id']),
      ],
    };
    const { report } = synth(doc);
    expect((report.coverage ?? []).filter((c) => c.family === 'file-tree')).toEqual([]);
  });
});

describe('file-tree driver: random operation sequences', () => {
  const sample = {
    root: { top: { type: 'directory', contents: { 'a.txt': { type: 'file', content: 'one\ntwo' }, sub: { type: 'directory', contents: {} } } } },
  };
  const { spec } = synth(SHELL, sample);
  const env = createEnvironmentSync(spec);
  const names = fc.constantFrom('a.txt', 'b.txt', 'sub', 'new', '..', '.', 'sub/a.txt', 'missing');
  const call = fc.oneof(
    fc.record({ name: fc.constant('cd'), args: fc.record({ path: names }) }),
    fc.record({ name: fc.constant('mkdir'), args: fc.record({ dir_name: names }) }),
    fc.record({ name: fc.constant('touch'), args: fc.record({ file_name: names }) }),
    fc.record({ name: fc.constant('echo'), args: fc.record({ content: fc.string({ maxLength: 12 }), file_name: names }) }),
    fc.record({ name: fc.constantFrom('mv', 'cp'), args: fc.record({ source: names, destination: names }) }),
    fc.record({ name: fc.constantFrom('rm', 'cat', 'sort', 'wc'), args: fc.record({ file_name: names }) }),
    fc.record({ name: fc.constant('rmdir'), args: fc.record({ dir_name: names }) }),
  );
  const isTree = (v: JsonValue): boolean => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    if (v.type === 'file') return typeof v.content === 'string' && Object.keys(v).length === 2;
    const c = v.contents;
    return v.type === 'directory' && typeof c === 'object' && c !== null && !Array.isArray(c) && Object.values(c).every(isTree);
  };

  test.prop([fc.array(call, { maxLength: 25 })], { numRuns: 60 })('a failed call changes nothing, and the tree keeps its node format', (calls) => {
    const s = env.createSession();
    for (const c of calls) {
      const before = s.digest();
      const r = s.stepSync({ id: `p${n++}`, name: c.name, arguments: JSON.stringify(c.args) });
      if (!r.ok) {
        expect(r.error.code).toBe('tool_error');
        expect(s.digest()).toBe(before);
      }
      const root = s.state().root as JsonObject;
      expect(Object.keys(root)).toContain('top');
      for (const node of Object.values(root)) expect(isTree(node)).toBe(true);
    }
    s.close();
  });
});
