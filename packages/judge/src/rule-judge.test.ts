import type { Message, Task, ToolStep, Trajectory, UserFact } from '@autoforge/core';
import { USER_STOP_TOKEN } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { JudgeError } from './error.js';
import { createRuleJudge } from './rule-judge.js';

/** How these tests' agent asks and their user states a fact (plain text; no simulator's dialect). */
function subjectOf(fact: { key: string; description?: string }): string {
  return (fact.description ?? fact.key.replace(/_/g, ' ')).replace(/^(your|my|the)\s+/i, '').toLowerCase();
}
function askForFacts(facts: readonly { key: string; description?: string }[]): string {
  const parts = facts.map((f) => `your ${subjectOf(f)}`);
  return `Could you tell me ${parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}?`;
}
function factStatement(fact: { key: string; description?: string }, value: unknown): string {
  return `My ${subjectOf(fact)} is ${JSON.stringify(value)}.`;
}


const email: UserFact = { key: 'email', description: 'your email', value: 'ada.lovelace1815@example.com' };
const zip: UserFact = { key: 'zip', description: 'your zip', value: '10108' };
const reason: UserFact = { key: 'reason', description: 'the reason for cancel pending order', value: 'no longer needed' };

const task: Task = {
  id: 'shop/t1',
  envId: 'shop',
  intent: 'You want to cancel pending order (reason: "no longer needed"). You have in mind the order whose status is "pending". If asked, your email is "ada.lovelace1815@example.com" and your zip is "10108".',
  userFacts: [email, zip, reason],
  goldCalls: [{ name: 'cancel_pending_order', arguments: { order_id: '#W1', reason: 'no longer needed' } }],
  expectedFinalDigest: '0'.repeat(64),
  requiredOutputs: [],
};
const readTask: Task = { ...task, id: 'shop/t2', intent: 'You want to know the total of the order. If asked, your email is "ada.lovelace1815@example.com".', userFacts: [email], requiredOutputs: ['1,234.50'] };

const opening = 'I want to cancel pending order (reason: "no longer needed"). I have in mind the order whose status is "pending".';
const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
const stop = (text: string) => u(`${text} ${USER_STOP_TOKEN}`);
const said = (fact: UserFact, value = fact.value) => factStatement(fact, value);

function trajectory(messages: Message[], over: Partial<Trajectory> = {}, t: Task = task): Trajectory {
  return {
    id: `${t.id}#0`,
    envId: t.envId,
    taskId: t.id,
    rollout: 0,
    seed: 0,
    messages,
    steps: [],
    termination: 'user_stop',
    finalDigest: '0'.repeat(64),
    reward: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
    ...over,
  };
}

const clean = (): Message[] => [
  u(opening),
  a(askForFacts([email, zip])),
  u(`${said(email)} ${said(zip)}`),
  a(askForFacts([reason])),
  u(said(reason)),
  a('All done: your order is cancelled. Is there anything else I can help you with?'),
  stop("Thank you, that's all I needed."),
];

const judge = createRuleJudge();
const verdictOf = (messages: Message[], over: Partial<Trajectory> = {}, t: Task = task) => judge.judge(trajectory(messages, over, t), t);

describe('createRuleJudge', () => {
  it('finds nothing in a clean episode and blames no one', async () => {
    expect(await verdictOf(clean())).toEqual({
      trajectoryId: 'shop/t1#0',
      taskId: 'shop/t1',
      envId: 'shop',
      rollout: 0,
      userError: false,
      kinds: [],
      blame: 'none',
      evidence: [],
      judge: 'rule',
    });
  });

  it('wrong_fact: a value that differs from the task’s, quoted or not, whatever the subject’s wording', async () => {
    const m = clean();
    m[2] = u(`${said(email)} ${said(zip, '10180')}`);
    const v = await verdictOf(m, { reward: 0 });
    expect(v).toMatchObject({ userError: true, kinds: ['wrong_fact'], blame: 'user' });
    // The same deviation in a successful episode changed nothing: found, not masked.
    expect(await verdictOf(m)).toMatchObject({ userError: false, kinds: ['wrong_fact'], blame: 'none' });
    expect(v.evidence).toEqual([{ messageIndex: 2, note: 'wrong_fact: the user said "zip" is "10180"; the task says "10108"' }]);
    m[2] = u('Sure, my email address is "ada.lovelace1851@example.com" and my zip is 10108.');
    expect((await verdictOf(m)).kinds).toEqual(['wrong_fact']);
    m[2] = u('Sure, my email is ada.lovelace1815@example.com and my zip is 10180.');
    expect((await verdictOf(m)).kinds).toEqual(['wrong_fact']);
    m[2] = u('Sure, my email is ada.lovelace1815@example.com and my zip is 10108 I think.');
    expect((await verdictOf(m)).kinds).toEqual([]);
    // Unquoted words about something that is only like a fact are not read as that fact.
    m[2] = u(`${said(email)} ${said(zip)} My email address is not working lately.`);
    expect((await verdictOf(m)).kinds).toEqual([]);
  });

  it('wrong_fact and contradiction however the user words them (near misses of the task’s values)', async () => {
    for (const said of ['zip: 10180.', "Sure, it's 10180.", 'It is 10180 I think', 'my code is 10180', 'ok 10180']) {
      const m = clean();
      m[2] = u(`${said} And ada.lovelace1815@example.com.`);
      const v = await verdictOf(m, { reward: 0 });
      expect(v.kinds, said).toEqual(['wrong_fact']);
      expect(v.userError, said).toBe(true);
      expect(v.evidence[0]?.messageIndex, said).toBe(2);
    }
    const m = clean();
    m[2] = u('zip 10108, email ada.lovelace1815@example.com');
    m[4] = u('no longer needed. Oh wait, it is 10180.');
    expect((await verdictOf(m, { reward: 0 })).kinds).toEqual(['contradiction']);
    // A value the agent or a tool said first is not the user's mistake.
    const heard = clean();
    heard[1] = a('Is your zip 10180?');
    heard[2] = u('Yes, 10180, and ada.lovelace1815@example.com.');
    expect((await verdictOf(heard, { reward: 0 })).kinds).not.toContain('wrong_fact');
  });

  it('contradiction: two values for one fact, whichever came first, and no wrong_fact besides', async () => {
    for (const [first, second] of [
      ['10108', '10180'],
      ['10180', '10108'],
    ]) {
      const m = clean();
      m[2] = u(`${said(email)} ${said(zip, first)}`);
      m[4] = u(`${said(reason)} Sorry, I misspoke: my zip is "${second}".`);
      const v = await verdictOf(m);
      expect(v.kinds).toEqual(['contradiction']);
      expect(v.evidence.filter((e) => e.note.startsWith('contradiction')).map((e) => e.messageIndex)).toEqual([4]);
    }
    // Saying the same value twice is no contradiction.
    const m = clean();
    m[4] = u(`${said(reason)} ${said(zip)}`);
    expect((await verdictOf(m)).kinds).toEqual([]);
  });

  it('tells facts that share a subject apart by their set of values', async () => {
    const s1: UserFact = { key: 'state', description: 'the state for modify user address', value: 'TX' };
    const s2: UserFact = { key: 'state_2', description: 'the state for modify user address', value: 'OH' };
    const t: Task = { ...task, userFacts: [s1, s2] };
    const both = (x: string, y: string) => [u('hi'), a(askForFacts([s1])), u(`${said(s1, x)} ${said(s2, y)}`), a('Done.'), stop('Thanks.')];
    expect((await verdictOf(both('TX', 'OH'), {}, t)).kinds).toEqual([]);
    expect((await verdictOf(both('CA', 'OH'), {}, t)).kinds).toEqual(['wrong_fact']);
    const m = both('TX', 'OH');
    m[4] = u(`Sorry, I misspoke: ${said(s1, 'CA')}`);
    m.push(a('Noted.'), stop('Thanks.'));
    expect((await verdictOf(m, {}, t)).kinds).toEqual(['contradiction']);
    // Facts named by their keys' words (as the scripted user does for shared descriptions) are told apart.
    const byKey = [u('hi'), a(askForFacts([s1])), u('My state is "TX". My state 2 is "TX".'), a('Done.'), stop('Thanks.')];
    expect((await verdictOf(byKey, {}, t)).kinds).toEqual(['wrong_fact']);
    byKey[2] = u('My state is "TX". My state 2 is "OH".');
    expect((await verdictOf(byKey, {}, t)).kinds).toEqual([]);
    // Regression: two facts with one subject and the same value, one of them misstated, is a wrong fact.
    const same: Task = { ...task, userFacts: [s1, { ...s2, value: 'TX' }] };
    expect((await verdictOf(both('TX', 'TZ'), {}, same)).kinds).toEqual(['wrong_fact']);
    const restated = both('TX', 'TX');
    restated[4] = u(`Sorry, I misspoke: ${said(s1, 'TZ')}`);
    restated.push(a('Noted.'), stop('Thanks.'));
    expect((await verdictOf(restated, {}, same)).kinds).toEqual(['contradiction']);
  });

  it('early_stop: the user stops while the agent asks for a fact, a confirmation or anything else', async () => {
    const m = clean().slice(0, 2);
    m.push(stop('Actually, never mind. I have to go now.'));
    const v = await verdictOf(m, { reward: 0 });
    expect(v).toMatchObject({ kinds: ['early_stop'], blame: 'user' });
    expect(v.evidence).toEqual([{ messageIndex: 2, note: 'early_stop: the user stopped although the agent asked for email, zip' }]);
    const confirm = [...clean().slice(0, 5), a('I will cancel order #W1. Shall I proceed?'), stop('Bye.')];
    expect((await verdictOf(confirm, { reward: 0 })).kinds).toEqual(['early_stop']);
    const other = [...clean().slice(0, 5), a('What is your date of birth?'), stop('Bye.')];
    expect((await verdictOf(other, { reward: 0 })).kinds).toEqual(['early_stop']);
  });

  it('is no early stop when the user cannot answer, or when the agent gave up', async () => {
    const unable = [...clean().slice(0, 5), a('What is your date of birth?'), u("I'm sorry, I don't know that."), a('What is your date of birth?'), stop("I'm sorry, I don't know that, and I can't help any further.")];
    expect(await verdictOf(unable, { reward: 0 })).toMatchObject({ kinds: [], blame: 'agent' });
    const failed = [...clean().slice(0, 5), a('I am sorry, I could not complete your request.'), stop('Thank you.')];
    expect(await verdictOf(failed, { reward: 0 })).toMatchObject({ kinds: [], blame: 'agent' });
  });

  it('read-only tasks: stopping before the answer is early only if the user never asked for it', async () => {
    const base = [u('I want to know the total of the order.'), a(askForFacts([email])), u(said(email)), a('I looked it up.')];
    expect((await verdictOf([...base, stop('Bye.')], { reward: 0 }, readTask)).kinds).toEqual(['early_stop']);
    const prompted = [...base, u('Could you tell me what you found?'), a('I looked it up.'), stop('I still do not have it, bye.')];
    expect((await verdictOf(prompted, { reward: 0 }, readTask)).kinds).toEqual([]);
    const answered = [...base.slice(0, 3), a('The total is 1234.50.'), stop('Thanks.')];
    expect((await verdictOf(answered, {}, readTask)).kinds).toEqual([]);
  });

  it('no word-novelty rule: a demand with new words is not an error by itself', async () => {
    const m = clean();
    m[4] = u(`${said(reason)} Please also refund the shipping fee to my card.`);
    expect((await verdictOf(m)).kinds).toEqual([]);
    expect((await verdictOf(m, { reward: 0 })).userError).toBe(false);
  });

  const step = (messageIndex: number, name: string, args: object, ok = true): ToolStep => ({
    messageIndex,
    call: { id: `c${messageIndex}`, name, arguments: JSON.stringify(args) },
    result: ok ? { ok: true, output: {} } : { ok: false, error: { code: 'tool_error', message: 'no such record' } },
    durationMs: 0,
  });
  const idTask: Task = {
    ...task,
    id: 'shop/t3',
    intent: 'Your user id is ada_lovelace_1815. You want to cancel order #W2378156 because it is no longer needed.',
    userFacts: [],
    goldCalls: [
      { name: 'get_user_details', arguments: { user_id: 'ada_lovelace_1815' } },
      { name: 'cancel_pending_order', arguments: { order_id: '#W2378156', amount: 120 } },
    ],
  };

  it('withheld_fact: asked for a value its instruction gives, the user never gives it; masked only on failure', async () => {
    const m = [u('I want to cancel an order.'), a('Sure. What is your user ID?'), u("I don't have it with me right now."), a('I need your user ID to continue.'), stop('I will come back later.')];
    const failed = await verdictOf(m, { reward: 0 }, idTask);
    expect(failed).toMatchObject({ userError: true, blame: 'user' });
    expect(failed.kinds).toContain('withheld_fact');
    expect(failed.evidence[0]?.messageIndex).toBe(2);
    const succeeded = await verdictOf(m, { reward: 1 }, idTask);
    expect(succeeded).toMatchObject({ userError: false, blame: 'none' });
    expect(succeeded.kinds).toContain('withheld_fact');
    // Given, or obtained by the agent some other way: no finding.
    const given = [u('I want to cancel an order.'), a('What is your user ID?'), u('It is ada_lovelace_1815.'), a('Thanks.'), stop('Bye.')];
    expect((await verdictOf(given, { reward: 0 }, idTask)).kinds).toEqual([]);
    const found = [...m.slice(0, 3), { role: 'assistant', content: null, toolCalls: [{ id: 'c3', name: 'find_user_id_by_name', arguments: '{}' }] } as Message, stop('Bye.')];
    expect((await verdictOf(found, { reward: 0, steps: [step(3, 'get_user_details', { user_id: 'ada_lovelace_1815' })] }, idTask)).kinds).toEqual([]);
  });

  it('forbidden_choice: a wrong value that the agent had offered as an option; a wrong value never offered stays wrong_fact', async () => {
    const options = 'Could you tell me your reason for cancel pending order (one of "no longer needed" or "ordered by mistake")?';
    const chose = [u(opening.replace(' (reason: "no longer needed")', '')), a(options), u('Ordered by mistake, I think.'), a('All done: your order is cancelled.'), stop('Thanks!')];
    const v = await verdictOf(chose, { reward: 0 });
    expect(v.kinds).toEqual(['forbidden_choice']);
    expect(v).toMatchObject({ userError: true, blame: 'user' });
    expect(v.evidence[0]).toMatchObject({ messageIndex: 2 });
    const misremembered = [chose[0] as Message, a(askForFacts([reason])), u('The reason is ordered by mistake.'), a('All done: your order is cancelled.'), stop('Thanks!')];
    expect((await verdictOf(misremembered, { reward: 0 })).kinds).toEqual(['wrong_fact']);
  });

  it('a fact the user gave a wrong value for is a wrong_fact, not also withheld (regression)', async () => {
    const m = [u('I want to cancel an order.'), a('Sure. What is your user ID?'), u('It is ada_lovelace_1851.'), a('I need your correct user ID to continue.'), stop('I will come back later.')];
    const v = await verdictOf(m, { reward: 0 }, idTask);
    expect(v.kinds).toContain('wrong_fact');
    expect(v.kinds).not.toContain('withheld_fact');
  });

  it('invented_requirement: a value the task does not hold, which the agent then used', async () => {
    const m = [u('Cancel my order please, user ada_lovelace_1815.'), a('Which order?'), u('Order #W9999999, and add passenger born 1988-04-10.'), a('Done.'), stop('Thanks.')];
    const v = await verdictOf(m, { reward: 0, steps: [step(3, 'add_passenger', { dob: '1988-04-10' }, false)] }, idTask);
    expect(v).toMatchObject({ userError: true, kinds: ['invented_requirement'] });
    expect(v.evidence.map((e) => e.note)).toContainEqual(expect.stringContaining('"1988-04-10", which the task does not hold, and the agent used it in add_passenger'));
    // Used where the instruction gives another value: a wrong fact instead (the unused date stays a minor invention).
    const w = await verdictOf(m, { reward: 0, steps: [step(3, 'cancel_pending_order', { order_id: '#W9999999', amount: 120 }, false)] }, idTask);
    expect(w.kinds).toEqual(['wrong_fact', 'invented_requirement']);
    expect(w.evidence.map((e) => e.note)).toContainEqual(expect.stringContaining('"1988-04-10", which the task does not hold; no call of the agent used it'));
    // Not used by the agent: listed, but minor — it cannot explain the failure, so it masks nothing.
    const unused = await verdictOf(m, { reward: 0 }, idTask);
    expect(unused).toMatchObject({ userError: false, kinds: ['invented_requirement'], blame: 'agent' });
  });

  it('wrong_acceptance: the user said yes to a value the agent offered where the instruction gives another', async () => {
    const m = [
      u('Please cancel order #W2378156, user ada_lovelace_1815.'),
      a('I found order #W2378156 and #W2378157. Would you like me to cancel #W2378157 instead?'),
      u('Sure, go ahead.'),
      a('Cancelled.'),
      stop('Thanks.'),
    ];
    const cancel = step(3, 'cancel_pending_order', { order_id: '#W2378157', amount: 120 });
    const v = await verdictOf(m, { reward: 0, steps: [cancel] }, idTask);
    expect(v).toMatchObject({ userError: true, kinds: ['wrong_acceptance'], blame: 'user' });
    expect(v.evidence[0]).toMatchObject({ messageIndex: 2 });
    // Declined, and the agent used the value anyway: the agent's failure.
    const declined = [...m];
    declined[2] = u('No, please cancel #W2378156 as I asked.');
    expect(await verdictOf(declined, { reward: 0, steps: [cancel] }, idTask)).toMatchObject({ userError: false, blame: 'agent' });
  });

  it('insistence: pushing back on a refusal the instruction does not tell the user to push on; masking only when the agent then made a write off the gold path', async () => {
    const m = [
      u(opening),
      a("I'm sorry, but I'm not able to cancel that order."),
      u("That's not acceptable. Can't you make an exception?"),
      a('Done.'),
      stop('Thanks.'),
    ];
    // The push got the task's own call: listed, minor, nothing masked.
    const gold = step(3, 'cancel_pending_order', { order_id: '#W1', reason: 'no longer needed' });
    expect(await verdictOf(m, { reward: 1, steps: [gold] })).toMatchObject({ userError: false, kinds: ['insistence'], blame: 'none' });
    // The agent gave in with a write the task does not want: the push can explain the failure.
    const off = step(3, 'cancel_pending_order', { order_id: '#W2', reason: 'no longer needed' });
    const v = await verdictOf(m, { reward: 0, steps: [off] });
    expect(v).toMatchObject({ userError: true, kinds: ['insistence'], blame: 'user' });
    expect(v.evidence[0]).toMatchObject({ messageIndex: 2 });
    // An instruction that tells the user to insist: its push is no deviation.
    const told = { ...task, intent: `${task.intent} If the agent refuses, insist on it.` };
    expect(await verdictOf(m, { reward: 0, steps: [off] }, told)).toMatchObject({ userError: false, kinds: [], blame: 'agent' });
    // Taking the refusal and leaving is neither insistence nor an early stop.
    const dropped = await verdictOf([u(opening), a("I'm sorry, but I'm not able to cancel that order."), stop('Okay, I understand.')], { reward: 0 });
    expect(dropped).toMatchObject({ userError: false, kinds: [], blame: 'agent' });
    // A refusal that asks something is a request: answering it is not pushing.
    const asked = await verdictOf([u(opening), a("I can't cancel it without your zip. What is your zip?"), u(`${said(zip)} Please do it.`), a('Done.'), stop('Thanks.')], { reward: 0, steps: [off] });
    expect(asked.kinds).not.toContain('insistence');
  });

  it('wrong_fact: the agent used the user’s value where the instruction gives another', async () => {
    const m = [u('I am ada_lovelace_1815 and I want to cancel order #W1111111.'), a('Cancelling.'), stop('Thanks.')];
    const v = await verdictOf(m, { reward: 0, steps: [step(1, 'cancel_pending_order', { order_id: '#W1111111', amount: 120 })] }, idTask);
    expect(v.kinds).toContain('wrong_fact');
    expect(v.userError).toBe(true);
  });

  it('early_stop: the user walked away from the action the task needs while it was on offer', async () => {
    const offer = a('I can cancel order #W2378156 and refund $120. Would you like me to proceed?');
    const walked = [u('Cancel my order, user ada_lovelace_1815.'), offer, u("I'm not sure, let me think about it."), stop('Never mind.')];
    expect(await verdictOf(walked, { reward: 0 }, idTask)).toMatchObject({ userError: true, kinds: ['early_stop'] });
    const accepted = [u('Cancel my order, user ada_lovelace_1815.'), offer, u('Yes, please go ahead.'), stop('Thanks.')];
    expect(await verdictOf(accepted, { reward: 0 }, idTask)).toMatchObject({ userError: false, blame: 'agent' });
    // Confirming and stopping in one turn: the action never got to run.
    const confirmedAndLeft = [u('Cancel my order, user ada_lovelace_1815.'), offer, stop('Yes, go ahead. Bye!')];
    expect(await verdictOf(confirmedAndLeft, { reward: 0 }, idTask)).toMatchObject({ userError: true, kinds: ['early_stop'] });
  });

  it('blames the environment for failed episodes with environment-side tool failures, else the agent', async () => {
    const step = (code: 'timeout' | 'tool_error', message: string): ToolStep => ({
      messageIndex: 3,
      call: { id: 'c', name: 'cancel_pending_order', arguments: '{}' },
      result: { ok: false, error: { code, message } },
      durationMs: 1,
    });
    expect((await verdictOf(clean(), { reward: 0, steps: [step('timeout', 'tool timed out after 50 ms')] })).blame).toBe('environment');
    expect((await verdictOf(clean(), { reward: 0, steps: [step('tool_error', "TypeError: Cannot read properties of undefined (reading 'x')")] })).blame).toBe('environment');
    expect((await verdictOf(clean(), { reward: 0, steps: [step('tool_error', 'order not found: #W9')] })).blame).toBe('agent');
    expect((await verdictOf(clean(), { reward: 1, steps: [step('timeout', 'tool timed out')] })).blame).toBe('none');
    expect(await verdictOf(clean(), { termination: 'user_error', reward: 0, metadata: { error: 'model down' } })).toMatchObject({ userError: true, kinds: [], blame: 'user' });
  });

  it('never reads the injected errors it is scored against', async () => {
    const m = clean();
    const plain = await verdictOf(m);
    const labelled = await verdictOf(m, { injectedUserErrors: [{ kind: 'wrong_fact', messageIndex: 2, detail: { key: 'zip' } }] });
    expect(labelled).toEqual(plain);
  });

  it('rejects a task that is not the trajectory’s, and bad options', async () => {
    await expect(judge.judge(trajectory(clean()), readTask)).rejects.toThrow(JudgeError);
    expect(createRuleJudge({ name: 'rules-v2' }).name).toBe('rules-v2');
  });
});
