import type { Rng, Task } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { contentWords, taskVocabulary } from './vocabulary.js';

/**
 * Demands a customer might add that no generated task contains, each carrying an invented detail
 * — a date (`{date}`), a reference code (`{code}`) or an email address (`{email}`) — as real
 * simulated users invent passengers, dates and codes. Each template has at least two content
 * words that are rare in tool-use tasks; it is used only when none of them occurs in the task
 * (see {@link applicableRequirements}), and its detail is drawn so that the task holds no such
 * value ({@link inventRequirement}).
 */
export const INVENTED_REQUIREMENTS: readonly string[] = [
  'Also, I need it all done by {date}.',
  'Please also refund the shipping fee; my voucher code is {code}.',
  'I also want a written apology from your manager, sent to {email}.',
  'And please add gift wrapping with a handwritten note; the gift card is {code}.',
  'Please also upgrade me to express overnight delivery, arriving on {date}, at no extra cost.',
  'I also need my loyalty discount {code} applied to my account.',
  'Please also extend my warranty until {date}.',
  'Also, please waive any restocking fees, as your colleague promised in case {code}.',
  'I also want you to sign me up for the premium membership for free; the offer went to {email}.',
  'Please also send me a printed receipt by postal mail; my member number is {code}.',
  'Also, I need a callback from a supervisor on the evening of {date}.',
  'And please make sure the courier emails {email} before ringing the doorbell.',
];

const SLOT = /\{(date|code|email)\}/;

/** The templates whose content words (the detail left out) are all absent from the task. */
export function applicableRequirements(task: Task): string[] {
  const vocabulary = taskVocabulary(task);
  return INVENTED_REQUIREMENTS.filter((t) => {
    const words = contentWords(t.replace(SLOT, ' '));
    return words.length >= 2 && words.every((w) => !vocabulary.has(w));
  });
}

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const NAMES = ['dana', 'remy', 'ines', 'tomas', 'yara', 'kofi', 'lena', 'arjun'];
const pad = (n: number): string => String(n).padStart(2, '0');

function detail(slot: string, rng: Rng): string {
  if (slot === 'date') return `20${rng.int(27, 29)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  if (slot === 'code') {
    const letters = Array.from({ length: 3 }, () => LETTERS[rng.int(0, LETTERS.length - 1)] as string).join('');
    return `${letters}${rng.int(1000, 9999)}`;
  }
  return `${rng.pick(NAMES)}.${rng.pick(NAMES)}${rng.int(10, 99)}@example.org`;
}

/**
 * A template with its detail filled in, and the detail: seeded, and never a value the task
 * holds anywhere (its instruction, facts, gold calls or state), so the demand is the user's own
 * invention. A template without a slot is returned as it is.
 */
export function inventRequirement(template: string, task: Task, rng: Rng): { text: string; value: string | undefined } {
  const slot = SLOT.exec(template)?.[1];
  if (slot === undefined) return { text: template, value: undefined };
  const held = canonicalJson(task).toLowerCase();
  let value = detail(slot, rng);
  for (let i = 0; i < 20 && held.includes(value.toLowerCase()); i++) value = detail(slot, rng);
  return { text: template.replace(SLOT, value), value };
}
