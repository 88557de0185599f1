// A sign-in's token, passed on. Regression: a call that takes the token the sign-in returns
// (`get_booking_history(access_token)`) had it as a fact the user states — no customer knows it —
// because a write (the sign-in) may not feed another write, and a read fed by the sign-in was
// dropped as "reading back a write". The token now comes from the sign-in's output, the sign-in
// goes before the first call that needs it, and what reads the session's records stays.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonSchemaObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { Environment, EnvironmentSpec } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import type { Blueprint, ToolNode } from '../src/blueprint.js';
import { compileTask } from '../src/compile-task.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { verifyTask } from '../src/verify-task.js';
import { BENCHMARKS } from './test-support.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject>, required: string[], outputSchema: ToolSpec['outputSchema']): ToolSpec {
  return { name, description, parameters: { type: 'object', properties, required }, source: { format: 'openai-chat', pointer: `/${name}` }, ...(outputSchema !== undefined ? { outputSchema } : {}) };
}

/** An invented notebook: its login hands out a key that the other calls pass back. */
const notebook: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('notebook_login', 'Log in to the notebook.', { username: { type: 'string' }, password: { type: 'string' } }, ['username', 'password'], {
      type: 'object',
      properties: { session_key: { type: 'string' }, lifetime_s: { type: 'integer' } },
    }),
    tool('list_notes', 'List the notes of the session.', { session_key: { type: 'string' } }, ['session_key'], {
      type: 'object',
      properties: { notes: { type: 'array', items: { type: 'object', properties: { note_id: { type: 'string' }, title: { type: 'string' }, pages: { type: 'integer' } } } } },
    }),
    tool('add_note', 'Add a note.', { session_key: { type: 'string' }, title: { type: 'string' }, pages: { type: 'integer' } }, ['session_key', 'title', 'pages'], {
      type: 'object',
      properties: { note_id: { type: 'string' } },
    }),
  ],
};

const environments: Environment[] = [];
afterAll(() => {
  for (const e of environments) e.close();
});

async function load(doc: ToolDoc): Promise<{ spec: EnvironmentSpec; environment: Environment; graph: ReturnType<typeof buildDependencyGraph> }> {
  const synth = synthesizeEnvironment(doc, { seed: 1 });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const spec = synth.value.spec;
  const graph = buildDependencyGraph(spec.tools.filter((t) => t.pattern !== 'stand-in'), { access: 'names' });
  const environment = await createEnvironment(spec, { validateSeed: false });
  environments.push(environment);
  return { spec, environment, graph };
}

const toolNodes = (bp: Blueprint): ToolNode[] => bp.nodes.filter((n): n is ToolNode => n.kind === 'tool');

describe('a sign-in token in blueprints (invented document)', () => {
  it('signs in first and passes the key it returns to every call that needs it; no user is asked for it', async () => {
    const { spec, graph } = await load(notebook);
    for (const walk of [['add_note'], ['list_notes'], ['list_notes', 'add_note']]) {
      const bp = mergeSequences([{ tools: walk, edges: [], starts: [0] }], graph, { seed: 3, tools: spec.tools });
      const calls = toolNodes(bp);
      expect(calls[0]?.tool).toBe('notebook_login');
      for (const call of calls.slice(1)) expect(call.args.session_key).toEqual({ from: calls[0]?.id, path: 'session_key' });
      expect(bp.nodes.some((n) => n.kind === 'user' && n.fact.startsWith('session_key'))).toBe(false);
      // What the sign-in says about the session (how long the key lasts) feeds no step of the task.
      expect(bp.nodes.some((n) => n.kind === 'reasoning' && n.input.from === calls[0]?.id)).toBe(false);
    }
  });

  it('compiles such a blueprint into a task whose replay reaches its digest', async () => {
    const { spec, graph, environment } = await load(notebook);
    const bp = mergeSequences([{ tools: ['add_note'], edges: [], starts: [0] }], graph, { seed: 5, tools: spec.tools });
    const compiled = compileTask(bp, environment, { seed: 5 });
    if (!compiled.ok) throw new Error(compiled.issues.map((i) => i.message).join('\n'));
    const [login, add] = compiled.value.goldCalls;
    expect(login?.name).toBe('notebook_login');
    expect(add?.name).toBe('add_note');
    expect(add?.arguments.session_key).not.toBe('seed-session');
    expect(compiled.value.intent).not.toContain(String(add?.arguments.session_key));
    expect(verifyTask(compiled.value, environment).ok).toBe(true);
  });
});

describe('a sign-in token in blueprints (BFCL travel function doc)', () => {
  it('every tool that takes access_token gets it from authenticate_travel, which comes first; the reads stay', async () => {
    const parsed = await parseToolDocFile(join(BENCHMARKS, 'bfcl/data/multi_turn_func_doc/travel_booking.json'));
    if (!parsed.ok) throw new Error('cannot parse the travel doc');
    const { spec, graph, environment } = await load(parsed.value);
    const takers = spec.tools.filter((t) => t.pattern !== 'stand-in' && 'access_token' in (t.parameters.properties ?? {})).map((t) => t.name);
    expect(takers.length).toBeGreaterThanOrEqual(6);
    let compiled = 0;
    for (const name of takers) {
      const bp = mergeSequences([{ tools: [name], edges: [], starts: [0] }], graph, { seed: 7, tools: spec.tools });
      const calls = toolNodes(bp);
      expect(calls[0]?.tool).toBe('authenticate_travel');
      const call = calls.find((c) => c.tool === name);
      expect(call?.args.access_token).toEqual({ from: calls[0]?.id, path: 'access_token' });
      const r = compileTask(bp, environment, { seed: 7 });
      if (!r.ok) continue;
      compiled += 1;
      const token = r.value.goldCalls.find((c) => c.name === name)?.arguments.access_token;
      expect(typeof token).toBe('string');
      expect(r.value.intent).not.toContain(String(token));
      expect(verifyTask(r.value, environment).ok).toBe(true);
    }
    expect(compiled).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

// Regression (petstore): the seed session is signed in, so signing in again as the same user
// changed nothing, and every blueprint with the sign-in was rejected as `no_state_change`.
describe('a sign-in that changes nothing (already signed in)', () => {
  it('is still a step of the task: the blueprint compiles and replays (public petstore document)', async () => {
    const parsed = await parseToolDocFile(join(BENCHMARKS, '../realworld/petstore3.openapi.yaml'));
    if (!parsed.ok) throw new Error('cannot parse the petstore document');
    const { spec, graph, environment } = await load(parsed.value);
    const login = spec.tools.find((t) => t.pattern === 'session:login')?.name;
    expect(login).toBeDefined();
    let compiled = 0;
    for (const walk of [[login as string, 'getUserByName'], [login as string, 'deleteUser'], [login as string, 'getInventory']]) {
      const bp = mergeSequences([{ tools: walk, edges: [], starts: [0] }], graph, { seed: 2, tools: spec.tools });
      const r = compileTask(bp, environment, { seed: 2 });
      if (!r.ok) {
        expect(r.issues.map((i) => i.message).join('\n')).not.toMatch(new RegExp(`${login as string} left the state unchanged`));
        continue;
      }
      compiled += 1;
      expect(r.value.goldCalls[0]?.name).toBe(login);
      expect(verifyTask(r.value, environment).ok).toBe(true);
    }
    expect(compiled).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
