// Agents that give a simulated user the chances to err that real agents give real users: an
// offer of something else before a write, and a refusal of a write. They wrap another agent (the
// oracle, usually) and exist so that a user-error judge can be measured on every kind of error a
// user makes in reply — accepting what it should refuse, insisting on what it should drop.
import type { Agent, AgentContext, AssistantMessage, JsonObject, Task } from '@autoforge/core';
import { canonicalJson, toolAccess, USER_STOP_TOKEN } from '@autoforge/core';

/** The first write call of `reply` (by the tool's access as `context` lists it), with its index. */
function firstWrite(context: AgentContext, reply: AssistantMessage): number {
  return (reply.toolCalls ?? []).findIndex((call) => {
    const spec = context.tools.find((t) => t.name === call.name);
    return spec !== undefined && toolAccess(spec).access === 'write';
  });
}

function lastUserText(context: AgentContext): string {
  for (let i = context.messages.length - 1; i >= 0; i--) {
    const m = context.messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}

/**
 * Wraps an agent so that it tempts the user once, as real agents offer alternatives: before the
 * first write call that carries one of the user's facts (a string with a digit), it asks "Would
 * you like me to use <another value> instead?" — the fact with its last digit changed, a value
 * the task holds nowhere. On a yes it makes the call with that value; on anything else, as it
 * was. A user following its instruction declines; one who accepts has made a wrong_acceptance.
 */
export function createOfferingAgent(inner: Agent, task: Task): Agent {
  const held = canonicalJson(task).toLowerCase();
  let offered = false;
  let pending: { reply: AssistantMessage; alternative: AssistantMessage } | undefined;
  const alternativeOf = (value: string): string | undefined => {
    const at = value.search(/\d(?=\D*$)/);
    if (at < 0) return undefined;
    for (let d = 1; d <= 9; d++) {
      const candidate = value.slice(0, at) + String((Number(value[at]) + d) % 10) + value.slice(at + 1);
      if (!held.includes(candidate.toLowerCase())) return candidate;
    }
    return undefined;
  };
  return {
    name: `offering-${inner.name}`,
    async act(context: AgentContext): Promise<AssistantMessage> {
      if (pending) {
        const yes = /^\s*(yes|yeah|sure|ok(ay)?)\b/i.test(lastUserText(context));
        const { reply, alternative } = pending;
        pending = undefined;
        return yes ? alternative : reply;
      }
      const reply = await inner.act(context);
      if (offered || !reply.toolCalls) return reply;
      const facts = new Set(task.userFacts.flatMap((f) => (typeof f.value === 'string' ? [f.value] : [])));
      for (const [i, call] of reply.toolCalls.entries()) {
        const spec = context.tools.find((t) => t.name === call.name);
        if (spec === undefined || toolAccess(spec).access !== 'write') continue;
        const args = JSON.parse(call.arguments) as JsonObject;
        const key = Object.keys(args).find((k) => typeof args[k] === 'string' && facts.has(args[k] as string));
        const alternative = key === undefined ? undefined : alternativeOf(args[key] as string);
        if (key === undefined || alternative === undefined) continue;
        offered = true;
        const calls = reply.toolCalls.map((c, j) => (j === i ? { ...c, arguments: JSON.stringify({ ...args, [key]: alternative }) } : c));
        pending = { reply, alternative: { ...reply, toolCalls: calls } };
        return { role: 'assistant', content: `Before I do that: would you like me to use ${alternative} instead?` };
      }
      return reply;
    },
  };
}

/** What the refusing agent says instead of its first write. */
export const REFUSAL_TEXT = "I'm sorry, but I'm not able to make that change for you.";

/**
 * Wraps an agent so that it refuses once, as real agents turn requests down: instead of the
 * first reply that makes a write call it says {@link REFUSAL_TEXT} and asks nothing. A user
 * that drops what was refused leaves, and the write never runs; one that pushes back gets it:
 * the next reply is the held one. Giving in is this agent's fault, not the user's; pushing
 * where the instruction says nothing of pushing is the user's deviation (insistence), which
 * changes no outcome here since what it gets is the task's own call.
 */
export function createRefusingAgent(inner: Agent): Agent {
  let refused = false;
  let held: AssistantMessage | undefined;
  return {
    name: `refusing-${inner.name}`,
    async act(context: AgentContext): Promise<AssistantMessage> {
      if (held !== undefined) {
        const reply = held;
        held = undefined;
        if (!lastUserText(context).includes(USER_STOP_TOKEN)) return reply;
      }
      const reply = await inner.act(context);
      if (refused || firstWrite(context, reply) < 0) return reply;
      refused = true;
      held = reply;
      return { role: 'assistant', content: REFUSAL_TEXT };
    },
  };
}
