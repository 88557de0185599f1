// The plain dialect: the exact forms in which the scripted user has always spoken (`My email is
// "a@b.c".`) and read agents' requests (a question or request sentence that names a fact). The
// `plain` surface of `createScriptedUser` speaks only these, so that conversations pinned by
// tests elsewhere stay byte-identical; the `varied` surface (see surface.ts) speaks many more.
// They are the user's own conventions: no agent or judge reads them.
import type { JsonValue, UserFact } from '@autoforge/core';
import { jsonLiteralAt, splitSentences, splitWords } from '@autoforge/core';

/** A fact as the agent asks for it: its key, and optionally the user-facing description. */
export interface FactRef {
  key: string;
  /** "your email address"; default: the key's words after "your". */
  description?: string;
}

/** A fact statement found in a message ("My email is "a@b.c"."). */
export interface FactStatement {
  /** The subject as written, lower-cased, without "my"/"your" ("email", "zip code"). */
  subject: string;
  /** The value, parsed from its JSON literal. */
  value: JsonValue;
  /** Offset of the statement in the text. */
  index: number;
}

/** The words of a fact's subject: the description without a leading "your"/"my", else the key's words. */
export function factSubject(fact: FactRef): string {
  const text = fact.description ?? splitWords(fact.key).join(' ');
  return text
    .trim()
    .replace(/^(your|my|the)\s+/i, '')
    .toLowerCase();
}

/** A value as a user says it: the JSON literal (strings quoted), so it can be read back exactly. */
export function sayValue(value: JsonValue): string {
  return JSON.stringify(value);
}

/** "My email is "a@b.c"." — the form in which simulated users state facts. */
export function factStatement(fact: FactRef, value: JsonValue): string {
  return `My ${factSubject(fact)} is ${sayValue(value)}.`;
}

/** "Could you tell me your email and your zip?" — the form in which offline agents ask. */
export function askForFacts(facts: readonly FactRef[]): string {
  const parts = facts.map((f) => `your ${factSubject(f)}`);
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Could you tell me ${list}?`;
}


const STATEMENT = /\b(?:my|the)\s+([a-z0-9][a-z0-9 _'-]{0,80}?)\s+(?:is|are|was|should be)\s+(?=["[{\-0-9tfn])/gi;

/** Every fact statement in a text ("my X is <JSON>"), in order. */
export function parseFactStatements(text: string): FactStatement[] {
  const out: FactStatement[] = [];
  STATEMENT.lastIndex = 0;
  for (let m = STATEMENT.exec(text); m !== null; m = STATEMENT.exec(text)) {
    const subjectStart = m.index + m[0].indexOf(m[1] as string);
    let subject = m[1] as string;
    let start = m.index + m[0].length;
    let literal = jsonLiteralAt(text.slice(start));
    // What followed "is" was no value: the subject goes on ("my a is f is {}" is about "a is f").
    VERB.lastIndex = start;
    while (!literal) {
      const v = VERB.exec(text);
      if (v === null) break;
      subject = text.slice(subjectStart, v.index);
      if (subject.length > 80 || !/^[a-z0-9 _'-]+$/i.test(subject)) break;
      start = v.index + v[0].length;
      literal = jsonLiteralAt(text.slice(start));
    }
    if (!literal) continue;
    out.push({ subject: subject.toLowerCase().trim(), value: literal.value, index: m.index });
    STATEMENT.lastIndex = start + literal.length;
  }
  return out;
}
const VERB = /\s+(?:is|are|was|should be)\s+(?=["[{\-0-9tfn])/gi;

/** The statements in `text` about `fact` (subject equal to the fact's subject or its key's words). */
export function statementsAbout(text: string, fact: FactRef): FactStatement[] {
  const names = new Set([factSubject(fact), splitWords(fact.key).join(' ')]);
  return parseFactStatements(text).filter((s) => names.has(s.subject.replace(/[_-]+/g, ' ')));
}

/**
 * Whether a message asks for `fact`: it mentions the fact's subject (or every word of its key)
 * in a sentence that is a question or a request ("could you", "please provide", "what is").
 */
export function asksFor(text: string, fact: FactRef): boolean {
  const sentences = text.split(/(?<=[.?!])\s+/);
  const subject = factSubject(fact);
  const keyWords = splitWords(fact.key);
  return sentences.some((s) => {
    const lower = s.toLowerCase();
    const isRequest = /\?\s*$/.test(s) || /\b(could you|can you|please|provide|tell me|what is|what's|need your|may i have)\b/.test(lower);
    if (!isRequest) return false;
    if (lower.includes(subject)) return true;
    const words = new Set(splitWords(lower));
    return keyWords.length > 0 && keyWords.every((w) => words.has(w));
  });
}

// What an agent's message asks of the user, read sentence by sentence.

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
