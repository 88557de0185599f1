import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const root = mkdtempSync(join(tmpdir(), 'autoforge-synth-'));

const retail = (out: string, seed = '1', ...extra: string[]) =>
  autoforge(
    'synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--db', join(benchmarks, 'tau-bench/retail/data'),
    '--out', out, '--tasks', '6', '--seed', seed, '--no-progress', ...extra,
  );
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');

describe('autoforge synth + verify', () => {
  it('writes the run directory and every task replays to its expected digest', async () => {
    const out = join(root, 'retail');
    const { code, stdout, stderr } = await retail(out);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/tasks: 6\/6 from \d+ blueprints/);
    for (const f of ['config.json', 'tooldoc.json', 'graph.json', 'graph.dot', 'graph.mmd', 'blueprints.jsonl', 'tasks.jsonl']) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const tasks = readFileSync(join(out, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { goldCalls: unknown[]; intent: string });
    expect(tasks).toHaveLength(6);
    for (const t of tasks) {
      expect(t.goldCalls.length).toBeGreaterThan(0);
      expect(t.intent.length).toBeGreaterThan(0);
    }
    const verify = await autoforge('verify', out);
    expect(verify.stdout).toBe('verified 6/6\n');
    expect(verify.code).toBe(0);
  });

  it('is deterministic: the same seed gives byte-identical tasks.jsonl', async () => {
    await retail(join(root, 'a'), '5');
    await retail(join(root, 'b'), '5');
    expect(readFileSync(join(root, 'a', 'tasks.jsonl'), 'utf8')).toBe(readFileSync(join(root, 'b', 'tasks.jsonl'), 'utf8'));
  });

  it('writes the same bytes whatever the number of worker threads', async () => {
    await retail(join(root, 'w0'), '7', '--workers', '0');
    await retail(join(root, 'w2'), '7', '--workers', '2');
    for (const f of ['tasks.jsonl', 'blueprints.jsonl']) expect(read(join(root, 'w2'), f)).toBe(read(join(root, 'w0'), f));
  });

  it('resumes: a finished run is left as it is, a torn round is redone, another configuration is refused', async () => {
    const out = join(root, 'resume');
    await retail(out, '3');
    const tasks = read(out, 'tasks.jsonl');
    const again = await retail(out, '3');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\(resumed\)/);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    // A crash in the last round: its blueprint lines never came and its tasks line is torn.
    const lines = read(out, 'blueprints.jsonl').trim().split('\n');
    const lastRound = Math.max(...lines.map((l) => (JSON.parse(l) as { round: number }).round));
    writeFileSync(join(out, 'blueprints.jsonl'), lines.filter((l) => (JSON.parse(l) as { round: number }).round < lastRound).map((l) => `${l}\n`).join(''));
    writeFileSync(join(out, 'tasks.jsonl'), `${tasks}{"id":"torn`);
    expect((await retail(out, '3')).code).toBe(0);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    // A crash while the last round's blueprint lines were written: a torn line; that round is redone.
    const full = read(out, 'blueprints.jsonl');
    writeFileSync(join(out, 'blueprints.jsonl'), full.slice(0, full.length - 40));
    expect((await retail(out, '3')).code).toBe(0);
    expect(read(out, 'tasks.jsonl')).toBe(tasks);
    expect(read(out, 'blueprints.jsonl')).toBe(full);
    const other = await retail(out, '4');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/another configuration/);
  });

  it('verify exits 3 and names the task when a replay does not reach the expected digest', async () => {
    const out = join(root, 'tampered');
    await retail(out);
    const lines = readFileSync(join(out, 'tasks.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { id: string; expectedFinalDigest: string };
    first.expectedFinalDigest = '0'.repeat(64);
    lines[0] = JSON.stringify(first);
    writeFileSync(join(out, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await autoforge('verify', out);
    expect(code).toBe(3);
    expect(stdout).toBe(`verified ${lines.length - 1}/${lines.length}\n`);
    expect(stderr).toContain(`${first.id}: unsolved:replay`);
  });

  it('prints an honest summary: shapes, coverage of released tasks and every reason a blueprint gave no task', async () => {
    const out = join(root, 'summary');
    const { code, stdout } = await retail(out, '2');
    expect(code).toBe(0);
    const lines = read(out, 'blueprints.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { status: string });
    const reasons = new Map<string, number>();
    for (const { status } of lines) if (status !== 'accepted') reasons.set(status.replace(/^rejected:/, ''), (reasons.get(status.replace(/^rejected:/, '')) ?? 0) + 1);
    const printed = /^not released: (.*)$/m.exec(stdout)?.[1] ?? '';
    for (const [reason, n] of reasons) expect(printed).toContain(`${reason} ${n}`);
    expect(stdout).toMatch(/^distinct gold-call shapes: \d+ \(\d+%\)$/m);
    expect(stdout).toMatch(/^coverage of released tasks: tools [\d.]+% \(\d+\/\d+\), edges [\d.]+% \(\d+\/\d+\)$/m);
  });

  it('exits 2 when no task can be released, and says why', async () => {
    const doc = join(root, 'nothing.json');
    writeFileSync(doc, JSON.stringify([{ type: 'function', function: { name: 'reset_quote', description: 'Reset the quote.', parameters: { type: 'object', properties: {} } } }]));
    const { code, stdout, stderr } = await autoforge('synth', doc, '--out', join(root, 'nothing'), '--tasks', '3', '--no-progress');
    expect(code).toBe(2);
    expect(stdout).toMatch(/^tasks: 0\/3 /m);
    expect(stdout).toMatch(/coverage of released tasks: tools 0\.0%/);
    expect(stderr).toMatch(/no task could be released from .*nothing\.json \(0 blueprints tried\); the dependency graph gives no walk .*reset_quote \(stand-in/);
  });

  it('verify says which check of the release gate failed, per task', async () => {
    const out = join(root, 'gate');
    await retail(out);
    const lines = read(out, 'tasks.jsonl').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { id: string; userFacts: unknown[] };
    first.userFacts = [];
    lines[0] = JSON.stringify(first);
    writeFileSync(join(out, 'tasks.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await autoforge('verify', out);
    expect(code).toBe(3);
    expect(stdout).toBe(`verified ${lines.length - 1}/${lines.length}\n`);
    expect(stderr).toContain(`${first.id}: unsolved:dialogue`);
    expect(stderr).not.toContain('unsolved:replay');
  });

  it('verify exits 2 on a directory that is not a run directory', async () => {
    const { code, stderr } = await autoforge('verify', join(root, 'nothing-here'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/not a run directory/);
  });
});

describe('autoforge synth --user-tools: dual control (tau2 telecom: the user acts on their own phone)', () => {
  const telecom = join(benchmarks, 'tau2-bench/telecom');
  it('synthesizes both sides into one environment; tasks ask the user for the user-side calls, replay, and the oracle solves them through the scripted user', async () => {
    const out = join(root, 'dual');
    const { code, stdout, stderr } = await autoforge(
      'synth', join(telecom, 'tools.json'), '--db', join(telecom, 'db.toml'),
      '--user-tools', join(telecom, 'user_tools.json'), '--user-db', join(telecom, 'user_db.toml'),
      '--out', out, '--tasks', '16', '--seed', '0', '--no-progress',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/tasks: 16\/16/);
    const userToolDoc = JSON.parse(readFileSync(join(telecom, 'user_tools.json'), 'utf8')) as { function: { name: string } }[];
    const userTools = new Set(userToolDoc.map((t) => t.function.name));
    const [envFile] = readdirSync(join(out, 'envs'));
    const spec = JSON.parse(read(join(out, 'envs'), envFile as string)) as { metadata: { userTools: string[] }; tools: { name: string }[] };
    expect(new Set(spec.metadata.userTools)).toEqual(userTools);
    expect(spec.tools).toHaveLength(43);
    const tasks = read(out, 'tasks.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { userTools?: string[]; goldCalls: { name: string }[] });
    for (const t of tasks) expect(new Set(t.userTools)).toEqual(userTools);
    // Blueprints hold user-side calls: the agent must ask the user to make them.
    const dual = tasks.filter((t) => t.goldCalls.some((c) => userTools.has(c.name)));
    expect(dual.length).toBeGreaterThan(3);
    expect((await autoforge('verify', out)).stdout).toBe('verified 16/16\n');
    const rollout = await autoforge('rollout', out, '--agent', 'oracle', '--user', 'scripted', '--user-error-rate', '0', '--no-progress');
    expect(rollout.code).toBe(0);
    expect(rollout.stdout).toContain('success 16/16');
    const trajectories = read(out, 'trajectories.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { steps: { call: { name: string } }[]; userSteps?: { call: { name: string }; result: { ok: boolean } }[] });
    // The user's calls are the user's: never the agent's, each one made by the user on its side.
    expect(trajectories.every((t) => t.steps.every((s) => !userTools.has(s.call.name)))).toBe(true);
    expect(trajectories.filter((t) => (t.userSteps ?? []).length > 0)).toHaveLength(dual.length);
    expect(trajectories.flatMap((t) => t.userSteps ?? []).every((s) => userTools.has(s.call.name) && s.result.ok)).toBe(true);
  }, 120_000);

  it('refuses --user-db without --user-tools, and a user tool named as an agent tool (located)', async () => {
    const bad = await autoforge('synth', join(telecom, 'tools.json'), '--user-db', join(telecom, 'user_db.toml'), '--out', join(root, 'dual-bad'), '--tasks', '2', '--no-progress');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--user-db needs --user-tools');
    const clash = await autoforge('synth', join(telecom, 'tools.json'), '--user-tools', join(telecom, 'tools.json'), '--out', join(root, 'dual-clash'), '--tasks', '2', '--no-progress');
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/tools\.json.*the user's tool "get_customer_by_phone" has the name of one of the agent's tools/s);
  });
});

describe('autoforge synth --llm', () => {
  it('rewrites each intent with the model, keeps the template where a fact would be lost, and says so', async () => {
    // The model keeps every value it must in every other answer, and drops one in the rest.
    const server = await createScriptedChatServer({
      handler: (request) => {
        const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
        const input = JSON.parse((messages[1]?.content ?? '').replace(/^[^\n]*\n/, '')) as { must_keep: string[] };
        const kept = request.index % 2 === 0 ? input.must_keep : input.must_keep.slice(1);
        return JSON.stringify({ intent: `Hello. I am the customer: ${kept.join(', ')}.` });
      },
    });
    try {
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test', AUTOFORGE_MODEL: 'scripted' };
      const out = join(root, 'llm');
      const args = ['synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--db', join(benchmarks, 'tau-bench/retail/data'), '--out', out, '--tasks', '6', '--seed', '1', '--no-progress', '--llm', '--cache', join(root, 'llm-cache')];
      const { code, stdout, stderr } = await runAutoforge(args, env);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const rewrote = Number(/llm: scripted rewrote (\d+) intent/.exec(stdout)?.[1]);
      const tasks = read(out, 'tasks.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { intent: string; metadata: { mentions: string[]; templateIntent?: string } });
      expect(server.chatRequests()).toHaveLength(6);
      expect(rewrote).toBe(3);
      expect(tasks.filter((t) => t.metadata.templateIntent !== undefined)).toHaveLength(rewrote);
      for (const t of tasks) {
        for (const m of t.metadata.mentions) expect(t.intent).toContain(m);
        if (t.metadata.templateIntent !== undefined) expect(t.intent).toMatch(/^Hello\. I am the customer/);
      }
      expect((await autoforge('verify', out)).code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('exits 2 when --llm has no model configured', async () => {
    const { code, stderr } = await runAutoforge(['synth', join(benchmarks, 'tau-bench/retail/tools.json'), '--out', join(root, 'nomodel'), '--llm'], { AUTOFORGE_MODEL: '' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/AUTOFORGE_MODEL/);
  });
});
