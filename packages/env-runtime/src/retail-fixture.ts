// Test and benchmark support (not exported): the tau-bench retail DB as an environment, with a
// few tools implemented twice — natively and as sandboxed source — with the same semantics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonSchemaObject } from '@autoforge/core';
import type { EnvironmentSpec, EnvironmentTool, ToolImplementation } from './spec.js';
import type { NativeTool } from './tool-context.js';

/** The shared benchmark data folder (read in place, never copied). */
export const BENCHMARKS = join(import.meta.dirname, '../../../../shared/benchmarks');

/** `digest({orders, products, users})` of the tau-bench retail DB (benchmarks/README.md). */
export const RETAIL_DIGEST = 'd991536bad97041c473ace12f4934d7bef3ce26b3ec29995b6dc9c8c0280157a';

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(join(BENCHMARKS, path), 'utf8'));
}

/** The retail DB, freshly parsed. */
export function loadRetailDb(): JsonObject {
  return {
    orders: readJson('tau-bench/retail/data/orders.json'),
    products: readJson('tau-bench/retail/data/products.json'),
    users: readJson('tau-bench/retail/data/users.json'),
  } as JsonObject;
}

const collection: JsonSchemaObject = { type: 'object', additionalProperties: { type: 'object' } };

/** A permissive state schema: three collections of objects. */
export const RETAIL_STATE_SCHEMA: JsonSchemaObject = {
  type: 'object',
  required: ['orders', 'products', 'users'],
  properties: { orders: collection, products: collection, users: collection },
};

const GET_ORDER_JS = String.raw`
function run(args, ctx) {
  const order = ctx.db.get('orders', args.order_id);
  if (order === undefined) throw new Error('order not found');
  return order;
}`;

const CANCEL_JS = String.raw`
const REASONS = ['no longer needed', 'ordered by mistake'];

function run({ order_id, reason }, { db }) {
  const order = db.get('orders', order_id);
  if (order === undefined) throw new Error('order not found');
  if (order.status !== 'pending') throw new Error('non-pending order cannot be cancelled');
  if (!REASONS.includes(reason)) throw new Error('invalid reason');
  const refunds = [];
  for (const payment of order.payment_history) {
    const id = payment.payment_method_id;
    refunds.push({ transaction_type: 'refund', amount: payment.amount, payment_method_id: id });
    if (id.includes('gift_card')) {
      const user = db.get('users', order.user_id);
      const method = user.payment_methods[id];
      method.balance = Number((method.balance + payment.amount).toFixed(2));
      db.put('users', order.user_id, user);
    }
  }
  order.status = 'cancelled';
  order.cancel_reason = reason;
  order.payment_history.push(...refunds);
  db.put('orders', order_id, order);
  return order;
}`;

const FIND_USER_JS = String.raw`
function run(args, ctx) {
  const email = args.email.toLowerCase();
  for (const id of ctx.db.ids('users')) {
    if (ctx.db.get('users', id).email.toLowerCase() === email) return id;
  }
  throw new Error('user not found');
}`;

/** Native twins of the sandboxed tools (same observable behaviour). */
export const RETAIL_NATIVES: Record<string, NativeTool> = {
  get_order_details(args, ctx) {
    const order = ctx.db.get('orders', args.order_id as string);
    if (order === undefined) throw new Error('order not found');
    return order;
  },
  cancel_pending_order(args, ctx) {
    const orderId = args.order_id as string;
    const reason = args.reason as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) throw new Error('order not found');
    if (current.status !== 'pending') throw new Error('non-pending order cannot be cancelled');
    if (reason !== 'no longer needed' && reason !== 'ordered by mistake') throw new Error('invalid reason');
    // A faithful port of the Python tool, which mutates the record in place: edit() gives a clone.
    const order = ctx.db.edit('orders', orderId);
    const history = order.payment_history as JsonObject[];
    const refunds: JsonObject[] = [];
    for (const payment of history) {
      const id = payment.payment_method_id as string;
      refunds.push({ transaction_type: 'refund', amount: payment.amount as number, payment_method_id: id });
      if (id.includes('gift_card')) {
        const user = ctx.db.edit('users', order.user_id as string);
        const method = (user.payment_methods as Record<string, JsonObject>)[id] as JsonObject;
        method.balance = Number(((method.balance as number) + (payment.amount as number)).toFixed(2));
      }
    }
    order.status = 'cancelled';
    order.cancel_reason = reason;
    history.push(...refunds);
    return order;
  },
  find_user_id_by_email(args, ctx) {
    const email = (args.email as string).toLowerCase();
    for (const id of ctx.db.ids('users')) {
      if (((ctx.db.get('users', id) as JsonObject).email as string).toLowerCase() === email) return id;
    }
    throw new Error('user not found');
  },
};

const JS_SOURCES: Record<string, string> = {
  get_order_details: GET_ORDER_JS,
  cancel_pending_order: CANCEL_JS,
  find_user_id_by_email: FIND_USER_JS,
};

interface OpenAITool {
  function: { name: string; description: string; parameters: JsonSchemaObject };
}

/**
 * The retail environment: for each of `get_order_details`, `cancel_pending_order`,
 * `find_user_id_by_email`, a native tool under its own name and a sandboxed twin named
 * `<name>_js`, with the benchmark's own descriptions and parameter schemas.
 */
export function retailSpec(seedState: JsonObject = loadRetailDb()): EnvironmentSpec {
  const openai = readJson('tau-bench/retail/tools.json') as OpenAITool[];
  const tools: EnvironmentTool[] = [];
  for (const name of Object.keys(JS_SOURCES)) {
    const index = openai.findIndex((t) => t.function.name === name);
    const fn = (openai[index] as OpenAITool).function;
    const variants: [string, ToolImplementation][] = [
      [name, { kind: 'native', ref: name }],
      [`${name}_js`, { kind: 'js', source: JS_SOURCES[name] as string }],
    ];
    for (const [toolName, implementation] of variants) {
      tools.push({
        name: toolName,
        description: fn.description,
        parameters: fn.parameters,
        outputSchema: name === 'find_user_id_by_email' ? { type: 'string' } : { type: 'object' },
        implementation,
        source: { format: 'openai-chat', pointer: `/${index}` },
      });
    }
  }
  return {
    specVersion: 1,
    id: 'tau-bench-retail-subset',
    name: 'tau-bench retail (subset of tools)',
    stateSchema: RETAIL_STATE_SCHEMA,
    seedState,
    tools,
  };
}

// A generic sandboxed body for the tools that have no hand-written source here: it reads what
// its arguments name, the way synthesized tools start.
function stubSource(name: string): string {
  return String.raw`
const TOOL = ${JSON.stringify(name)};
function run(args, ctx) {
  if (args.order_id !== undefined) {
    const order = ctx.db.get('orders', args.order_id);
    if (order === undefined) throw new Error(TOOL + ': order not found');
    return order;
  }
  if (args.user_id !== undefined) {
    const user = ctx.db.get('users', args.user_id);
    if (user === undefined) throw new Error(TOOL + ': user not found');
    return user;
  }
  if (args.product_id !== undefined) return ctx.db.get('products', args.product_id) ?? null;
  return null;
}`;
}

/**
 * All 16 tools of tau-bench retail, every one sandboxed (as a synthesized environment would
 * be): the hand-written sources above where there are, a generic reader otherwise. For
 * creation-time benchmarks.
 */
export function retailSpec16(seedState: JsonObject = loadRetailDb()): EnvironmentSpec {
  const openai = readJson('tau-bench/retail/tools.json') as OpenAITool[];
  const record: JsonSchemaObject = { type: 'object', additionalProperties: true };
  return {
    specVersion: 1,
    id: 'tau-bench-retail-16',
    name: 'tau-bench retail (16 sandboxed tools)',
    stateSchema: RETAIL_STATE_SCHEMA,
    seedState,
    tools: openai.map(({ function: fn }, i) => ({
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      outputSchema: fn.name.startsWith('find_user_id') ? { type: 'string' } : { anyOf: [record, { type: 'null' }] },
      implementation: { kind: 'js', source: JS_SOURCES[fn.name] ?? stubSource(fn.name) },
      source: { format: 'openai-chat', pointer: `/${i}` },
    })),
  };
}
