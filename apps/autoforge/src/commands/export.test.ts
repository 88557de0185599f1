import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, Task } from '@autoforge/core';
import { toOpenAIMessages } from '@autoforge/llm';
import { createEnvironmentServer, loadRunDirectory } from '@autoforge/env-server';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAutoforge } from '../test-support.js';
import { toYaml } from './export.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'autoforge-export-'));
const run = join(tmp, 'run');
const POLICY = 'Answer only what the member asks. Never invent ids.\n';
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
let tasks: Task[] = [];

async function readParquet(file: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(file);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

async function exportTo(format: string, out: string, ...args: string[]): Promise<string> {
  const r = await runAutoforge(['export', run, '--format', format, '--out', join(tmp, out), ...args]);
  expect(r.code, r.stderr).toBe(0);
  return join(tmp, out);
}

/** Every file under a folder, by relative path, as bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(join(entry.parentPath, entry.name).slice(dir.length + 1), readFileSync(join(entry.parentPath, entry.name)));
  }
  return out;
}

beforeAll(async () => {
  const synth = await runAutoforge(['synth', join(EXAMPLES, 'library.tools.json'), '--out', run, '--tasks', '10', '--seed', '1', '--no-progress']);
  expect(synth.code, synth.stderr).toBe(0);
  writeFileSync(join(run, 'policy.md'), POLICY);
  tasks = lines(join(run, 'tasks.jsonl')) as unknown as Task[];
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('autoforge export --format verl', () => {
  it("writes train/val parquet with verl's columns; every prompt is what `autoforge serve` opens that episode with", async () => {
    const out = await exportTo('verl', 'verl', '--val', '0.3', '--server-url', 'http://trainer-host:9000/');
    const train = await readParquet(join(out, 'train.parquet'));
    const val = await readParquet(join(out, 'val.parquet'));
    expect(train.length + val.length).toBe(tasks.length);
    expect(val.length).toBe(3);
    const ids = [...train, ...val].map((r) => (r.extra_info as { task_id: string }).task_id);
    expect(new Set(ids)).toEqual(new Set(tasks.map((t) => t.id)));

    const catalog = await loadRunDirectory(run);
    // The server `autoforge serve` starts: its scripted user is the varied one, as the export's.
    const server = await createEnvironmentServer(catalog, { defaultUser: { surface: 'varied' } });
    try {
      for (const [split, rows] of [['train', train], ['val', val]] as const) {
        for (const [i, row] of rows.entries()) {
          const info = row.extra_info as { task_id: string; env_id: string; seed: bigint; index: bigint; split: string; server: { url: string } };
          const task = tasks.find((t) => t.id === info.task_id) as Task;
          expect(Object.keys(row)).toEqual(['data_source', 'agent_name', 'prompt', 'ability', 'reward_model', 'extra_info']);
          expect(row.data_source).toBe(`autoforge/${task.envId}`);
          expect(row.agent_name).toBe('autoforge');
          expect(info).toMatchObject({ env_id: task.envId, split, server: { url: 'http://trainer-host:9000' } });
          expect(info.index).toBe(BigInt(i));
          expect(row.reward_model).toEqual({ style: 'rule', ground_truth: JSON.stringify({ expected_final_digest: task.expectedFinalDigest, required_outputs: task.requiredOutputs }) });
          // What the verl agent loop's reset gets from the server for this row's task and seed.
          const reset = (await server.app.inject({ method: 'POST', url: '/reset', payload: { task_id: task.id, seed: Number(info.seed) } })).json() as { observation: { messages: unknown[] } };
          expect(row.prompt).toEqual(reset.observation.messages);
          expect((row.prompt as { role: string; content: string }[])[0]).toEqual({ role: 'system', content: POLICY });
        }
      }
    } finally {
      await server.close();
    }
  });

  it("writes verl's agent-loop YAML and one tool config per environment with every tool", async () => {
    const out = await exportTo('verl', 'verl-configs');
    expect(readFileSync(join(out, 'agent_loop.yaml'), 'utf8')).toMatch(/\n- name: "autoforge"\n {2}_target_: "autoforge_client\.verl\.AutoForgeAgentLoop"\n$/);
    const spec = JSON.parse(readFileSync(join(run, 'envs', readdirSync(join(run, 'envs'))[0] as string), 'utf8')) as { id: string; tools: { name: string }[] };
    const config = readFileSync(join(out, 'tool_config', `${spec.id}.yaml`), 'utf8');
    expect(config.match(/^ {2}- class_name: /gm)).toHaveLength(spec.tools.length);
    for (const tool of spec.tools) expect(config).toContain(`        name: ${JSON.stringify(tool.name)}\n`);
  });

  it('gives the same bytes for the same seed, and another split for another seed', async () => {
    const a = filesOf(await exportTo('verl', 'same-a', '--seed', '7', '--val', '0.3'));
    const b = filesOf(await exportTo('verl', 'same-b', '--seed', '7', '--val', '0.3'));
    const c = filesOf(await exportTo('verl', 'same-c', '--seed', '8', '--val', '0.3'));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name) as Buffer), name).toBe(true);
    expect((a.get('train.parquet') as Buffer).equals(c.get('train.parquet') as Buffer)).toBe(false);
  });
});

describe('autoforge export --format skyrl | trl | jsonl', () => {
  it("skyrl: SkyRL's columns (env_class, reward_spec) on the same prompts as verl", async () => {
    const verl = await readParquet(join(await exportTo('verl', 'v2'), 'train.parquet'));
    const skyrl = await readParquet(join(await exportTo('skyrl', 'skyrl'), 'train.parquet'));
    expect(skyrl).toHaveLength(verl.length);
    for (const [i, row] of skyrl.entries()) {
      expect(Object.keys(row)).toEqual(['data_source', 'prompt', 'env_class', 'reward_spec', 'extra_info']);
      expect(row.env_class).toBe('autoforge');
      expect(row.prompt).toEqual(verl[i]?.prompt);
      expect(row.reward_spec).toEqual({ method: 'rule', ground_truth: (verl[i]?.reward_model as { ground_truth: string }).ground_truth });
    }
  });

  it("trl: an empty last user message (TRL appends reset()'s opening) and the task_id and seed reset reads", async () => {
    const out = await exportTo('trl', 'trl');
    const jsonl = lines(join(await exportTo('jsonl', 'jsonl'), 'train.jsonl'));
    const rows = lines(join(out, 'train.jsonl'));
    expect(rows.length).toBe(jsonl.length);
    for (const [i, row] of rows.entries()) {
      expect(row.prompt).toEqual([{ role: 'system', content: POLICY }, { role: 'user', content: '' }]);
      expect(row.task_id).toBe(jsonl[i]?.id);
      expect(row.seed).toBe(jsonl[i]?.seed);
      expect(row.extra_info).toMatchObject({ task_id: row.task_id, seed: row.seed, split: 'train' });
    }
  });

  it('jsonl: the tasks as they are, with their prompt, split and seed', async () => {
    const out = await exportTo('jsonl', 'jsonl-2');
    const rows = [...lines(join(out, 'train.jsonl')), ...lines(join(out, 'val.jsonl'))];
    expect(rows).toHaveLength(tasks.length);
    for (const row of rows) {
      const { prompt, split, seed, ...task } = row;
      expect(task).toEqual(tasks.find((t) => t.id === row.id));
      expect(['train', 'val']).toContain(split);
      expect(typeof seed).toBe('number');
      expect((prompt as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
    }
  });
});

describe('autoforge rollout with policy.md, export --format openai-sft', () => {
  it("rollout opens every episode with policy.md (as serve does), rewards unchanged; openai-sft writes them as OpenAI chat messages with tool_calls", async () => {
    const r = await runAutoforge(['rollout', run, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`success ${tasks.length}/${tasks.length} (100.0%)`);
    const trajectories = lines(join(run, 'trajectories.jsonl')) as unknown as { messages: { role: string; content?: string }[] }[];
    for (const t of trajectories) expect(t.messages[0]).toEqual({ role: 'system', content: POLICY });

    const out = await exportTo('openai-sft', 'sft');
    const episodes = lines(join(out, 'train.jsonl')) as unknown as { messages: Record<string, unknown>[]; tools: { type: string; function: { name: string } }[] }[];
    expect(episodes).toHaveLength(tasks.length);
    for (const [i, episode] of episodes.entries()) {
      expect(Object.keys(episode)).toEqual(['messages', 'tools']);
      expect(episode.messages[0]).toEqual({ role: 'system', content: POLICY });
      const calls = episode.messages.flatMap((m) => (m.tool_calls as { id: string; type: string; function: { name: string; arguments: string } }[] | undefined) ?? []);
      const toolIds = episode.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
      expect(calls.length).toBe((tasks[i] as Task).goldCalls.length);
      expect(toolIds).toEqual(calls.map((c) => c.id));
      for (const c of calls) {
        expect(c.type).toBe('function');
        expect(episode.tools.map((t) => t.function.name)).toContain(c.function.name);
        expect(typeof JSON.parse(c.function.arguments)).toBe('object');
      }
    }
  }, 60_000);

  it('openai-sft leaves out episodes the judge blames on the user and unsolved ones, unless --all', async () => {
    const r = await runAutoforge(['rollout', run, '--user-error-rate', '0.6', '--rollouts', '2', '--out', 'noisy.jsonl', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const j = await runAutoforge(['judge', run, '--trajectories', 'noisy.jsonl', '--out', 'noisy-verdicts.jsonl', '--no-progress']);
    expect(j.code, j.stderr).toBe(0);
    const trajectories = lines(join(run, 'noisy.jsonl'));
    const blamed = new Set(lines(join(run, 'noisy-verdicts.jsonl')).filter((v) => v.userError).map((v) => v.trajectoryId));
    const kept = trajectories.filter((t) => t.reward === 1 && !blamed.has(t.id));
    expect(blamed.size).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    const some = lines(join(await exportTo('openai-sft', 'sft-noisy', '--trajectories', 'noisy.jsonl', '--verdicts', 'noisy-verdicts.jsonl'), 'train.jsonl'));
    expect(some.map((e) => JSON.stringify(e.messages))).toEqual(kept.map((t) => JSON.stringify(toOpenAIMessages(t.messages as Message[]))));
    const all = lines(join(await exportTo('openai-sft', 'sft-all', '--trajectories', 'noisy.jsonl', '--all'), 'train.jsonl'));
    expect(all).toHaveLength(trajectories.length);
  }, 60_000);
});

describe('autoforge train: advantages.jsonl for trainers', () => {
  it('has an iteration column, uids that do not repeat the environment id, and trajectory_ids of saved episodes', async () => {
    const t = await runAutoforge(['train', run, '--iters', '2', '--rollouts', '2', '--no-progress']);
    expect(t.code, t.stderr).toBe(0);
    const advantages = lines(join(run, 'advantages.jsonl'));
    const saved = new Set(lines(join(run, 'train-trajectories.jsonl')).map((x) => x.id));
    const oracle = new Set(lines(join(run, 'trajectories.jsonl')).map((x) => x.id));
    expect(advantages.length).toBe(saved.size);
    expect(new Set(advantages.map((a) => a.iteration))).toEqual(new Set([0, 1]));
    for (const a of advantages) {
      expect(Object.keys(a)[0]).toBe('iteration');
      expect(a.uid).toBe(a.task_id);
      expect((a.uid as string).split(a.env_id as string)).toHaveLength(2);
      expect(saved.has(a.trajectory_id)).toBe(true);
      expect(oracle.has(a.trajectory_id)).toBe(false);
    }
  }, 120_000);
});

describe('toYaml', () => {
  it('writes block YAML whose strings are JSON-quoted, so any text survives', () => {
    expect(toYaml({ tools: [{ a: 'x: "y"\n', b: [], c: {}, d: 1, 'e-f': null }] })).toBe('tools:\n  - a: "x: \\"y\\"\\n"\n    b: []\n    c: {}\n    d: 1\n    "e-f": null\n');
    expect(toYaml([{ name: 'n', list: ['p', 'q'] }])).toBe('- name: "n"\n  list:\n    - "p"\n    - "q"\n');
  });
});
