import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@autoforge/core';
import type { ToolSequence } from '@autoforge/depgraph';
import { randomWalks } from '@autoforge/depgraph';
import type { Blueprint } from '../src/blueprint.js';
import { createRng } from '@autoforge/core';
import { compileTask } from '../src/compile-task.js';
import { realizeIntent } from '../src/intent.js';
import { mergeSequences } from '../src/merge-sequences.js';
import { unconveyedFacts } from './intent-expectations.js';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';

let retail: RetailFixture;
const compiled: { task: Task; blueprint: Blueprint }[] = [];

beforeAll(async () => {
  retail = await loadRetail();
  const walks = randomWalks(retail.graph, { seed: 21, count: 80, minLength: 2, maxLength: 6, maxWrites: 1 });
  for (let i = 0; i < 60; i++) {
    const seqs = (i % 3 === 0 ? [walks[i], walks[i + 20]] : [walks[i]]).filter((w): w is ToolSequence => w !== undefined);
    const blueprint = mergeSequences(seqs, retail.graph, { seed: i, tools: retail.environment.tools });
    const r = compileTask(blueprint, retail.environment, { seed: i, envId: 'retail' });
    if (r.ok) compiled.push({ task: r.value, blueprint });
  }
});
afterAll(() => retail.environment.close());

describe('realizeIntent (the offline intent of compiled tasks)', () => {
  it('states every mention verbatim and conveys every user fact: verbatim, or an internal id by its record', () => {
    expect(compiled.length).toBeGreaterThan(30);
    let described = 0;
    for (const { task } of compiled) {
      const mentions = task.metadata?.mentions as string[];
      expect(mentions.length).toBeGreaterThan(0);
      for (const m of mentions) expect(task.intent, task.id).toContain(m);
      for (const p of Object.values((task.metadata?.reasoning ?? {}) as Record<string, { value?: unknown; field?: string }>)) {
        // A criterion value is stated unless it is an id (then the record it picks is described).
        if (typeof p.value === 'string' && !/(^|[._])id$/.test(p.field ?? '')) expect(task.intent, task.id).toContain(p.value);
      }
      expect(unconveyedFacts(task, retail.environment), task.intent).toEqual([]);
      if (task.userFacts.some((f) => !task.intent.includes(typeof f.value === 'string' ? f.value : JSON.stringify(f.value)))) described += 1;
    }
    // Item ids and payment method ids are described on this DB (the Backpack with color black …).
    expect(described).toBeGreaterThan(0);
  });

  it('reads as instructions in the second person, without placeholders', () => {
    for (const { task } of compiled) {
      expect(task.intent).toMatch(/^(You|Your|For reference, your|In case the agent needs to find you, your|What you care about) /);
      expect(task.intent).not.toMatch(/\bnull\b|undefined|\[object/);
    }
  });

  it('asks a question when the task reports an answer, and states the condition of a conditional write', () => {
    const asking = compiled.filter(({ task }) => task.requiredOutputs.length > 0);
    expect(asking.length).toBeGreaterThan(0);
    for (const { task } of asking) expect(task.intent).toMatch(/you (also )?want to (know|be told|find out)|you'd like to (find out|be told|know)|you are asking for/i);
    const conditional = compiled.filter(({ blueprint }) => blueprint.nodes.some((n) => n.kind === 'tool' && n.when !== undefined));
    expect(conditional.length).toBeGreaterThan(0);
    for (const { task } of conditional) {
      expect(task.intent).toMatch(
        /(Only if .* (above|below) \d+, you want to .*; otherwise you want nothing changed\.|If .* (above|below) \d+, you'd like to .*; if not, you want everything left as it is\.|You want to .*, but only if .* (above|below) \d+; otherwise nothing should change\.) (Either way, you want to be told|In any case, you'd like to know) /,
      );
    }
  });

  // A criterion on an id the user holds names the record by it ("your order #W0001").
  it('names the criterion of each reasoning step that picks a write argument', () => {
    const picked = compiled.filter(({ blueprint }) =>
      blueprint.nodes.some((n) => n.kind === 'tool' && n.access === 'write' && Object.values(n.args).some((s) => 'from' in s && s.from.startsWith('choose:'))),
    );
    expect(picked.length).toBeGreaterThan(0);
    for (const { task } of picked) {
      expect(task.intent).toMatch(
        /the [a-z ]+ (whose [a-z0-9 ]+ is |with (the (lowest|highest) )?[a-z0-9 ]+ |that is |called |named |in )|whichever [a-z ]+ (has|is|costs)|the (cheapest|least expensive|most expensive|priciest|earliest|oldest|latest|most recent) |your [a-z ]+ #?[A-Z0-9]+\b/,
      );
    }
  });
});

describe('realizeIntent (a hand-made task)', () => {
  // A shop: a user, their order with two items, the product's variants.
  const state = {
    users: { u1: { email: 'ana@example.com', payment_methods: { card_77: { id: 'card_77', brand: 'visa' }, gift_12: { id: 'gift_12', brand: 'gift card' } } } },
    orders: {
      '#A100': {
        user_id: 'u1',
        status: 'delivered',
        items: [
          { item_id: '9001', name: 'Lamp', options: { color: 'red' } },
          { item_id: '9002', name: 'Lamp', options: { color: 'blue' } },
        ],
      },
    },
  };
  const blueprint: Blueprint = {
    id: 'bp',
    nodes: [
      { kind: 'user', id: 'u:email', fact: 'email', description: 'your email' },
      { kind: 'tool', id: 't1', tool: 'find_user_by_email', access: 'read', args: { email: { user: 'email' } } },
      { kind: 'user', id: 'u:order_id', fact: 'order_id', description: 'the order id' },
      { kind: 'user', id: 'u:item_ids', fact: 'item_ids', description: 'the item ids' },
      { kind: 'user', id: 'u:payment_method_id', fact: 'payment_method_id', description: 'the payment method id' },
      {
        kind: 'tool',
        id: 't2',
        tool: 'return_delivered_order_items',
        access: 'write',
        args: { order_id: { user: 'order_id' }, item_ids: { user: 'item_ids' }, payment_method_id: { user: 'payment_method_id' } },
      },
    ],
    edges: [],
  };
  const userFacts = [
    { key: 'email', description: 'your email', value: 'ana@example.com' },
    { key: 'order_id', description: 'the order id', value: '#A100' },
    { key: 'item_ids', description: 'the item ids', value: ['9002'] },
    { key: 'payment_method_id', description: 'the payment method id', value: 'gift_12' },
  ];
  const input = (seed: number) => ({
    blueprint,
    order: blueprint.nodes,
    userFacts,
    resolved: new Map(),
    rng: createRng(seed, 'intent'),
    state,
    collections: ['users', 'orders'],
  });

  it('keeps the order number, describes the item and the payment method, and never shows the tool name', () => {
    const r = realizeIntent(input(1));
    expect(r.text).toContain('#A100');
    expect(r.text).toContain('ana@example.com');
    expect(r.text).not.toContain('9002');
    expect(r.text).not.toContain('gift_12');
    expect(r.text).toMatch(/Lamp with color blue/);
    expect(r.text).toMatch(/brand "gift card"/);
    expect(r.text).not.toMatch(/return delivered order items|return_delivered_order_items/);
    expect(r.described.sort()).toEqual(['item_ids', 'payment_method_id']);
    expect(r.mentions).toEqual(expect.arrayContaining(['#A100', 'ana@example.com', 'Lamp', 'blue', 'gift card']));
    expect(r.mentions).not.toContain('9002');
  });

  it('gives the same bytes for the same seed, and other surface forms for other seeds', () => {
    expect(realizeIntent(input(1)).text).toBe(realizeIntent(input(1)).text);
    const texts = new Set(Array.from({ length: 12 }, (_, k) => realizeIntent(input(k)).text));
    expect(texts.size).toBeGreaterThan(2);
  });

  it('states an id when no description tells its record apart (two identical items)', () => {
    const twin = structuredClone(state);
    (twin.orders['#A100'].items[1] as { options: { color: string } }).options.color = 'red';
    const r = realizeIntent({ ...input(1), state: twin });
    expect(r.text).toContain('9002');
    expect(r.keptIds).toEqual(['item_ids']);
  });
});

describe('realizeIntent (names that read badly word by word)', () => {
  const step = (tool: string, args: Record<string, { user: string }> = {}): string => {
    const node = { kind: 'tool' as const, id: 't', tool, access: 'write' as const, args };
    const blueprint: Blueprint = { id: `bp-${tool}`, nodes: [node], edges: [] };
    return realizeIntent({ blueprint, order: blueprint.nodes, userFacts: [], resolved: new Map() }).text;
  };

  it('keeps the object of a bare "create user", drops a "with …" qualifier and an "and possibly …" clause', () => {
    expect(step('createUser')).toMatch(/create the user\./);
    expect(step('createUsersWithListInput')).toMatch(/create the users\./);
    expect(step('checkEligibilityAndPossiblyInitiateReturn')).toMatch(/check the eligibility\./);
  });

  it('joins two verbs a name joins with "or" ("save or update the contact")', () => {
    expect(step('save_or_update_contact')).toMatch(/save or update the contact\./);
    expect(step('createOrReplaceSchedule')).toMatch(/create or replace the schedule\./);
  });

  it('logs the user in without naming them as an object, and reads "me" as the caller\'s profile', () => {
    expect(step('loginUser')).toMatch(/log in\./);
    expect(step('logoutUser')).toMatch(/log out\./);
    expect(step('get_me')).toMatch(/get your profile\./);
  });

  it('says what a write takes from what the user gave a read as the write\'s target, not as who the user is', () => {
    const open = { kind: 'tool' as const, id: 'open_cards', tool: 'open_cards', access: 'read' as const, args: { titles: { user: 'titles' } } };
    const drop = { kind: 'tool' as const, id: 'delete_cards', tool: 'delete_cards', access: 'write' as const, args: { card_titles: { from: 'open_cards', path: '$input.titles' } } };
    const blueprint: Blueprint = { id: 'bp-cards', nodes: [{ kind: 'user', id: 'user:titles', fact: 'titles', description: 'your titles' }, open, drop], edges: [] };
    const userFacts = [{ key: 'titles', description: 'your titles', value: ['Spring Plan'] }];
    const text = realizeIntent({ blueprint, order: blueprint.nodes, userFacts, resolved: new Map() }).text;
    expect(text).toMatch(/delete the card Spring Plan\./);
    expect(text).not.toMatch(/your titles? (is|are)/);
  });

  it('says the parts of a postal address as one address, in the order one writes it', () => {
    const args = { street_line: { user: 'street' }, city: { user: 'city' }, state: { user: 'state' }, zip: { user: 'zip' }, note: { user: 'note' } };
    const node = { kind: 'tool' as const, id: 't', tool: 'update_address', access: 'write' as const, args };
    const blueprint: Blueprint = { id: 'bp-address', nodes: [node], edges: [] };
    const fact = (key: string, value: string) => ({ key, description: key, value });
    const userFacts = [fact('zip', '60625'), fact('note', 'ring twice'), fact('city', 'Chicago'), fact('street', '593 Cedar Avenue'), fact('state', 'IL')];
    const text = realizeIntent({ blueprint, order: blueprint.nodes, userFacts, resolved: new Map() }).text;
    expect(text).toContain('593 Cedar Avenue, Chicago, IL 60625');
    expect(text).toContain('ring twice');
    expect(text).not.toMatch(/the city|the zip/);
  });
});
