// Test helper (not exported): the calls that place a VitaBench task's required orders,
// reservations and bookings with the domain's own tools (the data has no gold calls).
import type { JsonObject, JsonValue } from '@autoforge/core';

/** One required item of a task's first expected state, as a tool call. */
export interface RequiredCall {
  /** `<task id>#<index of the item>`. */
  key: string;
  name: string;
  arguments: JsonObject;
  /** The item as the task states it. */
  expected: JsonObject;
}

/** The calls that place a task's required items at the environment's time. */
export function requiredCalls(taskId: string, criteria: JsonObject, now: string): RequiredCall[] {
  const states = (Array.isArray(criteria.expected_states) ? criteria.expected_states : []) as JsonObject[];
  const items = (Array.isArray(states[0]?.required_orders) ? states[0]?.required_orders : []) as JsonObject[];
  return items.flatMap((req, i): RequiredCall[] => {
    const key = `${taskId}#${i}`;
    const products = (Array.isArray(req.products) ? req.products : []) as JsonObject[];
    if (req.order_type === 'delivery') {
      const location = (req.location ?? {}) as JsonObject;
      const args: JsonObject = {
        user_id: req.user_id ?? null,
        store_id: req.store_id ?? null,
        product_ids: products.map((p) => p.product_id ?? null),
        product_cnts: products.map((p) => p.quantity ?? null),
        address: location.address ?? null,
        dispatch_time: now,
      };
      return [{ key, name: 'create_delivery_order', arguments: args, expected: req }];
    }
    if (req.order_type === 'instore') {
      return products.map((p, j) => ({
        key: `${key}.${j}`,
        name: 'create_instore_product_order',
        arguments: { user_id: req.user_id ?? null, shop_id: req.store_id ?? null, product_id: p.product_id ?? null, quantity: p.quantity ?? 1 } as JsonObject,
        expected: req,
      }));
    }
    const count: JsonValue = req.customer_count ?? 1;
    if ('reservation_id' in req) {
      return [{ key, name: 'instore_reservation', arguments: { user_id: req.customer_id ?? null, shop_id: req.shop_id ?? null, time: req.reservation_time ?? null, customer_count: count }, expected: req }];
    }
    return [{ key, name: 'instore_book', arguments: { user_id: req.customer_id ?? null, shop_id: req.shop_id ?? null, time: req.book_time ?? null, customer_count: count }, expected: req }];
  });
}
