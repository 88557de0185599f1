// Test support (not exported): a small shop environment with realistic get/find/list/create/
// update/delete tools, half native and half sandboxed, and a strict state schema.
import type { JsonObject, JsonSchemaObject } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool, ToolImplementation } from './spec.js';
import type { NativeTool } from './tool-context.js';

const str = { type: 'string' } as const;

export const SHOP_STATE_SCHEMA: JsonSchemaObject = {
  type: 'object',
  required: ['users', 'orders', 'meta'],
  additionalProperties: false,
  properties: {
    users: { type: 'object', additionalProperties: { $ref: '#/$defs/user' } },
    orders: { type: 'object', additionalProperties: { $ref: '#/$defs/order' } },
    meta: {
      type: 'object',
      required: ['order_count'],
      additionalProperties: false,
      properties: { order_count: { type: 'integer', minimum: 0 } },
    },
  },
  $defs: {
    user: {
      type: 'object',
      required: ['user_id', 'name', 'email', 'balance', 'tags'],
      additionalProperties: false,
      properties: {
        user_id: str,
        name: str,
        email: { type: 'string', format: 'email' },
        balance: { type: 'number', minimum: 0 },
        tags: { type: 'array', items: str, uniqueItems: true },
      },
    },
    order: {
      type: 'object',
      required: ['order_id', 'user_id', 'status', 'items', 'total', 'created_at'],
      additionalProperties: false,
      properties: {
        order_id: str,
        user_id: str,
        status: { enum: ['pending', 'cancelled', 'delivered'] },
        items: { type: 'array', minItems: 1, items: { $ref: '#/$defs/item' } },
        total: { type: 'number', minimum: 0 },
        created_at: { type: 'string', format: 'date-time' },
      },
    },
    item: {
      type: 'object',
      required: ['sku', 'qty', 'price'],
      additionalProperties: false,
      properties: {
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{3}$' },
        qty: { type: 'integer', minimum: 1, maximum: 10 },
        price: { type: 'number', minimum: 0, maximum: 1000 },
      },
    },
  },
};

function user(id: string, name: string, balance: number): JsonObject {
  return { user_id: id, name, email: `${id}@example.com`, balance, tags: [] };
}

function order(id: string, userId: string, status: string, qty: number, price: number): JsonObject {
  return {
    order_id: id,
    user_id: userId,
    status,
    items: [{ sku: 'ABC-001', qty, price }],
    total: qty * price,
    created_at: '2024-12-01T10:00:00.000Z',
  };
}

export const SHOP_SEED: JsonObject = {
  users: {
    ada: user('ada', 'Ada Lovelace', 500),
    bob: user('bob', 'Bob Stone', 20),
    cy: user('cy', 'Cy Young', 0),
    dee: user('dee', 'Dee Dee', 1000),
  },
  orders: {
    o1: order('o1', 'ada', 'pending', 2, 10),
    o2: order('o2', 'ada', 'delivered', 1, 99.5),
    o3: order('o3', 'bob', 'pending', 3, 5),
    o4: order('o4', 'dee', 'cancelled', 1, 250),
    o5: order('o5', 'dee', 'pending', 10, 12.25),
  },
  meta: { order_count: 5 },
};

const JS: Record<string, string> = {
  get_user: String.raw`
function run({ user_id }, ctx) {
  const user = ctx.db.get('users', user_id);
  if (!user) throw new Error('user not found: ' + user_id);
  return user;
}`,
  list_orders: String.raw`
function run(args, ctx) {
  const where = {};
  if (args.user_id !== undefined) where.user_id = args.user_id;
  if (args.status !== undefined) where.status = args.status;
  return ctx.db.find('orders', where).map((o) => ({ order_id: o.order_id, status: o.status, total: o.total }));
}`,
  create_order: String.raw`
const round2 = (x) => Math.round(x * 100) / 100;

function run({ user_id, items }, { db, ids, clock }) {
  const user = db.get('users', user_id);
  if (!user) throw new Error('user not found: ' + user_id);
  const total = round2(items.reduce((sum, item) => sum + item.qty * item.price, 0));
  if (user.balance < total) throw new Error('insufficient balance');
  const order_id = ids.next('ord_');
  const order = { order_id, user_id, status: 'pending', items, total, created_at: clock.now() };
  db.put('orders', order_id, order);
  db.update('users', user_id, { balance: round2(user.balance - total) });
  const meta = db.read('meta');
  db.write('meta', { ...meta, order_count: meta.order_count + 1 });
  return order;
}`,
  update_email: String.raw`
function run({ user_id, email }, ctx) {
  if (!ctx.db.has('users', user_id)) throw new Error('user not found: ' + user_id);
  return ctx.db.update('users', user_id, { email });
}`,
  delete_order: String.raw`
function run({ order_id }, ctx) {
  const order = ctx.db.get('orders', order_id);
  if (!order) throw new Error('order not found: ' + order_id);
  if (order.status === 'pending') throw new Error('cancel the order before deleting it');
  ctx.db.delete('orders', order_id);
  const meta = ctx.db.read('meta');
  ctx.db.write('meta', { order_count: meta.order_count - 1 });
  return { deleted: order_id };
}`,
  add_tag: String.raw`
function run({ user_id, tag }, ctx) {
  const user = ctx.db.get('users', user_id);
  if (!user) throw new Error('user not found: ' + user_id);
  if (!user.tags.includes(tag)) user.tags.push(tag);
  // Writes first, then may fail: the write must not survive the failure.
  ctx.db.put('users', user_id, user);
  if (tag === 'forbidden') throw new Error('tag not allowed');
  return user.tags;
}`,
};

const round2 = (x: number): number => Math.round(x * 100) / 100;

export const SHOP_NATIVES: Record<string, NativeTool> = {
  find_users(args, ctx) {
    return ctx.db.find('users', args).map((u) => u.user_id as string);
  },
  cancel_order(args, ctx) {
    const id = args.order_id as string;
    const current = ctx.db.get('orders', id);
    if (current === undefined) throw new Error(`order not found: ${id}`);
    if (current.status !== 'pending') throw new Error('only pending orders can be cancelled');
    const order = ctx.db.edit('orders', id);
    order.status = 'cancelled';
    const userId = order.user_id as string;
    const user = ctx.db.get('users', userId) as JsonObject;
    ctx.db.update('users', userId, { balance: round2((user.balance as number) + (order.total as number)) });
    return order;
  },
  deliver_order(args, ctx) {
    const id = args.order_id as string;
    const current = ctx.db.get('orders', id);
    if (current === undefined) throw new Error(`order not found: ${id}`);
    if (current.status !== 'pending') throw new Error('only pending orders can be delivered');
    return ctx.db.update('orders', id, { status: 'delivered' });
  },
  lucky_bonus(args, ctx) {
    const id = args.user_id as string;
    const current = ctx.db.get('users', id);
    if (current === undefined) throw new Error(`user not found: ${id}`);
    const bonus = ctx.rng.int(1, 20);
    ctx.db.update('users', id, { balance: round2((current.balance as number) + bonus) });
    return { bonus, at: ctx.clock.now() };
  },
};

const idParam = (name: string) => ({
  type: 'object' as const,
  properties: { [name]: { type: 'string' as const, minLength: 1 } },
  required: [name],
  additionalProperties: false,
});

const PARAMETERS: Record<string, JsonSchemaObject> = {
  get_user: idParam('user_id'),
  find_users: {
    type: 'object',
    properties: { email: str, name: str },
    additionalProperties: false,
  },
  list_orders: {
    type: 'object',
    properties: { user_id: str, status: { enum: ['pending', 'cancelled', 'delivered'] } },
    additionalProperties: false,
  },
  create_order: {
    type: 'object',
    properties: {
      user_id: str,
      items: { type: 'array', minItems: 1, maxItems: 5, items: SHOP_STATE_SCHEMA.$defs?.item as JsonSchemaObject },
    },
    required: ['user_id', 'items'],
    additionalProperties: false,
  },
  cancel_order: idParam('order_id'),
  deliver_order: idParam('order_id'),
  update_email: {
    type: 'object',
    properties: { user_id: str, email: { type: 'string', format: 'email' } },
    required: ['user_id', 'email'],
    additionalProperties: false,
  },
  delete_order: idParam('order_id'),
  lucky_bonus: idParam('user_id'),
  add_tag: {
    type: 'object',
    properties: { user_id: str, tag: { type: 'string', minLength: 1, maxLength: 20 } },
    required: ['user_id', 'tag'],
    additionalProperties: false,
  },
};

/** Tool names of the shop environment. */
export const SHOP_TOOLS = Object.keys(PARAMETERS);

/** The shop environment spec (clock ticking one minute per step). */
export function shopSpec(): EnvironmentSpec {
  const tools: EnvironmentTool[] = SHOP_TOOLS.map((name, i) => {
    const implementation: ToolImplementation =
      JS[name] !== undefined ? { kind: 'js', source: JS[name] as string } : { kind: 'native', ref: name };
    return {
      name,
      description: `The ${name.replace(/_/g, ' ')} tool of the shop.`,
      parameters: PARAMETERS[name] as JsonSchemaObject,
      outputSchema: true,
      implementation,
      source: { format: 'openai-chat', pointer: `/${i}` },
    };
  });
  return {
    specVersion: 1,
    id: 'shop',
    name: 'Shop',
    stateSchema: SHOP_STATE_SCHEMA,
    seedState: SHOP_SEED,
    tools,
    clock: { start: '2025-03-01T09:00:00Z', tickMs: 60_000 },
    idSeed: 7,
  };
}
