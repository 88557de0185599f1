import { observationText } from '@autoforge/core';
import type { JsonObject, Message, Task, Trajectory } from '@autoforge/core';
import { createOpenAIChatModel } from '@autoforge/llm';
import type { ScriptedChatServer } from '@autoforge/llm/testing';
import { createScriptedChatServer } from '@autoforge/llm/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from './test-support.js';
import { createVitaBenchAdapter } from './vitabench-adapter.js';
import { requiredCalls } from './vitabench-fixtures.js';
import { vitaTranscript, vitaWeekday } from './vitabench-judge.js';

const delivery = createVitaBenchAdapter({ domain: 'delivery', dataDir: BENCHMARKS });
const instore = createVitaBenchAdapter({ domain: 'instore', dataDir: BENCHMARKS });

// Required items the data itself makes impossible to place (checked by the tools as VitaBench's are).
const UNPLACEABLE: Record<string, string[]> = {
  delivery: [
    '30711009#0', // two of its product ids are null
    '80715001#0', // its product is in no store of the environment
    '90714001#1', // another user's id (U000004; the task's user is U000005)
    'B0714001#1', // a null product id
    'D0721001#0', // a product in no store of the environment
    'I0716002#0', // a product in no store of the environment
  ],
  instore: [
    '10826019#0.0', // the product is not on that shop's list
    '10826026#0', // "2024-10-26 16:00": no seconds
    '10826026#3', // "2024-10-26 19:00": no seconds
    '10826041#1.0', // another user's id
    '10826031#2', // the shop does not take table bookings
    '10826129#1', // no reservation time
    '10826084#1', // no booking time
    '10826064#2.0', // the shop id ends with a space
    '10826257#1', // no reservation time
  ],
};

function trajectory(task: Task, messages: Message[], termination: Trajectory['termination'] = 'user_stop'): Trajectory {
  return {
    id: `${task.id}#0`,
    envId: task.envId,
    taskId: task.id,
    rollout: 0,
    seed: 0,
    messages,
    steps: [],
    termination,
    finalDigest: task.expectedFinalDigest,
    reward: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 0,
    injectedUserErrors: [],
    metadata: {},
  };
}

describe('createVitaBenchAdapter', () => {
  it('loads 100 tasks per domain, each with its own environment as initial state and the agent prompt at its time', async () => {
    const [first] = await delivery.tasks();
    expect(delivery.toolDoc.tools).toHaveLength(20);
    expect(instore.toolDoc.tools).toHaveLength(24);
    expect(await instore.tasks()).toHaveLength(100);
    expect(await delivery.tasks()).toHaveLength(100);
    expect(first).toMatchObject({ id: '10711001', goldCalls: [], initialState: { time: '2025-06-21 11:20:00', user_id: 'U000001' } });
    expect(first?.expectedFinalDigest).toBe(first?.initialDigest);
    expect(first?.policy).toContain('- Current time: 2025-06-21 11:20:00 Saturday');
    expect((first?.metadata?.rubrics as string[])[0]).toBe('The rice noodle restaurant must support Dine-in available');
    await expect(delivery.tasks('train')).rejects.toMatchObject({ code: 'E_SPLIT' });
  });

  it.each([
    ['delivery', delivery],
    ['instore', instore],
  ] as const)('places every required %s order, reservation and booking with the task\'s own tools, except where the data forbids it', async (domain, adapter) => {
    const env = await adapter.environment();
    const failed: string[] = [];
    let placed = 0;
    for (const task of await adapter.tasks()) {
      const session = env.createSession({ initialState: task.initialState as JsonObject });
      const start = session.snapshot();
      for (const call of requiredCalls(task.id, task.metadata?.evaluation_criteria as JsonObject, String(task.metadata?.time))) {
        session.restore(start);
        const text = observationText(session.stepSync({ id: 'c', name: call.name, arguments: JSON.stringify(call.arguments) }));
        const expectedStore = String(call.expected.store_id ?? call.expected.shop_id);
        if (/^(Order|BookInfo|ReservationInfo)\(/.test(text) && text.includes(expectedStore)) placed += 1;
        else failed.push(call.key);
      }
      session.close();
    }
    expect(failed).toEqual(UNPLACEABLE[domain]);
    expect(placed).toBeGreaterThan(190);
  });

  it('answers from the task\'s environment as VitaBench prints it (Python reprs, floats, quoted float results)', async () => {
    const [task] = await delivery.tasks();
    const env = await delivery.environment();
    const session = env.createSession({ initialState: (task as Task).initialState as JsonObject });
    const run = (name: string, args: JsonObject): string => observationText(session.stepSync({ id: name, name, arguments: JSON.stringify(args) }));
    expect(run('delivery_store_search_recommand', { keywords: ['rice noodles'] })).toMatch(/^Store\(name=Jintugo Bean Sprout Crossing Bridge Rice Noodles, store_id=S85277471199200385_S98778, score=5\.0, location=.* longitude:102\.70636,latitude:25\.055897, tags=\['Dine-in available', 'Quick service'\]\)/);
    expect(run('weather', { address: 'Kunming', date_start: '2025-06-21', date_end: '2025-06-21' })).toBe('city: Kunming City, weather: rainy, datetime: 2025-06-21, temperature: 17.0~25.0, humidity: 84.0');
    expect(run('weather', { address: 'Kunming', date_start: '21/06/2025', date_end: '2025-06-21' })).toBe('Invalid date_start format. Expected yyyy-mm-dd, got: 21/06/2025');
    expect(run('longitude_latitude_to_distance', { longitude1: 102.7, latitude1: 25.04, longitude2: 102.71, latitude2: 25.05 })).toBe('"1500.0"');
    expect(run('delivery_distance_to_time', { distance: 1066 })).toBe('"32.0"');
    expect(run('get_holiday_date', { year: '2025', holiday_name: 'mid autumn' })).toBe('2025-10-06');
    expect(run('get_delivery_store_info', { store_id: 'nope' })).toBe('Error: Store nope not found');
    const created = run('create_delivery_order', {
      user_id: 'U000001',
      store_id: 'S85277471199200385_S98778',
      product_ids: ['S26110520013660896_P88296'],
      product_cnts: [2],
      address: 'Yunnan University Affiliated Hospital',
      dispatch_time: '2025-06-21 11:30:00',
    });
    expect(created).toMatch(/^Order\(order_id:OT[0-9a-f]{10}, order_type:delivery, user_id:U000001, store_id:S85277471199200385_S98778, dispatch_time:2025-06-21 11:30:00, shipping_time:32\.0, delivery_time:2025-06-21 12:02:00, total_price:50\.0, .*status:unpaid, products:\[StoreProduct\(.*quantity=2, price=25\.0/);
    const id = /order_id:(OT[0-9a-f]{10})/.exec(created)?.[1] as string;
    expect(run('pay_delivery_order', { order_id: id })).toBe('Payment successful');
    expect(run('pay_delivery_order', { order_id: id })).toBe('Order is not in `unpaid` status.');
    expect(run('search_delivery_orders', { user_id: 'U000001', status: 'paid' })).toMatch(/^Order\(order_id:OT.*status:paid, $/);
    expect(run('create_delivery_order', { user_id: 'U9', store_id: 'x', product_ids: [], product_cnts: [], address: 'a', dispatch_time: '2025-06-21 11:30:00' })).toBe('User ID does not match');
    session.close();
  });
});

describe('createVitaBenchAdapter: evaluate through the rubric judge (scripted OpenAI-compatible server)', () => {
  const servers: ScriptedChatServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  async function judged(answer: (request: number, rubrics: { rubric_idx: string }[]) => unknown) {
    let request = 0;
    const server = await createScriptedChatServer({
      handler: (req) => {
        const body = req.body as { messages: { content: string }[] };
        const rubrics = JSON.parse(/<current_rubrics>\n([\s\S]*)\n<\/current_rubrics>/.exec(body.messages[1]?.content ?? '')?.[1] ?? '[]') as { rubric_idx: string }[];
        return JSON.stringify(answer(request++, rubrics));
      },
    });
    servers.push(server);
    const judge = createOpenAIChatModel({ baseURL: server.baseURL, model: 'judge', env: {}, maxRetries: 0 });
    return { server, adapter: createVitaBenchAdapter({ domain: 'delivery', dataDir: BENCHMARKS, judge }) };
  }

  const dialogue = (n: number): Message[] => [
    { role: 'system', content: 'policy' },
    ...Array.from({ length: n }, (_, i): Message => (i % 2 === 0 ? { role: 'user', content: `u${i}` } : { role: 'assistant', content: `a${i}` })),
  ];

  it('gives 1 when the judge finds every rubric met, reading 10-message windows that overlap by 2, the states carried over', async () => {
    const { server, adapter } = await judged((request, rubrics) =>
      request === 0 ? rubrics.map((r) => ({ rubric_idx: r.rubric_idx, rubric: '', justification: 'seen [1]', meetExpectation: true })) : [],
    );
    const [task] = await adapter.tasks();
    const result = await adapter.evaluate(trajectory(task as Task, dialogue(25)), task as Task);
    expect(result).toMatchObject({ reward: 1, info: { evaluation_method: 'sliding_window', num_windows: 3, reward_breakdown: { NL_ASSERTION: 1 } } });
    const requests = server.chatRequests().map((r) => r.body as { messages: { content: string }[]; temperature: number });
    expect(requests).toHaveLength(3);
    expect(requests[1]?.messages[0]?.content).toContain("{'system_time': '2025-06-21 11:20:00 Saturday', 'database': []}");
    expect(requests[1]?.messages[0]?.content).toContain('You are evaluating window 2 (out of 3 windows total)');
    expect(requests[1]?.messages[1]?.content).toMatch(/^\n# Input\n<window_content>\n\[9\] user: u8\n\[10\] assistant: a9\n/);
    expect(requests[1]?.messages[1]?.content).toContain('"meetExpectation": true');
    expect(requests[0]?.messages[1]?.content).not.toContain('policy');
    expect(requests[0]?.temperature).toBe(0);
  });

  it('gives 0 (and the share met) when a rubric stays unmet', async () => {
    const { adapter } = await judged((_request, rubrics) => rubrics.map((r, i) => ({ rubric_idx: r.rubric_idx, justification: 'j', meetExpectation: i > 0 })));
    const [task] = await adapter.tasks();
    const result = await adapter.evaluate(trajectory(task as Task, dialogue(4)), task as Task);
    expect(result.reward).toBe(0);
    expect(result.info.reward_breakdown).toEqual({ NL_ASSERTION: 0.8 });
  });

  it('scores a premature end 0 without calling the judge, rejects E_OPTIONS without a judge, and skips with rubrics: skip', async () => {
    const { server, adapter } = await judged(() => []);
    const [task] = await adapter.tasks();
    expect((await adapter.evaluate(trajectory(task as Task, dialogue(4), 'max_turns'), task as Task)).reward).toBe(0);
    expect(server.chatRequests()).toHaveLength(0);
    await expect(delivery.evaluate(trajectory(task as Task, dialogue(4)), task as Task)).rejects.toMatchObject({ code: 'E_OPTIONS' });
    const skip = createVitaBenchAdapter({ domain: 'delivery', dataDir: BENCHMARKS, rubrics: 'skip' });
    expect(await skip.evaluate(trajectory(task as Task, dialogue(4)), task as Task)).toMatchObject({ reward: 0, info: { rubrics: expect.stringMatching(/skipped/) } });
  });
});

describe('vitaTranscript and vitaWeekday', () => {
  it('writes VitaBench\'s window lines: numbered, tool calls as name(k=repr) joined by ".", empty messages left out', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'weather', arguments: '{"address":"Kunming","days":2.0}' }, { id: 'b', name: 'get_user_all_orders', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', content: '' },
      { role: 'assistant', content: 'Sunny.' },
    ];
    expect(vitaTranscript(messages, 8)).toBe("[9] user: hi\n[10] assistant: weather(address='Kunming', days=2.0).get_user_all_orders()\n[12] assistant: Sunny.");
    expect(vitaWeekday('2025-11-06 14:30:00')).toBe('Thursday');
  });
});
