import type { Blame, Message, Task, ToolStep, Trajectory, UserFact, Verdict, VerdictEvidence } from '@autoforge/core';
import { contentWords, isRequestSentence, readRequests, splitSentences, taskVocabulary, USER_STOP_TOKEN } from '@autoforge/core';
import { JudgeError } from './error.js';
import { factClaims, normalizeValue, resolveSubject } from './fact-claims.js';
import type { Judge, UserErrorKind } from './judge.js';
import { USER_ERROR_KINDS } from './judge.js';

/** Options of {@link createRuleJudge}. */
export interface RuleJudgeOptions {
  /** The judge's name in verdicts. Default `"rule"`. */
  name?: string;
  /** New content words a demand needs to count as an invented requirement. Default `2`. */
  minNovelWords?: number;
  /** Share of a demand's content words that must be new. Default `0.5`. */
  minNovelShare?: number;
}

/** One user error the rule judge found. */
interface Finding {
  kind: UserErrorKind;
  messageIndex: number;
  note: string;
}

const DEMAND = /\b(i need|i want|i'd like|i would like|i also|please|also|make sure|can you|could you|i expect|i demand|i require|i insist)\b/i;
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

/** invented_requirement: a demand whose content words are mostly absent from the task and the dialogue so far. */
function inventedFindings(messages: readonly Message[], task: Task, minNovel: number, minShare: number): Finding[] {
  const known = taskVocabulary(task);
  const out: Finding[] = [];
  messages.forEach((m, messageIndex) => {
    if (m.role === 'assistant' && m.content) for (const w of contentWords(m.content)) known.add(w);
    if (m.role !== 'user') return;
    for (const sentence of splitSentences(m.content.replace(USER_STOP_TOKEN, ''))) {
      if (!DEMAND.test(sentence) || factClaims(sentence).length > 0) continue;
      const words = contentWords(sentence);
      const novel = [...new Set(words.filter((w) => !known.has(w)))];
      if (novel.length >= minNovel && novel.length / new Set(words).size >= minShare) {
        out.push({ kind: 'invented_requirement', messageIndex, note: `the user asked for something the task does not contain: "${sentence}"` });
      }
    }
  });
  return out;
}

function isEnvironmentFailure(step: ToolStep): boolean {
  if (step.result.ok) return false;
  const { code, message } = step.result.error;
  if (code === 'timeout' || code === 'memory_limit' || code === 'output_invalid') return true;
  return code === 'tool_error' && ENV_MESSAGE.test(message);
}

function option(fallback: number, value: number | undefined, name: string, integer: boolean): number {
  const v = value ?? fallback;
  if (!(typeof v === 'number' && Number.isFinite(v) && v >= 0 && (!integer || Number.isInteger(v)))) {
    throw new JudgeError('E_OPTIONS', `createRuleJudge: \`${name}\` must be a non-negative ${integer ? 'integer' : 'number'}, got ${String(value)}`);
  }
  return v;
}

/**
 * A judge without a model. It decides only from the dialogue and the task — never from
 * `trajectory.injectedUserErrors`, the ground truth it is scored against:
 * - `wrong_fact`: the user states (`my X is …`) a value for a fact that differs from the task's;
 *   `contradiction` instead when a later message changes what the user first said about that
 *   fact (whichever of the two values is true) — more distinct values than the task has, one
 *   of them wrong. Subjects are matched to facts by their words (exactly, else by key, else by
 *   word overlap); facts that share a subject are judged together;
 * - `early_stop`: the user stopped right after the agent asked something (a fact, a
 *   confirmation, a question) without saying it cannot answer, or stopped before a required
 *   output appeared without ever asking for it;
 * - `invented_requirement`: a user sentence that demands something ("I need", "please",
 *   "also"…) whose content words are mostly absent from the task and from what the agent said.
 *
 * Blame: `user` when it finds a user error (or the user simulator failed); else `environment`
 * when the reward is below 1 and a tool failed on the environment's side (time-out, memory
 * limit, invalid output, internal-looking tool error); else `agent` when the reward is below 1;
 * else `none`. Deterministic.
 *
 * @throws JudgeError `E_OPTIONS` for bad options, or when the task is not the trajectory's.
 */
export function createRuleJudge(options: RuleJudgeOptions = {}): Judge {
  const minNovel = option(2, options.minNovelWords, 'minNovelWords', true);
  const minShare = option(0.5, options.minNovelShare, 'minNovelShare', false);
  const name = options.name ?? 'rule';
  return {
    name,
    judge(trajectory: Trajectory, task: Task): Promise<Verdict> {
      if (task.id !== trajectory.taskId) {
        return Promise.reject(new JudgeError('E_OPTIONS', `${name}: trajectory ${trajectory.id} is of task ${trajectory.taskId}, not ${task.id}`));
      }
      const findings: Finding[] = [
        ...factFindings(trajectory.messages, task.userFacts),
        ...inventedFindings(trajectory.messages, task, minNovel, minShare),
      ];
      const early = earlyStopFinding(trajectory, task);
      if (early) findings.push(early);
      const evidence: VerdictEvidence[] = findings
        .sort((a, b) => a.messageIndex - b.messageIndex || USER_ERROR_KINDS.indexOf(a.kind) - USER_ERROR_KINDS.indexOf(b.kind))
        .map((f) => ({ messageIndex: f.messageIndex, note: `${f.kind}: ${f.note}` }));
      const kinds = USER_ERROR_KINDS.filter((k) => findings.some((f) => f.kind === k));
      const simulatorFailed = trajectory.termination === 'user_error';
      if (simulatorFailed) {
        const note = `the user simulator failed${typeof trajectory.metadata.error === 'string' ? `: ${trajectory.metadata.error}` : ''}`;
        evidence.push({ messageIndex: Math.max(0, trajectory.messages.length - 1), note });
      }
      const userError = kinds.length > 0 || simulatorFailed;
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
