// The values a free text states for known fields, however it is phrased: `My zip is "10180".`,
// `zip: 10180`, `Sure, it's 10180.`, `You can use 10180 for the zip.`, `the email I use is
// a@b.c, and my zip code is 10180`. A general reader for agents that talk with people (or with
// LLM users): it knows the fields it is after (their names, descriptions and JSON schemas), not
// any speaker's templates. A value is taken only where the text names its field, or where the
// text answers a question about that field and the value fits the field's schema.
import type { JsonValue } from './json.js';
import type { JsonSchema, JsonSchemaObject } from './json-schema.js';
import { isJsonObject } from './json.js';
import { jsonLiteralAt } from './json-literal.js';
import { linearRegExp } from './linear-regexp.js';
import { singularize, splitWords } from './naming.js';

/** A field a text may state a value for. */
export interface StatedField {
  /** Stable key (`zip`, `zip_2`, `item_ids`). */
  key: string;
  /** How a person names it ("your zip", "the zip for modify user address"). Default: the key's words. */
  description?: string;
  /** The JSON schema of the value (type, format, enum, pattern), when known. */
  schema?: JsonSchema;
}

/** A value a text states for a field. */
export interface StatedValue {
  /** The field's key. */
  key: string;
  /** The value, in the field's type where its schema says (`"10180"` for a string zip). */
  value: JsonValue;
  /** Offset of the statement (of the field's name, or of the value when unnamed) in the text. */
  index: number;
  /** Whether the text named the field, or the value was read as an answer to a question about it. */
  named: boolean;
}

/** Options of {@link readStatedValues}. */
export interface ReadStatedValuesOptions {
  /**
   * Keys of the fields the text answers (the question before it asked for them). Their values may
   * come without their names ("Sure, it's 10180."), and a name several fields share goes to the
   * asked one. Default: none.
   */
  asked?: readonly string[];
}

const FILLER = new Set(['your', 'my', 'the', 'a', 'an', 'for', 'of', 'to', 'on', 'in', 'with', 'and', 'or', 'second', 'first', 'third', 'new']);

interface Name {
  words: string[];
  /** 2: the whole description or the key's words; 1: its head ("zip" of "zip for modify user address"). */
  rank: number;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[_-]/g, ' ');
}

function descriptionWords(field: StatedField): string[] {
  const text = field.description ?? splitWords(field.key).join(' ');
  const words = normalize(text)
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  while (words.length > 1 && ['your', 'my', 'the', 'a', 'an'].includes(words[0] as string)) words.shift();
  return words;
}

function namesOf(field: StatedField): Name[] {
  const out: Name[] = [];
  const add = (words: string[], rank: number): void => {
    if (words.length === 0) return;
    const key = words.join(' ');
    const same = out.find((n) => n.words.join(' ') === key);
    if (same) same.rank = Math.max(same.rank, rank);
    else out.push({ words, rank });
  };
  const desc = descriptionWords(field);
  const keyWords = splitWords(field.key).map((w) => w.toLowerCase());
  add(desc, 2);
  // A key's words name a field as fully as its description only when it has none.
  add(keyWords, field.description === undefined ? 2 : 1.5);
  const cut = desc.indexOf('for');
  const head = cut > 0 ? desc.slice(0, cut) : desc;
  const keyHead = keyWords.filter((w) => !/^\d+$/.test(w));
  for (const words of [head, keyHead]) {
    add(words, 1);
    const last = words[words.length - 1];
    if (last !== undefined && words.length > 0) {
      const one = singularize(last);
      if (one !== last) add([...words.slice(0, -1), one], 1);
      // "item id" for "item ids" (naming's singularize keeps short words such as "ids").
      else if (/[^s]s$/.test(last) && last.length > 2) add([...words.slice(0, -1), last.slice(0, -1)], 1);
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Mention {
  start: number;
  end: number;
  candidates: { field: StatedField; rank: number }[];
}

// Every place a field's name occurs, the longest name winning where names overlap.
/**
 * The outermost JSON lists and objects of a text that are values: every list, and every object
 * with a key that does not name a field (`isField`); an object of fields (`{"zip": …}`) is not.
 */
function jsonValueSpans(text: string, isField: (key: string) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const literal = jsonLiteralAt(text.slice(i));
    if (literal === undefined) continue;
    const { value } = literal;
    if (Array.isArray(value) || (isJsonObject(value) && Object.keys(value).some((k) => !isField(k)))) out.push([i, i + literal.length]);
    i += literal.length - 1;
  }
  return out;
}

function findMentions(text: string, fields: readonly StatedField[]): Mention[] {
  const lower = normalize(text);
  const raw: { start: number; end: number; field: StatedField; rank: number }[] = [];
  for (const field of fields) {
    for (const name of namesOf(field)) {
      const re = new RegExp(`(?<![a-z0-9])${name.words.map(escapeRegExp).join('[\\s]+')}(?![a-z0-9])`, 'g');
      for (let m = re.exec(lower); m !== null; m = re.exec(lower)) raw.push({ start: m.index, end: m.index + m[0].length, field, rank: name.rank });
    }
  }
  // A name inside a quoted value ("password for my account") is part of the value, not a mention.
  const quoted: [number, number][] = [];
  for (const m of text.matchAll(/"(?:[^"\\\n]|\\.)*"|\u201c[^\u201d\n]*\u201d/g)) quoted.push([m.index, m.index + m[0].length]);
  for (let i = raw.length - 1; i >= 0; i--) {
    const r = raw[i] as { start: number; end: number };
    // A quoted name alone (a JSON key, `"zip": …`) still names its field.
    if (quoted.some(([a, b]) => r.start > a && r.start < b && !(r.start === a + 1 && r.end === b - 1))) raw.splice(i, 1);
  }
  // A name inside a JSON value (a list, or an object whose keys are not all fields: an entity
  // with its own `observations`) is part of the value, not a mention of another field.
  const names = new Set(fields.flatMap((f) => namesOf(f).map((n) => n.words.join(' '))));
  for (const [a, b] of jsonValueSpans(text, (key) => names.has(splitWords(key).join(' ').toLowerCase()))) {
    for (let i = raw.length - 1; i >= 0; i--) if ((raw[i] as { start: number }).start > a && (raw[i] as { start: number }).start < b) raw.splice(i, 1);
  }
  raw.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const out: Mention[] = [];
  for (const r of raw) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) {
      // Same span: another field with that name; a shorter span inside a longer one is dropped.
      if (r.start === last.start && r.end === last.end && !last.candidates.some((c) => c.field === r.field)) last.candidates.push({ field: r.field, rank: r.rank });
      continue;
    }
    out.push({ start: r.start, end: r.end, candidates: [{ field: r.field, rank: r.rank }] });
  }
  return out;
}

function schemaObject(schema: JsonSchema | undefined): JsonSchemaObject {
  return typeof schema === 'object' && schema !== null ? schema : {};
}

function typesOf(schema: JsonSchemaObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type;
  for (const alts of [schema.anyOf, schema.oneOf]) {
    if (Array.isArray(alts)) return alts.flatMap((a) => typesOf(schemaObject(a)));
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return [...new Set(schema.enum.map((e) => (e === null ? 'null' : typeof e)))];
  return [];
}

const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/;
const NUMBER = /^[-+]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w@])/;

function enumText(value: JsonValue): string {
  return normalize(String(value)).replace(/\s+/g, ' ').trim();
}

function patternOk(schema: JsonSchemaObject, value: string): boolean {
  if (typeof schema.pattern !== 'string') return true;
  try {
    return linearRegExp(schema.pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/** The value in the schema's terms: a scalar checked against type, enum, format and pattern; `undefined` when it does not fit. */
function fit(value: JsonValue, schema: JsonSchemaObject): JsonValue | undefined {
  const types = typesOf(schema);
  if (Array.isArray(schema.enum)) {
    const hit = schema.enum.find((e) => e === value || (typeof value === 'string' && enumText(e as JsonValue) === enumText(value)));
    return hit === undefined ? undefined : (hit as JsonValue);
  }
  if (types.includes('array')) {
    const items = schemaObject(schema.items as JsonSchema | undefined);
    const list = Array.isArray(value) ? value : [value];
    const fitted = list.map((v) => fit(v, items));
    if (fitted.some((v) => v === undefined)) return undefined;
    return Array.isArray(value) ? (fitted as JsonValue[]) : (fitted[0] as JsonValue);
  }
  if (types.includes('object')) return isJsonObject(value) ? value : undefined;
  if (typeof value === 'string') {
    const text = value;
    if (types.includes('integer') || types.includes('number')) {
      const n = Number(text.replace(/[$,]/g, ''));
      if (text.trim() !== '' && Number.isFinite(n) && (types.includes('number') || Number.isInteger(n))) return n;
      if (!types.includes('string')) return undefined;
    }
    if (types.includes('boolean') && !types.includes('string')) {
      if (/^(yes|true|y)$/i.test(text)) return true;
      if (/^(no|false|n)$/i.test(text)) return false;
      return undefined;
    }
    if (types.length > 0 && !types.includes('string')) return undefined;
    if (schema.format === 'email' && !new RegExp(`${EMAIL.source}$`).test(text)) return undefined;
    if ((schema.format === 'date' || schema.format === 'date-time') && !DATE.test(text)) return undefined;
    if (typeof schema.minLength === 'number' && text.length < schema.minLength) return undefined;
    if (typeof schema.maxLength === 'number' && text.length > schema.maxLength) return undefined;
    return patternOk(schema, text) ? text : undefined;
  }
  if (typeof value === 'number') {
    if (types.length === 0 || types.includes('number') || (types.includes('integer') && Number.isInteger(value))) return value;
    return types.includes('string') ? String(value) : undefined;
  }
  if (typeof value === 'boolean') return types.length === 0 || types.includes('boolean') ? value : undefined;
  if (value === null) return types.length === 0 || types.includes('null') ? null : undefined;
  return types.length === 0 ? value : undefined;
}

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '\u201c': '\u201d', '\u2018': '\u2019', '`': '`' };

/** A quoted string or a JSON array/object at the start of `text`. */
function readLiteral(text: string): { value: JsonValue; length: number } | undefined {
  const first = text[0] ?? '';
  const close = QUOTES[first];
  if (close !== undefined) {
    for (let i = 1; i < text.length; i++) {
      if (text[i] === '\\' && first === '"') {
        i++;
        continue;
      }
      if (text[i] === close) {
        // A closing apostrophe inside a word ("it's") is not the end of a quote.
        if (first === "'" && /[a-z]/i.test(text[i + 1] ?? '')) continue;
        const body = text.slice(0, i + 1);
        if (first === '"') {
          try {
            return { value: JSON.parse(body) as JsonValue, length: i + 1 };
          } catch {
            return { value: body.slice(1, -1), length: i + 1 };
          }
        }
        return { value: body.slice(1, -1), length: i + 1 };
      }
    }
    return undefined;
  }
  if (first === '[' || first === '{') return jsonLiteralAt(text);
  return undefined;
}

// Words that open an aside, not a list item.
const LIST_ASIDE = /^(?:if|but|so|please|thanks|thank|which|because|as|i|i'm|my|that|it|it's|this|or so|right|ok|okay)\b/i;

// Where an unquoted value ends: the end of its clause.
const CLAUSE_END = /[.!?](?=\s|$)|[;,)]|\s+(?:and|but|if|so|please|thanks|thank|which|because|as well)\b|\s+-\s|\s+\(|\n/i;

/** The unquoted text of a clause at the start of `text` (up to its end), trimmed. */
function clause(text: string): string {
  const m = CLAUSE_END.exec(text);
  return (m ? text.slice(0, m.index) : text).trim();
}

/** A value at the start of `text` for a field with `schema`, and how many characters it takes. */
function readValueAt(text: string, schema: JsonSchemaObject): { value: JsonValue; length: number } | undefined {
  const lead = /^\s*/.exec(text)?.[0].length ?? 0;
  const rest = text.slice(lead);
  const literal = readLiteral(rest);
  // A quoted item of a list ("i1" and "i2") is read with the list below.
  if (literal && !(typesOf(schema).includes('array') && !Array.isArray(literal.value))) {
    const v = fit(literal.value, schema);
    return v === undefined ? undefined : { value: v, length: lead + literal.length };
  }
  if (Array.isArray(schema.enum)) {
    const lower = normalize(rest);
    let best: { value: JsonValue; length: number } | undefined;
    for (const e of schema.enum) {
      const words = enumText(e as JsonValue);
      if (words === '') continue;
      const re = new RegExp(`^${words.split(' ').map(escapeRegExp).join('\\s+')}(?![a-z0-9])`);
      const m = re.exec(lower);
      if (m && (best === undefined || m[0].length > best.length)) best = { value: e as JsonValue, length: m[0].length };
    }
    return best ? { value: best.value, length: lead + best.length } : undefined;
  }
  const types = typesOf(schema);
  if (types.includes('array')) {
    const items = schemaObject(schema.items as JsonSchema | undefined);
    const parts: JsonValue[] = [];
    let at = 0;
    for (;;) {
      const one = readValueAt(rest.slice(at), { ...items, ...(typesOf(items).length === 0 ? { type: 'string' } : {}) });
      if (!one) break;
      parts.push(one.value);
      at += one.length;
      const sep = /^\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|\/\s*)/i.exec(rest.slice(at));
      if (!sep) break;
      const next = rest.slice(at + sep[0].length);
      if (!/^["'\u201c[\w#]/.test(next)) break;
      // An aside after the list ("…, if that helps") is not one more item; nor are words after
      // items that hold digits ("7160999700, thanks").
      if (LIST_ASIDE.test(next)) break;
      const firstItem = parts[0];
      if (typeof firstItem === 'string' && /\d/.test(firstItem) && !/\s/.test(firstItem) && !/^["'\u201c]/.test(next) && !/\d/.test(next.split(/[\s,;]/)[0] ?? '')) break;
      at += sep[0].length;
    }
    if (parts.length === 0) return undefined;
    // One item of a list-only field is a list of one.
    return { value: parts.length === 1 && types.includes('string') ? (parts[0] as JsonValue) : parts, length: lead + at };
  }
  const email = EMAIL.exec(rest);
  if (email && (schema.format === 'email' || types.length === 0 || types.includes('string'))) {
    const v = fit(email[0], schema);
    if (v !== undefined) return { value: v, length: lead + email[0].length };
  }
  const date = DATE.exec(rest);
  if (date) {
    const v = fit(date[0], schema);
    if (v !== undefined) return { value: v, length: lead + date[0].length };
  }
  if (types.includes('number') || types.includes('integer')) {
    const n = NUMBER.exec(rest);
    if (!n) return undefined;
    const v = fit(n[0], schema);
    return v === undefined ? undefined : { value: v, length: lead + n[0].length };
  }
  if (types.includes('boolean') && !types.includes('string')) {
    const b = /^(yes|no|true|false)\b/i.exec(rest);
    if (!b) return undefined;
    const v = fit(b[1] as string, schema);
    return v === undefined ? undefined : { value: v, length: lead + b[0].length };
  }
  const words = clause(rest).replace(/^(?:just|simply|actually|probably|definitely)\s+/i, '');
  if (words === '' || words.length > 200) return undefined;
  if (schema.format === 'date' || schema.format === 'date-time' || schema.format === 'email') return undefined;
  const v = fit(words, schema);
  return v === undefined ? undefined : { value: v, length: rest.indexOf(words) + lead + words.length };
}

// What may join a field's name to its value: "is", ":", "would be", "'s", "=", "-"…
const CUE = /^["'\u201d]?\s*(?:(?:code|number|no\.?|address|name)\s+)?(?:(?:that\s+)?(?:i\s+(?:use|have|gave|registered|used)\s+)?(?:is|are|was|were|'s|\u2019s|would be|should be|will be|reads|is actually|is just|is probably)\b\s*[:,-]?|[:=]|\s-\s|\u2013|\u2014)\s*/i;
// A value before the name: "use 10180 for the zip", "10180 is my zip" (not "… about is the user").
const BEFORE = /(?:(?:\b(?:use|put|enter|try|take)\s+)(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|\u201c([^\u201d\n]{1,200})\u201d|([^\s"']+))\s+(?:for|as)\s+(?:my|the|your)|(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|\u201c([^\u201d\n]{1,200})\u201d|([^\s"']+))\s+(?:is|=)\s+(?:my|your))\s*$/i;

const DESCRIBES = /\b(?:whose|with|where|having|has|have|without|of|by)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+)?$/i;

function sentenceAround(text: string, start: number, end: number, stops: RegExp): string {
  let a = start;
  while (a > 0 && !stops.test(text[a - 1] as string)) a--;
  let b = end;
  while (b < text.length && !stops.test(text[b] as string)) b++;
  return normalize(text.slice(a, b));
}

function choose(mention: Mention, text: string, asked: ReadonlySet<string>, valueEnd: number, mentions: readonly Mention[]): StatedField | undefined {
  const cs = mention.candidates;
  if (cs.length === 1) return (cs[0] as { field: StatedField }).field;
  const askedOnes = cs.filter((c) => asked.has(c.field.key));
  if (askedOnes.length === 1) return (askedOnes[0] as { field: StatedField }).field;
  const pool = askedOnes.length > 1 ? askedOnes : cs;
  // The words of a description beyond the name ("modify user address" of "zip for modify user
  // address") said around the mention tell the fields apart.
  const said = normalize(text.slice(mention.start, mention.end)).split(/\s+/);
  const pick = (scope: RegExp, from: typeof pool, within = text): typeof pool => {
    const around = new Set(sentenceAround(within, mention.start, valueEnd, scope).split(/[^a-z0-9]+/));
    const score = (f: StatedField): number => descriptionWords(f).filter((w) => !FILLER.has(w) && !said.includes(w) && around.has(w)).length;
    const scored = from.map((c) => ({ ...c, score: score(c.field) }));
    const top = Math.max(...scored.map((c) => c.score));
    return scored.filter((c) => c.score === top);
  };
  // The clause first; where it does not tell them apart, the whole sentence ("I want to modify
  // the address, with …, and the zip 60625" names the address's zip).
  let best = pick(/[.;!?,\n]/, pool);
  if (best.length > 1) {
    // Other fields' names in the sentence are theirs, not this one's context.
    let masked = text;
    for (const m of mentions) if (m !== mention) masked = masked.slice(0, m.start) + ' '.repeat(m.end - m.start) + masked.slice(m.end);
    const wider = pick(/[.!?\n]/, best, masked);
    if (wider.length < best.length && wider.length > 0) best = wider;
  }
  // Still tied: the one field the words name in full ("my zip" for "your zip", not "the zip for
  // modify user address"); else no guess ("giving the state open" of two states stays unread).
  if (best.length > 1) {
    const full = best.filter((c) => c.rank >= 2);
    best = full.length === 1 ? full : [];
  }
  return best.length === 1 ? (best[0] as { field: StatedField }).field : undefined;
}

// Cues of an answer that does not name its field: strong ("it's 10180", "that would be 10180")
// and weak ("sure, 10180", "yes: 10180").
const STRONG_CUE = /(?:^|[\s,.!:;(])(?:it's|it is|its|it\u2019s|that's|that\u2019s|that is|that'd be|that would be|it would be|it should be|should be|would be|try|use|here it is[:,]?|here you go[:,]?)\s+/gi;
const WEAK_CUE = /(?:^|[\s.!;(])(?:sure|yes|yeah|yep|ok|okay|of course|certainly|right)\s*[,:!.-]\s+/gi;
// What a value is not: ignorance, refusal, a sentence about the speaker.
const NOT_A_VALUE = /^(?:all|everything|it|fine|good|great|correct|right|ok|okay|done|enough|perfect|true|false|yes|no|sure|thanks|thank you|hi|hello|hey|bye|goodbye|please)$|\b(?:don't|dont|do not|doesn't|not sure|no idea|can't|cannot|can not|sorry|unfortunately|forgot|forget|remember|unsure|unknown|n\/a|none|nothing|rather not|won't|wouldn't|prefer not)\b|\u2019t\b/i;
const PERSONAL_START = /^(?:i|i'm|i've|i'd|i'll|my|me|we|our|you|your|the|it|this|that|there|let|can|could|would|please)\b/i;

interface Candidate {
  start: number;
  end: number;
  text: string;
  /** Lower reads first: 0 a strong cue's clause, 1 quoted, 2 a weak cue's clause, 3 a value-like token, 4 the whole message. */
  priority: number;
}

// Spans of a text that may answer a question without naming the field.
function answerSpans(text: string): Candidate[] {
  const out: Candidate[] = [];
  const push = (start: number, body: string, priority: number): void => {
    if (body === '' || out.some((c) => c.start === start && c.priority <= priority)) return;
    out.push({ start, end: start + body.length, text: text.slice(start), priority });
  };
  for (const [re, priority] of [[STRONG_CUE, 0], [WEAK_CUE, 2]] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const start = m.index + m[0].length;
      const body = clause(text.slice(start));
      if (body.split(/\s+/).length > 8 || NOT_A_VALUE.test(body) || PERSONAL_START.test(body)) continue;
      push(start, body, priority);
      re.lastIndex = Math.max(re.lastIndex, start);
    }
  }
  const token = /"(?:[^"\\\n]|\\.)*"|\u201c[^\u201d\n]*\u201d|\[[^\]\n]*\]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d{4}-\d{2}-\d{2}|\(?\+?\d[\d ()-]{5,}\d|[#\w][\w#-]*\d[\w-]*|-?\d+(?:\.\d+)?/g;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) push(m.index, m[0], /^["\u201c[]/.test(m[0]) ? 1 : 3);
  // A JSON object or list however long, nested ones included (an entity with its observations).
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    const literal = jsonLiteralAt(text.slice(i));
    if (literal === undefined) continue;
    push(i, text.slice(i, i + literal.length), 1);
    i += literal.length - 1;
  }
  const whole = text.trim().replace(/[.!]+$/, '');
  if (whole !== '' && whole.split(/\s+/).length <= 5 && !NOT_A_VALUE.test(whole) && !PERSONAL_START.test(whole) && !/\?/.test(whole)) {
    push(text.indexOf(whole), whole, 4);
  }
  return out;
}

/**
 * The values `text` states for `fields`, in text order. Read where the text names a field (its
 * description, its head noun, or its key's words, in any case, `_`/`-` as spaces), followed by a
 * cue ("is", ":", "would be", nothing) and a value, or preceded by one ("10180 is my zip", "use
 * 10180 for the zip"); a value is a quoted string (any quotes), a JSON list or object, or the
 * unquoted rest of its clause, read in the terms of the field's schema (a number for an integer,
 * an enum member said in words, a list of items, an email or a date by its form) and dropped when
 * it does not fit. A name several fields share goes to the asked one, else to the one whose
 * description's other words are said around it. Fields in `options.asked` that the text does not
 * name take values it gives without a name ("Sure, it's 10180.", a bare "10180", "a@b.c and
 * 10180"): by their schemas, then in order. Deterministic; never throws.
 */
export function readStatedValues(text: string, fields: readonly StatedField[], options: ReadStatedValuesOptions = {}): StatedValue[] {
  const asked = new Set(options.asked ?? []);
  const out: StatedValue[] = [];
  const taken: [number, number][] = [];
  const mentions = findMentions(text, fields);
  for (const [i, mention] of mentions.entries()) {
    const nextStart = mentions[i + 1]?.start ?? text.length;
    const after = text.slice(mention.end, nextStart);
    const cue = CUE.exec(after);
    const rest = after.slice(cue ? cue[0].length : 0);
    const beforeFrom = Math.max(0, mention.start - 240);
    const before = BEFORE.exec(text.slice(beforeFrom, mention.start));
    let readBefore = false;
    const readFor = (field: StatedField): { value: JsonValue; length: number } | undefined => {
      const schema = schemaObject(field.schema);
      const v = readValueAt(rest, schema);
      // Without a cue only a value that looks like one ("zip 10180"), not any following words.
      if (v && (cue !== null || /^\s*["'\u201c[{\d#]|^\s*[\w.+-]+@/.test(rest) || Array.isArray(schema.enum))) return v;
      if (before) {
        const raw = (before[1] ?? before[2] ?? before[3] ?? before[4] ?? before[5] ?? before[6] ?? before[7] ?? before[8]) as string;
        const fitted = fit(raw.replace(/[.,;:!?]+$/, ''), schema);
        if (fitted !== undefined && !/^(it|that|this|which|what|one|mine|yours)$/i.test(raw)) {
          readBefore = true;
          return { value: fitted, length: 0 };
        }
      }
      return undefined;
    };
    // "the order whose zip is 10180", "an order with zip 10180": a description of a record, not a statement.
    if (DESCRIBES.test(text.slice(Math.max(0, mention.start - 40), mention.start))) continue;
    const first = mention.candidates.map((c) => readFor(c.field)).find((v) => v !== undefined);
    if (!first) continue;
    const field = choose(mention, text, asked, mention.end + (cue ? cue[0].length : 0) + first.length, mentions);
    const read = field ? readFor(field) : undefined;
    if (!read || !field) continue;
    out.push({ key: field.key, value: read.value, index: mention.start, named: true });
    // A value said before its name ("use 10180 for the zip") is taken from there on.
    taken.push([readBefore && before ? beforeFrom + before.index : mention.start, mention.end + (cue ? cue[0].length : 0) + read.length]);
  }

  const unstated = fields.filter((f) => asked.has(f.key) && !out.some((s) => s.key === f.key));
  if (unstated.length > 0) {
    const spans = answerSpans(text).filter((s) => !taken.some(([x, y]) => s.start < y && s.end > x));
    const used: Candidate[] = [];
    const claim = (field: StatedField): void => {
      const schema = schemaObject(field.schema);
      const fitting = spans
        .filter((s) => !used.some((u) => u.start < s.end && s.start < u.end))
        .flatMap((s) => {
          const v = readValueAt(s.text, schema);
          return v && !(typeof v.value === 'string' && NOT_A_VALUE.test(v.value)) ? [{ s, v }] : [];
        })
        .sort((a, b) => a.s.priority - b.s.priority || a.s.start - b.s.start);
      const best = fitting[0];
      if (!best) return;
      used.push({ ...best.s, end: best.s.start + best.v.length });
      out.push({ key: field.key, value: best.v.value, index: best.s.start, named: false });
    };
    // Fields a form tells apart (an enum, an email, a date, a number) first, then the others in order.
    const specific = (f: StatedField) => {
      const s = schemaObject(f.schema);
      return Array.isArray(s.enum) || s.format !== undefined || typeof s.pattern === 'string' || typesOf(s).some((t) => t !== 'string');
    };
    for (const f of unstated.filter(specific)) claim(f);
    for (const f of unstated.filter((x) => !specific(x))) claim(f);
  }
  return out.sort((a, b) => a.index - b.index);
}

/** The latest value `text`s state for each field (a correction overrides), by key. */
export function latestStatedValues(
  texts: readonly { text: string; asked?: readonly string[] }[],
  fields: readonly StatedField[],
): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  for (const { text, asked } of texts) {
    for (const s of readStatedValues(text, fields, asked === undefined ? {} : { asked })) out.set(s.key, s.value);
  }
  return out;
}
