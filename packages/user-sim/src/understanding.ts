// How the varied user reads an agent's message: which of its facts a question asks for, however
// loosely it is named ("your zip code", "the zip", "ZIP?"), whether it asks to confirm an action,
// offers something the user did not ask for, or says it cannot do something.
import type { UserFact } from '@autoforge/core';
import { splitSentences, splitWords } from '@autoforge/core';
import type { AgentRequests, FactRef } from './dialect.js';
import { factSubject, isRequestSentence } from './dialect.js';

/** What an agent's text asks of the user, read loosely, with the offers and refusals in it. */
export interface LooseRequests extends AgentRequests {
  /** Offers of something more ("Would you like me to also …?"). */
  offers: string[];
  /** Sentences that say the agent cannot do something. */
  refusals: string[];
  /** Whether the text closes with a pleasantry ("Anything else I can help with?"). */
  pleasantry: boolean;
}

const LOOSE_REQUEST = /\?\s*["')\]]*\s*$|\b(need|provide|share|send|give me|what's|what is|which|tell me|let me know|confirm|may i have|could i have|can i have|please)\b/i;
const CONFIRMATION =
  /\b(confirm|proceed|go ahead|shall i|should i|do you want me to|would you like me to|want me to|is (that|this) (correct|right|ok|okay)|are you sure|yes or no|yes\/no|okay to|ok to)\b/i;
const OFFER = /\b(would you like|do you want|shall i|should i|can i|may i|want me to|i can|i could)\b.*\b(also|as well|additionally|in addition|instead|another|upgrade|extra)\b/i;
const PLEASANTRY = /\b(anything else|something else|any other|else (can|could|may) i|further (assistance|help|questions?)|how (can|may) i (help|assist))\b/i;
const REFUSAL = /\b(cannot|can't|can not|unable to|not able to|not possible|could not|couldn't|won't be able|am not allowed|i'm afraid)\b/i;

function names(f: FactRef): { words: string; rank: number }[] {
  const subject = factSubject(f).replace(/[_-]+/g, ' ');
  const keyWords = splitWords(f.key).join(' ');
  const head = subject.split(' for ')[0] as string;
  const keyHead = splitWords(f.key).filter((w) => !/^\d+$/.test(w)).join(' ');
  const out = [
    { words: subject, rank: 2 },
    { words: keyWords, rank: 2 },
    { words: head, rank: 1 },
    { words: keyHead, rank: 1 },
  ];
  return out.filter((n, i) => n.words !== '' && out.findIndex((m) => m.words === n.words) === i);
}

/**
 * The facts a sentence names, the longest name winning where names overlap. A name several facts
 * share ("zip" of "your zip" and "the zip for modify user address") goes to the one whose other
 * description words the sentence says, else to the one it is the whole name of, else to those of
 * them not told yet.
 */
export function factsNamed(sentence: string, facts: readonly UserFact[], spoken: (f: UserFact) => FactRef, told: (f: UserFact) => boolean): UserFact[] {
  const lower = ` ${sentence.toLowerCase().replace(/[_-]+/g, ' ').replace(/[^a-z0-9 ]/g, ' ')} `;
  const hits: { start: number; end: number; fact: UserFact; rank: number }[] = [];
  for (const f of facts) {
    for (const n of names(spoken(f))) {
      const needle = ` ${n.words} `;
      for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) hits.push({ start: at, end: at + needle.length - 1, fact: f, rank: n.rank });
      // A plural or singular of the name ("item id" for "item ids").
      const alt = n.words.endsWith('s') ? n.words.slice(0, -1) : `${n.words}s`;
      const altNeedle = ` ${alt} `;
      for (let at = lower.indexOf(altNeedle); at >= 0; at = lower.indexOf(altNeedle, at + 1)) hits.push({ start: at, end: at + altNeedle.length - 1, fact: f, rank: n.rank - 0.5 });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const groups: (typeof hits)[] = [];
  for (const h of hits) {
    const last = groups[groups.length - 1];
    const first = last?.[0];
    if (first && h.start < first.end) {
      if (h.start === first.start && h.end === first.end) last.push(h);
      continue;
    }
    groups.push([h]);
  }
  const out = new Set<UserFact>();
  for (const group of groups) {
    // The words around this name, other names blanked (their words are theirs).
    let around = lower;
    for (const other of groups) {
      if (other === group) continue;
      const first = other[0] as { start: number; end: number };
      around = around.slice(0, first.start) + ' '.repeat(first.end - first.start) + around.slice(first.end);
    }
    const words = new Set(around.split(/\s+/));
    const unique = [...new Map(group.map((h) => [h.fact, h])).values()];
    if (unique.length === 1) {
      out.add((unique[0] as { fact: UserFact }).fact);
      continue;
    }
    const extra = (f: UserFact) => factSubject(spoken(f)).split(/\s+/).filter((w) => w.length > 3 && words.has(w)).length;
    const top = Math.max(...unique.map((h) => extra(h.fact)));
    let best = unique.filter((h) => extra(h.fact) === top);
    if (best.length > 1) {
      const rank = Math.max(...best.map((h) => h.rank));
      best = best.filter((h) => h.rank === rank);
    }
    if (best.length > 1) {
      const fresh = best.filter((h) => !told(h.fact));
      if (fresh.length > 0) best = fresh;
    }
    for (const h of best) out.add(h.fact);
  }
  return facts.filter((f) => out.has(f));
}

/** Reads what `text` asks of a user who knows `facts`, loosely (see {@link LooseRequests}). */
export function readRequestsLoosely(text: string, facts: readonly UserFact[], spoken: (f: UserFact) => FactRef, told: (f: UserFact) => boolean): LooseRequests {
  const asked = new Set<UserFact>();
  const out: LooseRequests = { facts: [], confirmations: [], unknown: [], offers: [], refusals: [], pleasantry: false };
  for (const sentence of splitSentences(text)) {
    if (PLEASANTRY.test(sentence)) {
      out.pleasantry = true;
      continue;
    }
    const request = isRequestSentence(sentence) || LOOSE_REQUEST.test(sentence);
    if (!request) {
      if (REFUSAL.test(sentence)) out.refusals.push(sentence);
      continue;
    }
    const about = factsNamed(sentence, facts, spoken, told);
    for (const f of about) asked.add(f);
    if (about.length > 0) continue;
    if (OFFER.test(sentence)) out.offers.push(sentence);
    else if (CONFIRMATION.test(sentence)) out.confirmations.push(sentence);
    else if (/\?\s*["')\]]*\s*$/.test(sentence) || isRequestSentence(sentence)) out.unknown.push(sentence);
  }
  out.facts = facts.filter((f) => asked.has(f));
  return out;
}
