import type { InjectedUserError, Message, Task, ToolSpec, UserFact, UserReply, UserSimulator } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { askForFacts, factStatement, parseFactStatements, statementsAbout } from './dialect.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserSimError } from './error.js';
import { INVENTED_REQUIREMENTS } from './invented-requirements.js';
import type { UserErrorKind } from '@autoforge/core';
import { createScriptedUser, USER_CALL_REPORT, SCRIPTED_ERROR_KINDS } from './scripted-user.js';
import { SCRIPTED_PHRASES } from './surface.js';

const email: UserFact = { key: 'email', description: 'your email', value: 'ada.lovelace1815@example.com' };
const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };
const zip2: UserFact = { key: 'zip_2', description: 'the zip for modify user address', value: '94102' };
const reason: UserFact = { key: 'reason', description: 'the reason for cancel pending order', value: 'no longer needed' };

const writeTask: Task = {
  id: 'shop/cancel-1',
  envId: 'shop',
  intent:
    'You want to cancel pending order (order id: the order whose status is "pending"; reason: "no longer needed"). You want to modify user address (zip: "94102"). If asked: your email is "ada.lovelace1815@example.com"; your zip is "10108".',
  userFacts: [email, zip, reason, zip2],
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
};
const readTask: Task = {
  ...writeTask,
  id: 'shop/read-1',
  intent: 'You want to find out the total from get order details. If asked: your email is "ada.lovelace1815@example.com".',
  userFacts: [email],
  requiredOutputs: ['1,234.50'],
};

/** Plays a conversation: the agent function sees the messages and answers, until the user stops. */
async function talk(user: UserSimulator, agent: (messages: readonly Message[], turn: number) => string, maxTurns = 12) {
  const messages: Message[] = [];
  const replies: UserReply[] = [];
  const errors: InjectedUserError[] = [];
  const push = (r: UserReply) => {
    replies.push(r);
    messages.push({ role: 'user', content: r.content });
    for (const e of (r.metadata?.injectedUserErrors ?? []) as unknown as InjectedUserError[]) errors.push(e);
  };
  push(await user.start({ messages }));
  for (let turn = 0; turn < maxTurns && !(replies[replies.length - 1] as UserReply).stop; turn++) {
    messages.push({ role: 'assistant', content: agent(messages, turn) });
    push(await user.reply({ messages }));
  }
  return { messages, replies, errors, last: replies[replies.length - 1] as UserReply };
}

/** Asks one fact per turn, then says it is done. */
const oneByOne =
  (task: Task, done = 'All done: your request has been completed.') =>
  (_messages: readonly Message[], turn: number): string => {
    const fact = task.userFacts[turn];
    return fact ? askForFacts([fact]) : done;
  };

describe('createScriptedUser', () => {
  it('opens with the intent in the first person, without the facts it should only give when asked', async () => {
    const user = createScriptedUser(writeTask, { seed: 1 });
    const opening = await user.start({ messages: [] });
    expect(opening).toEqual({
      content:
        'I want to cancel pending order (order id: the order whose status is "pending"; reason: "no longer needed"). I want to modify user address (zip: "94102").',
      stop: false,
    });
    expect(user.name).toBe('scripted');
  });

  it('answers every asked fact with one factStatement each, in the task’s order', async () => {
    const user = createScriptedUser(writeTask, { seed: 1 });
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: askForFacts([zip, email]) },
    ];
    const r = await user.reply({ messages });
    expect(r).toEqual({ content: `${factStatement(email, email.value)} ${factStatement(zip, zip.value)}`, stop: false });
    expect(statementsAbout(r.content, email)[0]?.value).toBe(email.value);
  });

  it('names facts with the same description by their keys, so that the agent can tell them apart', async () => {
    const items: UserFact = { key: 'item_ids', description: 'the item ids for return delivered order items', value: '2658930189' };
    const items2: UserFact = { ...items, key: 'item_ids_2', value: '5570660360' };
    const user = createScriptedUser({ ...writeTask, userFacts: [items, items2] }, { seed: 1 });
    const r = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: askForFacts([items, items2]) }] });
    expect(r.content).toBe('My item ids is "2658930189". My item ids 2 is "5570660360".');
    expect(statementsAbout(r.content, items).map((x) => x.value)).toEqual(['2658930189']);
    expect(statementsAbout(r.content, items2).map((x) => x.value)).toEqual(['5570660360']);
  });

  it('says it does not know what it was not told, and confirms actions', async () => {
    const user = createScriptedUser(writeTask, { seed: 1 });
    const ask = async (content: string) => (await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content }] })).content;
    expect(await ask('What is your date of birth?')).toBe(SCRIPTED_PHRASES.dontKnow);
    expect(await ask(`${askForFacts([email])} And your date of birth?`)).toBe(`${factStatement(email, email.value)} ${SCRIPTED_PHRASES.dontKnowRest}`);
    expect(await ask('I will cancel order #W1. Shall I proceed?')).toBe(SCRIPTED_PHRASES.confirm);
  });

  it('stops with a thank-you and ###STOP### once the agent asks nothing (write task)', async () => {
    const { last, replies, errors } = await talk(createScriptedUser(writeTask, { seed: 1 }), oneByOne(writeTask));
    expect(last).toEqual({ content: `${SCRIPTED_PHRASES.thanks} ${USER_STOP_TOKEN}`, stop: true });
    expect(replies).toHaveLength(writeTask.userFacts.length + 2);
    expect(errors).toEqual([]);
  });

  it('for a read-only task, stops only after the required output appeared (lower-cased, commas removed)', async () => {
    const done = await talk(createScriptedUser(readTask, { seed: 1 }), oneByOne(readTask, 'The total is 1234.50.'));
    expect(done.last.stop).toBe(true);
    expect(done.last.content).toContain(SCRIPTED_PHRASES.thanks);
  });

  it('asks for a missing answer maxPrompts times, then gives up', async () => {
    const { replies, last } = await talk(createScriptedUser(readTask, { seed: 1 }), oneByOne(readTask, 'I looked it up.'));
    expect(replies.map((r) => r.content).filter((c) => c === SCRIPTED_PHRASES.prompt)).toHaveLength(2);
    expect(last).toEqual({ content: `${SCRIPTED_PHRASES.giveUpOutput} ${USER_STOP_TOKEN}`, stop: true });
    const once = await talk(createScriptedUser(readTask, { seed: 1, maxPrompts: 0 }), oneByOne(readTask, 'I looked it up.'));
    expect(once.replies.filter((r) => r.content === SCRIPTED_PHRASES.prompt)).toHaveLength(0);
  });

  it('gives up after maxUnhelpfulTurns questions it cannot answer', async () => {
    const { replies, last } = await talk(createScriptedUser(writeTask, { seed: 1, maxUnhelpfulTurns: 3 }), () => 'What is your date of birth?');
    expect(replies.slice(1, -1).map((r) => r.content)).toEqual([SCRIPTED_PHRASES.dontKnow, SCRIPTED_PHRASES.dontKnow, SCRIPTED_PHRASES.dontKnow]);
    expect(last).toEqual({ content: `${SCRIPTED_PHRASES.giveUpUnhelpful} ${USER_STOP_TOKEN}`, stop: true });
  });

  it('is deterministic: the same task, seed and conversation give the same replies (invariant)', async () => {
    const agentTurn = fc.oneof(
      fc.subarray(writeTask.userFacts, { minLength: 1 }).map((facts) => askForFacts(facts)),
      fc.constantFrom('Shall I proceed?', 'What is your date of birth?', 'All done.', 'Here is the total: 1,234.50.'),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), fc.array(agentTurn, { minLength: 1, maxLength: 8 }), async (seed, errorRate, turns) => {
        const play = () => talk(createScriptedUser(writeTask, { seed, errorRate }), (_m, i) => turns[i % turns.length] as string);
        const a = await play();
        const b = await play();
        expect(b.replies).toEqual(a.replies);
        // Stateless: asking again for any prefix of the conversation gives the same reply.
        const user = createScriptedUser(writeTask, { seed, errorRate });
        const k = a.messages.length - 1;
        expect(await user.reply({ messages: a.messages.slice(0, k) })).toEqual(a.replies[a.replies.length - 1]);
      }),
      { numRuns: 60 },
    );
  });

  it('rejects bad options with E_OPTIONS', () => {
    const bad = (options: object) => () => createScriptedUser(writeTask, options as never);
    expect(bad({})).toThrow(UserSimError);
    expect(bad({ seed: 1, errorRate: 1.5 })).toThrow(/errorRate/);
    expect(bad({ seed: 1, errorKinds: ['typo'] })).toThrow(/unknown error kind "typo"/);
    expect(bad({ seed: 1, maxPrompts: -1 })).toThrow(/maxPrompts/);
  });
});

describe('createScriptedUser error injection', () => {
  const only = (kind: UserErrorKind, seed: number) => createScriptedUser(writeTask, { seed, errorRate: 1, errorKinds: [kind] });
  const statedValues = (messages: readonly Message[], fact: UserFact) =>
    messages.filter((m) => m.role === 'user').flatMap((m) => statementsAbout(m.content as string, fact).map((s) => s.value));

  it('wrong_fact: one fact gets a wrong value, kept when asked again, recorded where first said', async () => {
    for (let seed = 0; seed < 20; seed++) {
      const { messages, errors } = await talk(only('wrong_fact', seed), (_m, turn) => (turn < 2 ? askForFacts(writeTask.userFacts) : 'Done.'));
      expect(errors).toHaveLength(1);
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('wrong_fact');
      const fact = writeTask.userFacts.find((f) => f.key === e.detail.key) as UserFact;
      expect(e.detail.saidValue).not.toEqual(fact.value);
      // The judge could not tell zip from zip_2 by value if the wrong value were the other's own.
      const said = statedValues(messages, fact);
      if (e.detail.turn === 0) {
        // A fact the instruction holds is misstated in the opening, and kept when asked.
        expect(e.messageIndex).toBe(0);
        expect((messages[0] as Message).content).toContain(String(e.detail.saidValue));
        expect((messages[0] as Message).content).not.toContain(`"${String(fact.value)}"`);
      } else expect(e.messageIndex).toBe(2);
      expect(said.slice(-2)).toEqual([e.detail.saidValue, e.detail.saidValue]);
      for (const other of writeTask.userFacts.filter((f) => f !== fact)) expect(statedValues(messages, other).every((v) => v === other.value)).toBe(true);
    }
  });

  it('contradiction: a fact is restated with another value in the next reply, in both orders', async () => {
    const orders = new Set<unknown>();
    for (let seed = 0; seed < 20; seed++) {
      const { messages, errors } = await talk(only('contradiction', seed), oneByOne(writeTask));
      expect(errors).toHaveLength(1);
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('contradiction');
      orders.add(e.detail.order);
      expect(e.detail.firstValue).not.toEqual(e.detail.secondValue);
      expect([e.detail.firstValue, e.detail.secondValue]).toContainEqual(e.detail.trueValue);
      const carrier = messages[e.messageIndex] as Message;
      expect(carrier.content).toContain(SCRIPTED_PHRASES.misspoke);
      const fact = writeTask.userFacts.find((f) => f.key === e.detail.key) as UserFact;
      expect(statedValues(messages, fact)).toEqual([e.detail.firstValue, e.detail.secondValue]);
      expect(statedValues(messages.slice(0, e.messageIndex), fact)).toEqual([e.detail.firstValue]);
    }
    expect(orders).toEqual(new Set(['true_then_wrong', 'wrong_then_true']));
  });

  it('early_stop: stops while the agent is still asking, at varying turns', async () => {
    const turns = new Set<unknown>();
    for (let seed = 0; seed < 20; seed++) {
      const { last, errors, messages } = await talk(only('early_stop', seed), oneByOne(writeTask));
      expect(errors).toHaveLength(1);
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('early_stop');
      expect(last.stop).toBe(true);
      expect(last.content).toContain(USER_STOP_TOKEN);
      expect(e.messageIndex).toBe(messages.length - 1);
      expect(messages[messages.length - 2]?.content).toMatch(/^Could you tell me/);
      turns.add(e.detail.turn);
    }
    expect(turns.size).toBeGreaterThan(1);
  });

  it('invented_requirement: adds a demand absent from the task to the opening or one of the next two replies', async () => {
    const at = new Set<unknown>();
    for (let seed = 0; seed < 20; seed++) {
      const { errors, messages, last } = await talk(only('invented_requirement', seed), oneByOne(writeTask));
      expect(errors).toHaveLength(1);
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('invented_requirement');
      // A template with its invented detail (a date, a code or an email the task does not hold).
      const value = e.detail.value as string;
      expect(INVENTED_REQUIREMENTS.map((t) => t.replace(/\{(date|code|email)\}/, value))).toContain(e.detail.requirement);
      expect(JSON.stringify(writeTask).toLowerCase()).not.toContain(value.toLowerCase());
      expect(messages[e.messageIndex]?.content).toContain(e.detail.requirement);
      expect(parseFactStatements(e.detail.requirement as string)).toEqual([]);
      at.add(e.detail.turn);
      expect(last.stop).toBe(true);
    }
    expect(at).toEqual(new Set([0, 1, 2]));
  });

  it('injects nothing when the chance never comes (no fact is ever asked)', async () => {
    const quiet = { ...writeTask, intent: 'You want to cancel an order and change your address.' };
    const { errors } = await talk(createScriptedUser(quiet, { seed: 3, errorRate: 1, errorKinds: ['wrong_fact'] }), () => 'All done.');
    expect(errors).toEqual([]);
    const noFacts = createScriptedUser({ ...writeTask, userFacts: [] }, { seed: 3, errorRate: 1, errorKinds: ['contradiction'] });
    expect((await talk(noFacts, () => 'All done.')).errors).toEqual([]);
  });

  it('injects one error in about errorRate of the episodes, spread over the kinds', async () => {
    const kinds = new Map<string, number>();
    let episodes = 0;
    for (let seed = 0; seed < 400; seed++) {
      const { errors } = await talk(createScriptedUser(writeTask, { seed, errorRate: 0.3 }), oneByOne(writeTask));
      expect(errors.length).toBeLessThanOrEqual(1);
      if (errors[0]) kinds.set(errors[0].kind, (kinds.get(errors[0].kind) ?? 0) + 1);
      episodes += errors.length;
    }
    expect(episodes / 400).toBeGreaterThan(0.22);
    expect(episodes / 400).toBeLessThan(0.38);
    // forbidden_choice needs an agent that lists options (see below), wrong_acceptance one that
    // offers something and insistence one that refuses, both with the varied surface; this
    // plain user with this agent gets none of them.
    expect([...kinds.keys()].sort()).toEqual(SCRIPTED_ERROR_KINDS.filter((k) => k !== 'forbidden_choice' && k !== 'wrong_acceptance' && k !== 'insistence').sort());
  });

  it('wrong_acceptance: says yes to the first offer of something else, where it declines every offer otherwise', async () => {
    const offering = (_m: readonly Message[], turn: number): string =>
      turn === 0 ? 'Before I do that: would you like me to use 10109 instead?' : 'All done: your request has been completed.';
    let found = 0;
    for (let seed = 0; seed < 30; seed++) {
      const { errors, messages } = await talk(createScriptedUser(writeTask, { seed, errorRate: 1, errorKinds: ['wrong_acceptance'], surface: 'varied' }), offering);
      const e = errors[0] as InjectedUserError;
      expect(errors).toHaveLength(1);
      expect(e).toMatchObject({ kind: 'wrong_acceptance', detail: { offer: 'Before I do that: would you like me to use 10109 instead?', turn: 1 } });
      expect(messages[e.messageIndex]?.content).toMatch(/^(Sure|Yes|Okay)\b/);
      found++;
      const clean = await talk(createScriptedUser(writeTask, { seed, errorRate: 0, surface: 'varied' }), offering);
      expect(clean.errors).toEqual([]);
      expect(clean.messages[2]?.content).toMatch(/^No\b/);
    }
    expect(found).toBe(30);
    // The plain surface reads no offers: the kind never applies there.
    const plain = await talk(createScriptedUser(writeTask, { seed: 1, errorRate: 1, errorKinds: ['wrong_acceptance'] }), offering);
    expect(plain.errors).toEqual([]);
  });

  it('insistence: pushes back on the first two refusals, where it drops what was refused and leaves otherwise', async () => {
    const refusing = (): string => "I'm sorry, but I'm not able to make that change for you.";
    for (let seed = 0; seed < 30; seed++) {
      const { errors, messages } = await talk(createScriptedUser(writeTask, { seed, errorRate: 1, errorKinds: ['insistence'], surface: 'varied' }), refusing);
      expect(errors).toHaveLength(1);
      const e = errors[0] as InjectedUserError;
      expect(e).toMatchObject({ kind: 'insistence', messageIndex: 2, detail: { refusal: "I'm sorry, but I'm not able to make that change for you.", turn: 1 } });
      // Two pushes, then it drops it and leaves.
      const user = messages.filter((m) => m.role === 'user').map((m) => m.content);
      expect(user).toHaveLength(4);
      expect(user[1]).not.toContain('###STOP###');
      expect(user[2]).not.toContain('###STOP###');
      expect(user[1]).not.toBe(user[2]);
      expect(user[3]).toMatch(/###STOP###$/);
      const clean = await talk(createScriptedUser(writeTask, { seed, errorRate: 0, surface: 'varied' }), refusing);
      expect(clean.errors).toEqual([]);
      expect(clean.messages.filter((m) => m.role === 'user')).toHaveLength(2);
      expect(clean.messages[2]?.content).toMatch(/###STOP###$/);
    }
    // A refusal with a question in it is a request, not a refusal to drop.
    const asking = await talk(createScriptedUser(writeTask, { seed: 2, errorRate: 1, errorKinds: ['insistence'], surface: 'varied' }), (_m, turn) =>
      turn === 0 ? "I can't do that without your zip. What is your zip?" : 'All done: your request has been completed.',
    );
    expect(asking.errors).toEqual([]);
    expect(asking.messages[2]?.content).toContain('10108');
    // The plain surface reads no refusals: the kind never applies there.
    const plain = await talk(createScriptedUser(writeTask, { seed: 1, errorRate: 1, errorKinds: ['insistence'] }), refusing);
    expect(plain.errors).toEqual([]);
  });

  it('forbidden_choice: picks a listed option the instruction rules out, and records the options', async () => {
    const listing = (_m: readonly Message[], turn: number): string =>
      turn === 0 ? 'What is the reason for cancel pending order? It can be "no longer needed" or "ordered by mistake".' : 'All done: your request has been completed.';
    let found = 0;
    for (let seed = 0; seed < 60; seed++) {
      const { errors, messages } = await talk(createScriptedUser(writeTask, { seed, errorRate: 1, errorKinds: ['forbidden_choice'] }), listing);
      if (errors.length === 0) continue;
      found++;
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('forbidden_choice');
      expect(e.detail).toMatchObject({ key: 'reason', trueValue: 'no longer needed', saidValue: 'ordered by mistake', options: ['no longer needed', 'ordered by mistake'] });
      expect((messages[e.messageIndex] as Message).content).toContain('ordered by mistake');
    }
    expect(found).toBe(60);
  });

  it('withheld_fact: denies a fact it has whenever asked, and records it once', async () => {
    const { errors, messages } = await talk(createScriptedUser(writeTask, { seed: 3, errorRate: 1, errorKinds: ['withheld_fact'] }), (_m, turn) => askForFacts([writeTask.userFacts[Math.min(turn, 1)] as UserFact]));
    expect(errors).toHaveLength(1);
    const e = errors[0] as InjectedUserError;
    expect(e.kind).toBe('withheld_fact');
    const fact = writeTask.userFacts.find((f) => f.key === e.detail.key) as UserFact;
    expect(messages.filter((m) => m.role === 'user').some((m) => m.content.includes(String(fact.value)))).toBe(false);
  });
});

describe('createScriptedUser: the varied surface', () => {
  const values = (messages: readonly Message[]) => messages.filter((m) => m.role === 'user').map((m) => m.content);

  it('states each asked value (quoted or not, named or not) and never in one fixed form', async () => {
    const forms = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const user = createScriptedUser(writeTask, { seed, surface: 'varied', volunteer: 0 });
      const r = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Could you tell me your zip?' }] });
      expect(r.content).toContain('10108');
      expect(r.stop).toBe(false);
      forms.add(r.content.replace('10108', 'V'));
    }
    expect(forms.size).toBeGreaterThanOrEqual(8);
    expect([...forms].some((f) => !f.includes('"V"'))).toBe(true);
    expect([...forms].some((f) => !/zip/i.test(f))).toBe(true);
  });

  it('reads loosely phrased questions ("ZIP code?", "and the email you use?")', async () => {
    const user = createScriptedUser(writeTask, { seed: 2, surface: 'varied', volunteer: 0 });
    const r1 = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Thanks. ZIP code?' }] });
    expect(r1.content).toContain('10108');
    const r2 = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'And the email you use?' }] });
    expect(r2.content).toContain('ada.lovelace1815@example.com');
  });

  it('answers both of two facts asked for in one question when one name is the head of the other (regression)', async () => {
    const petId: UserFact = { key: 'petId', description: 'your petid', value: 827 };
    const petId2: UserFact = { key: 'petId_2', description: 'the petid for uploadfile', value: 828 };
    const pets: Task = { ...writeTask, intent: 'You want to upload a file.', userFacts: [petId, petId2] };
    const r = await createScriptedUser(pets, { seed: 1, surface: 'varied', volunteer: 0 }).reply({
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Could you tell me your petid and your petid for uploadfile?' }],
    });
    expect(r.content).toContain('827');
    expect(r.content).toContain('828');
  });

  it('declines offers of more than it asked for, confirms actions, and stops with a thank-you', async () => {
    const user = createScriptedUser(writeTask, { seed: 5, surface: 'varied', volunteer: 0 });
    const offer = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Would you like me to also upgrade your shipping?' }] });
    expect(offer.stop).toBe(false);
    expect(offer.content).toMatch(/\bno\b/i);
    const confirm = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Shall I go ahead with the cancellation?' }] });
    expect(confirm.content).toMatch(/yes|sure|go ahead|proceed|correct|okay/i);
    const done = await user.reply({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'All done: your request has been completed.' }] });
    expect(done.stop).toBe(true);
    expect(done.content.endsWith(USER_STOP_TOKEN)).toBe(true);
  });

  it('volunteers a fact in the opening at the rate asked, and every fact with disclosure "opening"', async () => {
    let volunteered = 0;
    for (let seed = 0; seed < 100; seed++) {
      const opening = (await createScriptedUser(writeTask, { seed, surface: 'varied', volunteer: 0.5 }).start({ messages: [] })).content;
      const plain = (await createScriptedUser(writeTask, { seed, surface: 'varied', volunteer: 0 }).start({ messages: [] })).content;
      if (opening !== plain) {
        volunteered++;
        expect(opening.startsWith(plain)).toBe(true);
      }
    }
    expect(volunteered).toBeGreaterThan(30);
    expect(volunteered).toBeLessThan(70);
    const all = (await createScriptedUser(writeTask, { seed: 1, surface: 'varied', disclosure: 'opening' }).start({ messages: [] })).content;
    for (const f of writeTask.userFacts) expect(all).toContain(String(f.value));
  });

  it('is deterministic: the same seed and conversation give the same replies', async () => {
    const a = await talk(createScriptedUser(writeTask, { seed: 9, surface: 'varied', errorRate: 0.5 }), oneByOne(writeTask));
    const b = await talk(createScriptedUser(writeTask, { seed: 9, surface: 'varied', errorRate: 0.5 }), oneByOne(writeTask));
    expect(values(a.messages)).toEqual(values(b.messages));
  });

  it('early_stop may confirm and stop in one turn (detail.form "confirm_and_stop")', async () => {
    const forms = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const { errors, last } = await talk(createScriptedUser(writeTask, { seed, surface: 'varied', errorRate: 1, errorKinds: ['early_stop'] }), () => 'Shall I go ahead and cancel the order?');
      const e = errors[0] as InjectedUserError;
      expect(e.kind).toBe('early_stop');
      expect(last.stop).toBe(true);
      forms.add(String(e.detail.form));
    }
    expect([...forms].sort()).toEqual(['confirm_and_stop', 'walk_away']);
  });

  it('rejects an unknown surface or disclosure', () => {
    expect(() => createScriptedUser(writeTask, { seed: 1, surface: 'fancy' as never })).toThrow(UserSimError);
    expect(() => createScriptedUser(writeTask, { seed: 1, disclosure: 'never' as never })).toThrow(UserSimError);
    expect(() => createScriptedUser(writeTask, { seed: 1, volunteer: 2 })).toThrow(UserSimError);
  });
});

describe('createScriptedUser: dual control (the task\'s userTools)', () => {
  const phone: Task = {
    id: 'phone/1',
    envId: 'phone',
    intent: 'You want mobile data back on your phone.',
    userFacts: [],
    goldCalls: [
      { name: 'get_line', arguments: { line_id: 'L1' } },
      { name: 'toggle_data', arguments: {} },
      { name: 'set_apn', arguments: { apn: 'internet' } },
    ],
    expectedFinalDigest: '0'.repeat(64),
    requiredOutputs: [],
    userTools: ['toggle_data', 'set_apn'],
  };
  const tools = [
    { name: 'toggle_data', description: 'Toggle mobile data.', parameters: { type: 'object' as const, properties: {} } },
    { name: 'set_apn', description: 'Set the APN.', parameters: { type: 'object' as const, properties: {} } },
  ] as ToolSpec[];

  it('makes the next of its own gold calls when the agent asks for it (by name or by its words), then reports what it showed', async () => {
    const user = createScriptedUser(phone, { seed: 0 });
    const messages: Message[] = [
      { role: 'user', content: 'My data is off.' },
      { role: 'assistant', content: 'Please toggle your data on your phone.' },
    ];
    const acted = await user.reply({ messages, tools, steps: [] });
    expect(acted).toEqual({ content: '', stop: false, toolCalls: [{ id: 'user-call-1', name: 'toggle_data', arguments: '{}' }] });
    const steps = [{ messageIndex: 2, call: (acted.toolCalls ?? [])[0] as { id: string; name: string; arguments: string }, result: { ok: true as const, output: { data: 'on' } }, durationMs: 0 }];
    const report = await user.reply({ messages, tools, steps });
    expect(report).toEqual({ content: `${USER_CALL_REPORT} {"data":"on"}`, stop: false });
    messages.push({ role: 'user', content: report.content }, { role: 'assistant', content: 'Now run set_apn with {"apn":"internet"}.' });
    const second = await user.reply({ messages, tools, steps });
    expect(second.toolCalls?.[0]).toMatchObject({ name: 'set_apn', arguments: '{"apn":"internet"}' });
  });

  it('acts only where the episode gives it its tools, and not on a request for another call', async () => {
    const user = createScriptedUser(phone, { seed: 0 });
    const messages: Message[] = [
      { role: 'user', content: 'My data is off.' },
      { role: 'assistant', content: 'Please set the apn now.' },
    ];
    expect((await user.reply({ messages, tools, steps: [] })).toolCalls).toBeUndefined();
    messages[1] = { role: 'assistant', content: 'Please toggle your data.' };
    expect((await user.reply({ messages })).toolCalls).toBeUndefined();
  });
});
