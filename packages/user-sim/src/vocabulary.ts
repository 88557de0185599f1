// Content words and a task's vocabulary: what the scripted user checks an invented demand against,
// so that a demand it invents holds no word of the task.
import type { JsonValue, Task } from '@autoforge/core';
import { isJsonObject, splitWords } from '@autoforge/core';

// Words that carry no requirement of their own: function words and the small talk of a support
// conversation.
const GENERIC = new Set(
  (
    'the and for with from about into onto you your yours my mine me i im its it that this these those what which who whom how when where why ' +
    'there here all any some also just really actually sorry okay ok sure yes yeah not know tell told found find check help let get got make ' +
    'done go ahead proceed right correct was were are is be been being have has had do does did will would could can should may might must ' +
    'please need needed want wanted like thanks thank hi hello hey bye goodbye anything else something thing things information info detail ' +
    'details result results answer question mind never misspoke now then still again way one time much more less very well fine great good ' +
    'stop give further able look looking see mean meant said say asking ask asked them they their our we us he she his her him am an a to of ' +
    'on in at as by or so if but because without than too only own same other such no nor each few most both out up down off over under ' +
    'why while until also sure come came going gone went leave left later today day'
  ).split(/\s+/),
);

function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('es')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w;
}

/** The content words of a text, stemmed: lower-case, 3+ characters, no function or small-talk words. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9']+/)) {
    const word = raw.replace(/^'+|'+$/g, '').replace(/'/g, '');
    if (word.length < 3 || GENERIC.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

function valueText(value: JsonValue): string {
  if (value === null) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(valueText).join(' ');
  return Object.entries(value)
    .map(([k, v]) => `${k} ${valueText(v)}`)
    .join(' ');
}

/** Every content word of a task's intent, facts (keys, descriptions, values) and metadata criteria. */
export function taskVocabulary(task: Task): Set<string> {
  const parts = [task.intent];
  for (const f of task.userFacts) parts.push(splitWords(f.key).join(' '), f.description, valueText(f.value));
  if (isJsonObject(task.metadata?.reasoning)) parts.push(valueText(task.metadata.reasoning));
  return new Set(contentWords(parts.join(' ')));
}
