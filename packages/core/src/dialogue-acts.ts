// What an agent's message asks of the user, read sentence by sentence: the rules the scripted
// user (`@autoforge/user-sim`) answers by and the rule judge (`@autoforge/judge`) reads stops by,
// in one place, so that a stop the user makes after a request is an early stop for both.
import type { UserFact } from './task.js';
import { asksFor } from './dialogue.js';

/**
 * Splits a text into sentences at `.`, `?`, `!` followed by white space, and at line breaks,
 * never inside a double-quoted string (values such as `"St. Louis"` stay whole).
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && inQuote) {
      i++;
      continue;
    }
    if (c === '"') inQuote = !inQuote;
    else if (c === '\n' || (!inQuote && (c === '.' || c === '?' || c === '!') && (i + 1 === text.length || /\s/.test(text[i + 1] as string)))) {
      const s = text.slice(start, i + 1).trim();
      if (s !== '') out.push(s);
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest !== '') out.push(rest);
  return out;
}

const STRONG_REQUEST =
  /\b(could you|can you|would you|will you|please (provide|tell|give|share|send|confirm|let|specify|enter|state)|tell me|let me know|may i have|i need your|i'll need your|i will need your|what is your|what's your|provide (me )?(with )?your)\b/i;
// Pleasantries that are phrased as questions but ask nothing of the user.
const PLEASANTRY =
  /\b(anything else|something else|anything more|any other (questions?|requests?|concerns?|issues?)|else (can|could|may) i|further (assistance|help|questions?)|how (can|may) i (help|assist)|have a (great|nice|good|wonderful) day)\b/i;
const CONFIRMATION =
  /\b(confirm|proceed|go ahead|shall i|should i|do you want me to|would you like me to|want me to|is (that|this) (correct|right|ok|okay)|are you sure|yes or no|yes\/no)\b/i;

/** Whether a sentence asks something of the listener: a question or a request, not a pleasantry. */
export function isRequestSentence(sentence: string): boolean {
  if (PLEASANTRY.test(sentence)) return false;
  return /\?\s*["')\]]*\s*$/.test(sentence) || STRONG_REQUEST.test(sentence);
}

/** Whether a request sentence asks the listener to confirm an action ("Shall I proceed?"). */
export function isConfirmationRequest(sentence: string): boolean {
  return isRequestSentence(sentence) && CONFIRMATION.test(sentence);
}

/** What an agent's text asks of the user. */
export interface AgentRequests {
  /** The user's facts it asks for (core `asksFor`), in the task's order. */
  facts: UserFact[];
  /** Requests for confirmation of an action that mention no fact. */
  confirmations: string[];
  /** Other requests and questions that mention no fact (the user cannot answer them). */
  unknown: string[];
}

/** Reads what `text` asks of a user who knows `facts`. */
export function readRequests(text: string, facts: readonly UserFact[]): AgentRequests {
  const asked = new Set<UserFact>();
  const confirmations: string[] = [];
  const unknown: string[] = [];
  for (const sentence of splitSentences(text)) {
    const about = facts.filter((f) => asksFor(sentence, f));
    for (const f of about) asked.add(f);
    if (about.length > 0 || !isRequestSentence(sentence)) continue;
    if (CONFIRMATION.test(sentence)) confirmations.push(sentence);
    else unknown.push(sentence);
  }
  return { facts: facts.filter((f) => asked.has(f)), confirmations, unknown };
}

/** Whether the text asks anything at all (a fact, a confirmation or another request). */
export function asksAnything(requests: AgentRequests): boolean {
  return requests.facts.length > 0 || requests.confirmations.length > 0 || requests.unknown.length > 0;
}
