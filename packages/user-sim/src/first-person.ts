import { splitSentences } from '@autoforge/core';

const VERBS =
  'want|wanted|wants|have|had|need|needed|would|will|can|could|should|must|may|might|do|did|know|like|prefer|remember|expect|wish|hope|think|ordered|bought|received|live|plan|recall|only|care';

// Second person → first person, longest phrases first. Applied outside quoted values only.
const REWRITES: [RegExp, string][] = [
  [/\bYou are asking\b/g, "I'm asking"],
  [/\byou are asking\b/g, "I'm asking"],
  [/\bYou're\b/g, "I'm"],
  [/\byou're\b/g, "I'm"],
  [/\bYou are\b/g, 'I am'],
  [/\byou are\b/g, 'I am'],
  [/\bYou were\b/g, 'I was'],
  [/\byou were\b/g, 'I was'],
  [/\bYou've\b/g, "I've"],
  [/\byou've\b/g, "I've"],
  [/\bYou'll\b/g, "I'll"],
  [/\byou'll\b/g, "I'll"],
  [/\bYou'd\b/g, "I'd"],
  [/\byou'd\b/g, "I'd"],
  [/\bYourself\b/g, 'Myself'],
  [/\byourself\b/g, 'myself'],
  [/\bYours\b/g, 'Mine'],
  [/\byours\b/g, 'mine'],
  [/\bYour\b/g, 'My'],
  [/\byour\b/g, 'my'],
  // "you" before a verb is the subject ("you want", "Either way, you want to be told").
  [new RegExp(`\\bYou (?=(${VERBS})\\b)`, 'g'), 'I '],
  [new RegExp(`\\byou (?=(${VERBS})\\b)`, 'g'), 'I '],
  // A sentence-initial "You" is the subject; elsewhere "you" is mostly an object ("asks you").
  [/(^|[.!?;:]\s+|\(\s*)You\b/g, '$1I'],
  [/\b(if|when|unless|because|and|but|so|that|then) you\b/gi, '$1 I'],
  [/\b[Yy]ou\b/g, 'me'],
];

function rewriteOutsideQuotes(text: string): string {
  // Even-indexed parts are outside double quotes.
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : REWRITES.reduce((s, [re, to]) => s.replace(re, to), part)))
    .join('');
}

/**
 * The opening a scripted user says: the task's intent in the first person ("You want to" →
 * "I want to", "You are asking about" → "I'm asking about", "your" → "my"), without the
 * sentences that start with "If asked" (facts are given only when the agent asks for them).
 * Quoted values are kept verbatim.
 */
export function firstPersonIntent(intent: string): string {
  const kept = splitSentences(intent).filter((s) => !/^if (asked|the agent asks)\b/i.test(s));
  return rewriteOutsideQuotes(kept.join(' ')).trim();
}
