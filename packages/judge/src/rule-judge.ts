import type { Blame, Message, Task, ToolStep, Trajectory, Verdict, VerdictEvidence } from '@autoforge/core';
import { normalizeValue, splitSentences, toolAccess, USER_STOP_TOKEN } from '@autoforge/core';
import { JudgeError } from './error.js';
import { askedFacts, isQuestion, statedValues } from './statements.js';
import type { UserErrorKind } from '@autoforge/core';
import type { Judge } from './judge.js';
import { verdictFor } from './judge.js';
import { USER_ERROR_KINDS } from '@autoforge/core';
import { parseArgs, sameJson, taskFindings } from './task-checks.js';

/** Options of {@link createRuleJudge}. */
export interface RuleJudgeOptions {
  /** The judge's name in verdicts. Default `"rule"`. */
  name?: string;
}

/** One user error the rule judge found. */
interface Finding {
  kind: UserErrorKind;
  messageIndex: number;
  note: string;
  /** `helped`: the episode succeeded because of it; `hindered`: it can explain a failure; `minor`: nothing rests on it. */
  effect?: 'hindered' | 'helped' | 'minor';
  /** The value at issue, as written, where there is one. */
  value?: string;
  /** The instruction's value it is about. */
  truth?: string;
}

const INABILITY =
  /\b(don't know|do not know|dont know|not sure|no idea|can't (help|answer|tell|say|remember|find)|cannot (help|answer|tell|say|remember|find)|don't have (that|this|it|the|any)|do not have|unable to|don't remember|do not remember)\b/i;
const ENV_MESSAGE =
  /\b(internal|unexpected|typeerror|referenceerror|rangeerror|syntaxerror|is not a function|cannot read propert|undefined|stack|sandbox|out of memory)\b/i;

const textOf = (m: Message): string => (m.role === 'assistant' ? (m.content ?? '') : m.content);

// An agent turning a request down, in a sentence that asks nothing.
const REFUSAL = /\b(cannot|can't|can not|could not|couldn't|unable to|not able to|not possible|won't be able|am not allowed|not allowed to|not permitted)\b/i;
// A user pushing back on a refusal rather than taking it.
const PUSH = /\b(exception|try again|not acceptable|unacceptable|can't accept|cannot accept|insist|(do|doing) it anyway|just do it|find a way|just this once|really need|asking you again)\b/i;
// An instruction that tells the user to push: its pushing is no deviation.
const TOLD_TO_PUSH = /\b(insist|insists|insisting|push|persist|persistent|persuade|firm|don't take no|do not take no|don't accept|do not accept|not accept|keep asking|ask again)\b/i;

/** The sentences of an agent's text that refuse something, where none of its sentences asks anything. */
function refusals(text: string): string[] {
  const sentences = splitSentences(text);
  // A closing pleasantry ("Anything else I can help with?") asks nothing of the request.
  if (sentences.some((s) => isQuestion(s) && !/\b(anything else|something else|any other|further (assistance|help|questions?))\b/i.test(s))) return [];
  return sentences.filter((s) => REFUSAL.test(s));
}

/** The agent's text between user message `from` (exclusive) and `to` (exclusive). */
function agentTextBetween(messages: readonly Message[], from: number, to: number): string {
  return messages
    .slice(from + 1, to)
    .filter((m) => m.role === 'assistant')
    .map(textOf)
    .join('\n');
}

/**
 * insistence: the user pushed back on a refusal (the agent said it cannot do something and asked
 * nothing) where its instruction says nothing of pushing. `hindered` when the agent then made a
 * write the gold calls do not hold (it gave in to something the task does not want), `minor`
 * otherwise: what the push got, if anything, is the task's own.
 */
function insistenceFinding(trajectory: Trajectory, task: Task): Finding | undefined {
  if (TOLD_TO_PUSH.test(task.intent)) return undefined;
  const { messages } = trajectory;
  const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  for (let k = 1; k < users.length; k++) {
    const at = users[k] as number;
    const said = textOf(messages[at] as Message);
    if (said.includes(USER_STOP_TOKEN) || !PUSH.test(said)) continue;
    const refused = refusals(agentTextBetween(messages, users[k - 1] as number, at));
    if (refused.length === 0) continue;
    const off = trajectory.steps.find(
      (s) => s.messageIndex >= at && toolAccess({ name: s.call.name, description: '' }).access === 'write' && !task.goldCalls.some((g) => g.name === s.call.name && sameJson(g.arguments, parseArgs(s))),
    );
    return {
      kind: 'insistence',
      messageIndex: at,
      note:
        off === undefined
          ? `the user pushed back on the agent's refusal ("${refused[0] as string}"), which its instruction does not ask for; nothing the task does not want was done`
          : `the user pushed back on the agent's refusal ("${refused[0] as string}"), which its instruction does not ask for, and the agent then made ${off.call.name} (message ${off.messageIndex}), which no gold call holds`,
      effect: off === undefined ? 'minor' : 'hindered',
    };
  }
  return undefined;
}

/** wrong_fact and contradiction: the values the user stated for each of its facts, however worded. */
function factFindings(messages: readonly Message[], task: Task): Finding[] {
  const facts = task.userFacts;
  const stated = statedValues(messages, facts, task.intent);
  const openingIndex = messages.findIndex((m) => m.role === 'user');
  const out: Finding[] = [];
  for (const fact of facts) {
    const entries = stated.filter((s) => s.key === fact.key);
    const wrong = entries.find((e) => !e.correct);
    if (!wrong) continue;
    const expected = normalizeValue(fact.value);
    // A contradiction changes an answer: a later message gives the fact another value than an
    // earlier one, and one of them is wrong. The opening restates the instruction, so it is no
    // answer to change.
    const answers = entries.filter((e) => e.messageIndex !== openingIndex);
    const first = answers[0];
    const changed = first && answers.find((e) => e.messageIndex > first.messageIndex && normalizeValue(e.value) !== normalizeValue(first.value));
    if (first && changed) {
      out.push({ kind: 'contradiction', messageIndex: changed.messageIndex, truth: expected, note: `the user gave two values for "${fact.key}": "${first.value}" (message ${first.messageIndex}), then "${changed.value}" (message ${changed.messageIndex})` });
    } else {
      // The message that decides it: the first user message that says the wrong value, named or
      // not (an opening that restates the instruction with it).
      const firstSaid = messages.findIndex((m, i) => i <= wrong.messageIndex && m.role === 'user' && holds(m.content, wrong.value));
      out.push({ kind: 'wrong_fact', messageIndex: firstSaid >= 0 ? firstSaid : wrong.messageIndex, note: `the user said "${fact.key}" is "${wrong.value}"; the task says "${expected}"`, value: wrong.value, truth: expected });
    }
  }
  return out;
}

/** early_stop: the user stopped while the agent was asking, or before a read-only answer without asking for it. */
function earlyStopFinding(trajectory: Trajectory, task: Task): Finding | undefined {
  if (trajectory.termination !== 'user_stop') return undefined;
  const { messages } = trajectory;
  let stopAt = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if ((messages[i] as Message).role === 'user') {
      stopAt = i;
      break;
    }
  }
  if (stopAt < 0) return undefined;
  let previousUser = -1;
  for (let i = stopAt - 1; i >= 0; i--) {
    if ((messages[i] as Message).role === 'user') {
      previousUser = i;
      break;
    }
  }
  if (previousUser < 0) return undefined; // the user stopped in its opening: nothing was asked yet
  const agentText = messages
    .slice(previousUser + 1, stopAt)
    .filter((m) => m.role === 'assistant')
    .map(textOf)
    .join('\n');
  const stopText = (messages[stopAt] as Message).content ?? '';
  // Taking a refusal and leaving is what a user told no does.
  if (refusals(agentText).length > 0) return undefined;
  const askedFor = askedFacts(agentText, task.userFacts);
  if (askedFor.length > 0) {
    return { kind: 'early_stop', messageIndex: stopAt, note: `the user stopped although the agent asked for ${askedFor.map((f) => f.key).join(', ')}` };
  }
  const unable = INABILITY.test(stopText.replace(USER_STOP_TOKEN, ''));
  const asked = splitSentences(agentText).find(isQuestion);
  if (asked !== undefined && !unable) {
    return { kind: 'early_stop', messageIndex: stopAt, note: `the user stopped without answering the agent's request: "${asked}"` };
  }
  const said = messages
    .filter((m) => m.role === 'assistant' && typeof m.content === 'string')
    .map((m) => (m.content as string).toLowerCase().replace(/,/g, ''));
  const missing = task.requiredOutputs.filter((o) => !said.some((t) => t.includes(o.toLowerCase().replace(/,/g, ''))));
  if (missing.length > 0) {
    const firstUser = messages.findIndex((m) => m.role === 'user');
    const prompted = messages
      .slice(firstUser + 1, stopAt)
      .some((m) => m.role === 'user' && splitSentences(m.content).some(isQuestion));
    if (!prompted && !unable) {
      return { kind: 'early_stop', messageIndex: stopAt, note: `the user stopped before the agent gave the answer and without asking for it` };
    }
  }
  return undefined;
}

/** True when `text` holds `value` as a whole token, in any case. */
function holds(text: string, value: string): boolean {
  const t = text.toLowerCase();
  const v = value.toLowerCase().trim();
  if (v === '') return false;
  for (let at = t.indexOf(v); at >= 0; at = t.indexOf(v, at + 1)) {
    if (!/[a-z0-9_]/.test(t[at - 1] ?? ' ') && !/[a-z0-9_]/.test(t[at + v.length] ?? ' ')) return true;
  }
  return false;
}

/**
 * A wrong value the agent itself had offered as an option before the user chose it ("one of
 * "bronze", "silver" or "gold"") is a choice the instruction rules out, not a misremembered fact.
 */
function asChoices(findings: Finding[], messages: readonly Message[]): Finding[] {
  return findings.map((f) => {
    if (f.kind !== 'wrong_fact' || f.value === undefined) return f;
    const offered = messages.slice(0, f.messageIndex).some((m) => m.role === 'assistant' && typeof m.content === 'string' && holds(m.content, f.value as string));
    return offered ? { ...f, kind: 'forbidden_choice', note: `${f.note}, one of the options the agent offered` } : f;
  });
}

function isEnvironmentFailure(step: ToolStep): boolean {
  if (step.result.ok) return false;
  const { code, message } = step.result.error;
  if (code === 'timeout' || code === 'memory_limit' || code === 'output_invalid') return true;
  return code === 'tool_error' && ENV_MESSAGE.test(message);
}


/**
 * A judge without a model. It decides only from the dialogue and the task — never from
 * `trajectory.injectedUserErrors`, the ground truth it is scored against. No word-novelty rule.
 *
 * From the task (`taskFindings`: the instruction's values, the gold calls, the agent's executed
 * calls): `withheld_fact` (asked for a value the instruction gives, the user answered without
 * it), `wrong_fact` / `contradiction` (the agent used the user's value where the instruction
 * gives the gold's, or the user's words hold a near miss of a task value),
 * `wrong_acceptance` (the agent used a value it had offered in a question the user said yes to,
 * where the instruction gives another), `invented_requirement` (a value the task does not hold: masking when the agent then used it,
 * listed as minor when no call did), `forbidden_choice` (a wrong value that the agent had offered as an option), `early_stop` (the user walked away from the needed action while it was on offer),
 * `insistence` (the user pushed back on a refusal its instruction does not tell it to push on:
 * masking when the agent then made a write no gold call holds, minor otherwise).
 * From the user's statements of its `userFacts`: `wrong_fact` and `contradiction` (`my X is …`
 * against the fact's value), and `early_stop` (stopped right after the agent asked something,
 * or before a required output without asking for it).
 *
 * Causality: `kinds` and `evidence` list every deviation; `userError` counts them (minor ones
 * never) for a failed episode, and for a successful one only when its success rests on one.
 *
 * Blame: `user` when `userError` (or the user simulator failed); else `environment` when the
 * reward is below 1 and a tool failed on the environment's side (time-out, memory limit,
 * invalid output, internal-looking tool error); else `agent` when the reward is below 1; else
 * `none`. Deterministic.
 *
 * @throws JudgeError `E_OPTIONS` when the task is not the trajectory's.
 */
export function createRuleJudge(options: RuleJudgeOptions = {}): Judge {
  const name = options.name ?? 'rule';
  return {
    name,
    judge(trajectory: Trajectory, task: Task): Promise<Verdict> {
      if (task.id !== trajectory.taskId) {
        return Promise.reject(new JudgeError('E_OPTIONS', `${name}: trajectory ${trajectory.id} is of task ${trajectory.taskId}, not ${task.id}`));
      }
      const stated = factFindings(trajectory.messages, task);
      // What the user's statements already show is not found again from the agent's calls.
      const shown = stated.map((f) => f.note.toLowerCase());
      const fromTask = taskFindings(trajectory, task).filter((f) => f.value === undefined || !shown.some((n) => n.includes(`"${f.value?.toLowerCase() ?? ''}"`)));
      // A fact the user gave a wrong value for was not withheld.
      const misstated = new Set(
        [...stated, ...fromTask].flatMap((f) => (f.truth !== undefined && f.kind !== 'withheld_fact' ? [normalizeValue(f.truth)] : [])),
      );
      const kept = fromTask.filter((f) => !(f.kind === 'withheld_fact' && f.truth !== undefined && misstated.has(normalizeValue(f.truth))));
      const findings: Finding[] = asChoices([...stated, ...kept], trajectory.messages);
      const early = earlyStopFinding(trajectory, task);
      if (early) findings.push(early);
      const insisted = insistenceFinding(trajectory, task);
      if (insisted) findings.push(insisted);
      const evidence: VerdictEvidence[] = findings
        .sort((a, b) => a.messageIndex - b.messageIndex || USER_ERROR_KINDS.indexOf(a.kind) - USER_ERROR_KINDS.indexOf(b.kind))
        .map((f) => ({ messageIndex: f.messageIndex, note: `${f.kind}: ${f.note}` }));
      const kinds = USER_ERROR_KINDS.filter((k) => findings.some((f) => f.kind === k));
      const simulatorFailed = trajectory.termination === 'user_error';
      // Causality: a deviation masks a failed episode (it can explain the failure); a successful
      // one only when its success rests on the deviation.
      const failed = trajectory.reward < 1;
      const spoiling = findings.filter((f) => f.effect !== 'minor' && (failed ? f.effect !== 'helped' : f.effect === 'helped'));
      if (!failed && findings.length > 0) {
        evidence.push({ messageIndex: Math.max(0, trajectory.messages.length - 1), note: 'the episode succeeded: these deviations did not change the outcome' });
      }
      if (simulatorFailed) {
        const note = `the user simulator failed${typeof trajectory.metadata.error === 'string' ? `: ${trajectory.metadata.error}` : ''}`;
        evidence.push({ messageIndex: Math.max(0, trajectory.messages.length - 1), note });
      }
      const userError = spoiling.length > 0 || simulatorFailed;
      let blame: Blame = 'none';
      if (userError) blame = 'user';
      else if (trajectory.reward < 1) blame = trajectory.steps.some(isEnvironmentFailure) ? 'environment' : 'agent';
      return Promise.resolve(verdictFor(trajectory, name, { userError, kinds, blame, evidence }));
    },
  };
}
