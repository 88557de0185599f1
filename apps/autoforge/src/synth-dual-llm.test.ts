// Split from synth.test.ts so that vitest runs the files on several workers.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, runAutoforge } from './test-support.js';

const autoforge = (...args: string[]) => runAutoforge(args);

const benchmarks = BENCHMARKS;
const root = mkdtempSync(join(tmpdir(), 'autoforge-synth-dual-'));

const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');


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
