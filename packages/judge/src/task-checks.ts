import type { JsonValue, Message, Task, ToolStep, Trajectory } from '@autoforge/core';
import { isJsonObject, valueTokens } from '@autoforge/core';
import { distance } from 'fastest-levenshtein';
import { mentionsValue } from './statements.js';
import type { UserErrorKind } from '@autoforge/core';

/**
 * Checks that read a dialogue against its task — the instruction's own values, the gold calls
 * and what the agent executed — rather than against the phrasing of any user simulator. They
 * find what real simulated users do (see `judge-real` in the benchmarks): withholding a value the
 * instruction gives, inventing values the agent then acts on, letting a value that contradicts
 * the instruction into the agent's calls, and stopping while the agent offers the very action the
 * task needs.
 */

/** One deviation of the user from its task, and whether it plausibly changed the outcome. */
export interface TaskFinding {
  kind: UserErrorKind;
  /** The user message that decides it. */
  messageIndex: number;
  note: string;
  /**
   * How it bears on the outcome: `hindered` when it plausibly kept the agent from the gold
   * (counted only for failed episodes), `helped` when the episode succeeded because of it,
   * `minor` when nothing the agent did rests on it (listed, never masking).
   */
  effect: 'hindered' | 'helped' | 'minor';
  /** The value at issue, as written, where there is one. */
  value?: string;
  /** The instruction's value the finding is about (`withheld_fact`: the value never given). */
  truth?: string;
}

function scalarStrings(value: JsonValue, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) scalarStrings(v, out);
  else if (isJsonObject(value)) for (const v of Object.values(value)) scalarStrings(v, out);
  return out;
}

/** Every (key, scalar value) pair of a call's arguments, nested keys by their last name. */
function keyedScalars(value: JsonValue, key = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string' || typeof value === 'number') out.push([key, String(value)]);
  else if (Array.isArray(value)) for (const v of value) keyedScalars(v, key, out);
  else if (isJsonObject(value)) for (const [k, v] of Object.entries(value)) keyedScalars(v, k, out);
  return out;
}

/** A step's arguments as JSON (the raw text where they do not parse). */
export function parseArgs(step: ToolStep): JsonValue {
  try {
    return JSON.parse(step.call.arguments) as JsonValue;
  } catch {
    return step.call.arguments;
  }
}

/** Equal JSON values, whatever the key order. */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isJsonObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k] as JsonValue)]),
    );
  }
  return value;
}

const lower = (s: string): string => s.toLowerCase();

/** A short word-like value (`business`, `JFK`, `one_way`): something a user names, not free text. */
function isWordValue(v: string): boolean {
  return /^[A-Za-z][A-Za-z_-]{2,19}$/.test(v);
}
const textOf = (m: Message): string => (m.role === 'assistant' ? (m.content ?? '') : m.content);

/** A short code (`CA`, `NY`, `JFK`, `2B`): a value a user names, too short to be a word value. */
function isCode(v: string): boolean {
  return /^[A-Z0-9]{2,3}$/.test(v);
}

/**
 * A near miss of a value: the same length (±1) and shape (digits where it has digits), one or two
 * edits away (a digit off, two swapped), but not the value itself.
 */
function nearMiss(word: string, truth: string): boolean {
  if (word === truth || Math.abs(word.length - truth.length) > 1) return false;
  const shape = (s: string): string => s.replace(/[a-z]/g, 'a').replace(/\d/g, '0');
  if (word.length === truth.length && shape(word) !== shape(truth)) return false;
  const d = distance(word, truth);
  return d >= 1 && d <= (truth.length >= 8 ? 2 : 1 + Number(word.length === truth.length && isSwap(word, truth)));
}

/** True when two strings differ by one swap of neighbours (`10108` / `10180`). */
function isSwap(a: string, b: string): boolean {
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === (diff[0] as number) + 1 && a[diff[0] as number] === b[diff[1] as number] && a[diff[1] as number] === b[diff[0] as number];
}

/** The words of an argument name (`user_id` → user, id; `reservationId` → reservation, id). */
function nameWords(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The values the task itself gives the user: the instruction's value tokens and the facts. */
function instructionValues(task: Task): Set<string> {
  const out = new Set(valueTokens(task.intent).map(lower));
  // Codes of capitals only (a reservation `IFOYYZ`) count when the instruction gives them.
  for (const m of task.intent.matchAll(/\b[A-Z]{5,10}\b/g)) out.add(lower(m[0]));
  for (const fact of task.userFacts) for (const v of scalarStrings(fact.value)) out.add(lower(v));
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** True when an ISO date token was said before in words ("May 17", "17 May", "5/17"). */
function saidAsDate(said: string, token: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(token);
  if (!m) return false;
  const month = MONTHS[Number(m[2]) - 1];
  const day = String(Number(m[3]));
  if (month === undefined) return false;
  const short = month.slice(0, 3);
  return new RegExp(`\\b(${month}|${short})\\.?\\s+${day}(st|nd|rd|th)?\\b|\\b${day}(st|nd|rd|th)?\\s+(of\\s+)?(${month}|${short})\\b|\\b${Number(m[2])}/${day}\\b`).test(said);
}

const AFFIRM = /^\s*(yes|yeah|yep|sure|ok(ay)?|great|perfect|please (do|proceed|go ahead)|go ahead|proceed|let's (do|go|proceed)|that (works|sounds good)|sounds good|i confirm|confirm(ed)?)\b/i;

/**
 * The findings of one episode:
 * - `withheld_fact`: the agent asked for a value the instruction gives and a gold call needs
 *   (asked by the words of the gold argument's name), the user never gave it, and the agent
 *   never got it any other way (no call of the agent carries it);
 * - `invented_requirement`: the user brought a value (id, code, email, date) that neither the
 *   instruction nor anything said before holds and that no gold call uses; `hindered` when the
 *   agent put it into a call, `minor` when no call used it;
 * - `wrong_fact`: the agent called a gold tool with a value the user had given for an argument
 *   where the gold has another value, and the instruction gives the gold's value, not the user's;
 * - `wrong_acceptance`: the same, with a value the user never gave but said yes to when the
 *   agent offered it in a question;
 * - `early_stop`: the user stopped while an action the task needs was on offer — an agent
 *   question naming the action's own values (amounts, flight numbers, codes) — without
 *   accepting it, and the action never ran.
 */
export function taskFindings(trajectory: Trajectory, task: Task): TaskFinding[] {
  const { messages, steps } = trajectory;
  const known = instructionValues(task);
  const gold = task.goldCalls;
  const goldScalars = new Set(gold.flatMap((g) => scalarStrings(g.arguments)).map(lower));
  const executed = steps.map((s) => ({ step: s, args: parseArgs(s) }));
  const usedValues = executed.flatMap((e) => scalarStrings(e.args)).map(lower);
  const userIndices = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  const userText = (from = 0, to = messages.length): string =>
    userIndices
      .filter((i) => i >= from && i < to)
      .map((i) => textOf(messages[i] as Message))
      .join('\n');
  const allUserText = userText();
  const out: TaskFinding[] = [];

  // withheld_fact
  const reported = new Set<string>();
  const factValues = new Set(task.userFacts.flatMap((f) => scalarStrings(f.value)).map(lower));
  for (const call of gold) {
    for (const [key, value] of keyedScalars(call.arguments)) {
      const v = lower(value);
      // A value-like token, or one of the task's own facts (a bare 10-digit item id is one).
      if (reported.has(v) || !known.has(v) || !(valueTokens(value).length > 0 || factValues.has(v))) continue;
      if (mentionsValue(allUserText, value) || usedValues.some((u) => u === v || u.includes(v))) continue;
      const words = nameWords(key);
      if (words.length === 0) continue;
      // The agent holding some value for the argument (the user's, right or wrong) is another matter.
      if (executed.some((e) => keyedScalars(e.args).some(([k]) => k === key))) continue;
      const askedAt = messages.findIndex((m) => m.role === 'assistant' && words.every((w) => lower(textOf(m)).includes(w)));
      if (askedAt < 0) continue;
      const answer = userIndices.find((i) => i > askedAt);
      // A user who answers the request by leaving stopped early; withholding is answering without it.
      if (answer === undefined || answer === userIndices[userIndices.length - 1]) continue;
      reported.add(v);
      out.push({
        kind: 'withheld_fact',
        messageIndex: answer,
        note: `the agent asked for the ${words.join(' ')} (message ${askedAt}); the instruction gives "${value}", which the user never gave and the agent never obtained`,
        effect: 'hindered',
        truth: value,
      });
    }
  }

  // invented_requirement (invented values) and wrong_fact (contradicting values), by user message
  let said = lower(task.intent);
  const inventedSeen = new Set<string>();
  messages.forEach((m, i) => {
    const text = textOf(m);
    if (m.role === 'user') {
      for (const token of valueTokens(text)) {
        const v = lower(token);
        if (inventedSeen.has(v) || said.includes(v) || known.has(v) || goldScalars.has(v) || saidAsDate(said, token)) continue;
        const using = executed.find((e) => e.step.messageIndex > i && scalarStrings(e.args).some((s) => lower(s) === v || lower(s).includes(v)));
        inventedSeen.add(v);
        out.push({
          kind: 'invented_requirement',
          messageIndex: i,
          note:
            using === undefined
              ? `the user brought "${token}", which the task does not hold; no call of the agent used it`
              : `the user brought "${token}", which the task does not hold, and the agent used it in ${using.step.call.name} (message ${using.step.messageIndex})`,
          effect: using === undefined ? 'minor' : 'hindered',
          value: token,
        });
      }
    }
    said += `\n${lower(text)}${m.role === 'assistant' && m.toolCalls ? lower(JSON.stringify(m.toolCalls)) : ''}`;
  });

  // The agent's last question before `before` that names `value`, answered by a yes.
  const acceptedOffer = (value: string, before: number): { offer: number; answer: number } | undefined => {
    let offer = -1;
    for (let i = before - 1; i >= 0; i--) {
      const m = messages[i] as Message;
      if (m.role === 'assistant' && textOf(m).includes('?') && mentionsValue(textOf(m), value)) {
        offer = i;
        break;
      }
    }
    if (offer < 0) return undefined;
    const answer = userIndices.find((ui) => ui > offer && ui < before);
    return answer !== undefined && AFFIRM.test(textOf(messages[answer] as Message)) ? { offer, answer } : undefined;
  };

  for (const { step, args } of executed) {
    const goldSame = gold.filter((g) => g.name === step.call.name);
    if (goldSame.length === 0 || goldSame.some((g) => sameJson(g.arguments, args))) continue;
    const mine = keyedScalars(args);
    for (const g of goldSame) {
      const theirs = new Map(keyedScalars(g.arguments));
      for (const [key, value] of mine) {
        const want = theirs.get(key);
        if (want === undefined || lower(want) === lower(value)) continue;
        // The instruction fixes the gold's value and not the user's: a code or id it gives, or
        // a word it names (a cabin, an airport) where the user named another of the same kind.
        const fixed = known.has(lower(want)) || (isWordValue(want) && isWordValue(value) && mentionsValue(task.intent, want) && !mentionsValue(task.intent, value));
        if (!fixed || known.has(lower(value)) || mentionsValue(task.intent, value)) continue;
        const from = userIndices.find((ui) => ui < step.messageIndex && mentionsValue(textOf(messages[ui] as Message), value));
        // A value the user said must look like one (an id, a code, a word of a kind): what the
        // agent offered and the user said yes to is one by the offer.
        if (from !== undefined && !valueTokens(value).length && !isWordValue(value) && !(isCode(value) && isCode(want))) continue;
        if (from === undefined) {
          // The value came from the agent: offered in a question the user said yes to.
          const accepted = acceptedOffer(value, step.messageIndex);
          if (accepted !== undefined) {
            out.push({
              kind: 'wrong_acceptance',
              messageIndex: accepted.answer,
              note: `the agent offered "${value}" for ${key} (message ${accepted.offer}), the user accepted, and the agent used it in ${step.call.name} (message ${step.messageIndex}); the instruction gives "${want}"`,
              effect: 'hindered',
              value,
              truth: want,
            });
          }
          continue;
        }
        // A user who also gave the instruction's value said two things: a contradiction.
        const alsoTrue = userIndices.some((ui) => ui < step.messageIndex && ui !== userIndices[0] && mentionsValue(textOf(messages[ui] as Message), want));
        out.push({
          kind: alsoTrue ? 'contradiction' : 'wrong_fact',
          messageIndex: from,
          note: `the user gave "${value}" for ${key}, the agent used it in ${step.call.name} (message ${step.messageIndex}); the instruction gives "${want}"`,
          effect: 'hindered',
          value,
          truth: want,
        });
      }
    }
  }

  // wrong_fact / contradiction from what the user says, however it says it: a word or value of
  // a user message that is a near miss of one of the task's own values (a digit off, two
  // swapped, a letter wrong) and that nothing else in the episode holds.
  // Short words ("gold", "Raj") are near misses of too many everyday words to be read so.
  const truths = [...known].filter((v) => v.length >= 4 && !(/^[a-z]+$/.test(v) && v.length < 6));
  // What the agent and the tools said before a message (an echo afterwards is not a source).
  const heardBefore = (i: number): string =>
    `${lower(task.intent)}\n${messages
      .slice(0, i)
      .filter((m) => m.role !== 'user')
      .map((m) => lower(textOf(m)) + (m.role === 'assistant' && m.toolCalls ? lower(JSON.stringify(m.toolCalls)) : ''))
      .join('\n')}`;
  const nearSeen = new Set<string>();
  for (const i of userIndices) {
    const text = textOf(messages[i] as Message);
    const heard = heardBefore(i);
    // Words and runs of as many words as a value has ("Suite 509" for "Suite 504").
    const words = (text.match(/[#@\w.+-]+/g) ?? []).map((raw) => raw.replace(/^[^#\w]+|[^\w]+$/g, '')).filter((w) => w !== '');
    const candidates: string[] = [];
    const widths = new Set(truths.map((t) => t.split(/\s+/).length));
    for (const width of widths) for (let k = 0; k + width <= words.length; k++) candidates.push(words.slice(k, k + width).join(' '));
    for (const raw of candidates) {
      const word = lower(raw);
      if (word.length < 4 || nearSeen.has(word) || known.has(word) || mentionsValue(heard, word)) continue;
      const truth = truths.find((t) => t.split(/\s+/).length === word.split(' ').length && nearMiss(word, t));
      if (truth === undefined) continue;
      nearSeen.add(word);
      // The opening restates the instruction; a contradiction is the user changing an answer.
      const alsoTrue = userIndices.some((ui) => ui !== i && ui !== userIndices[0] && mentionsValue(textOf(messages[ui] as Message), truth));
      out.push({
        kind: alsoTrue ? 'contradiction' : 'wrong_fact',
        messageIndex: i,
        note: alsoTrue
          ? `the user gave "${raw}" and, in another message, "${truth}" for the same thing`
          : `the user gave "${raw}" where the task's value is "${truth}"`,
        effect: 'hindered',
        value: raw,
        truth,
      });
    }
  }

  // early_stop: the needed action was on offer when the user walked away
  if (trajectory.termination === 'user_stop') {
    for (const call of gold) {
      const ran = executed.some((e) => e.step.call.name === call.name && e.step.result.ok && sameJson(call.arguments, e.args));
      if (ran) continue;
      const all = keyedScalars(call.arguments).map(([, v]) => v);
      // The action's own values (amounts, flight numbers); when every value is one of the user's
      // facts, all of them.
      const mine = all.filter((v) => !known.has(lower(v)));
      const own = mine.length > 0 ? mine : all;
      if (own.length === 0) continue;
      const offerAt = messages.findIndex((m) => m.role === 'assistant' && textOf(m).includes('?') && own.every((v) => mentionsValue(textOf(m), v)));
      if (offerAt < 0) continue;
      // Walking away from it: the offer stood in the agent's last turn before the stop (a user who
      // talked on for turns after it stopped for another reason).
      const lastAgent = messages.slice(0, userIndices[userIndices.length - 1]).findLastIndex((m) => m.role === 'assistant' && textOf(m).trim() !== '');
      if (lastAgent < offerAt || !own.every((v) => mentionsValue(textOf(messages[lastAgent] as Message), v))) continue;
      const reply = userIndices.find((i) => i > offerAt);
      if (reply === undefined) continue;
      // A yes that ends the conversation in the same message confirms and stops in one turn: the
      // action never gets to run. A yes that goes on leaves it to the agent.
      const stoppedThere = reply === userIndices[userIndices.length - 1];
      if (!stoppedThere && AFFIRM.test(textOf(messages[reply] as Message))) continue;
      if (executed.some((e) => e.step.messageIndex > offerAt && e.step.call.name === call.name)) continue;
      out.push({
        kind: 'early_stop',
        messageIndex: reply,
        note: `the agent offered ${call.name} (message ${offerAt}), which the task needs; the user did not take it and stopped before it ran`,
        effect: 'hindered',
      });
    }
  }
  // A value that contradicts the instruction is a wrong fact (or a contradiction), not an
  // invention as well; and one value used in several calls is one finding.
  const contradicting = new Set(out.filter((f) => f.kind !== 'invented_requirement' && f.value !== undefined).map((f) => lower(f.value as string)));
  const seen = new Set<string>();
  return out
    .filter((f) => {
      if (f.value === undefined) return true;
      const v = lower(f.value);
      if (f.kind === 'invented_requirement' && contradicting.has(v)) return false;
      const id = `${f.kind}|${v}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.messageIndex - b.messageIndex);
}
