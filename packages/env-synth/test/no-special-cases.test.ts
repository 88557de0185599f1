// Synthesis must be general: no benchmark's, document's or tool's name may appear in the source
// of the packages that turn documents into environments and tasks (code, comments and the tests
// beside the code alike). The names come from the benchmark and real-world files themselves, so
// a newly added document is covered without editing this test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../../..');
const SHARED = join(REPO, '../shared');
const GUARDED = ['packages/env-synth/src', 'packages/depgraph/src', 'packages/dag-blueprint/src'];

/** Benchmark and document names, and spellings only a benchmark uses. */
const DOCUMENT_NAMES = ['tau-bench', 'taubench', 'tau_bench', 'tau2', 'vitabench', 'acebench', 'bfcl', 'gorilla', 'petstore', 'github', 'mcp_memory', 'realtime', 'recommand'];

function files(dir: string, keep: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

function toolNamesIn(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) toolNamesIn(v, out, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  if (typeof o.name === 'string' && (typeof o.description === 'string' || typeof o.parameters === 'object' || typeof o.inputSchema === 'object')) {
    out.add(o.name);
  }
  if (typeof o.operationId === 'string') out.add(o.operationId);
  for (const [k, v] of Object.entries(o)) if (k !== 'parameters' && k !== 'properties' && k !== 'inputSchema') toolNamesIn(v, out, depth + 1);
}

/** Compound tool names (two or more words), from every tool file of the shared data. */
function benchmarkToolNames(): string[] {
  const names = new Set<string>();
  const toolFiles = [
    ...files(join(SHARED, 'benchmarks'), (f) => /(^|\/)(tools|user_tools)\.json$/.test(f) || f.includes('multi_turn_func_doc')),
    ...files(join(SHARED, 'benchmarks/vitabench'), (f) => f.endsWith('.json') && /tool/i.test(basename(f))),
    ...files(join(SHARED, 'realworld'), (f) => /\.(json|ya?ml)$/.test(f)),
  ];
  for (const f of toolFiles) {
    const text = readFileSync(f, 'utf8');
    if (/\.ya?ml$/.test(f)) {
      for (const m of text.matchAll(/operationId:\s*([A-Za-z0-9_]+)/g)) names.add(m[1] as string);
      continue;
    }
    const docs: unknown[] = [];
    try {
      docs.push(JSON.parse(text));
    } catch {
      for (const line of text.split('\n')) if (line.trim() !== '') docs.push(JSON.parse(line));
    }
    for (const d of docs) toolNamesIn(d, names);
  }
  // Single words (`cd`, `sort`, `checkout`) are ordinary vocabulary a general rule may use.
  return [...names].filter((n) => /[a-z][A-Z]|_/.test(n) && n.length >= 8).sort();
}

describe('general synthesis', () => {
  const toolNames = benchmarkToolNames();
  const sources = GUARDED.flatMap((d) => files(join(REPO, d), (f) => /\.(ts|mts|js|mjs|json)$/.test(f)));

  it('knows enough benchmark tool names for the check to mean something', () => {
    expect(toolNames.length).toBeGreaterThan(150);
    expect(toolNames).toContain('find_user_id_by_name_zip');
  });

  it('finds no benchmark, document or tool name in the guarded source folders', () => {
    const hits: string[] = [];
    const toolPattern = new RegExp(`(?<![A-Za-z0-9_])(${toolNames.map((n) => n.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')).join('|')})(?![A-Za-z0-9_])`);
    const docPattern = new RegExp(`(${DOCUMENT_NAMES.join('|')})`, 'i');
    for (const file of sources) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const m = toolPattern.exec(line) ?? docPattern.exec(line);
          if (m) hits.push(`${relative(REPO, file)}:${i + 1}: ${m[0]}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
