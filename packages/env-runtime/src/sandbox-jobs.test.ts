// Promise jobs a tool leaves queued run after its call, with the db detached, within the call's
// deadline. A chain that queues itself for ever spends the QuickJS instance, which is then
// replaced, so the chain never runs after another session's call. Verdicts only, never times.
import { describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { SandboxIsolation } from './sandbox.js';
import { SandboxInstance } from './sandbox.js';
import { newSandboxModule } from './sandbox-module.js';
import type { EnvironmentSpec } from './spec.js';

const tool = (name: string, source: string): EnvironmentSpec['tools'][number] => ({
  name,
  description: name,
  parameters: { type: 'object' },
  outputSchema: true,
  implementation: { kind: 'js', source },
  source: { format: 'openai-chat', pointer: `/${name}` },
});

const spec: EnvironmentSpec = {
  specVersion: 1,
  id: 'jobs',
  name: 'Promise jobs',
  stateSchema: { type: 'object' },
  seedState: {},
  tools: [
    tool('count', 'let calls = 0; function run() { calls += 1; return calls; }'),
    // Each job queues the next, then spins: the drain's deadline cuts one, the next stays queued.
    tool('flood', 'function run() { const again = () => { Promise.resolve().then(again); for (;;) {} }; Promise.resolve().then(again); return "queued"; }'),
    tool('settle', 'let done = 0; function run() { Promise.resolve().then(() => { done += 1; }); return done; }'),
  ],
};

const step = async (env: Awaited<ReturnType<typeof createEnvironment>>, name: string): Promise<unknown> => {
  const r = await env.createSession().step({ id: name, name, arguments: '{}' });
  return r.ok ? r.output : r.error.code;
};

describe('SandboxInstance: promise jobs after a call', () => {
  it('settles a short chain, and is spent by a chain that queues itself for ever', async () => {
    const sources = spec.tools.map((t, i) => ({ name: t.name, source: (t.implementation as { source: string }).source, pointer: `/tools/${i}/implementation/source` }));
    const limits = { timeoutMs: 200, memoryLimitBytes: 32 * 1024 * 1024, maxStackBytes: 64 * 1024, maxOutputBytes: 1024 * 1024, isolation: 'in-thread' as const, maxWorkers: 1 };
    const instance = new SandboxInstance(await newSandboxModule(), sources, limits);
    const noHost = (): never => {
      throw new Error('no host in this test');
    };
    try {
      instance.run(2, '{}', noHost);
      expect(instance.spent).toBe(false);
      instance.run(1, '{}', noHost);
      expect(instance.spent).toBe(true);
    } finally {
      instance.dispose();
    }
  });
});

describe.each<SandboxIsolation>(['worker', 'in-thread'])('promise jobs (%s)', (isolation) => {
  it('a spent instance is replaced: the calls after a self-queuing chain answer as before', async () => {
    const env = await createEnvironment(spec, { timeoutMs: 200, sandboxWorkers: 1, isolation });
    try {
      expect([await step(env, 'count'), await step(env, 'settle')]).toEqual([1, 0]);
      expect(await step(env, 'flood')).toBe('queued');
      expect([await step(env, 'count'), await step(env, 'settle'), await step(env, 'count')]).toEqual([1, 0, 1]);
    } finally {
      env.close();
    }
  });
});
