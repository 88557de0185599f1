// Test support (not exported): a tiny notes environment with sandboxed tools and two tasks,
// one on the seed state and one with its own initial state.
import type { JsonObject, JsonSchema, Task, UserReply, UserSimulator } from '@autoforge/core';
import { digest } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import type { ServeCatalog } from './server.js';

const note = (id: string, text: string): JsonObject => ({ id, text, done: false });

function tool(name: string, description: string, parameters: Record<string, JsonSchema>, source: string): EnvironmentTool {
  return {
    name,
    description,
    parameters: { type: 'object', properties: parameters, required: Object.keys(parameters), additionalProperties: false },
    outputSchema: {},
    implementation: { kind: 'js', source },
    source: { format: 'openai-chat', pointer: `/${name}` },
  };
}

/** The notes environment. */
export const NOTES_SPEC: EnvironmentSpec = {
  specVersion: 1,
  id: 'notes',
  name: 'Notes',
  description: 'A to-do list',
  stateSchema: { type: 'object' },
  seedState: { notes: { n1: note('n1', 'buy milk'), n2: note('n2', 'call Ada') } },
  policy: 'Only complete notes the user names.',
  tools: [
    tool('get_note', 'Get a note by id.', { note_id: { type: 'string' } }, String.raw`
function run({ note_id }, ctx) {
  const n = ctx.db.get('notes', note_id);
  if (!n) throw new Error('note not found: ' + note_id);
  return n;
}`),
    tool('complete_note', 'Mark a note as done.', { note_id: { type: 'string' } }, String.raw`
function run({ note_id }, ctx) {
  if (!ctx.db.has('notes', note_id)) throw new Error('note not found: ' + note_id);
  return ctx.db.update('notes', note_id, { done: true });
}`),
    tool('add_note', 'Add a note.', { text: { type: 'string' } }, String.raw`
function run({ text }, ctx) {
  const id = ctx.ids.next('n_');
  ctx.db.put('notes', id, { id, text, done: false });
  return { id };
}`),
  ],
};

/** The initial state of the second task. */
export const OTHER_STATE: JsonObject = { notes: { n9: note('n9', 'water plants') } };

/** A catalog of the notes environment and its two tasks (expected digests by replay). */
export async function notesCatalog(): Promise<ServeCatalog> {
  const env = await createEnvironment(NOTES_SPEC);
  try {
    const finalDigest = async (initialState: JsonObject | undefined, calls: Task['goldCalls']): Promise<string> => {
      const session = env.createSession(initialState === undefined ? {} : { initialState });
      for (const call of calls) {
        const result = await session.step({ id: 'gold', name: call.name, arguments: JSON.stringify(call.arguments) });
        if (!result.ok) throw new Error(`fixture: ${call.name}: ${result.error.message}`);
      }
      return session.digest();
    };
    const firstCalls = [
      { name: 'get_note', arguments: { note_id: 'n1' } },
      { name: 'complete_note', arguments: { note_id: 'n1' } },
      { name: 'add_note', arguments: { text: 'buy more milk' } },
    ];
    const secondCalls = [{ name: 'complete_note', arguments: { note_id: 'n9' } }];
    const tasks: Task[] = [
      {
        id: 'notes/task-0',
        envId: 'notes',
        intent: 'Tick off the milk note, add "buy more milk", and tell me what the note said.',
        userFacts: [],
        goldCalls: firstCalls,
        expectedFinalDigest: await finalDigest(undefined, firstCalls),
        requiredOutputs: ['buy milk'],
      },
      {
        id: 'notes/task-1',
        envId: 'notes',
        intent: 'Tick off the plants note.',
        userFacts: [],
        initialState: OTHER_STATE,
        initialDigest: digest(OTHER_STATE),
        goldCalls: secondCalls,
        expectedFinalDigest: await finalDigest(OTHER_STATE, secondCalls),
        requiredOutputs: [],
      },
    ];
    return { specs: [NOTES_SPEC], tasks };
  } finally {
    env.close();
  }
}

/** The notes catalog plus a task whose user knows a fact the agent must ask for (the note's id). */
export async function userCatalog(): Promise<ServeCatalog> {
  const base = await notesCatalog();
  const env = await createEnvironment(NOTES_SPEC);
  try {
    const session = env.createSession();
    const result = await session.step({ id: 'gold', name: 'complete_note', arguments: '{"note_id":"n2"}' });
    if (!result.ok) throw new Error(`fixture: ${result.error.message}`);
    const task: Task = {
      id: 'notes/task-2',
      envId: 'notes',
      intent: 'Tick off one of my notes.',
      userFacts: [{ key: 'note_id', description: 'the note id', value: 'n2' }],
      goldCalls: [{ name: 'complete_note', arguments: { note_id: 'n2' } }],
      expectedFinalDigest: session.digest(),
      requiredOutputs: [],
    };
    return { specs: base.specs, tasks: [...base.tasks, task] };
  } finally {
    env.close();
  }
}

/** The task of `taskToolsCatalog`: it offers `get_note` and `complete_note`, and holds `complete_note` out. */
export const TOOLS_TASK = 'notes/task-tools';

/**
 * The notes catalog plus a task that offers two of the three tools and holds one of them out,
 * with a catalog `userFor` that plays its turns as BFCL's do: the opening, a plain reply, then
 * a reply that gives `complete_note` back, then a stop. Other tasks get no user of their own.
 */
export async function taskToolsCatalog(): Promise<ServeCatalog> {
  const base = await notesCatalog();
  const env = await createEnvironment(NOTES_SPEC);
  try {
    const session = env.createSession();
    const result = await session.step({ id: 'gold', name: 'complete_note', arguments: '{"note_id":"n1"}' });
    if (!result.ok) throw new Error(`fixture: ${result.error.message}`);
    const task: Task = {
      id: TOOLS_TASK,
      envId: 'notes',
      intent: 'Tick off the milk note.',
      userFacts: [],
      goldCalls: [{ name: 'complete_note', arguments: { note_id: 'n1' } }],
      expectedFinalDigest: session.digest(),
      requiredOutputs: [],
      tools: ['get_note', 'complete_note'],
      heldOutTools: ['complete_note'],
    };
    const turns: UserReply[] = [
      { content: 'Tick off the milk note (n1).', stop: false },
      { content: 'Look it up first.', stop: false },
      { content: '', stop: false, revealTools: ['complete_note'] },
      { content: '###STOP###', stop: true },
    ];
    const turnUser = (): UserSimulator => {
      let next = 0;
      const say = async (): Promise<UserReply> => turns[Math.min(next++, turns.length - 1)] as UserReply;
      return { name: 'turns', start: say, reply: say };
    };
    return { specs: base.specs, tasks: [...base.tasks, task], userFor: (t) => (t.id === TOOLS_TASK ? turnUser() : undefined) };
  } finally {
    env.close();
  }
}
