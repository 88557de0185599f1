import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvironment } from '@autoforge/env-runtime';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const out = mkdtempSync(join(tmpdir(), 'autoforge-env-'));

const cases: [string, string | undefined][] = [
  ['tau-bench/retail/tools.json', undefined],
  ['tau-bench/retail/tools.json', 'tau-bench/retail/data'],
  ['tau-bench/airline/tools.json', undefined],
  ['tau-bench/airline/tools.json', 'tau-bench/airline/data'],
  ['tau2-bench/airline/tools.json', undefined],
  ['tau2-bench/airline/tools.json', 'tau2-bench/airline/db.json'],
  ['tau2-bench/retail/tools.json', undefined],
  ['tau2-bench/retail/tools.json', 'tau2-bench/retail/db.json'],
  ['tau2-bench/telecom/tools.json', undefined],
  ['tau2-bench/telecom/tools.json', 'tau2-bench/telecom/db.toml'],
  ['tau2-bench/telecom/user_tools.json', undefined],
  ['tau2-bench/telecom/user_tools.json', 'tau2-bench/telecom/user_db.toml'],
  ['vitabench/delivery/tools.json', undefined],
  ['vitabench/instore/tools.json', undefined],
  ['vitabench/ota/tools.json', undefined],
  ['acebench/data_en/data_agent_multi_step.json', undefined],
  ['acebench/data_en/data_agent_multi_turn.json', undefined],
  ['acebench/data_en/data_normal_single_turn_single_function.json', undefined],
];

describe('autoforge env synth', () => {
  it.each(cases)('synthesizes %s (db: %s) into an environment whose every tool answers', async (file, db) => {
    const target = join(out, `${file.replace(/\W+/g, '_')}${db ? '_db' : ''}.json`);
    const args = ['env', 'synth', join(benchmarks, file), '--out', target, '--seed', '7', '--json'];
    if (db) args.push('--db', join(benchmarks, db));
    const { code, stdout, stderr } = await autoforge(...args);
    expect(stderr.replace(/^.*\[warning W_[A-Z_]+\]\n/gm, '')).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { mode: string; unclassified: { tool: string; reason: string }[] };
    expect(report.mode).toBe(db ? 'sample' : 'generated');
    for (const u of report.unclassified) expect(u.reason.length).toBeGreaterThan(0);

    const spec = JSON.parse(readFileSync(target, 'utf8')) as EnvironmentSpec;
    const environment = await createEnvironment(spec);
    try {
      const session = environment.createSession();
      for (const tool of spec.tools) {
        // Every tool answers: an output, or an error observation — never an exception.
        const result = await session.step({ id: tool.name, name: tool.name, arguments: '{}' });
        expect(result.ok || typeof result.error.message === 'string').toBe(true);
      }
    } finally {
      environment.close();
    }
  });

  it('writes byte-identical specs for the same inputs and seed', async () => {
    const a = join(out, 'same-a.json');
    const b = join(out, 'same-b.json');
    const file = join(benchmarks, 'tau-bench/airline/tools.json');
    await autoforge('env', 'synth', file, '--out', a, '--seed', '3');
    await autoforge('env', 'synth', file, '--out', b, '--seed', '3');
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('prints a summary with collections, record counts and every tool with its family, pattern and self-check verdict', async () => {
    const { code, stdout } = await autoforge(
      'env', 'synth', join(benchmarks, 'tau-bench/retail/tools.json'),
      '--db', join(benchmarks, 'tau-bench/retail/data'), '--out', join(out, 'summary.json'),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/orders: 1000 records/);
    expect(stdout).toMatch(/users: 500 records/);
    expect(stdout).toMatch(/tools: 16 — \d+ work \(passed the self-check\)/);
    expect(stdout).toMatch(/get_order_details\s+works\s+records:lookup/);
    // Every tool is listed once, as working or as a stand-in with the reason.
    const listed = stdout.split('\n').filter((l) => /^ {2}\S+\s+(works|STAND-IN)\s/.test(l));
    expect(listed).toHaveLength(16);
    for (const l of listed.filter((x) => x.includes('STAND-IN'))) expect(l).toMatch(/ — \S/);
  });

  it('exits 2 with a located message for a broken --db file and for a bad --seed', async () => {
    const bad = join(out, 'bad-db.json');
    writeFileSync(bad, '{\n  "orders": {\n    "a": 1,\n  }\n}\n');
    const tools = join(benchmarks, 'tau-bench/retail/tools.json');
    const broken = await autoforge('env', 'synth', tools, '--db', bad, '--out', join(out, 'x.json'));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/bad-db\.json:4:\d+: invalid JSON/);
    expect(broken.stderr).not.toMatch(/\n\s+at /);
    const seed = await autoforge('env', 'synth', tools, '--seed', 'abc', '--out', join(out, 'x.json'));
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/--seed must be an integer/);
  });
});

describe('autoforge env call', () => {
  it('answers a lookup on the seed state with the record from the DB', async () => {
    const target = join(out, 'retail-call.json');
    await autoforge(
      'env', 'synth', join(benchmarks, 'tau-bench/retail/tools.json'),
      '--db', join(benchmarks, 'tau-bench/retail/data'), '--out', target,
    );
    const { code, stdout } = await autoforge('env', 'call', target, 'get_order_details', '{"order_id":"#W2378156"}');
    expect(code).toBe(0);
    const orders = JSON.parse(readFileSync(join(benchmarks, 'tau-bench/retail/data/orders.json'), 'utf8')) as Record<string, unknown>;
    expect(JSON.parse(stdout)).toEqual(orders['#W2378156']);
  });

  it('exits 2, not "internal error", for a spec whose source does not compile or throws at the top level, and escapes control characters', async () => {
    const spec = JSON.parse(readFileSync(join(out, 'retail-call.json'), 'utf8')) as EnvironmentSpec;
    const withSource = (source: string): EnvironmentSpec => ({
      ...spec,
      tools: [...spec.tools.slice(1), { ...(spec.tools[0] as EnvironmentSpec['tools'][number]), implementation: { kind: 'js', source } }],
    });
    for (const [name, source] of [['no-compile', 'function run( {'], ['throws', 'throw new Error("top \u001b[31m level"); function run() { return 1; }']] as const) {
      const file = join(out, `${name}.json`);
      writeFileSync(file, JSON.stringify(withSource(source)));
      const r = await autoforge('env', 'call', file, 'get_order_details', '{"order_id":"#W2378156"}');
      expect(r.code, name).toBe(2);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr.includes('\u001b')).toBe(false);
    }
  });

  it('reports agent-style mistakes (unknown tool, invalid or unparsable arguments) with exit code 2', async () => {
    const target = join(out, 'retail-call.json');
    const unknown = await autoforge('env', 'call', target, 'no_such_tool', '{}');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown_tool/);
    const invalid = await autoforge('env', 'call', target, 'get_order_details', '{"order_id":1}');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/invalid_arguments/);
    const unparsable = await autoforge('env', 'call', target, 'get_order_details', '{order');
    expect(unparsable.code).toBe(2);
    expect(unparsable.stderr).toMatch(/arguments:1:\d+: invalid JSON/);
  });

  it('honours the state budget: a write past --max-state-bytes is a state_limit (exit 2), the same write within it answers; bad budgets exit 2', async () => {
    const target = join(out, 'retail-call.json');
    const address = JSON.stringify({ user_id: 'noah_brown_6181', address1: `1 Budget Way ${'x'.repeat(300)}`, address2: 'Suite 2', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' });
    const over = await autoforge('env', 'call', target, 'modify_user_address', address, '--max-state-bytes', '1');
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/state_limit/);
    const within = await autoforge('env', 'call', target, 'modify_user_address', address);
    expect(within.code, within.stderr).toBe(0);
    expect(within.stdout).toContain('1 Budget Way');
    for (const [flag, value] of [['--memory-bytes', '5'], ['--max-state-depth', '0'], ['--max-state-bytes', 'lots']]) {
      const bad = await autoforge('env', 'call', target, 'get_order_details', '{"order_id":"#W2378156"}', flag as string, value as string);
      expect(bad.code, flag).toBe(2);
      expect(bad.stderr).toContain(flag as string);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('exits 2 naming the pointer when the spec is invalid', async () => {
    const bad = join(out, 'bad-spec.json');
    writeFileSync(bad, JSON.stringify({ specVersion: 1, id: 'x', name: 'x', stateSchema: {}, seedState: {}, tools: [{}] }));
    const { code, stderr } = await autoforge('env', 'call', bad, 'a', '{}');
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad-spec\.json \/tools\/0/);
  });
});
