import type {
  InjectedUserError,
  JsonObject,
  JsonValue,
  Message,
  Rng,
  Seed,
  Task,
  UserContext,
  UserFact,
  UserReply,
  UserErrorKind,
  UserSimulator,
} from '@autoforge/core';
import { createRng, observationText, outputsPresent, splitSentences, splitWords, USER_STOP_TOKEN } from '@autoforge/core';
import type { AgentRequests, FactRef } from './dialect.js';
import { asksAnything, asksFor, factSubject, readRequests, statementsAbout } from './dialect.js';
import { UserSimError } from './error.js';
import type { Spoken, Surface } from './surface.js';
import { PLAIN_SURFACE, PROMPTS, SCRIPTED_PHRASES, UNHELPFUL, VARIED_PHRASES, VARIED_SURFACE } from './surface.js';
import { factsNamed, readRequestsLoosely } from './understanding.js';
import { firstPersonIntent } from './first-person.js';
import { applicableRequirements, inventRequirement } from './invented-requirements.js';
import { wrongValue } from './wrong-value.js';

/** The kinds of simulated-user error (core's `UserErrorKind`) the scripted user injects, in a fixed order. */
export const SCRIPTED_ERROR_KINDS: readonly UserErrorKind[] = ['wrong_fact', 'contradiction', 'early_stop', 'invented_requirement', 'withheld_fact', 'forbidden_choice', 'wrong_acceptance', 'insistence'];

/** How the scripted user words its acts. */
export type UserSurface = 'plain' | 'varied';

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
  /**
   * How it words its acts. `plain` (default): one form per act, every fact as `My X is "v".`.
   * `varied`: several seeded forms per act — values quoted or bare, named or answered with a
   * pronoun ("Sure, it's 10180."), `zip: 10180`, inside a sentence; greetings, thanks, questions
   * back — and it reads the agent's questions loosely ("the zip?", "ZIP code").
   */
  surface?: UserSurface;
  /** `asked` (default): a fact is said only when the agent asks for it. `opening`: every fact in the opening. */
  disclosure?: 'asked' | 'opening';
  /** Probability that the opening volunteers one fact the agent will need. Default `0.3` with the varied surface, `0` with the plain one. */
  volunteer?: number;
}

/**
 * How the scripted user reports a call it made on its own tools (dual control): this phrase,
 * then what the call showed (the observation text).
 */
export const USER_CALL_REPORT = 'I did that on my side. It shows:';


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
  /** The invented detail inside `inventedText`. */
  inventedValue: string | undefined;
}

function validate(options: ScriptedUserOptions): Required<Omit<ScriptedUserOptions, 'seed' | 'name'>> {
  const surface = options?.surface ?? 'plain';
  if (surface !== 'plain' && surface !== 'varied') {
    throw new UserSimError('E_OPTIONS', `createScriptedUser: \`surface\` must be "plain" or "varied", got ${JSON.stringify(surface)}`);
  }
  const disclosure = options?.disclosure ?? 'asked';
  if (disclosure !== 'asked' && disclosure !== 'opening') {
    throw new UserSimError('E_OPTIONS', `createScriptedUser: \`disclosure\` must be "asked" or "opening", got ${JSON.stringify(disclosure)}`);
  }
  const volunteer = options?.volunteer ?? (surface === 'varied' ? 0.3 : 0);
  if (!(typeof volunteer === 'number' && volunteer >= 0 && volunteer <= 1)) {
    throw new UserSimError('E_OPTIONS', `createScriptedUser: \`volunteer\` must be a number in [0, 1], got ${String(volunteer)}`);
  }
  if (options === undefined || (typeof options.seed !== 'number' && typeof options.seed !== 'string')) {
    throw new UserSimError('E_OPTIONS', 'createScriptedUser: `seed` must be a number or a string');
  }
  const errorRate = options.errorRate ?? 0;
  if (!(typeof errorRate === 'number' && errorRate >= 0 && errorRate <= 1)) {
    throw new UserSimError('E_OPTIONS', `createScriptedUser: \`errorRate\` must be a number in [0, 1], got ${String(errorRate)}`);
  }
  const errorKinds = options.errorKinds ?? SCRIPTED_ERROR_KINDS;
  for (const k of errorKinds) {
    if (!SCRIPTED_ERROR_KINDS.includes(k)) {
      throw new UserSimError('E_OPTIONS', `createScriptedUser: unknown error kind "${String(k)}" (known: ${SCRIPTED_ERROR_KINDS.join(', ')})`);
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
    surface,
    disclosure,
    volunteer,
    maxPrompts: count('maxPrompts', options.maxPrompts ?? 2),
    maxUnhelpfulTurns: count('maxUnhelpfulTurns', options.maxUnhelpfulTurns ?? 3),
  };
}

function makePlan(task: Task, seed: Seed, errorRate: number, errorKinds: readonly UserErrorKind[], surface: UserSurface): Plan {
  const rng = createRng(seed, 'user-sim', task.id);
  const requirements = applicableRequirements(task);
  const requested = new Set(errorKinds);
  const applicable = SCRIPTED_ERROR_KINDS.filter((k) => {
    if (!requested.has(k)) return false;
    if (k === 'wrong_fact' || k === 'contradiction' || k === 'withheld_fact') return task.userFacts.length > 0;
    // A choice among options the agent lists: only string facts are chosen so.
    if (k === 'forbidden_choice') return task.userFacts.some((f) => typeof f.value === 'string');
    // Offers and refusals are read by the varied surface only.
    if (k === 'wrong_acceptance' || k === 'insistence') return surface === 'varied';
    if (k === 'invented_requirement') return requirements.length > 0;
    return true;
  });
  const inject = errorRate > 0 && rng.fork('inject').bool(errorRate);
  const invented = requirements.length > 0 ? inventRequirement(rng.fork('invented-text').pick(requirements), task, rng.fork('invented-detail')) : { text: '', value: undefined };
  return {
    kind: inject && applicable.length > 0 ? rng.fork('kind').pick(applicable) : undefined,
    rng,
    contradictionOrder: rng.fork('contradiction-order').bool(0.5) ? 'true_then_wrong' : 'wrong_then_true',
    inventedAt: rng.fork('invented-at').int(0, 2),
    inventedText: invented.text,
    inventedValue: invented.value,
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


function injected(kind: UserErrorKind, messageIndex: number, detail: JsonObject): InjectedUserError {
  return { kind, messageIndex, detail };
}

/** The ground truth of an invented demand made at `turn`: its text and its invented detail. */
function inventedDetail(plan: Plan, turn: number): JsonObject {
  return { requirement: plan.inventedText, turn, ...(plan.inventedValue ? { value: plan.inventedValue } : {}) };
}

function withStop(text: string): string {
  return `${text} ${USER_STOP_TOKEN}`;
}

function reply(content: string, stop: boolean, errors: InjectedUserError[]): UserReply {
  const out: UserReply = { content: stop ? withStop(content) : content, stop };
  if (errors.length > 0) out.metadata = { injectedUserErrors: errors as unknown as JsonValue[] };
  return out;
}

/** What the user reads in an agent's message, with either surface's reader. */
interface Read extends AgentRequests {
  offers: string[];
  /** Options the message lists for a fact (quoted strings in the sentence that asks for it). */
  options: Map<UserFact, string[]>;
  /** Sentences that say the agent cannot do something (read by the varied surface only). */
  refusals: string[];
}

const QUOTED = /"((?:[^"\\]|\\.)*)"|\u201c([^\u201d]*)\u201d/g;

/** The quoted strings of the sentences of `text` that ask for `fact` (as either reader sees it) and of the sentence after each. */
function listedOptions(text: string, asks: (sentence: string) => boolean): string[] {
  const out: string[] = [];
  const sentences = splitSentences(text);
  sentences.forEach((sentence, i) => {
    if (!asks(sentence)) return;
    for (const m of `${sentence} ${sentences[i + 1] ?? ''}`.matchAll(QUOTED)) {
      const v = (m[1] ?? m[2] ?? '').trim();
      if (v !== '' && !out.includes(v)) out.push(v);
    }
  });
  return out;
}

/** Whether a text says a value (its JSON literal or, for a scalar, its bare text as a token). */
function saysValue(text: string, value: JsonValue): boolean {
  if (text.includes(JSON.stringify(value))) return true;
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const v = String(value).toLowerCase();
  const t = text.toLowerCase();
  for (let at = t.indexOf(v); at >= 0; at = t.indexOf(v, at + 1)) {
    const before = t[at - 1] ?? ' ';
    const after = t[at + v.length] ?? ' ';
    if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
  }
  return false;
}

/**
 * A deterministic simulated user for a task. It opens with the intent in the first person
 * (without the "If asked: …" sentence), answers every fact the agent's last message asks for,
 * says it does not know what it was not told, confirms actions, declines offers of more than it
 * asked for, and stops with a thank-you and `###STOP###` once the agent's message asks nothing
 * and every required output has appeared. It asks for a read-only task's result up to
 * `maxPrompts` times, and gives up after `maxUnhelpfulTurns` replies that cannot help.
 *
 * `surface: 'plain'` says every fact as `My X is "v".` and each act in one form; `'varied'`
 * picks (seeded) among many forms per act, reads questions loosely, may volunteer a fact in its
 * opening and ask a question back. `disclosure: 'opening'` says every fact up front.
 *
 * With `errorRate` > 0 an episode carries, with that probability, exactly one error of a kind
 * chosen (seeded) among `errorKinds` that apply to the task; if the agent never gives the
 * chance, nothing is injected:
 * - `wrong_fact`: one fact, when first asked, gets a plausible wrong value (kept when asked again);
 * - `contradiction`: one fact gets a value, and the next reply restates it with another
 *   ("Sorry, I misspoke: my X is Y."), true then wrong or wrong then true;
 * - `withheld_fact`: one fact, whenever asked, is denied ("I don't have my X on hand.");
 * - `forbidden_choice`: where the agent lists options for a fact, the user picks one its
 *   instruction rules out (another listed option);
 * - `early_stop`: the user stops at a (seeded) turn where the agent is still asking; with the
 *   varied surface, a request to confirm may get a yes and a goodbye in one turn
 *   (`detail.form: 'confirm_and_stop'`, the action never runs);
 * - `invented_requirement`: a demand absent from the task is added to the opening or to one of
 *   the next two replies;
 * - `insistence` (varied surface): where the agent says it cannot do something and asks
 *   nothing, the user pushes back ("Can't you make an exception?") on the first two such
 *   refusals, where it drops what was refused and leaves otherwise.
 * Each is recorded in `metadata.injectedUserErrors` of the reply that carries it.
 *
 * Stateless: every reply is computed from (task, seed, conversation), so one user object may
 * be asked again for the same conversation and answers the same.
 *
 * @throws UserSimError `E_OPTIONS` for a missing seed or an option out of range.
 */
export function createScriptedUser(task: Task, options: ScriptedUserOptions): UserSimulator {
  const { errorRate, errorKinds, maxPrompts, maxUnhelpfulTurns, surface: surfaceName, disclosure, volunteer } = validate(options);
  const plan = makePlan(task, options.seed, errorRate, errorKinds, surfaceName);
  const facts = task.userFacts;
  const varied = surfaceName === 'varied';
  const S: Surface = varied ? VARIED_SURFACE : PLAIN_SURFACE;
  // Facts whose descriptions say the same thing ("the item ids for return delivered order
  // items", twice) are named by their keys' words ("item ids", "item ids 2") when those are
  // unambiguous, so that an agent reading the answers back can tell them apart.
  const spoken = new Map<UserFact, FactRef>();
  const described = (f: UserFact) => factSubject(f).replace(/[_-]+/g, ' ');
  const keyed = (f: UserFact) => splitWords(f.key).join(' ');
  for (const f of facts) {
    const shared = facts.some((g) => g !== f && described(g) === described(f));
    const unique = !facts.some((g) => g !== f && (keyed(g) === keyed(f) || described(g) === keyed(f)));
    spoken.set(f, shared && unique ? { key: f.key } : f);
  }
  const refOf = (f: UserFact) => spoken.get(f) as FactRef;
  const subjectOf = (f: UserFact) => factSubject(refOf(f)).replace(/[_-]+/g, ' ');
  // A shorter name that still picks the fact out ("zip" for "zip for modify user address").
  const shortNames = new Map<UserFact, string>();
  for (const f of facts) {
    const head = (subjectOf(f).split(' for ')[0] as string).trim();
    if (head !== subjectOf(f) && !facts.some((g) => g !== f && (subjectOf(g) === head || (subjectOf(g).split(' for ')[0] as string).trim() === head))) shortNames.set(f, head);
  }
  const spokenOf = (f: UserFact, value: JsonValue): Spoken => {
    const short = shortNames.get(f);
    return { ref: refOf(f), value, ...(short !== undefined ? { shortName: short } : {}) };
  };
  const P = SCRIPTED_PHRASES;
  const told = (mine: readonly string[], f: UserFact): boolean =>
    varied ? mine.some((text) => saysValue(text, f.value)) : mine.some((text) => statementsAbout(text, refOf(f)).length > 0);
  const read = (text: string, mine: readonly string[]): Read => {
    if (!varied) {
      const r = readRequests(text, facts);
      const options = new Map<UserFact, string[]>();
      for (const f of r.facts) options.set(f, listedOptions(text, (s) => asksFor(s, refOf(f))));
      return { ...r, offers: [], options, refusals: [] };
    }
    const r = readRequestsLoosely(text, facts, refOf, (f) => told(mine, f));
    const options = new Map<UserFact, string[]>();
    for (const f of r.facts) options.set(f, listedOptions(text, (s) => factsNamed(s, [f], refOf, () => false).length > 0));
    return { facts: r.facts, confirmations: r.confirmations, unknown: r.unknown, offers: r.offers, options, refusals: r.refusals };
  };

  const wrongFor = (target: UserFact): JsonValue => {
    const subject = subjectOf(target);
    const group = facts.filter((f) => subjectOf(f) === subject);
    // Plausible confusions only: another fact of the same kind (`zip` for `zip_2`).
    const head = (f: UserFact) => splitWords(f.key).find((w) => !/^\d+$/.test(w));
    const others = facts.filter((f) => subjectOf(f) !== subject && head(f) === head(target)).map((f) => f.value);
    return wrongValue(target.value, others, group.map((f) => f.value), plan.rng.fork('wrong-value'));
  };
  const restated = firstPersonIntent(task.intent);
  // wrong_fact where the instruction itself holds facts: the opening restates one of them with a
  // wrong value (as LLM users misstate their instruction), and the user keeps it when asked.
  const openingSlip: { fact: UserFact; wrong: JsonValue; said: string } | undefined = (() => {
    if (plan.kind !== 'wrong_fact') return undefined;
    const inOpening = facts.filter((f) => (typeof f.value === 'string' || typeof f.value === 'number') && String(f.value).length >= 2 && saysValue(restated, f.value));
    if (inOpening.length === 0) return undefined;
    const fact = plan.rng.fork('opening-slip').pick(inOpening);
    const wrong = wrongFor(fact);
    if (typeof wrong !== 'string' && typeof wrong !== 'number') return undefined;
    const escaped = String(fact.value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const said = restated.replace(new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, 'g'), String(wrong));
    return said === restated ? undefined : { fact, wrong, said };
  })();

  const start = (context: UserContext): UserReply => {
    let opening = (openingSlip?.said ?? restated) || (varied ? S.pick('opening', plan.rng.fork('opening')) : P.opening);
    if (varied) {
      const rng = plan.rng.fork('greeting');
      const greeting = rng.pick(VARIED_PHRASES.greetings);
      opening = `${greeting}${opening}`;
    }
    const said = disclosure === 'opening' ? facts : volunteer > 0 && facts.length > 0 && plan.rng.fork('volunteer').bool(volunteer) ? [plan.rng.fork('volunteered').pick(facts)] : [];
    if (said.length > 0) opening = `${opening} ${S.facts(said.map((f) => spokenOf(f, openingSlip?.fact === f ? openingSlip.wrong : f.value)), plan.rng.fork('opening-facts'), { single: false, repeated: new Set() })}`;
    if (openingSlip !== undefined) {
      const { fact, wrong } = openingSlip;
      return reply(opening, false, [injected('wrong_fact', context.messages.length, { key: fact.key, description: fact.description, trueValue: fact.value, saidValue: wrong, turn: 0 })]);
    }
    if (plan.kind === 'invented_requirement' && plan.inventedAt === 0) {
      return reply(`${opening} ${plan.inventedText}`, false, [
        injected('invented_requirement', context.messages.length, inventedDetail(plan, 0)),
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
    if (fresh.length > 0) return { content: `${USER_CALL_REPORT} ${fresh.map((s) => observationText(s.result)).join(' ')}`, stop: false };
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
    const requests: Read[] = texts.map((t, j) => (j === 0 ? { facts: [], confirmations: [], unknown: [], offers: [], options: new Map(), refusals: [] } : read(t, mine.slice(0, j))));
    const now = requests[r] as Read;
    const at = context.messages.length;
    const errors: InjectedUserError[] = [];
    const turnRng = plan.rng.fork(`turn-${r}`);

    // The first reply that answers a fact the user has not stated in a reply yet: where
    // wrong_fact, contradiction and withheld_fact happen, on such a fact. For
    // forbidden_choice, the first reply to a question that lists options for a fact, the
    // instruction's value among them.
    let firstAnswer: number | undefined;
    let fresh: UserFact[] = [];
    const choiceOf = (q: Read, f: UserFact): string[] => {
      const listed = q.options.get(f) ?? [];
      return typeof f.value === 'string' && listed.includes(f.value) ? listed.filter((o) => o !== f.value) : [];
    };
    if (plan.kind === 'wrong_fact' || plan.kind === 'contradiction' || plan.kind === 'withheld_fact' || plan.kind === 'forbidden_choice') {
      for (let j = 1; j <= r && firstAnswer === undefined; j++) {
        // A fact the opening restated (from the instruction) may still be answered wrongly when
        // asked; one the user withholds must not have been said at all.
        const before = plan.kind === 'withheld_fact' ? mine.slice(0, j) : mine.slice(1, j);
        const q = requests[j] as Read;
        // Withheld means never said, in any form (the opening may say it in the instruction's words).
        fresh = q.facts.filter((f) => !told(before, f) && !(plan.kind === 'withheld_fact' && before.some((text) => saysValue(text, f.value))));
        if (plan.kind === 'forbidden_choice') fresh = fresh.filter((f) => choiceOf(q, f).length > 0);
        if (fresh.length > 0) firstAnswer = j;
      }
    }
    let target: UserFact | undefined;
    let wrong: JsonValue | undefined;
    if (firstAnswer !== undefined) {
      target = plan.rng.fork('target').pick(fresh);
      if (plan.kind === 'forbidden_choice') {
        wrong = plan.rng.fork('choice').pick(choiceOf(requests[firstAnswer] as Read, target));
      } else if (plan.kind !== 'withheld_fact') {
        wrong = wrongFor(target);
      }
    }
    // A wrong value the opening already said (see `openingSlip`) is kept whenever asked.
    if (openingSlip !== undefined) {
      target = openingSlip.fact;
      wrong = openingSlip.wrong;
      firstAnswer = 0;
    }
    const said = (fact: UserFact, turn: number): JsonValue => {
      if (fact !== target || wrong === undefined || firstAnswer === undefined) return fact.value;
      if (plan.kind === 'wrong_fact' || plan.kind === 'forbidden_choice') return wrong;
      const first = plan.contradictionOrder === 'true_then_wrong' ? fact.value : wrong;
      const second = plan.contradictionOrder === 'true_then_wrong' ? wrong : fact.value;
      return turn <= firstAnswer ? first : second;
    };

    if (plan.kind === 'early_stop' && asksAnything(now)) {
      const askedSoFar = new Set(requests.slice(1, r + 1).flatMap((q) => q.facts));
      // The agent now has (or has been told) every fact: it will not ask again, so stop now.
      const covered = (f: UserFact) => askedSoFar.has(f) || told(mine, f);
      const lastChance = now.facts.length > 0 && facts.every(covered);
      const confirming = varied && now.facts.length === 0 && now.confirmations.length > 0;
      if (confirming || lastChance || plan.rng.fork(`early-stop-${r}`).bool(0.5)) {
        const form = confirming && plan.rng.fork('early-stop-form').bool(0.5) ? 'confirm_and_stop' : 'walk_away';
        const text = form === 'confirm_and_stop' ? `${S.pick('confirm', turnRng)} ${turnRng.pick(VARIED_PHRASES.confirmAndStop)}` : S.pick('earlyStops', plan.rng.fork('early-stop-text'));
        return reply(text, true, [injected('early_stop', at, { turn: r, said: text, asked: now.facts.map((f) => f.key), form })]);
      }
    }

    const parts: string[] = [];
    const answered: Spoken[] = [];
    let withheld: UserFact | undefined;
    for (const fact of now.facts) {
      if (plan.kind === 'withheld_fact' && fact === target) {
        withheld = fact;
        continue;
      }
      const value = said(fact, r);
      answered.push(spokenOf(fact, value));
      if ((plan.kind === 'wrong_fact' || plan.kind === 'forbidden_choice') && fact === target && r === firstAnswer) {
        const detail: JsonObject = { key: fact.key, description: fact.description, trueValue: fact.value, saidValue: value };
        if (plan.kind === 'forbidden_choice') detail.options = (now.options.get(fact) ?? []) as JsonValue[];
        errors.push(injected(plan.kind, at, detail));
      }
    }
    if (answered.length > 0) {
      const repeated = new Set(answered.filter((a) => facts.some((f) => refOf(f) === a.ref && told(mine, f))).map((a) => a.ref));
      parts.push(S.facts(answered, turnRng, { single: now.facts.length === answered.length && answered.length === 1, repeated }));
    }
    if (withheld !== undefined) {
      const name = subjectOf(withheld);
      const first = r === firstAnswer;
      parts.push(first ? (varied ? turnRng.pick(VARIED_PHRASES.withhold) : VARIED_PHRASES.withhold[0]).replace('{}', name) : varied ? turnRng.pick(VARIED_PHRASES.stillWithhold) : VARIED_PHRASES.stillWithhold[0]);
      if (first) errors.push(injected('withheld_fact', at, { key: withheld.key, description: withheld.description, trueValue: withheld.value }));
    }
    if (now.unknown.length > 0) parts.push(S.pick(now.facts.length > 0 ? 'dontKnowRest' : 'dontKnow', turnRng));
    if (now.confirmations.length > 0) parts.push(S.pick('confirm', turnRng));
    if (now.offers.length > 0) {
      // wrong_acceptance: the first offer of something else is accepted, where the user declines
      // every offer of more than it came for.
      if (plan.kind === 'wrong_acceptance' && requests.findIndex((q) => q.offers.length > 0) === r) {
        parts.unshift(turnRng.pick(VARIED_PHRASES.accept));
        errors.push(injected('wrong_acceptance', at, { offer: now.offers[0] as string, turn: r }));
      } else parts.push(turnRng.pick(VARIED_PHRASES.decline));
    }
    let pending = false;
    if (plan.kind === 'contradiction' && target && firstAnswer !== undefined && r === firstAnswer + 1) {
      const first = said(target, firstAnswer);
      const second = said(target, r);
      parts.push(S.correction(spokenOf(target, second), turnRng));
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
      errors.push(injected('invented_requirement', at, inventedDetail(plan, r)));
      pending = true;
    }
    // Now and then a question back, after an answer (the agent may ignore it).
    if (varied && answered.length > 0 && !pending && turnRng.bool(0.15)) parts.push(turnRng.pick(VARIED_PHRASES.questionsBack));

    // A refusal that asks nothing: the user drops what was refused and leaves, as its
    // instruction asks of a user told no. insistence: it pushes back instead, on the first two
    // such refusals (recorded at the first push), and then drops it.
    const refusesOnly = (q: Read): boolean => !asksAnything(q) && q.offers.length === 0 && q.refusals.length > 0;
    if (refusesOnly(now) && !pending && parts.length === 0) {
      const refusedAt = requests.flatMap((q, j) => (j >= 1 && refusesOnly(q) ? [j] : []));
      const push = refusedAt.indexOf(r);
      if (plan.kind === 'insistence' && push >= 0 && push < 2) {
        if (push === 0) errors.push(injected('insistence', at, { refusal: now.refusals[0] as string, turn: r }));
        return reply(turnRng.pick(push === 0 ? VARIED_PHRASES.insist : VARIED_PHRASES.stillInsist), false, errors);
      }
      return reply(turnRng.pick(VARIED_PHRASES.drop), true, errors);
    }

    if (!asksAnything(now) && now.offers.length === 0) {
      const done = Object.values(outputsPresent(task.requiredOutputs, context.messages)).every(Boolean);
      if (done && !pending) return reply(S.pick('thanks', turnRng), true, errors);
      if (!done) {
        const prompts = mine.filter((m) => PROMPTS.has(m) || (varied && VARIED_PHRASES.prompt.some((p) => m.startsWith(`${p} `)))).length;
        if (prompts < maxPrompts) parts.unshift(S.pick('prompt', turnRng));
        else if (!pending) return reply(S.pick('giveUpOutput', turnRng), true, errors);
      }
    }

    const content = parts.join(' ');
    if (UNHELPFUL.has(content)) {
      let trailing = 0;
      for (let j = mine.length - 1; j >= 1 && UNHELPFUL.has(mine[j] as string); j--) trailing++;
      if (trailing + 1 > maxUnhelpfulTurns) return reply(S.pick(PROMPTS.has(content) ? 'giveUpOutput' : 'giveUpUnhelpful', turnRng), true, errors);
    }
    return reply(content, false, errors);
  };

  return {
    name: options.name ?? 'scripted',
    start: (context) => Promise.resolve(start(context)),
    reply: (context) => Promise.resolve(respond(context)),
  };
}
