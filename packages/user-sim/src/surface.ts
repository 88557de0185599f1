// How the scripted user says things: the `plain` surface (one form per act, the exact wording the
// scripted user has always used) and the `varied` surface (several forms per act, chosen by the
// turn's seeded stream: values quoted or not, named or answered with a pronoun, inside a sentence).
import type { JsonValue, Rng } from '@autoforge/core';
import type { FactRef } from './dialect.js';
import { factStatement, factSubject } from './dialect.js';

/** A fact as it is about to be said: how it is named, and the value said for it. */
export interface Spoken {
  ref: FactRef;
  value: JsonValue;
  /** Another name that picks out the same fact among the task's ("zip" for "zip for modify user address"). */
  shortName?: string;
}

/** What the scripted user says, besides fact statements (the `plain` surface's phrases). */
export const SCRIPTED_PHRASES = {
  dontKnow: "I'm sorry, I don't know that.",
  dontKnowRest: "I'm sorry, I don't know the rest.",
  confirm: 'Yes, please go ahead.',
  prompt: 'Could you tell me what you found?',
  thanks: "Thank you, that's all I needed.",
  giveUpOutput: "I still don't have what I asked for, so I'll end the conversation here.",
  giveUpUnhelpful: "I'm sorry, I don't know that, and I can't help any further.",
  misspoke: 'Sorry, I misspoke:',
  earlyStops: ['Actually, never mind. I have to go now.', "Let's leave it for now, goodbye.", "I'll come back to this later. Bye."],
  opening: 'Hi, I need some help.',
} as const;

/** The varied surface's forms of each act. */
export const VARIED_PHRASES = {
  greetings: ['', 'Hi! ', 'Hello. ', 'Hi there, ', 'Hey, I need some help. ', 'Good morning. '],
  opening: ['Hi, I need some help.', 'Hello, I have a question about my account.', 'Hi, can you help me with something?'],
  dontKnow: ["I'm sorry, I don't know that.", "I'm not sure about that, sorry.", "I don't have that information.", 'No idea, sorry.', "Hmm, I can't say."],
  dontKnowRest: ["I don't know the rest, sorry.", "That's all I know.", "I'm not sure about the other thing."],
  confirm: ['Yes, please go ahead.', 'Yes, go ahead.', 'Sure, please do it.', "That's right, please proceed.", 'Yes please.', 'Correct, go ahead.', 'Okay, do it.'],
  decline: ['No, thank you.', "No thanks, that won't be necessary.", "No, I'd rather not.", 'No, just what I asked for, please.'],
  accept: ['Sure, why not, go ahead with that too.', 'Yes, please do that as well.', 'Okay, sounds good, do that too.'],
  prompt: ['Could you tell me what you found?', 'So what did you find?', 'What was the result?', 'And what does it say?', 'Did you find the answer?'],
  thanks: ["Thank you, that's all I needed.", 'Great, thanks for your help!', 'Perfect, thank you so much.', "Thanks, that's everything.", "No, that's all. Thanks!"],
  giveUpOutput: ["I still don't have what I asked for, so I'll end the conversation here.", "This isn't getting anywhere. I'll try again another time.", "Never mind, I'll look it up myself. Bye."],
  giveUpUnhelpful: ["I'm sorry, I don't know that, and I can't help any further.", "I really don't know. I'll stop here, thanks.", "I can't help with that, sorry. Goodbye."],
  questionsBack: ['How long will this take?', 'Is there a fee for this?', 'Will I get a confirmation afterwards?', 'Can this be done today?'],
  misspoke: ['Sorry, I misspoke:', 'Wait, correction:', 'Oh, actually,', 'Sorry, I mixed that up:'],
  earlyStops: ['Actually, never mind. I have to go now.', "Let's leave it for now, goodbye.", "I'll come back to this later. Bye.", "Forget it, I don't have time for this now."],
  // Confirming (or answering) and stopping in one turn.
  confirmAndStop: ["Great, thanks, that's all then. Bye!", "Perfect, I'll leave it with you. Thanks, goodbye!", "Thanks, that's everything. Bye!"],
  // Denying or withholding a fact the user has: {} is where the fact's name goes.
  withhold: ["I don't have my {} on hand right now.", "Sorry, I don't remember my {}.", "I'd rather not share my {}.", "I don't have the {} with me at the moment."],
  stillWithhold: ["I really don't have it, sorry.", "Sorry, I still don't have that.", "As I said, I can't give you that."],
  // Pushing back on a refusal (insistence), then again; dropping what was refused.
  insist: ["Please, I really need this done. Can't you make an exception?", 'Could you try again? I really need this.', "That's not acceptable, please just do it."],
  stillInsist: ["I'm asking you again: please do it anyway.", "I really can't accept that. Please find a way.", 'Please, just this once.'],
  drop: ["Okay, I understand. Thanks anyway.", "Alright, never mind then. Thank you.", "I see. Fine, let's leave it there. Thanks."],
} as const;

/** Every unhelpful reply of either surface (a "don't know" or a prompt), to count them back. */
export const UNHELPFUL: ReadonlySet<string> = new Set<string>([SCRIPTED_PHRASES.dontKnow, SCRIPTED_PHRASES.prompt, ...VARIED_PHRASES.dontKnow, ...VARIED_PHRASES.prompt]);
/** Every prompt for a result of either surface. */
export const PROMPTS: ReadonlySet<string> = new Set<string>([SCRIPTED_PHRASES.prompt, ...VARIED_PHRASES.prompt]);

// Words that end a clause: an unquoted value holding one would be cut there by a listener.
const RISKY = /[,;()!?"'\u201c\u201d[\]{}:]|\.(\s|$)|\s(and|but|if|so|please|thanks|thank|which|because|for|is|as)\s|^\s|\s$|^$|^(yes|no|all|it|that|sure|none|ok|okay|fine)$/i;

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value as the varied user says it: strings quoted or bare (bare only where nothing could cut them), lists as "a, b and c". */
export function speakValue(value: JsonValue, quoted: boolean): string {
  if (typeof value === 'string') return quoted || RISKY.test(value) ? JSON.stringify(value) : value;
  if (Array.isArray(value)) {
    const items = value.map((v) => speakValue(v, quoted));
    return items.length <= 1 ? (items[0] ?? '[]') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  }
  if (value === null || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isToken(said: string): boolean {
  return !/\s/.test(said);
}

/** The name said for a fact: its subject, or (sometimes) a shorter name that still picks it out. */
function nameOf(s: Spoken, rng: Rng): string {
  const full = factSubject(s.ref).replace(/[_-]+/g, ' ');
  return s.shortName !== undefined && rng.bool(0.5) ? s.shortName : full;
}

/** One fact, named ("My zip is 10180.", "zip: 10180", "You can use 10180 for the zip."). */
function named(s: Spoken, rng: Rng, repeated: boolean): string {
  const name = nameOf(s, rng);
  const v = speakValue(s.value, rng.bool(0.3));
  const forms: string[] = [`My ${name} is ${v}.`, `${capitalize(name)}: ${v}.`, `The ${name} is ${v}.`, `Sure, my ${name} is ${v}.`, `I think my ${name} is ${v}, if that helps.`, `My ${name} would be ${v}.`];
  if (isToken(v)) forms.push(`${v} is my ${name}.`, `You can use ${v} for the ${name}.`);
  const said = rng.pick(forms);
  if (!(repeated && rng.bool(0.5))) return said;
  // A form that opens with the value keeps it as it is ("Indianapolis is my city").
  return `As I said, ${said.startsWith(v) ? said : `${said.charAt(0).toLowerCase()}${said.slice(1)}`}`;
}

/** One fact answered without its name ("Sure, it's 10180.", "10180."). */
function unnamed(s: Spoken, rng: Rng): string {
  const v = speakValue(s.value, rng.bool(0.3));
  return rng.pick([`It's ${v}.`, `Sure, it's ${v}.`, `That would be ${v}.`, `${v}.`, `Yes: ${v}.`, `Of course, it's ${v}.`]);
}

/** How a surface says the user's acts. */
export interface Surface {
  /** The statements of the facts asked (in order); `single` when the agent asked for just these. */
  facts(list: readonly Spoken[], rng: Rng, options: { single: boolean; repeated: ReadonlySet<FactRef> }): string;
  /** A correction of an earlier value (contradiction). */
  correction(s: Spoken, rng: Rng): string;
  pick<K extends keyof typeof VARIED_PHRASES & keyof typeof SCRIPTED_PHRASES>(act: K, rng: Rng): string;
}

/** Today's wording: one `factStatement` per fact, one phrase per act. */
export const PLAIN_SURFACE: Surface = {
  facts: (list) => list.map((s) => factStatement(s.ref, s.value)).join(' '),
  correction: (s) => {
    const restated = factStatement(s.ref, s.value);
    return `${SCRIPTED_PHRASES.misspoke} ${restated.charAt(0).toLowerCase()}${restated.slice(1)}`;
  },
  pick: (act, rng) => {
    const p = SCRIPTED_PHRASES[act];
    return typeof p === 'string' ? p : rng.pick(p);
  },
};

/** Several forms per act, picked with the turn's stream. */
export const VARIED_SURFACE: Surface = {
  facts: (list, rng, { single, repeated }) => {
    if (list.length === 1 && single && rng.bool(0.5)) return unnamed(list[0] as Spoken, rng);
    if (list.length > 1 && rng.bool(0.3)) {
      const parts = list.map((s) => `${nameOf(s, rng)}: ${speakValue(s.value, true)}`);
      return `${rng.pick(['Sure. ', 'Okay, ', 'Here you go: ', ''])}${parts.join('; ')}.`;
    }
    return list.map((s) => named(s, rng, repeated.has(s.ref))).join(' ');
  },
  correction: (s, rng) => {
    const name = nameOf(s, rng);
    const v = speakValue(s.value, rng.bool(0.5));
    return `${rng.pick(VARIED_PHRASES.misspoke)} my ${name} is ${v}.`;
  },
  pick: (act, rng) => rng.pick(VARIED_PHRASES[act] as readonly string[]),
};
