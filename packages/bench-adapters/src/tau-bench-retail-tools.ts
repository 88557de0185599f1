import type { JsonObject, JsonValue } from '@autoforge/core';
import type { NativeTool, ToolContext } from '@autoforge/env-runtime';
import { pythonCalculate } from './python-arithmetic.js';
import { pyRound } from './python-number.js';

// Ports of tau-bench's retail tools (sierra-research/tau-bench, tau_bench/envs/retail/tools).
// Each returns the value the Python tool serializes with json.dumps, or a plain string where the
// Python tool returns one. The Python tools *return* "Error: …" strings; here they throw an Error
// with the text after "Error: ", which the runtime turns into the observation "Error: …" (the
// same text) and which leaves the state untouched, as the Python tools do: none of them writes
// before its last check.

/** A tool error: the observation is `Error: ${message}`, exactly tau-bench's text. */
export function toolError(message: string): never {
  throw new Error(message);
}

type Obj = Record<string, JsonValue>;

const asObj = (value: JsonValue | undefined): Obj => value as Obj;
const asList = (value: JsonValue | undefined): Obj[] => value as Obj[];

/** `list.count(x)` checks of tau-bench: every id in `wanted` at most as often as in `have`. */
function missingItem(wanted: string[], have: string[]): string | undefined {
  for (const id of wanted) {
    if (wanted.filter((x) => x === id).length > have.filter((x) => x === id).length) return id;
  }
  return undefined;
}

/** The first user (in DB order, as Python's dict iteration) that matches. */
function findUser(ctx: ToolContext, match: (user: Obj) => boolean): string {
  const ids = ctx.db.ids('users');
  const users = ctx.db.all('users');
  const index = users.findIndex((user) => match(user as Obj));
  return index >= 0 ? (ids[index] as string) : toolError('user not found');
}

/** Checks shared by exchange and modify-items; returns the summed price difference. */
function itemSwapPrice(ctx: ToolContext, order: Obj, itemIds: string[], newItemIds: string[]): number {
  const items = asList(order.items);
  const missing = missingItem(
    itemIds,
    items.map((i) => i.item_id as string),
  );
  if (missing !== undefined) toolError(`${missing} not found`);
  if (itemIds.length !== newItemIds.length) toolError('the number of items to be exchanged should match');
  let diff = 0;
  itemIds.forEach((itemId, i) => {
    const newItemId = newItemIds[i] as string;
    const item = items.find((it) => it.item_id === itemId) as Obj;
    const product = ctx.db.get('products', item.product_id as string) as Obj;
    const variants = asObj(product.variants);
    const variant = Object.prototype.hasOwnProperty.call(variants, newItemId) ? asObj(variants[newItemId]) : undefined;
    if (!(variant && variant.available)) toolError(`new item ${newItemId} not found or available`);
    diff += (variant.price as number) - (item.price as number);
  });
  return diff;
}

function paymentMethods(ctx: ToolContext, userId: string): Obj {
  return asObj((ctx.db.get('users', userId) as Obj).payment_methods);
}

const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function address(args: JsonObject): JsonObject {
  return {
    address1: args.address1 as string,
    address2: args.address2 as string,
    city: args.city as string,
    state: args.state as string,
    country: args.country as string,
    zip: args.zip as string,
  };
}

/** The 16 tau-bench retail tools, by name. */
export const TAU_BENCH_RETAIL_TOOLS: Readonly<Record<string, NativeTool>> = {
  calculate(args) {
    const result = pythonCalculate(args.expression as string);
    return result.ok ? result.value : toolError((result.issues[0] as { message: string }).message);
  },

  cancel_pending_order(args, ctx) {
    const orderId = args.order_id as string;
    const reason = args.reason as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'pending') return toolError('non-pending order cannot be cancelled');
    if (reason !== 'no longer needed' && reason !== 'ordered by mistake') return toolError('invalid reason');
    const order = ctx.db.edit('orders', orderId);
    const history = asList(order.payment_history);
    const refunds: Obj[] = [];
    for (const payment of history) {
      const paymentId = payment.payment_method_id as string;
      refunds.push({ transaction_type: 'refund', amount: payment.amount as number, payment_method_id: paymentId });
      if (paymentId.includes('gift_card')) {
        const method = asObj(asObj(ctx.db.edit('users', order.user_id as string).payment_methods)[paymentId]);
        method.balance = pyRound((method.balance as number) + (payment.amount as number), 2);
      }
    }
    order.status = 'cancelled';
    order.cancel_reason = reason;
    history.push(...refunds);
    return order;
  },

  exchange_delivered_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const newItemIds = args.new_item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'delivered') return toolError('non-delivered order cannot be exchanged');
    const diff = pyRound(itemSwapPrice(ctx, current, itemIds, newItemIds), 2);
    const methods = paymentMethods(ctx, current.user_id as string);
    if (!has(methods, paymentId)) return toolError('payment method not found');
    const method = asObj(methods[paymentId]);
    if (method.source === 'gift_card' && (method.balance as number) < diff) {
      return toolError('insufficient gift card balance to pay for the price difference');
    }
    const order = ctx.db.edit('orders', orderId);
    order.status = 'exchange requested';
    order.exchange_items = [...itemIds].sort();
    order.exchange_new_items = [...newItemIds].sort();
    order.exchange_payment_method_id = paymentId;
    order.exchange_price_difference = diff;
    return order;
  },

  find_user_id_by_email(args, ctx) {
    const email = (args.email as string).toLowerCase();
    return findUser(ctx, (user) => (user.email as string).toLowerCase() === email);
  },

  find_user_id_by_name_zip(args, ctx) {
    const first = (args.first_name as string).toLowerCase();
    const last = (args.last_name as string).toLowerCase();
    const zip = args.zip as string;
    return findUser(ctx, (user) => {
      const name = asObj(user.name);
      return (
        (name.first_name as string).toLowerCase() === first &&
        (name.last_name as string).toLowerCase() === last &&
        asObj(user.address).zip === zip
      );
    });
  },

  get_order_details(args, ctx) {
    return ctx.db.get('orders', args.order_id as string) ?? toolError('order not found');
  },

  get_product_details(args, ctx) {
    return ctx.db.get('products', args.product_id as string) ?? toolError('product not found');
  },

  get_user_details(args, ctx) {
    return ctx.db.get('users', args.user_id as string) ?? toolError('user not found');
  },

  list_all_product_types(_args, ctx) {
    const pairs = ctx.db.all('products').map((p) => [p.name as string, p.product_id as string] as const);
    // Python: dict(sorted(product_dict.items())) — later duplicates of a name win, then sort.
    const byName = new Map<string, string>();
    for (const [name, id] of pairs) byName.set(name, id);
    const result: JsonObject = {};
    for (const name of [...byName.keys()].sort()) result[name] = byName.get(name) as string;
    return result;
  },

  modify_pending_order_address(args, ctx) {
    const orderId = args.order_id as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'pending') return toolError('non-pending order cannot be modified');
    const order = ctx.db.edit('orders', orderId);
    order.address = address(args);
    return order;
  },

  modify_pending_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const newItemIds = args.new_item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'pending') return toolError('non-pending order cannot be modified');
    // Not rounded, as in tau-bench: amounts such as 0.04999999999999716 are the reference's.
    const diff = itemSwapPrice(ctx, current, itemIds, newItemIds);
    const methods = paymentMethods(ctx, current.user_id as string);
    if (!has(methods, paymentId)) return toolError('payment method not found');
    if (asObj(methods[paymentId]).source === 'gift_card' && (asObj(methods[paymentId]).balance as number) < diff) {
      return toolError('insufficient gift card balance to pay for the new item');
    }
    const order = ctx.db.edit('orders', orderId);
    asList(order.payment_history).push({
      transaction_type: diff > 0 ? 'payment' : 'refund',
      amount: Math.abs(diff),
      payment_method_id: paymentId,
    });
    if (asObj(methods[paymentId]).source === 'gift_card') {
      const method = asObj(asObj(ctx.db.edit('users', order.user_id as string).payment_methods)[paymentId]);
      method.balance = pyRound((method.balance as number) - diff, 2);
    }
    const items = asList(order.items);
    itemIds.forEach((itemId, i) => {
      const newItemId = newItemIds[i] as string;
      const item = items.find((it) => it.item_id === itemId) as Obj;
      const variant = asObj(asObj((ctx.db.get('products', item.product_id as string) as Obj).variants)[newItemId]);
      item.item_id = newItemId;
      item.price = variant.price as number;
      item.options = structuredClone(variant.options as JsonObject);
    });
    order.status = 'pending (item modified)';
    return order;
  },

  modify_pending_order_payment(args, ctx) {
    const orderId = args.order_id as string;
    const paymentId = args.payment_method_id as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'pending') return toolError('non-pending order cannot be modified');
    const methods = paymentMethods(ctx, current.user_id as string);
    if (!has(methods, paymentId)) return toolError('payment method not found');
    const history = asList(current.payment_history);
    const first = history[0];
    if (history.length > 1 || first?.transaction_type !== 'payment') {
      return toolError('there should be exactly one payment for a pending order');
    }
    if (first.payment_method_id === paymentId) return toolError('the new payment method should be different from the current one');
    const amount = first.amount as number;
    if (asObj(methods[paymentId]).source === 'gift_card' && (asObj(methods[paymentId]).balance as number) < amount) {
      return toolError('insufficient gift card balance to pay for the order');
    }
    const order = ctx.db.edit('orders', orderId);
    const oldId = first.payment_method_id as string;
    asList(order.payment_history).push(
      { transaction_type: 'payment', amount, payment_method_id: paymentId },
      { transaction_type: 'refund', amount, payment_method_id: oldId },
    );
    if (asObj(methods[paymentId]).source === 'gift_card') {
      const method = asObj(asObj(ctx.db.edit('users', order.user_id as string).payment_methods)[paymentId]);
      method.balance = pyRound((method.balance as number) - amount, 2);
    }
    if (oldId.includes('gift_card')) {
      const old = asObj(asObj(ctx.db.edit('users', order.user_id as string).payment_methods)[oldId]);
      old.balance = pyRound((old.balance as number) + amount, 2);
    }
    return order;
  },

  modify_user_address(args, ctx) {
    const userId = args.user_id as string;
    if (!ctx.db.has('users', userId)) return toolError('user not found');
    const user = ctx.db.edit('users', userId);
    user.address = address(args);
    return user;
  },

  return_delivered_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = ctx.db.get('orders', orderId);
    if (current === undefined) return toolError('order not found');
    if (current.status !== 'delivered') return toolError('non-delivered order cannot be returned');
    if (!has(paymentMethods(ctx, current.user_id as string), paymentId)) return toolError('payment method not found');
    const firstPayment = asList(current.payment_history)[0] as Obj;
    if (!paymentId.includes('gift_card') && paymentId !== firstPayment.payment_method_id) {
      return toolError('payment method should be either the original payment method or a gift card');
    }
    if (missingItem(itemIds, asList(current.items).map((i) => i.item_id as string)) !== undefined) {
      return toolError('some item not found');
    }
    const order = ctx.db.edit('orders', orderId);
    order.status = 'return requested';
    order.return_items = [...itemIds].sort();
    order.return_payment_method_id = paymentId;
    return order;
  },

  think() {
    return '';
  },

  transfer_to_human_agents() {
    return 'Transfer successful';
  },
};
