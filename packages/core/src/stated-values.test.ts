import { describe, expect, it } from 'vitest';
import type { StatedField } from './stated-values.js';
import { latestStatedValues, readStatedValues } from './stated-values.js';

const zip: StatedField = { key: 'zip', description: 'your zip', schema: { type: 'string' } };
const zip2: StatedField = { key: 'zip_2', description: 'the zip for modify user address', schema: { type: 'string' } };
const email: StatedField = { key: 'email', description: 'your email', schema: { type: 'string', format: 'email' } };
const reason: StatedField = { key: 'reason', description: 'the reason for cancel pending order', schema: { type: 'string', enum: ['no longer needed', 'ordered by mistake'] } };
const items: StatedField = { key: 'item_ids', description: 'the item ids for return delivered order items', schema: { type: 'array', items: { type: 'string' } } };
const count: StatedField = { key: 'quantity', description: 'the quantity', schema: { type: 'integer' } };
const address: StatedField = { key: 'address1', description: 'the address1 for modify user address', schema: { type: 'string' } };
const fields = [zip, zip2, email, reason, items, count, address];

const read = (text: string, asked: StatedField[] = []) =>
  Object.fromEntries(readStatedValues(text, fields, { asked: asked.map((f) => f.key) }).map((s) => [s.key, s.value]));

describe('readStatedValues', () => {
  it('reads named values in many phrasings, quoted or not, in the field’s type', () => {
    expect(read('My zip is "10180".')).toEqual({ zip: '10180' });
    expect(read('zip: 10180')).toEqual({ zip: '10180' });
    expect(read('My zip code is 10180, and my email is ada@example.com.')).toEqual({ zip: '10180', email: 'ada@example.com' });
    expect(read('The email I use is ada@example.com.')).toEqual({ email: 'ada@example.com' });
    expect(read('You can use 10180 for the zip.')).toEqual({ zip: '10180' });
    expect(read('Quantity: 3')).toEqual({ quantity: 3 });
    // Regression: a JSON key is a name, its colon the cue (not `":"` read as a quoted value).
    expect(read('It shows: {"zip":"10180","quantity":2}')).toEqual({ zip: '10180', quantity: 2 });
    expect(read('The reason is that it was ordered by mistake.')).toEqual({});
    expect(read('The reason is ordered by mistake.')).toEqual({ reason: 'ordered by mistake' });
    expect(read('The item ids are 2658930189 and 5570660360.')).toEqual({ item_ids: ['2658930189', '5570660360'] });
    expect(read('The address1 for modify user address is 210 Willow Lane.')).toEqual({ address1: '210 Willow Lane' });
  });

  it('tells apart fields that share a name: by the question, then by the words around the name', () => {
    expect(read('My zip is 10108, and the zip for modify user address is 94102.')).toEqual({ zip: '10108', zip_2: '94102' });
    expect(read('I want to modify user address (zip: "94102").')).toEqual({ zip_2: '94102' });
    expect(read('The zip is 80216.', [zip2])).toEqual({ zip_2: '80216' });
    // Regression: the clause ("and the zip 60625") does not tell them apart; its sentence does.
    expect(read('My zip is "85050". I want to modify the address, to 289 Willow Lane and the zip 60625.')).toEqual({ zip: '85050', zip_2: '60625' });
  });

  it('a field name inside a quoted value is part of the value (regression)', () => {
    const login: StatedField[] = [
      { key: 'username', description: 'the username for trading login', schema: { type: 'string' } },
      { key: 'password', description: 'the password for trading login', schema: { type: 'string' } },
    ];
    const said = readStatedValues('I need to log in, using the password "password for my account" and the username "username as requested".', login);
    expect(Object.fromEntries(said.map((v) => [v.key, v.value]))).toEqual({ password: 'password for my account', username: 'username as requested' });
  });

  it('a field name inside a JSON value is part of the value, and a long JSON answer is read whole (regression)', () => {
    // An invented knowledge base: a new card holds its own `notes`, another field is named `notes`.
    const cards: StatedField = { key: 'cards', description: 'the cards for create cards', schema: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' }, notes: { type: 'array', items: { type: 'string' } } } } } };
    const notes: StatedField = { key: 'notes', description: 'the notes for add notes', schema: { type: 'array', items: { type: 'object', properties: { contents: { type: 'array', items: { type: 'string' } } } } } };
    const card = '{"title":"Tidy Disk","notes":["If we index the alarm, we can reach the CSS circuit through the neural port!","Another long note that makes this answer far longer than a few words."]}';
    const value = [JSON.parse(card)];
    const named = readStatedValues(`I think my cards is ${card}, if that helps.`, [notes, cards], { asked: ['cards'] });
    expect(named.map((v) => [v.key, v.value])).toEqual([['cards', value]]);
    const bare = readStatedValues(`${card}.`, [notes, cards], { asked: ['cards'] });
    expect(bare.map((v) => [v.key, v.value])).toEqual([['cards', value]]);
    // An object whose keys are the fields still names them.
    expect(read('{"zip": "10108", "email": "ada@example.com"}')).toEqual({ zip: '10108', email: 'ada@example.com' });
  });

  it('reads a value before a name only after a verb of using, or as "… is my …" (regression)', () => {
    const user: StatedField = { key: 'user', description: 'your user', schema: { type: 'string' } };
    expect(readStatedValues('What I care about is the user Raul Labadie.', [user])).toEqual([]);
    expect(readStatedValues('I want to log in to the message system for the user USR001.', [user]).map((v) => v.value)).not.toContain('system');
    expect(readStatedValues('You can use "Raul" for the user.', [user]).map((v) => v.value)).toEqual(['Raul']);
  });

  it('does not guess between fields that the words do not tell apart (regression)', () => {
    const e: StatedField['schema'] = { type: 'string', enum: ['open', 'closed'] };
    const states: StatedField[] = [
      { key: 'state', description: 'the state for update issue state', schema: e },
      { key: 'state_2', description: 'the state for the second update issue state', schema: e },
    ];
    expect(readStatedValues('Then I want to update whichever issue has the highest number, giving the state open.', states)).toEqual([]);
    expect(readStatedValues('My state for the second update issue state is open.', states).map((v) => v.key)).toEqual(['state_2']);
    expect(readStatedValues('The state is open.', states, { asked: ['state_2'] }).map((v) => v.key)).toEqual(['state_2']);
  });

  it('reads a list field as a list, and stops a bare list at an aside', () => {
    expect(read('My item ids for return delivered order items is 7160999700, if that helps.')).toEqual({ item_ids: ['7160999700'] });
    expect(read('The item ids are "1", "2" and "3".')).toEqual({ item_ids: ['1', '2', '3'] });
    expect(read('The item ids are 7160999700, thanks.')).toEqual({ item_ids: ['7160999700'] });
    // Regression: single-digit numbers start an unnamed list too.
    const numbers: StatedField = { key: 'numbers', description: 'your numbers', schema: { type: 'array', items: { type: 'number' } } };
    expect(readStatedValues('9, 3, 10, 39 and 36.', [numbers], { asked: ['numbers'] }).map((v) => v.value)).toEqual([[9, 3, 10, 39, 36]]);
  });

  it('reads an unnamed answer to a question by the asked fields’ schemas', () => {
    expect(read("Sure, it's 10180.", [zip])).toEqual({ zip: '10180' });
    expect(read('10180', [zip])).toEqual({ zip: '10180' });
    expect(read('Yes: 210 Willow Lane.', [address])).toEqual({ address1: '210 Willow Lane' });
    expect(read('ada@example.com and 10180', [zip, email])).toEqual({ zip: '10180', email: 'ada@example.com' });
    expect(read('Oh, that would be ordered by mistake.', [reason])).toEqual({ reason: 'ordered by mistake' });
    // Regression: a value said before its name is that field's, not also the unnamed answer's.
    expect(read('You can use "10108" for the zip. Sorry, I don\'t remember my email.', [zip, email])).toEqual({ zip: '10108' });
  });

  it('reads no value from a refusal, a question or small talk', () => {
    expect(read("I'm sorry, I don't know that.", [zip])).toEqual({});
    expect(read("I don't have my zip on hand right now.", [zip])).toEqual({});
    expect(read('Why do you need it?', [zip])).toEqual({});
    expect(read('Thanks, that is all.', [zip, email])).toEqual({});
  });

  it('drops a value that does not fit the schema (enum, format, type)', () => {
    expect(read('My email is ada at example dot com.')).toEqual({});
    expect(read('The quantity is a few.')).toEqual({});
    expect(read('The reason is boredom.')).toEqual({});
  });
});

describe('latestStatedValues', () => {
  it('keeps the latest value of each field (a correction overrides)', () => {
    const got = latestStatedValues([{ text: 'My zip is 10180.' }, { text: 'Sorry, I misspoke: the zip is 10181.' }, { text: 'ada@example.com', asked: ['email'] }], fields);
    expect(Object.fromEntries(got)).toEqual({ zip: '10181', email: 'ada@example.com' });
  });
});
