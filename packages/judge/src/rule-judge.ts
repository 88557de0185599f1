import type { Blame, Message, Task, ToolStep, Trajectory, UserFact, Verdict, VerdictEvidence } from '@autoforge/core';
import { isRequestSentence, readRequests, splitSentences, USER_STOP_TOKEN } from '@autoforge/core';
import { JudgeError } from './error.js';
import { factClaims, normalizeValue, resolveSubject } from './fact-claims.js';
import type { Judge, UserErrorKind } from './judge.js';
import { USER_ERROR_KINDS } from './judge.js';
import { taskFindings } from './task-checks.js';

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
  /** `helped`: the episode succeeded because of it; `hindered`: it can explain a failure. */
  effect?: 'hindered' | 'helped';
}

const INABILITY =
  /\b(don't know|do not know|dont know|not sure|no idea|can't (help|answer|tell|say|remember|find)|cannot (help|answer|tell|say|remember|find)|don't have (that|this|it|the|any)|do not have|unable to|don't remember|do not remember)\b/i;
const ENV_MESSAGE =
  /\b(internal|unexpected|typeerror|referenceerror|rangeerror|syntaxerror|is not a function|cannot read propert|undefined|stack|sandbox|out of memory)\b/i;

const textOf = (m: Message): string => (m.role === 'assistant' ? (m.content ?? '') : m.content);

function say(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** wrong_fact and contradiction: the values the user gave for each of its facts. */
function factFindings(messages: readonly Message[], facts: readonly UserFact[]): Finding[] {
  interface Entry {
    messageIndex: number;
    value: string;
    shown: string;
  }
  const groups = new Map<string, { subject: string; truth: Set<string>; entries: Entry[] }>();
  messages.forEach((m, messageIndex) => {
    if (m.role !== 'user') return;
    for (const claim of factClaims(m.content)) {
      // Unquoted words are read loosely, so their subject must name a fact exactly ("my order is late").
      const named = resolveSubject(claim.subject, facts, { fuzzy: !claim.loose });
      if (named.length === 0) continue;
      const key = named.map((f) => f.key).sort().join('|');
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { subject: claim.subject, truth: new Set(named.map((f) => normalizeValue(f.value))), entries: [] }));
      let value = normalizeValue(claim.value);
      if (claim.loose) {
        // Unquoted words: the fact's value followed by more words still states that value.
        const padded = ` ${value} `;
        value = [...group.truth].find((t) => value === t || padded.includes(` ${t} `)) ?? value;
      }
      group.entries.push({ messageIndex, value, shown: say(claim.value) });
    }
  });
  const out: Finding[] = [];
  for (const { subject, truth, entries } of groups.values()) {
    const wrong = entries.find((e) => !truth.has(e.value));
    if (!wrong) continue;
    // A contradiction changes what the user said before: a later message brings a value its
    // first statement did not have, and there are more distinct values than true ones (facts
    // that share a subject may hold several true values, or one value twice).
    const firstMessage = (entries[0] as Entry).messageIndex;
    const first = new Set(entries.filter((e) => e.messageIndex === firstMessage).map((e) => e.value));
    const distinct = new Map<string, Entry>();
    for (const e of entries) if (!distinct.has(e.value)) distinct.set(e.value, e);
    const changed = entries.find((e) => e.messageIndex !== firstMessage && !first.has(e.value));
    if (changed && distinct.size > truth.size) {
      const said = [...distinct.values()].map((e) => `"${e.shown}" (message ${e.messageIndex})`).join(', then ');
      out.push({ kind: 'contradiction', messageIndex: changed.messageIndex, note: `the user gave two values for "${subject}": ${said}` });
    } else {
      const expected = [...truth].map((t) => `"${t}"`).join(' or ');
      out.push({ kind: 'wrong_fact', messageIndex: wrong.messageIndex, note: `the user said "${subject}" is "${wrong.shown}"; the task says ${expected}` });
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
  const requests = readRequests(agentText, task.userFacts);
  if (requests.facts.length > 0) {
    return { kind: 'early_stop', messageIndex: stopAt, note: `the user stopped although the agent asked for ${requests.facts.map((f) => f.key).join(', ')}` };
  }
  const unable = INABILITY.test(stopText.replace(USER_STOP_TOKEN, ''));
  if ((requests.confirmations.length > 0 || requests.unknown.length > 0) && !unable) {
    const asked = [...requests.confirmations, ...requests.unknown][0] as string;
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
      .some((m) => m.role === 'user' && splitSentences(m.content).some(isRequestSentence));
    if (!prompted && !unable) {
      return { kind: 'early_stop', messageIndex: stopAt, note: `the user stopped before the agent gave the answer and without asking for it` };
    }
  }
  return undefined;
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
 * `invented_requirement` (a value the task does not hold that the agent then
 * used), `early_stop` (the user walked away from the needed action while it was on offer).
 * From the user's statements of its `userFacts`: `wrong_fact` and `contradiction` (`my X is …`
 * against the fact's value), and `early_stop` (stopped right after the agent asked something,
 * or before a required output without asking for it).
 *
 * Causality: `kinds` and `evidence` list every deviation; `userError` counts them for a failed
 * episode, and for a successful one only when its success rests on one.
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
      const stated = factFindings(trajectory.messages, task.userFacts);
      // What the user's statements already show is not found again from the agent's calls.
      const shown = stated.map((f) => f.note.toLowerCase());
      const fromTask = taskFindings(trajectory, task).filter((f) => f.value === undefined || !shown.some((n) => n.includes(`"${f.value?.toLowerCase() ?? ''}"`)));
      const findings: Finding[] = [...stated, ...fromTask];
      const early = earlyStopFinding(trajectory, task);
      if (early) findings.push(early);
      const evidence: VerdictEvidence[] = findings
        .sort((a, b) => a.messageIndex - b.messageIndex || USER_ERROR_KINDS.indexOf(a.kind) - USER_ERROR_KINDS.indexOf(b.kind))
        .map((f) => ({ messageIndex: f.messageIndex, note: `${f.kind}: ${f.note}` }));
      const kinds = USER_ERROR_KINDS.filter((k) => findings.some((f) => f.kind === k));
      const simulatorFailed = trajectory.termination === 'user_error';
      // Causality: a deviation masks a failed episode (it can explain the failure); a successful
      // one only when its success rests on the deviation.
      const failed = trajectory.reward < 1;
      const spoiling = findings.filter((f) => (failed ? f.effect !== 'helped' : f.effect === 'helped'));
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
      return Promise.resolve({
        trajectoryId: trajectory.id,
        taskId: trajectory.taskId,
        envId: trajectory.envId,
        rollout: trajectory.rollout,
        userError,
        kinds,
        blame,
        evidence,
        judge: name,
      });
    },
  };
}
