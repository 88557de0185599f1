import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;

function distinctAceBenchTools(file: string): number {
  const names = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    for (const f of (JSON.parse(line) as { function: { name: string }[] }).function) names.add(f.name);
  }
  return names.size;
}

describe('autoforge parse', () => {
  it.each([
    ['tau-bench/retail/tools.json', 16, 'openai-chat'],
    ['tau-bench/airline/tools.json', 14, 'openai-chat'],
    ['tau2-bench/airline/tools.json', 14, 'json-schema-defs'],
    // tau2 files without `$defs` are plain OpenAI tools.
    ['tau2-bench/retail/tools.json', 16, 'openai-chat'],
    ['tau2-bench/telecom/tools.json', 13, 'openai-chat'],
    ['tau2-bench/telecom/user_tools.json', 30, 'json-schema-defs'],
    ['vitabench/delivery/tools.json', 20, 'vitabench'],
    ['vitabench/instore/tools.json', 24, 'vitabench'],
    ['vitabench/ota/tools.json', 38, 'vitabench'],
  ])('accepts %s with %i tools', async (file, count, format) => {
    const { code, stdout, stderr } = await autoforge('parse', join(benchmarks, file));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { format: string; tools: { name: string; source: { pointer: string } }[] };
    expect(doc.tools).toHaveLength(count);
    expect(doc.format).toBe(format);
    expect(new Set(doc.tools.map((t) => t.name)).size).toBe(count);
  });

  it('accepts every ACEBench function list, one tool per distinct name', async () => {
    const dir = join(benchmarks, 'acebench/data_en');
    for (const name of ['data_agent_multi_step.json', 'data_agent_multi_turn.json', 'data_normal_atom_bool.json', 'data_special_irrelevant.json']) {
      const { code, stdout } = await autoforge('parse', join(dir, name), '--compact');
      expect(code, name).toBe(0);
      const doc = JSON.parse(stdout) as { tools: unknown[]; groups: unknown[] };
      expect(doc.tools.length, name).toBe(distinctAceBenchTools(join(dir, name)));
      expect(doc.tools.length, name).toBeGreaterThan(0);
    }
  });

  it('prints one sample of an ACEBench file with --sample', async () => {
    const file = join(benchmarks, 'acebench/data_en/data_agent_multi_step.json');
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { id: string; function: unknown[] };
    const { code, stdout } = await autoforge('parse', file, '--sample', first.id);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools).toHaveLength(first.function.length);
  });

  it('keeps a tau-bench parameter schema exactly', async () => {
    const { stdout } = await autoforge('parse', join(benchmarks, 'tau-bench/retail/tools.json'));
    const tools = (JSON.parse(stdout) as { tools: { name: string; parameters: unknown }[] }).tools;
    const source = JSON.parse(readFileSync(join(benchmarks, 'tau-bench/retail/tools.json'), 'utf8')) as {
      function: { name: string; parameters: unknown };
    }[];
    const original = source.find((t) => t.function.name === 'get_order_details')!.function.parameters;
    expect(tools.find((t) => t.name === 'get_order_details')!.parameters).toMatchObject(original as object);
  });

  it('exits 2 with a located message and no stack trace on a truncated file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autoforge-cli-'));
    const file = join(dir, 'tools.json');
    const text = readFileSync(join(benchmarks, 'tau-bench/retail/tools.json'), 'utf8');
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    const { code, stdout, stderr } = await autoforge('parse', file);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('tools.json');
    expect(stderr).toMatch(/:\d+(:\d+)?/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 naming the file when it does not exist', async () => {
    const { code, stderr } = await autoforge('parse', 'no/such/file.json');
    expect(code).toBe(2);
    expect(stderr).toContain('no/such/file.json');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on plain prose and on duplicate tool names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'autoforge-cli-'));
    writeFileSync(join(dir, 'prose.md'), 'This API lets you manage orders. Call it nicely.\n');
    const tool = { type: 'function', function: { name: 'a', description: 'x', parameters: { type: 'object', properties: {} } } };
    writeFileSync(join(dir, 'dup.json'), JSON.stringify([tool, tool], null, 2));
    const prose = await autoforge('parse', join(dir, 'prose.md'));
    expect(prose.code).toBe(2);
    expect(prose.stderr).toContain('prose.md');
    const dup = await autoforge('parse', join(dir, 'dup.json'));
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/duplicate/i);
    expect(dup.stderr).toContain('/1');
  });

  it('rejects an unknown --format with exit code 2', async () => {
    const { code, stderr } = await autoforge('parse', join(benchmarks, 'tau-bench/retail/tools.json'), '--format', 'soap');
    expect(code).toBe(2);
    expect(stderr).toMatch(/soap/);
  });

  it('forces a format with --format and reports a mismatch as bad input', async () => {
    const file = join(benchmarks, 'tau-bench/retail/tools.json');
    expect((await autoforge('parse', file, '--format', 'openai-chat')).code).toBe(0);
    const forced = await autoforge('parse', file, '--format', 'openapi');
    expect(forced.code).toBe(2);
  });
});

describe('autoforge', () => {
  it('prints help and version with exit code 0', async () => {
    const help = await autoforge('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('parse');
    const version = await autoforge('--version');
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on an unknown command', async () => {
    const { code, stderr } = await autoforge('frobnicate');
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command/);
  });
});
