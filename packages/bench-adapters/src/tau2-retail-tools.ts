import type { JsonObject, JsonValue } from '@autoforge/core';
import type { NativeTool, ToolContext } from '@autoforge/env-runtime';
import { foldForMatch } from './fold-for-match.js';
import { pythonCalculate } from './python-arithmetic.js';
import { pyRound } from './python-number.js';
import { toolError } from './tau-bench-retail-tools.js';

// Ports of tau2-bench's retail toolkit (sierra-research/tau2-bench, src/tau2/domains/retail/
// tools.py), same conventions as the airline port. Differences from tau-bench kept on purpose:
// capitalized messages, modify_pending_order_items giving every modified item the price and
// options of the *last* new variant, "pending" in status for address and payment changes.

type Obj = Record<string, JsonValue>;

const asObj = (value: JsonValue | undefined): Obj => value as Obj;
const asList = (value: JsonValue | undefined): Obj[] => value as Obj[];
const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

const getOrder = (ctx: ToolContext, id: string): Obj => (ctx.db.get('orders', id) as Obj | undefined) ?? toolError('Order not found');
const getUser = (ctx: ToolContext, id: string): Obj => (ctx.db.get('users', id) as Obj | undefined) ?? toolError('User not found');
const getProduct = (ctx: ToolContext, id: string): Obj => (ctx.db.get('products', id) as Obj | undefined) ?? toolError('Product not found');

function getVariant(ctx: ToolContext, productId: string, variantId: string): Obj {
  const variants = asObj(getProduct(ctx, productId).variants);
  if (!has(variants, variantId)) return toolError('Variant not found');
  return asObj(variants[variantId]);
}

function getPaymentMethod(ctx: ToolContext, userId: string, paymentId: string): Obj {
  const methods = asObj(getUser(ctx, userId).payment_methods);
  if (!has(methods, paymentId)) return toolError('Payment method not found');
  return asObj(methods[paymentId]);
}

/** The user's payment method, editable (registers the user as changed). */
function editPaymentMethod(ctx: ToolContext, userId: string, paymentId: string): Obj {
  return asObj(asObj(ctx.db.edit('users', userId).payment_methods)[paymentId]);
}

const count = (list: string[], x: string): number => list.filter((y) => y === x).length;

function address(args: JsonObject): JsonObject {
  return {
    address1: args.address1 as string,
    address2: args.address2 as string,
    city: args.city as string,
    country: args.country as string,
    state: args.state as string,
    zip: args.zip as string,
  };
}

function findUser(ctx: ToolContext, match: (user: Obj) => boolean): string {
  const ids = ctx.db.ids('users');
  const index = ctx.db.all('users').findIndex((u) => match(u as Obj));
  return index >= 0 ? (ids[index] as string) : toolError('User not found');
}

/** The 16 tau2 retail tools, by name. */
export const TAU2_RETAIL_TOOLS: Readonly<Record<string, NativeTool>> = {
  calculate(args) {
    const result = pythonCalculate(args.expression as string);
    if (result.ok) return result.value;
    const message = (result.issues[0] as { message: string }).message;
    return toolError(message === 'invalid characters in expression' ? 'Invalid characters in expression' : message);
  },

  cancel_pending_order(args, ctx) {
    const orderId = args.order_id as string;
    const reason = args.reason as string;
    const current = getOrder(ctx, orderId);
    if (current.status !== 'pending') return toolError('Non-pending order cannot be cancelled');
    if (reason !== 'no longer needed' && reason !== 'ordered by mistake') return toolError('Invalid reason');
    const userId = current.user_id as string;
    const history = asList(current.payment_history);
    for (const payment of history) getPaymentMethod(ctx, userId, payment.payment_method_id as string);
    const order = ctx.db.edit('orders', orderId);
    const refunds = history.map((p) => ({ transaction_type: 'refund', amount: p.amount as number, payment_method_id: p.payment_method_id as string }));
    for (const payment of history) {
      const id = payment.payment_method_id as string;
      if (getPaymentMethod(ctx, userId, id).source === 'gift_card') {
        const card = editPaymentMethod(ctx, userId, id);
        card.balance = pyRound((card.balance as number) + (payment.amount as number), 2);
      }
    }
    order.status = 'cancelled';
    order.cancel_reason = reason;
    asList(order.payment_history).push(...refunds);
    return order;
  },

  exchange_delivered_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const newItemIds = args.new_item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = getOrder(ctx, orderId);
    if (current.status !== 'delivered') return toolError('Non-delivered order cannot be exchanged');
    const items = asList(current.items);
    const all = items.map((i) => i.item_id as string);
    for (const id of itemIds) if (count(itemIds, id) > count(all, id)) toolError(`Number of ${id} not found.`);
    if (itemIds.length !== newItemIds.length) toolError('The number of items to be exchanged should match.');
    let diff = 0;
    itemIds.forEach((itemId, i) => {
      const newItemId = newItemIds[i] as string;
      const item = items.find((it) => it.item_id === itemId) ?? toolError(`Item ${itemId} not found`);
      const variant = getVariant(ctx, item.product_id as string, newItemId);
      if (!variant.available) toolError(`New item ${newItemId} not found or available`);
      diff += (variant.price as number) - (item.price as number);
    });
    diff = pyRound(diff, 2);
    const method = getPaymentMethod(ctx, current.user_id as string, paymentId);
    if (method.source === 'gift_card' && (method.balance as number) < diff) {
      toolError('Insufficient gift card balance to pay for the price difference');
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
    const wanted = foldForMatch(args.email as string);
    return findUser(ctx, (u) => foldForMatch(u.email as string) === wanted);
  },

  find_user_id_by_name_zip(args, ctx) {
    const first = foldForMatch(args.first_name as string);
    const last = foldForMatch(args.last_name as string);
    const zip = args.zip as string;
    return findUser(ctx, (u) => {
      const name = asObj(u.name);
      return foldForMatch(name.first_name as string) === first && foldForMatch(name.last_name as string) === last && asObj(u.address).zip === zip;
    });
  },

  get_item_details(args, ctx) {
    const itemId = args.item_id as string;
    for (const product of ctx.db.all('products')) {
      const variants = asObj(product.variants);
      if (has(variants, itemId)) return variants[itemId] as JsonObject;
    }
    return toolError('Item not found');
  },

  get_order_details(args, ctx) {
    return getOrder(ctx, args.order_id as string);
  },

  get_product_details(args, ctx) {
    return getProduct(ctx, args.product_id as string);
  },

  get_user_details(args, ctx) {
    return getUser(ctx, args.user_id as string);
  },

  list_all_product_types(_args, ctx) {
    // json.dumps(product_dict, sort_keys=True): later duplicates of a name win, keys sorted.
    const byName = new Map<string, string>();
    for (const p of ctx.db.all('products')) byName.set(p.name as string, p.product_id as string);
    const result: JsonObject = {};
    for (const name of [...byName.keys()].sort()) result[name] = byName.get(name) as string;
    return result;
  },

  modify_pending_order_address(args, ctx) {
    const orderId = args.order_id as string;
    if (!(getOrder(ctx, orderId).status as string).includes('pending')) return toolError('Non-pending order cannot be modified');
    const order = ctx.db.edit('orders', orderId);
    order.address = address(args);
    return order;
  },

  modify_pending_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const newItemIds = args.new_item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = getOrder(ctx, orderId);
    if (current.status !== 'pending') return toolError('Non-pending order cannot be modified');
    const items = asList(current.items);
    const all = items.map((i) => i.item_id as string);
    for (const id of itemIds) if (count(itemIds, id) > count(all, id)) toolError(`${id} not found`);
    if (itemIds.length !== newItemIds.length) toolError('The number of items to be exchanged should match');
    let diff = 0;
    let variant: Obj | undefined;
    itemIds.forEach((itemId, i) => {
      const newItemId = newItemIds[i] as string;
      if (itemId === newItemId) toolError('The new item id should be different from the old item id');
      const item = items.find((it) => it.item_id === itemId) ?? toolError(`Item ${itemId} not found`);
      variant = getVariant(ctx, item.product_id as string, newItemId);
      if (!variant.available) toolError(`New item ${newItemId} not found or available`);
      diff += (variant.price as number) - (item.price as number);
    });
    const userId = current.user_id as string;
    const method = getPaymentMethod(ctx, userId, paymentId);
    if (method.source === 'gift_card' && (method.balance as number) < diff) toolError('Insufficient gift card balance to pay for the new item');
    const order = ctx.db.edit('orders', orderId);
    asList(order.payment_history).push({ transaction_type: diff > 0 ? 'payment' : 'refund', amount: Math.abs(diff), payment_method_id: paymentId });
    if (method.source === 'gift_card') {
      const card = editPaymentMethod(ctx, userId, paymentId);
      card.balance = pyRound((card.balance as number) - diff, 2);
    }
    const orderItems = asList(order.items);
    itemIds.forEach((itemId, i) => {
      const item = orderItems.find((it) => it.item_id === itemId) as Obj;
      // tau2's loop variable: every item gets the last new variant's price and options.
      const last = variant as Obj;
      item.item_id = newItemIds[i] as string;
      item.price = last.price as number;
      item.options = structuredClone(last.options as JsonObject);
    });
    order.status = 'pending (item modified)';
    return order;
  },

  modify_pending_order_payment(args, ctx) {
    const orderId = args.order_id as string;
    const paymentId = args.payment_method_id as string;
    const current = getOrder(ctx, orderId);
    if (!(current.status as string).includes('pending')) return toolError('Non-pending order cannot be modified');
    const userId = current.user_id as string;
    const method = getPaymentMethod(ctx, userId, paymentId);
    const history = asList(current.payment_history);
    const first = history[0];
    if (history.length !== 1 || first?.transaction_type !== 'payment') return toolError('There should be exactly one payment for a pending order');
    if (first.payment_method_id === paymentId) return toolError('The new payment method should be different from the current one');
    const amount = first.amount as number;
    if (method.source === 'gift_card' && (method.balance as number) < amount) return toolError('Insufficient gift card balance to pay for the order');
    const oldId = first.payment_method_id as string;
    const old = getPaymentMethod(ctx, userId, oldId);
    const order = ctx.db.edit('orders', orderId);
    asList(order.payment_history).push(
      { transaction_type: 'payment', amount, payment_method_id: paymentId },
      { transaction_type: 'refund', amount, payment_method_id: oldId },
    );
    if (method.source === 'gift_card') {
      const card = editPaymentMethod(ctx, userId, paymentId);
      card.balance = pyRound((card.balance as number) - amount, 2);
    }
    if (old.source === 'gift_card') {
      const card = editPaymentMethod(ctx, userId, oldId);
      card.balance = pyRound((card.balance as number) + amount, 2);
    }
    return order;
  },

  modify_user_address(args, ctx) {
    const userId = args.user_id as string;
    getUser(ctx, userId);
    const user = ctx.db.edit('users', userId);
    user.address = address(args);
    return user;
  },

  return_delivered_order_items(args, ctx) {
    const orderId = args.order_id as string;
    const itemIds = args.item_ids as string[];
    const paymentId = args.payment_method_id as string;
    const current = getOrder(ctx, orderId);
    if (current.status !== 'delivered') return toolError('Non-delivered order cannot be returned');
    const method = getPaymentMethod(ctx, getUser(ctx, current.user_id as string).user_id as string, paymentId);
    const firstPayment = asList(current.payment_history)[0] as Obj;
    if (method.source !== 'gift_card' && paymentId !== firstPayment.payment_method_id) {
      return toolError('Payment method should be the original payment method');
    }
    const all = asList(current.items).map((i) => i.item_id as string);
    for (const id of itemIds) if (count(itemIds, id) > count(all, id)) toolError('Some item not found');
    const order = ctx.db.edit('orders', orderId);
    order.status = 'return requested';
    order.return_items = [...itemIds].sort();
    order.return_payment_method_id = paymentId;
    return order;
  },

  transfer_to_human_agents() {
    return 'Transfer successful';
  },
};
