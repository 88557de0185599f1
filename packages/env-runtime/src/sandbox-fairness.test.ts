// One looping tool must not starve the other sessions of the same environment: once a tool's
// call ran to its deadline, its calls wait behind other tools' calls and never hold the last
// worker. Verdicts only: the order in which calls answer, never a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironment } from './environment.js';
import type { Environment } from './environment.js';
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
  id: 'fairness',
  name: 'A looping tool beside a quick one',
  stateSchema: { type: 'object' },
  seedState: {},
  tools: [
    // Unbounded: only the deadline ends it (a C-level loop on an array-like, never yielding).
    tool('spin', 'function run() { const a = { length: 2 ** 52 }; return Array.prototype.indexOf.call(a, 1); }'),
    tool('ping', 'function run() { return "pong"; }'),
  ],
};

let env: Environment;
beforeAll(async () => {
  env = await createEnvironment(spec, { timeoutMs: 600, sandboxWorkers: 2 });
});
afterAll(() => env.close());

const call = (name: string) => env.createSession().step({ id: name, name, arguments: '{}' });

describe('worker pool fairness', () => {
  it("answers another tool's call while the looping tool's calls queue, once that tool ran to its deadline", async () => {
    const first = await call('spin');
    expect(first.ok ? 'ok' : first.error.code).toBe('timeout');
    // Two calls at once, so that both workers are started (and idle) before the race below.
    expect((await Promise.all([call('ping'), call('ping')])).every((r) => r.ok)).toBe(true);
    // Four sessions call the looping tool at once, then a fifth calls the quick one.
    const ended: string[] = [];
    const spins = Array.from({ length: 4 }, (_, i) => call('spin').then((r) => ended.push(`spin ${i}: ${r.ok ? 'ok' : r.error.code}`)));
    const ping = call('ping').then((r) => ended.push(`ping: ${r.ok ? JSON.stringify(r.output) : r.error.code}`));
    await Promise.all([...spins, ping]);
    // Without the rule the first two spins held both workers and the other two were queued before
    // the ping, so it answered last. With it, the spins take one worker at a time and the ping the
    // other, idle one: it answers first (a spin cannot end before its deadline).
    expect(ended[0]).toBe('ping: "pong"');
    expect(ended.filter((e) => e.startsWith('spin')).every((e) => e.endsWith('timeout'))).toBe(true);
  });
});
