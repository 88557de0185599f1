import type { JsonValue, Message, UserFact } from '@autoforge/core';
import { splitSentences } from '@autoforge/core';
import { distance } from 'fastest-levenshtein';

/**
 * The judge's own reading of a dialogue: which of its facts the agent asks for, and which values
 * the user states for them — in any phrasing ("My zip is "10108".", "Sure, it's 10108.",
 * "zip: 10108", "my user id is mia_li_3668", a value inside a sentence, quoted or not). It reads
 * from the task's facts (their names and the shape of their values), never from the phrasing of
 * any simulated user.
 */

/** A value the user stated for one of its facts. */
export interface StatedValue {
  /** The fact's key. */
  key: string;
  /** The user message that states it. */
  messageIndex: number;
  /** The value as written. */
  value: string;
  /** Whether it is the fact's own value. */
  correct: boolean;
}

/** Lower-case words, letters split from digits (`address1` → address, 1), plurals singular. */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

const LEADING = /^(your|my|the|a|an)\s+/i;

/**
 * The names of a fact: the head of its description ("the zip for modify user address" → zip)
 * and its key's words without a numeric suffix (`zip_2` → zip, `payment_method_id` → payment
 * method id).
 */
export function factNames(fact: UserFact): string[][] {
  const head = fact.description.replace(LEADING, '').split(/\s+(?:for|of|on|in|to|from|with|used|that|which)\s+/i)[0] ?? '';
  const key = fact.key.replace(/_\d+$/, '');
  // The whole key too ("state 2"), so that facts of one name can be told apart by their keys.
  const out = [words(head), words(key), words(fact.key), words(fact.description.replace(LEADING, ''))].filter((w) => w.length > 0);
  return out.filter((w, i) => out.findIndex((o) => o.join(' ') === w.join(' ')) === i);
}

/** The scalar values of a fact (the elements of a list). */
function truths(value: JsonValue): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : []));
  return [];
}

/** True when `text` holds `value` as a whole token, case-insensitive (numbers also as `50.00`, `$50`). */
export function mentionsValue(text: string, value: string): boolean {
  const t = text.toLowerCase();
  const v = value.trim().toLowerCase();
  if (v === '') return false;
  if (/^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    for (const m of t.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/(?<![\w.])\d+(?:\.\d+)?(?![\w])/g)) if (Number(m[0]) === n) return true;
    return false;
  }
  // A short code in capitals ("IN", "TX") only as written: "in" is a word.
  if (/^[A-Z]{1,3}$/.test(value.trim())) return new RegExp(`(?<![A-Za-z0-9_])${value.trim()}(?![A-Za-z0-9_])`).test(text);
  for (let from = 0; ; ) {
    const i = t.indexOf(v, from);
    if (i < 0) return false;
    const before = t[i - 1];
    const after = t[i + v.length];
    if ((before === undefined || !/[a-z0-9_]/.test(before)) && (after === undefined || !/[a-z0-9_]/.test(after))) return true;
    from = i + 1;
  }
}

/** How a value looks: an email, a number, an id with digits, or words. */
type Shape = 'email' | 'number' | 'id' | 'words';

function shapeOf(value: string): Shape {
  if (/^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(value)) return 'email';
  if (/^-?\d+(\.\d+)?$/.test(value)) return 'number';
  if (/\d/.test(value) && !/\s/.test(value)) return 'id';
  return 'words';
}

const TOKEN: Record<Exclude<Shape, 'words'>, RegExp> = {
  email: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  number: /(?<![\w.#])-?\d[\d,]*(?:\.\d+)?(?![\w@])/g,
  id: /#?[A-Za-z0-9][\w-]*\d[\w-]*|#?[A-Za-z][\w-]*\d[\w-]*/g,
};

/** Value-like tokens of a shape in a text (trailing punctuation dropped). */
function tokensOf(text: string, shape: Exclude<Shape, 'words'>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN[shape])) {
    let v = m[0].replace(/[.,;:!?-]+$/, '');
    if (shape === 'number') v = v.replace(/,/g, '');
    if (shape === 'id' && !/\d/.test(v)) continue;
    if (v !== '' && !out.includes(v)) out.push(v);
  }
  return out;
}

// Between a fact's name and its value: "is", "was", "'s", ":", "=", "should be", "would be".
const CONNECTOR = /^\s*(?:["'”’)\]]\s*)?(?:(?:'s|’s)\b|\s*[:=–-]|\s+(?:is|was|are|were|would be|should be|will be|reads|of)\b)\s*(?:(?:actually|still|now|just|definitely|probably)\s+)?/i;
// Words that end the value in free text.
const STOPS = /^(and|but|or|so|because|if|please|thanks|thank|not|i|i'm|we|it|that|this|which|who|for|to|with|from|by|on|in|at|the|a|an|my|your)$/i;
// Fillers of a short answer ("Sure, it's Kim.", "Yes — Kim, thanks.").
const FILLER = /\b(sure|yes|yeah|yep|ok|okay|of course|certainly|absolutely|right|correct|it's|it is|its|that's|that is|that would be|this is|here you go|here it is|here|please|thanks|thank you|no problem|oh|um|uh|well|sorry|actually|i think|i believe|i mean|my bad|let me correct that|correction|wait)\b/gi;

/** Reads up to `n` words of a value at the start of `text` (quoted: the quoted text). */
function readWords(text: string, n: number): string | undefined {
  const t = text.replace(/^\s+/, '');
  const q = /^["“']([^"”']{1,80})["”']/.exec(t);
  if (q) return q[1] as string;
  const out: string[] = [];
  for (const raw of t.split(/\s+/)) {
    const w = raw.replace(/^[("'“]+/, '');
    const clean = w.replace(/[.,;:!?)"”']+$/, '');
    if (clean === '' || (out.length === 0 && STOPS.test(clean))) break;
    if (out.length > 0 && STOPS.test(clean)) break;
    out.push(clean);
    if (out.length >= n || clean !== w) break;
  }
  return out.length > 0 ? out.join(' ') : undefined;
}

/** Where a fact is named in a text: the spans of each occurrence of one of its names. */
function nameSpans(text: string, fact: UserFact): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const lower = text.toLowerCase();
  for (const name of factNames(fact)) {
    // The name's words in order, each allowing a plural and a split digit ("address 1", "ids").
    const pattern = name.map((w) => `${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:e?s)?`).join('[\\s_-]*');
    const re = new RegExp(`(?<![a-z0-9])${pattern}(?:\\s+(?:code|number|address|id))?(?![a-z0-9])`, 'g');
    for (const m of lower.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.end - b.end);
}

/**
 * The offsets just after each place `text` names the fact, leaving out the places where another
 * fact's longer name covers it ("user id" is not the fact named "id").
 */
function namedAt(text: string, fact: UserFact, facts: readonly UserFact[] = []): number[] {
  return namedSpans(text, fact, facts).map((s) => s.end);
}

/** {@link namedAt}'s spans, each with the other facts named there too (`sharedWith`: one name). */
function namedSpans(text: string, fact: UserFact, facts: readonly UserFact[]): { end: number; sharedWith: UserFact[] }[] {
  const others = facts.filter((g) => g !== fact).flatMap((g) => nameSpans(text, g));
  return nameSpans(text, fact)
    .filter((s) => !others.some((o) => o.start <= s.start && o.end >= s.end && o.end - o.start > s.end - s.start))
    .map((s) => ({ end: s.end, sharedWith: facts.filter((g) => g !== fact && nameSpans(text, g).some((o) => o.start === s.start && o.end === s.end)) }));
}

/** The value written right after a name of the fact ("zip: 10180", "my zip code is 10180"), if any. */
function valueAfterName(text: string, at: number, truth: string): string | undefined {
  const rest = text.slice(at);
  const connector = CONNECTOR.exec(rest);
  const shape = shapeOf(truth);
  const after = connector ? rest.slice(connector[0].length) : rest;
  if (shape !== 'words') {
    // A value-like token right there ("zip 10180" needs no connector).
    const lead = /^\s*["“']?([^\s"”']+)/.exec(after);
    const token = lead ? (lead[1] as string).replace(/[.,;:!?)]+$/, '') : '';
    const found = token === '' ? [] : tokensOf(token, shape === 'email' ? 'email' : 'id').concat(tokensOf(token, 'number'));
    return found.length > 0 ? token.replace(/^#?/, truth.startsWith('#') ? '#' : '') : undefined;
  }
  if (!connector) return undefined;
  const value = readWords(after, truth.trim().split(/\s+/).length);
  if (value === undefined) return undefined;
  // A name or a place is capitalized as the fact's own value is; other words must be quoted.
  const quoted = /^\s*["“']/.test(after);
  if (!quoted && /^[A-Z]/.test(truth) && !/^[A-Z0-9]/.test(value)) return undefined;
  if (!quoted && /^[a-z]/.test(truth) && !/^[a-z]/i.test(value)) return undefined;
  return value;
}

/** True when the agent's text asks for the fact (a question or request that names it). */
export function asksForFact(text: string, fact: UserFact, facts: readonly UserFact[] = []): boolean {
  return splitSentences(text).some((s) => isQuestion(s) && namedAt(s, fact, facts).length > 0);
}

const PLEASANTRY = /\b(anything else|something else|any other (questions?|requests?|concerns?)|how (can|may) i (help|assist)|further (assistance|help))\b/i;
const REQUEST =
  /\b(could you|can you|would you|will you|please (provide|tell|give|share|send|confirm|let|specify|enter|state|choose|select)|tell me|let me know|may i (have|get)|i need your|i'll need your|i will need your|what is your|what's your|provide (me )?(with )?your)\b/i;

/** A sentence that asks something of the listener (a question or a request), not a pleasantry. */
export function isQuestion(sentence: string): boolean {
  if (PLEASANTRY.test(sentence)) return false;
  return /\?\s*["')\]]*\s*$/.test(sentence) || REQUEST.test(sentence);
}

/** The facts the agent asked for in `text`; among facts of one name, those it names best. */
export function askedFacts(text: string, facts: readonly UserFact[]): UserFact[] {
  const asked = facts.filter((f) => asksForFact(text, f, facts));
  const lowerWords = new Set(words(text));
  const score = (f: UserFact): number => words(f.description).filter((w) => lowerWords.has(w)).length;
  return asked.filter((f) => !asked.some((g) => g !== f && sameName(f, g) && score(g) > score(f)));
}

function sameName(a: UserFact, b: UserFact): boolean {
  const na = factNames(a).map((w) => w.join(' '));
  return factNames(b).some((w) => na.includes(w.join(' ')));
}

/** A short answer with its fillers removed ("Sure, it's Kim." → "Kim"). */
function bareAnswer(text: string): string {
  // A question back after the answer ("It's gold. Is there a fee?") is not part of it.
  const answer = splitSentences(text.replace(/###STOP###/g, ' ')).filter((sentence) => !/\?\s*["')\]]*\s*$/.test(sentence));
  return answer
    .join(' ')
    .replace(FILLER, ' ')
    .replace(/[.,;:!?"“”]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Every value the user states for one of `facts`, message by message, whatever the phrasing:
 * - the fact's own value anywhere in a user message (`correct`);
 * - a value written right after one of the fact's names ("zip: 10180", "my zip code is 10180",
 *   "the email is …"), of the shape of the fact's value (a number, an id, an email, or as many
 *   words as the value has);
 * - in a reply to an agent that asked for the fact (and the message names no fact): the one
 *   value of the fact's shape the reply holds that is no other asked fact's, or, for a value in
 *   words, the short answer itself ("Sure, it's Kim.").
 * Values the agent or a tool said before, and the instruction's own values (the user restating
 * its instruction), are not read as statements of another fact. Deterministic.
 */
export function statedValues(messages: readonly Message[], facts: readonly UserFact[], instruction = ''): StatedValue[] {
  const out: StatedValue[] = [];
  const factValues = new Set(facts.flatMap((f) => truths(f.value)).map((v) => v.toLowerCase()));
  let agentSince = '';
  let heard = instruction;
  messages.forEach((m, messageIndex) => {
    if (m.role === 'assistant') {
      agentSince += `\n${m.content ?? ''}`;
      heard += `\n${m.content ?? ''}`;
      return;
    }
    if (m.role === 'tool') {
      heard += `\n${m.content}`;
      return;
    }
    if (m.role !== 'user') return;
    const text = m.content.replace(/###STOP###/g, ' ');
    const asked = askedFacts(agentSince, facts);
    agentSince = '';
    for (const fact of facts) {
      const ts = truths(fact.value);
      if (ts.length === 0) continue;
      const found = ts.find((t) => mentionsValue(text, t));
      // Another value named as this fact's, right after one of its names.
      let wrong: string | undefined;
      let named = false;
      for (const { end: at, sharedWith } of namedSpans(text, fact, facts)) {
        // A name several facts share ("zip") names the one the agent asked for.
        if (sharedWith.some((g) => asked.includes(g)) && !asked.includes(fact)) continue;
        for (const t of ts) {
          const v = valueAfterName(text, at, t);
          if (v === undefined || ts.some((x) => x.toLowerCase() === v.toLowerCase())) continue;
          const lv = v.toLowerCase();
          // Under a name several facts share, the value of one of them is that fact's.
          if (sharedWith.some((g) => truths(g.value).some((x) => x.toLowerCase() === v.toLowerCase()))) continue;
          // Asked for none of them: the one whose value it is closest to.
          const gap = (f: UserFact): number => Math.min(...truths(f.value).map((x) => distance(x.toLowerCase(), lv)));
          if (!asked.includes(fact) && sharedWith.some((g) => gap(g) < gap(fact))) continue;
          // The instruction's own value restated ("the order whose zip is 43133"), unless it is
          // another fact's value given where this one was asked.
          if (mentionsValue(instruction, v) && !(factValues.has(lv) && asked.includes(fact))) continue;
          if (!factValues.has(lv) && mentionsValue(heard, v)) {
            // A value the agent or a tool said (an option offered) is read there, not as a bare answer.
            named = true;
            continue;
          }
          wrong ??= v;
        }
      }
      if (wrong === undefined && !named && found === undefined && asked.includes(fact) && !facts.some((g) => g !== fact && !asked.includes(g) && namedAt(text, g, facts).length > 0 && !sameName(g, fact))) {
        const t = ts[0] as string;
        const shape = shapeOf(t);
        const others = new Set(asked.filter((g) => g !== fact).flatMap((g) => truths(g.value)).map((v) => v.toLowerCase()));
        if (shape !== 'words') {
          const cands = [...new Set([...tokensOf(text, shape === 'email' ? 'email' : 'id'), ...(shape === 'email' ? [] : tokensOf(text, 'number'))])].filter(
            (v) => !others.has(v.toLowerCase()) && !(mentionsValue(heard, v) && !factValues.has(v.toLowerCase())),
          );
          if (cands.length === 1) wrong = cands[0];
        } else if (asked.length === 1) {
          const bare = bareAnswer(text);
          const n = t.trim().split(/\s+/).length;
          const answer = bare.split(' ');
          if (bare !== '' && answer.length <= n + 1 && !/\b(know|remember|have|sure|idea)\b/i.test(text)) wrong = bare;
        }
      }
      if (found !== undefined) out.push({ key: fact.key, messageIndex, value: found, correct: true });
      if (wrong !== undefined) out.push({ key: fact.key, messageIndex, value: wrong, correct: false });
    }
  });
  return out;
}
