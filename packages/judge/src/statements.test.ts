// The judge's own reading of user statements, on hand-written dialogues in many phrasings (none
// of them a simulator's template).
import type { Message, Task, Trajectory, UserFact } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { createRuleJudge } from './rule-judge.js';
import { normalizeValue } from '@autoforge/core';
import { askedFacts, statedValues } from './statements.js';

const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };
const zip2: UserFact = { key: 'zip_2', description: 'the zip for modify user address', value: '94102' };
const email: UserFact = { key: 'email', description: 'your email', value: 'ada@example.com' };
const first: UserFact = { key: 'first_name', description: 'your first name', value: 'Ethan' };
const last: UserFact = { key: 'last_name', description: 'your last name', value: 'Kim' };
const userId: UserFact = { key: 'user_id', description: 'your user id', value: 'mia_li_3668' };
const reservation: UserFact = { key: 'id', description: 'your id', value: 'ABC123' };
const facts = [zip, zip2, email, first, last];

const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
const read = (messages: Message[], fs = facts, intent = '') => statedValues(messages, fs, intent).map((s) => `${s.key}=${s.value}${s.correct ? '' : '!'}@${s.messageIndex}`);

describe('askedFacts', () => {
  it('reads which facts a question names, the best-named one among facts of one name', () => {
    expect(askedFacts('Could you tell me your zip?', facts)).toEqual([zip]);
    expect(askedFacts('What zip code should the new address have, the zip for the modified user address?', facts)).toEqual([zip2]);
    expect(askedFacts("What's your email address and first name?", facts)).toEqual([email, first]);
    expect(askedFacts('Please provide your user ID and the reservation ID.', [userId, reservation])).toEqual([userId, reservation]);
    expect(askedFacts('Your zip is on file. Anything else I can help with?', facts)).toEqual([]);
  });
});

describe('statedValues', () => {
  it('reads the true value in any phrasing', () => {
    for (const said of ['My zip is "10108".', 'Sure, it is 10108.', 'zip: 10108', 'It should be 10108, thanks', '10108']) {
      expect(read([a('Could you tell me your zip?'), u(said)])).toEqual(['zip=10108@1']);
    }
    expect(read([a('What is your user id?'), u('my user id is mia_li_3668')], [userId])).toEqual(['user_id=mia_li_3668@1']);
  });

  it('reads a wrong value after the fact’s name, or as the answer to a question for it, quoted or not', () => {
    for (const said of ['zip: 10180.', "Sure, it's 10180.", 'My zip code is 10180, I think.', 'The zip would be "10180".', 'ok 10180']) {
      expect(read([a('Could you tell me your zip?'), u(said)]), said).toEqual(['zip=10180!@1']);
    }
    // Unasked, in the middle of a sentence.
    expect(read([a('How can I help?'), u('I moved, so my zip code is 10180 now and I need the order updated.')])).toEqual(['zip=10180!@1']);
    // Another fact's value where this one was asked.
    expect(read([a("What's your zip?"), u('Sure — 94102.')])).toEqual(['zip=94102!@1', 'zip_2=94102@1']);
    // Names in words.
    expect(read([a('May I have your first name?'), u("It's Kim.")])).toEqual(['first_name=Kim!@1', 'last_name=Kim@1']);
    expect(read([a('And your last name?'), u('Kimball, thanks.')])).toEqual(['last_name=Kimball!@1']);
  });

  it('does not read the instruction’s other values, values the agent said, or an inability as statements', () => {
    const intent = 'You want to know the city of the order whose zip is 43133. Your zip is 10108.';
    expect(read([u('I want the city of the order whose zip is 43133.')], [zip], intent)).toEqual([]);
    expect(read([a('Is your zip 10180?'), u('No, it is 10108.')], [zip])).toEqual(['zip=10108@1']);
    expect(read([a('Could you tell me your first name?'), u("Sorry, I don't remember that.")], [first])).toEqual([]);
    expect(read([a('Could you tell me your zip?'), u('Let me check.')], [zip])).toEqual([]);
  });

  it('normalizes values for comparison', () => {
    expect(normalizeValue(' ADA@example.com')).toBe('ada@example.com');
    expect(normalizeValue(10108)).toBe(normalizeValue('10108'));
  });
});

const task: Task = {
  id: 'shop/t1',
  envId: 'shop',
  intent: 'You want to cancel reservation ABC123. Your user id is mia_li_3668 and your zip is 10108.',
  userFacts: [userId, reservation, zip],
  goldCalls: [],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
};

function episode(messages: Message[], reward = 0): Trajectory {
  return {
    id: 'shop/t1#0', envId: 'shop', taskId: 'shop/t1', rollout: 0, seed: 0, messages, steps: [], termination: 'user_stop',
    finalDigest: '0'.repeat(64), reward, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, durationMs: 0, injectedUserErrors: [], metadata: {},
  };
}

describe('createRuleJudge on reworded dialogues', () => {
  const judge = createRuleJudge();
  const opening = u("Hi, I'd like to cancel reservation ABC123 please.");
  it('finds no error when the user rewords its true facts', async () => {
    const v = await judge.judge(episode([opening, a('Sure. Your user ID and zip, please?'), u('User id: mia_li_3668. Zip 10108.'), a('Done, it is cancelled.'), u('Great, thanks! ###STOP###')], 1), task);
    expect(v.kinds).toEqual([]);
  });

  it('wrong_fact, worded freely', async () => {
    for (const said of ["Sure, it's 10180.", 'zip: 10180', 'my zip code is 10180']) {
      const v = await judge.judge(episode([opening, a('Could you tell me your zip code?'), u(said), a('I could not find you.'), u('Oh well. ###STOP###')]), task);
      expect({ said, kinds: v.kinds, userError: v.userError, at: v.evidence[0]?.messageIndex }).toEqual({ said, kinds: ['wrong_fact'], userError: true, at: 2 });
    }
  });

  it('contradiction: the user changes its answer, in its own words', async () => {
    const v = await judge.judge(
      episode([opening, a("What's your zip?"), u('It is 10180.'), a('Thanks, checking.'), u('Wait, sorry, it is actually 10108.'), a('Found you; cancelled.'), u('Thanks ###STOP###')], 1),
      task,
    );
    expect(v.kinds).toEqual(['contradiction']);
    expect(v.userError).toBe(false); // it succeeded: the deviation did not change the outcome
  });

  it('early_stop: the user leaves while the agent asks for one of its facts, however asked', async () => {
    const v = await judge.judge(episode([opening, a('Before I cancel, what is the user ID on the account?'), u('Never mind, bye. ###STOP###')]), task);
    expect(v.kinds).toEqual(['early_stop']);
  });
});
