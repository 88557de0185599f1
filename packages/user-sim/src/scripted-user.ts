import type {
  FactRef,
  InjectedUserError,
  JsonObject,
  JsonValue,
  Message,
  Rng,
  Seed,
  Task,
  ToolStep,
  UserContext,
  UserFact,
  UserReply,
  UserSimulator,
} from '@autoforge/core';
import { createRng, factStatement, factSubject, splitWords, statementsAbout, USER_STOP_TOKEN } from '@autoforge/core';
import type { AgentRequests } from '@autoforge/core';
import { asksAnything, readRequests } from '@autoforge/core';
import { UserSimError } from './error.js';
import { firstPersonIntent } from './first-person.js';
import { applicableRequirements } from './invented-requirements.js';
import { wrongValue } from './wrong-value.js';

/** A kind of simulated-user error (the names of `InjectedUserError.kind`). */
export type UserErrorKind = InjectedUserError['kind'];

/** Every kind of simulated-user error, in a fixed order. */
export const USER_ERROR_KINDS: readonly UserErrorKind[] = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement'];

/** Options of {@link createScriptedUser}. */
export interface ScriptedUserOptions {
  /** Seed of every choice (with the task id). Required. */
  seed: Seed;
  /** Probability that an episode carries one injected error. Default `0`. */
  errorRate?: number;
  /** The kinds to choose from (among those that apply to the task). Default: all four. */
  errorKinds?: readonly UserErrorKind[];
  /** Times the user asks for the result of a read-only task before giving up. Default `2`. */
  maxPrompts?: number;
  /** Consecutive replies that cannot help ("I don't know", a prompt) before giving up. Default `3`. */
  maxUnhelpfulTurns?: number;
  /** The user's name in trajectories. Default `"scripted"`. */
  name?: string;
}

/** What the scripted user says, besides fact statements. */
export const SCRIPTED_PHRASES = {
  dontKnow: "I'm sorry, I don't know that.",
  dontKnowRest: "I'm sorry, I don't know the rest.",
  confirm: 'Yes, please go ahead.',
  prompt: 'Could you tell me what you found?',
  thanks: "Thank you, that's all I needed.",
  giveUpOutput: "I still don't have what I asked for, so I'll end the conversation here.",
  giveUpUnhelpful: "I'm sorry, I don't know that, and I can't help any further.",
  misspoke: 'Sorry, I misspoke:',
  earlyStops: ['Actually, never mind. I have to go now.', "Let's leave it for now, goodbye.", "I'll come back to this later. Bye."],
  opening: 'Hi, I need some help.',
} as const;

/**
 * How the scripted user reports a call it made on its own tools (dual control): this phrase,
 * then what the call showed (the observation text).
 */
export const USER_CALL_REPORT = 'I did that on my side. It shows:';

/** The observation text of a result, as the agent's observations read. */
function observation(result: ToolStep['result']): string {
  if (!result.ok) return `Error: ${result.error.message}`;
  return typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
}

/** True when the agent's text asks for the tool: its name as a word, or every word of its name. */
function asksToRun(text: string, tool: string): boolean {
  const lower = text.toLowerCase();
  const name = tool.toLowerCase();
  for (let from = 0; ; ) {
    const at = lower.indexOf(name, from);
    if (at < 0) break;
    const before = at === 0 ? '' : (lower[at - 1] as string);
    const after = lower[at + name.length] ?? '';
    if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
    from = at + 1;
  }
  const said = new Set(lower.split(/[^a-z0-9]+/).filter((w) => w !== ''));
  const parts = splitWords(tool).map((w) => w.toLowerCase());
  return parts.length > 1 && parts.every((w) => said.has(w));
}

interface Plan {
  kind: UserErrorKind | undefined;
  rng: Rng;
  contradictionOrder: 'true_then_wrong' | 'wrong_then_true';
  inventedAt: number;
  inventedText: string;
}

function validate(options: ScriptedUserOptions): Required<Omit<ScriptedUserOptions, 'seed' | 'name'>> {
  if (options === undefined || (typeof options.seed !== 'number' && typeof options.seed !== 'string')) {
    throw new UserSimError('E_OPTIONS', 'createScriptedUser: `seed` must be a number or a string');
  }
  const errorRate = options.errorRate ?? 0;
  if (!(typeof errorRate === 'number' && errorRate >= 0 && errorRate <= 1)) {
    throw new UserSimError('E_OPTIONS', `createScriptedUser: \`errorRate\` must be a number in [0, 1], got ${String(errorRate)}`);
  }
  const errorKinds = options.errorKinds ?? USER_ERROR_KINDS;
  for (const k of errorKinds) {
    if (!USER_ERROR_KINDS.includes(k)) {
      throw new UserSimError('E_OPTIONS', `createScriptedUser: unknown error kind "${String(k)}" (known: ${USER_ERROR_KINDS.join(', ')})`);
    }
  }
  const count = (name: string, value: number): number => {
    if (!(Number.isInteger(value) && value >= 0)) {
      throw new UserSimError('E_OPTIONS', `createScriptedUser: \`${name}\` must be a non-negative integer, got ${String(value)}`);
    }
    return value;
  };
  return {
    errorRate,
    errorKinds,
    maxPrompts: count('maxPrompts', options.maxPrompts ?? 2),
    maxUnhelpfulTurns: count('maxUnhelpfulTurns', options.maxUnhelpfulTurns ?? 3),
  };
}

function makePlan(task: Task, seed: Seed, errorRate: number, errorKinds: readonly UserErrorKind[]): Plan {
  const rng = createRng(seed, 'user-sim', task.id);
  const requirements = applicableRequirements(task);
  const requested = new Set(errorKinds);
  const applicable = USER_ERROR_KINDS.filter((k) => {
    if (!requested.has(k)) return false;
    if (k === 'wrong_fact' || k === 'contradiction') return task.userFacts.length > 0;
    if (k === 'invented_requirement') return requirements.length > 0;
    return true;
  });
  const inject = errorRate > 0 && rng.fork('inject').bool(errorRate);
  return {
    kind: inject && applicable.length > 0 ? rng.fork('kind').pick(applicable) : undefined,
    rng,
    contradictionOrder: rng.fork('contradiction-order').bool(0.5) ? 'true_then_wrong' : 'wrong_then_true',
    inventedAt: rng.fork('invented-at').int(0, 2),
    inventedText: requirements.length > 0 ? rng.fork('invented-text').pick(requirements) : '',
  };
}

/** The agent's text between the user's messages: `texts[j]` precedes the user's message `j` (j ≥ 1). */
function agentTexts(messages: readonly Message[]): { mine: string[]; texts: string[] } {
  const mine: string[] = [];
  const texts: string[] = [''];
  let current: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      if (mine.length > 0) texts.push(current.join('\n'));
      mine.push(m.content);
      current = [];
    } else if (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') {
      current.push(m.content);
    }
  }
  texts.push(current.join('\n'));
  return { mine, texts };
}

function outputsPresent(required: readonly string[], messages: readonly Message[]): boolean {
  const said = messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content === 'string' ? [m.content.toLowerCase().replace(/,/g, '')] : [],
  );
  return required.every((output) => {
    const needle = output.toLowerCase().replace(/,/g, '');
    return said.some((text) => text.includes(needle));
  });
}

function injected(kind: UserErrorKind, messageIndex: number, detail: JsonObject): InjectedUserError {
  return { kind, messageIndex, detail };
}

function withStop(text: string): string {
  return `${text} ${USER_STOP_TOKEN}`;
}

function reply(content: string, stop: boolean, errors: InjectedUserError[]): UserReply {
  const out: UserReply = { content: stop ? withStop(content) : content, stop };
  if (errors.length > 0) out.metadata = { injectedUserErrors: errors as unknown as JsonValue[] };
  return out;
}

/**
 * A deterministic simulated user for a task. It opens with the intent in the first person
 * (without the "If asked: …" sentence), answers every fact the agent's last message asks for
 * with one `factStatement` each, says "I'm sorry, I don't know that." to questions it cannot
 * answer, confirms actions ("Yes, please go ahead."), and stops with a thank-you and
 * `###STOP###` once the agent's message asks nothing and every required output has appeared.
 * It asks for a read-only task's result up to `maxPrompts` times, and gives up after
 * `maxUnhelpfulTurns` replies that cannot help.
 *
 * With `errorRate` > 0 an episode carries, with that probability, exactly one error of a kind
 * chosen (seeded) among `errorKinds` that apply to the task; if the agent never gives the
 * chance, nothing is injected:
 * - `wrong_fact`: one fact, when first asked, gets a plausible wrong value (kept when asked again);
 * - `contradiction`: one fact gets a value, and the next reply restates it with another
 *   ("Sorry, I misspoke: my X is Y."), true then wrong or wrong then true;
 * - `early_stop`: the user stops at a (seeded) turn where the agent is still asking;
 * - `invented_requirement`: a demand absent from the task is added to the opening or to one of
 *   the next two replies.
 * Each is recorded in `metadata.injectedUserErrors` of the reply that carries it.
 *
 * Stateless: every reply is computed from (task, seed, conversation), so one user object may
 * be asked again for the same conversation and answers the same.
 *
 * @throws UserSimError `E_OPTIONS` for a missing seed or an option out of range.
 */
export function createScriptedUser(task: Task, options: ScriptedUserOptions): UserSimulator {
  const { errorRate, errorKinds, maxPrompts, maxUnhelpfulTurns } = validate(options);
  const plan = makePlan(task, options.seed, errorRate, errorKinds);
  const facts = task.userFacts;
  // Facts whose descriptions say the same thing ("the item ids for return delivered order
  // items", twice) are named by their keys' words ("item ids", "item ids 2") when those are
  // unambiguous, so that an agent reading the answers back (`statementsAbout`) can tell them apart.
  const spoken = new Map<UserFact, FactRef>();
  const described = (f: UserFact) => factSubject(f).replace(/[_-]+/g, ' ');
  const keyed = (f: UserFact) => splitWords(f.key).join(' ');
  for (const f of facts) {
    const shared = facts.some((g) => g !== f && described(g) === described(f));
    const unique = !facts.some((g) => g !== f && (keyed(g) === keyed(f) || described(g) === keyed(f)));
    spoken.set(f, shared && unique ? { key: f.key } : f);
  }
  const say = (f: UserFact, value: JsonValue) => factStatement(spoken.get(f) as FactRef, value);
  const subjectOf = (f: UserFact) => factSubject(spoken.get(f) as FactRef).replace(/[_-]+/g, ' ');
  const P = SCRIPTED_PHRASES;

  const start = (context: UserContext): UserReply => {
    const opening = firstPersonIntent(task.intent) || P.opening;
    if (plan.kind === 'invented_requirement' && plan.inventedAt === 0) {
      return reply(`${opening} ${plan.inventedText}`, false, [
        injected('invented_requirement', context.messages.length, { requirement: plan.inventedText, turn: 0 }),
      ]);
    }
    return reply(opening, false, []);
  };

  // Dual control (`task.userTools`): the gold calls that are the user's own, made in order when
  // the agent asks for the next one; what each showed is reported in the next message.
  const own = new Set(task.userTools ?? []);
  const ownGold = task.goldCalls.filter((c) => own.has(c.name));
  const actOnOwnSide = (context: UserContext): UserReply | undefined => {
    if (ownGold.length === 0 || context.tools === undefined) return undefined;
    const steps = context.steps ?? [];
    let lastUser = -1;
    context.messages.forEach((m, i) => {
      if (m.role === 'user') lastUser = i;
    });
    const fresh = steps.filter((s) => s.messageIndex > lastUser);
    if (fresh.length > 0) return { content: `${USER_CALL_REPORT} ${fresh.map((s) => observation(s.result)).join(' ')}`, stop: false };
    const next = ownGold[steps.filter((s) => s.result.ok).length];
    const last = context.messages[context.messages.length - 1];
    const text = last?.role === 'assistant' && typeof last.content === 'string' ? last.content : '';
    if (next === undefined || !asksToRun(text, next.name)) return undefined;
    return { content: '', stop: false, toolCalls: [{ id: `user-call-${steps.length + 1}`, name: next.name, arguments: JSON.stringify(next.arguments) }] };
  };

  const respond = (context: UserContext): UserReply => {
    const acted = actOnOwnSide(context);
    if (acted !== undefined) return acted;
    const { mine, texts } = agentTexts(context.messages);
    const r = mine.length;
    if (r === 0) return start(context);
    const requests: AgentRequests[] = texts.map((t) => readRequests(t, facts));
    const now = requests[r] as AgentRequests;
    const at = context.messages.length;
    const errors: InjectedUserError[] = [];

    // The first reply that answers a fact the user has not stated yet (the opening may state
    // some): where wrong_fact and contradiction happen, on such a fact.
    let firstAnswer: number | undefined;
    let fresh: UserFact[] = [];
    if (plan.kind === 'wrong_fact' || plan.kind === 'contradiction') {
      for (let j = 1; j <= r && firstAnswer === undefined; j++) {
        const before = mine.slice(0, j);
        fresh = (requests[j] as AgentRequests).facts.filter((f) => !before.some((text) => statementsAbout(text, f).length > 0));
        if (fresh.length > 0) firstAnswer = j;
      }
    }
    let target: UserFact | undefined;
    let wrong: JsonValue | undefined;
    if (firstAnswer !== undefined) {
      target = plan.rng.fork('target').pick(fresh);
      const subject = subjectOf(target);
      const group = facts.filter((f) => subjectOf(f) === subject);
      // Plausible confusions only: another fact of the same kind (`zip` for `zip_2`).
      const head = (f: UserFact) => splitWords(f.key).find((w) => !/^\d+$/.test(w));
      const others = facts.filter((f) => subjectOf(f) !== subject && head(f) === head(target as UserFact)).map((f) => f.value);
      wrong = wrongValue(target.value, others, group.map((f) => f.value), plan.rng.fork('wrong-value'));
    }
    const said = (fact: UserFact, turn: number): JsonValue => {
      if (fact !== target || wrong === undefined || firstAnswer === undefined) return fact.value;
      if (plan.kind === 'wrong_fact') return wrong;
      const first = plan.contradictionOrder === 'true_then_wrong' ? fact.value : wrong;
      const second = plan.contradictionOrder === 'true_then_wrong' ? wrong : fact.value;
      return turn <= firstAnswer ? first : second;
    };

    if (plan.kind === 'early_stop' && asksAnything(now)) {
      const askedSoFar = new Set(requests.slice(1, r + 1).flatMap((q) => q.facts));
      // The agent now has (or has been told) every fact: it will not ask again, so stop now.
      const covered = (f: UserFact) => askedSoFar.has(f) || mine.some((text) => statementsAbout(text, f).length > 0);
      const lastChance = now.facts.length > 0 && facts.every(covered);
      if (lastChance || plan.rng.fork(`early-stop-${r}`).bool(0.5)) {
        const text = plan.rng.fork('early-stop-text').pick(P.earlyStops);
        return reply(text, true, [injected('early_stop', at, { turn: r, said: text, asked: now.facts.map((f) => f.key) })]);
      }
    }

    const parts: string[] = [];
    for (const fact of now.facts) {
      const value = said(fact, r);
      parts.push(say(fact, value));
      if (plan.kind === 'wrong_fact' && fact === target && r === firstAnswer) {
        errors.push(injected('wrong_fact', at, { key: fact.key, description: fact.description, trueValue: fact.value, saidValue: value }));
      }
    }
    if (now.unknown.length > 0) parts.push(now.facts.length > 0 ? P.dontKnowRest : P.dontKnow);
    if (now.confirmations.length > 0) parts.push(P.confirm);
    let pending = false;
    if (plan.kind === 'contradiction' && target && firstAnswer !== undefined && r === firstAnswer + 1) {
      const first = said(target, firstAnswer);
      const second = said(target, r);
      const restated = say(target, second);
      parts.push(`${P.misspoke} ${restated.charAt(0).toLowerCase()}${restated.slice(1)}`);
      errors.push(
        injected('contradiction', at, {
          key: target.key,
          description: target.description,
          trueValue: target.value,
          firstValue: first,
          secondValue: second,
          order: plan.contradictionOrder,
        }),
      );
      pending = true;
    }
    if (plan.kind === 'invented_requirement' && r === plan.inventedAt) {
      parts.push(plan.inventedText);
      errors.push(injected('invented_requirement', at, { requirement: plan.inventedText, turn: r }));
      pending = true;
    }

    if (!asksAnything(now)) {
      const done = outputsPresent(task.requiredOutputs, context.messages);
      if (done && !pending) return reply(P.thanks, true, errors);
      if (!done) {
        const prompts = mine.filter((m) => m === P.prompt).length;
        if (prompts < maxPrompts) parts.unshift(P.prompt);
        else if (!pending) return reply(P.giveUpOutput, true, errors);
      }
    }

    const content = parts.join(' ');
    if (content === P.dontKnow || content === P.prompt) {
      let trailing = 0;
      for (let j = mine.length - 1; j >= 1 && (mine[j] === P.dontKnow || mine[j] === P.prompt); j--) trailing++;
      if (trailing + 1 > maxUnhelpfulTurns) return reply(content === P.prompt ? P.giveUpOutput : P.giveUpUnhelpful, true, errors);
    }
    return reply(content, false, errors);
  };

  return {
    name: options.name ?? 'scripted',
    start: (context) => Promise.resolve(start(context)),
    reply: (context) => Promise.resolve(respond(context)),
  };
}
