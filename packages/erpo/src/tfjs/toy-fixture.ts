// Test support (not exported): a tiny account-help environment on @autoforge/env-runtime and a
// scripted user, where success means: ask for the email, look the user id up, reset the
// password, finish — without deleting anything.
import type { JsonObject, JsonSchemaObject, Message, Task, UserFact, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN, splitWords } from '@autoforge/core';
import type { Environment, EnvironmentSpec, NativeTool } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';

const str = { type: 'string' } as const;
const params = (names: string[]): JsonSchemaObject => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, str])),
  required: names,
  additionalProperties: false,
});

const USERS = ['ada', 'bob', 'cy', 'dee', 'eve', 'fay'];

const NATIVES: Record<string, NativeTool> = {
  find_user_id_by_email(args, ctx) {
    const found = ctx.db.find('users', { email: args.email as string });
    if (found.length === 0) throw new Error(`no user with email ${String(args.email)}`);
    return (found[0] as JsonObject).user_id as string;
  },
  get_user_details(args, ctx) {
    const user = ctx.db.get('users', args.user_id as string);
    if (user === undefined) throw new Error(`user not found: ${String(args.user_id)}`);
    return user;
  },
  reset_password(args, ctx) {
    const id = args.user_id as string;
    if (ctx.db.get('users', id) === undefined) throw new Error(`user not found: ${id}`);
    return ctx.db.update('users', id, { password_reset: true });
  },
  delete_account(args, ctx) {
    const id = args.user_id as string;
    if (ctx.db.get('users', id) === undefined) throw new Error(`user not found: ${id}`);
    ctx.db.delete('users', id);
    return { deleted: id };
  },
  list_plans() {
    return ['basic', 'pro'];
  },
};

/** The environment spec. */
export function toySpec(): EnvironmentSpec {
  const tool = (name: string, parameters: JsonSchemaObject, i: number) => ({
    name,
    description: `The ${name.replace(/_/g, ' ')} tool.`,
    parameters,
    outputSchema: true,
    implementation: { kind: 'native' as const, ref: name },
    source: { format: 'openai-chat' as const, pointer: `/${i}` },
  });
  return {
    specVersion: 1,
    id: 'toy-accounts',
    name: 'Toy accounts',
    stateSchema: { type: 'object' },
    seedState: {
      users: Object.fromEntries(USERS.map((u) => [u, { user_id: u, email: `${u}@example.com`, plan: 'basic', password_reset: false }])),
    },
    tools: [
      tool('find_user_id_by_email', params(['email']), 0),
      tool('get_user_details', params(['user_id']), 1),
      tool('reset_password', params(['user_id']), 2),
      tool('delete_account', params(['user_id']), 3),
      tool('list_plans', { type: 'object', properties: {}, additionalProperties: false }, 4),
    ],
  };
}

/** The environment and one password-reset task per user. */
export async function toyWorld(): Promise<{ env: Environment; tasks: Task[] }> {
  const env = await createEnvironment(toySpec(), { natives: NATIVES });
  const tasks = USERS.map((u): Task => {
    const gold = env.createSession();
    gold.stepSync({ id: 'g', name: 'reset_password', arguments: JSON.stringify({ user_id: u }) });
    const task: Task = {
      id: `reset-${u}`,
      envId: env.id,
      intent: 'I forgot my password. Please reset it.',
      userFacts: [{ key: 'email', description: 'your email address', value: `${u}@example.com` }],
      goldCalls: [{ name: 'reset_password', arguments: { user_id: u } }],
      expectedFinalDigest: gold.digest(),
      requiredOutputs: [],
    };
    gold.close();
    return task;
  });
  return { env, tasks };
}

/**
 * The scripted user: opens with the intent, answers a question about a fact it knows with the
 * fact statement, says it does not know anything else, and stops when the agent says anything
 * that is not a question.
 */
export function toyUser(task: Task): UserSimulator {
  const lastAssistantText = (messages: readonly Message[]): string => {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i] as Message;
      if (m.role === 'assistant') return m.content ?? '';
    }
    return '';
  };
  return {
    name: 'toy-user',
    start: async () => ({ content: task.intent, stop: false }),
    reply: async ({ messages }) => {
      const text = lastAssistantText(messages);
      const lower = text.toLowerCase();
      const known = task.userFacts.filter((f: UserFact) => lower.includes(splitWords(f.key).join(' ')));
      if (known.length > 0) return { content: known.map((f) => `My ${splitWords(f.key).join(' ')} is ${JSON.stringify(f.value)}.`).join(' '), stop: false };
      if (text.trim().endsWith('?') && text.startsWith('Could you')) return { content: "I don't know that.", stop: false };
      return { content: USER_STOP_TOKEN, stop: true };
    },
  };
}
