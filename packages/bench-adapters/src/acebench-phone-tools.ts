import type { JsonObject, JsonValue } from '@autoforge/core';
import type { Db, NativeTool } from '@autoforge/env-runtime';
import type { PySignature } from './python-exec.js';
import { PyException, bindArguments, execute, keyError, readCopy, resultText } from './python-exec.js';
import { pyFloatRepr } from './python-number.js';
import { pyStr } from './python-repr.js';

/** ACEBench's stateful API classes (`involved_classes`). */
export type AceBenchClass = 'BaseApi' | 'MessageApi' | 'ReminderApi' | 'FoodPlatform' | 'Travel';

// Numbers that are Python floats in these classes' state (the rest are ints).
const FLOAT_KEYS = new Set(['balance', 'price', 'total_price', 'price_per_unit', 'cash_balance', 'bank_balance']);
/** Print options for the classes' state: which integral numbers are Python floats. */
export const ACEBENCH_FORMAT = { floatKeys: FLOAT_KEYS } as const;

// What the executor raises for a method no involved class has: `_process_method_calls` returns no
// call, so `func_call_result` is never assigned (Python 3.11+'s UnboundLocalError text).
const NOT_INVOLVED = "Error during execution: cannot access local variable 'func_call_result' where it is not associated with a value";

interface Device {
  wifi: boolean;
  logged_in: boolean;
}

interface Message {
  sender_id: string;
  receiver_id: string;
  message: string;
  time?: string;
}

interface MessageState {
  max_capacity: number;
  user_list: Record<string, { user_id: string; phone_number: string; occupation: string }>;
  inbox: Record<string, Message>;
  message_id_counter: number;
}

interface Reminder {
  reminder_id: number;
  title: string;
  description: string;
  time: JsonValue;
  notified: boolean;
}

interface ReminderState {
  max_capacity: number;
  reminder_list: Record<string, Reminder>;
  reminder_id_counter: number;
}

interface FoodState {
  users: Record<string, { user_id: string; password: string; balance: number }>;
  merchant_list: Record<string, { merchant_id: string; service_type: string; menu: { product: string; price: number }[] }>;
  logged_in_users: string[];
  orders: JsonObject[];
}

/**
 * Wraps a method: it runs only when one of `classes` is involved in the task (ACEBench maps a
 * method name to the involved instances that have it), binds the arguments to the Python
 * signature, and turns exceptions and results into ACEBench's result text.
 */
export function aceMethod(classes: readonly AceBenchClass[], qualname: string, signature: PySignature, run: (args: Record<string, JsonValue | undefined>, db: Db) => JsonValue): NativeTool {
  return (args, ctx) => {
    const involved = (ctx.db.read('involved_classes') ?? []) as string[];
    if (!classes.some((c) => involved.includes(c))) return NOT_INVOLVED;
    return execute(() => resultText(run(bindArguments(qualname, signature, args), ctx.db), ACEBENCH_FORMAT));
  };
}

const PHONE: readonly AceBenchClass[] = ['BaseApi', 'MessageApi', 'ReminderApi', 'FoodPlatform'];
const device = (db: Db): Device => db.read('BaseApi') as unknown as Device;

// Python's `datetime.strptime(text, "%Y-%m-%d")` as a comparable number; ValueError otherwise.
function parseDate(text: JsonValue | undefined): number {
  const match = typeof text === 'string' ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text) : null;
  if (match === null) throw new PyException(`time data ${pyStr(text ?? null)} does not match format '%Y-%m-%d'`);
  return Number(match[1]) * 10000 + Number(match[2]) * 100 + Number(match[3]);
}

function messageIdSearch(db: Db, pick: (candidate: number, best: number) => boolean, which: string): JsonValue {
  if (!device(db).logged_in) {
    return { status: false, message: `Device not logged in, unable to retrieve the ${which} sent message ID.` };
  }
  const inbox = (db.read('MessageApi') as unknown as MessageState).inbox;
  if (Object.keys(inbox).length === 0) return { status: false, message: 'No message records found' };
  let bestId: number | undefined;
  let best: number | undefined;
  for (const [id, message] of Object.entries(inbox)) {
    if (!('time' in message)) throw keyError('time');
    const time = parseDate(message.time);
    if (best === undefined || pick(time, best)) {
      best = time;
      bestId = Number(id);
    }
  }
  return { status: true, message: `The ${which} message ID is ${String(bestId)}`, message_id: bestId ?? null };
}

/**
 * Native ports of ACEBench's phone-platform classes (English scenarios): `BaseApi` (Wi-Fi and
 * device login, shared by every phone class, as ACEBench calls an inherited method on every
 * involved instance), `MessageApi`, `ReminderApi` and `FoodPlatform`. Same checks in the same
 * order, same result texts; results are the text ACEBench's executor shows (`json.dumps` of
 * dicts, `str()` of lists and floats).
 */
export const ACEBENCH_PHONE_TOOLS: Readonly<Record<string, NativeTool>> = {
  turn_on_wifi: aceMethod(PHONE, 'BaseApi.turn_on_wifi', [], (_args, db) => {
    db.write('BaseApi', { ...device(db), wifi: true } as unknown as JsonObject);
    return { status: true, message: 'Wi-Fi has been turned on' };
  }),
  login_device: aceMethod(PHONE, 'BaseApi.login_device', [], (_args, db) => {
    db.write('BaseApi', { ...device(db), logged_in: true } as unknown as JsonObject);
    return { status: true, message: 'Device has been logged in' };
  }),

  send_message: aceMethod(['MessageApi'], 'MessageApi.send_message', [['sender_name'], ['receiver_name'], ['message']], (a, db) => {
    const { wifi, logged_in } = device(db);
    if (!logged_in) return { status: false, message: 'Device not logged in, unable to send message' };
    if (!wifi) return { status: false, message: 'Wi-Fi is turned off, cannot send messages at this time' };
    const state = readCopy<JsonObject>(db, 'MessageApi') as unknown as MessageState;
    if (Object.keys(state.inbox).length >= state.max_capacity) {
      return { status: false, message: 'Inbox capacity is full. You need to ask the user which message to delete.' };
    }
    const sender = state.user_list[String(a.sender_name)];
    const receiver = state.user_list[String(a.receiver_name)];
    if (typeof a.sender_name !== 'string' || typeof a.receiver_name !== 'string' || sender === undefined || receiver === undefined) {
      return { status: false, message: 'Sender or receiver does not exist' };
    }
    state.message_id_counter += 1;
    state.inbox[String(state.message_id_counter)] = { sender_id: sender.user_id, receiver_id: receiver.user_id, message: a.message as string };
    db.write('MessageApi', state as unknown as JsonObject);
    return { status: true, message: `Message successfully sent to ${a.receiver_name}.` };
  }),
  delete_message: aceMethod(['MessageApi'], 'MessageApi.delete_message', [['message_id']], (a, db) => {
    if (!device(db).logged_in) return { status: false, message: 'Device not logged in, unable to delete message' };
    const state = readCopy<JsonObject>(db, 'MessageApi') as unknown as MessageState;
    // The inbox is keyed by int: a message id given as text is never found.
    const key = typeof a.message_id === 'number' && Number.isInteger(a.message_id) ? String(a.message_id) : undefined;
    if (key === undefined || !(key in state.inbox)) return { status: false, message: 'Message ID does not exist' };
    delete state.inbox[key];
    db.write('MessageApi', state as unknown as JsonObject);
    return { status: true, message: `Message ID ${key} has been successfully deleted.` };
  }),
  view_messages_between_users: aceMethod(['MessageApi'], 'MessageApi.view_messages_between_users', [['sender_name'], ['receiver_name']], (a, db) => {
    if (!device(db).logged_in) return { status: false, message: 'Device not logged in, unable to view message information' };
    const state = db.read('MessageApi') as unknown as MessageState;
    const sender = state.user_list[String(a.sender_name)];
    if (typeof a.sender_name !== 'string' || sender === undefined) return { status: false, message: 'Sender does not exist' };
    const receiver = state.user_list[String(a.receiver_name)];
    if (typeof a.receiver_name !== 'string' || receiver === undefined) return { status: false, message: 'Receiver does not exist' };
    const messages = Object.entries(state.inbox)
      .filter(([, m]) => m.sender_id === sender.user_id && m.receiver_id === receiver.user_id)
      .map(([id, m]) => ({ id: Number(id), sender: a.sender_name as string, receiver: a.receiver_name as string, message: m.message }));
    if (messages.length === 0) return { status: false, message: 'No related message records found' };
    return { status: true, messages };
  }),
  search_messages: aceMethod(['MessageApi'], 'MessageApi.search_messages', [['user_name'], ['keyword']], (a, db) => {
    const state = db.read('MessageApi') as unknown as MessageState;
    const user = state.user_list[String(a.user_name)];
    if (typeof a.user_name !== 'string' || user === undefined) return { status: false, message: 'User does not exist' };
    const keyword = String(a.keyword).toLowerCase();
    const messages = Object.entries(state.inbox)
      .filter(([, m]) => (m.sender_id === user.user_id || m.receiver_id === user.user_id) && m.message.toLowerCase().includes(keyword))
      .map(([id, m]) => ({ id: Number(id), sender_id: m.sender_id, receiver_id: m.receiver_id, message: m.message }));
    if (messages.length === 0) return { status: false, message: 'No messages found containing the keyword' };
    return { status: true, messages };
  }),
  get_latest_message_id: aceMethod(['MessageApi'], 'MessageApi.get_latest_message_id', [], (_a, db) => messageIdSearch(db, (t, best) => t > best, 'latest')),
  get_earliest_message_id: aceMethod(['MessageApi'], 'MessageApi.get_earliest_message_id', [], (_a, db) => messageIdSearch(db, (t, best) => t < best, 'earliest')),

  add_reminder: aceMethod(['ReminderApi'], 'ReminderApi.add_reminder', [['title'], ['description'], ['time']], (a, db) => {
    if (!device(db).logged_in) return { status: false, message: 'Device not logged in. Unable to add a new reminder.' };
    const state = readCopy<JsonObject>(db, 'ReminderApi') as unknown as ReminderState;
    if (Object.keys(state.reminder_list).length >= state.max_capacity) {
      return { status: false, message: 'Reminder capacity is full. Unable to add a new reminder.' };
    }
    state.reminder_id_counter += 1;
    const id = state.reminder_id_counter;
    state.reminder_list[String(id)] = { reminder_id: id, title: a.title as string, description: a.description as string, time: a.time ?? null, notified: false };
    db.write('ReminderApi', state as unknown as JsonObject);
    return { status: true, message: `Reminder '${pyStr(a.title ?? null)}' was successfully added.` };
  }),
  view_reminder_by_title: aceMethod(['ReminderApi'], 'ReminderApi.view_reminder_by_title', [['title']], (a, db) => {
    if (!device(db).logged_in) return { status: false, message: 'The device is not logged in, so you cannot view notifications' };
    const state = db.read('ReminderApi') as unknown as ReminderState;
    const found = Object.values(state.reminder_list).find((r) => r.title === a.title);
    if (found !== undefined) return { status: true, reminder: found as unknown as JsonObject };
    return { status: false, message: `No reminder found with the title '${pyStr(a.title ?? null)}'.` };
  }),
  // Listed among the agent functions, but no ACEBench class has this method: the executor finds
  // no instance to call it on.
  search_reminders: () => NOT_INVOLVED,

  login_food_platform: aceMethod(['FoodPlatform'], 'FoodPlatform.login_food_platform', [['username'], ['password']], (a, db) => {
    if (!device(db).wifi) return { status: false, message: 'Wi-Fi is not enabled, unable to login' };
    const state = readCopy<JsonObject>(db, 'FoodPlatform') as unknown as FoodState;
    const user = typeof a.username === 'string' ? state.users[a.username] : undefined;
    if (user === undefined) return { status: false, message: 'User does not exist' };
    if (user.password !== a.password) return { status: false, message: 'Incorrect password' };
    const name = a.username as string;
    if (state.logged_in_users.includes(name)) return { status: false, message: `${name} is already logged in` };
    state.logged_in_users.push(name);
    db.write('FoodPlatform', state as unknown as JsonObject);
    return { status: true, message: `User ${name} has successfully logged in!` };
  }),
  check_balance: aceMethod(['FoodPlatform'], 'FoodPlatform.check_balance', [['user_name']], (a, db) => {
    const state = db.read('FoodPlatform') as unknown as FoodState;
    const user = typeof a.user_name === 'string' ? state.users[a.user_name] : undefined;
    return pyFloatRepr(user === undefined ? 0 : user.balance);
  }),
  add_food_delivery_order: aceMethod(['FoodPlatform'], 'FoodPlatform.add_food_delivery_order', [['username'], ['merchant_name'], ['items']], (a, db) => {
    const state = readCopy<JsonObject>(db, 'FoodPlatform') as unknown as FoodState;
    const username = a.username;
    if (typeof username !== 'string' || !state.logged_in_users.includes(username)) {
      return { status: false, message: `User ${pyStr(username ?? null)} is not logged in to the food platform` };
    }
    const merchantName = a.merchant_name;
    const merchant = typeof merchantName === 'string' ? state.merchant_list[merchantName] : undefined;
    if (merchant === undefined) return { status: false, message: 'Merchant does not exist' };
    let total = 0;
    const orderItems: JsonObject[] = [];
    for (const item of (a.items ?? []) as JsonObject[]) {
      const product = item.product ?? null;
      const quantity = 'quantity' in item ? (item.quantity ?? null) : 1;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity <= 0) {
        return { status: false, message: `Invalid quantity ${pyStr(quantity)} for product ${pyStr(product)}` };
      }
      const entry = merchant.menu.find((m) => m.product === product);
      if (entry === undefined) return { status: false, message: `Product ${pyStr(product)} does not exist in ${merchantName as string}'s menu` };
      total += entry.price * quantity;
      orderItems.push({ product, quantity, price_per_unit: entry.price });
    }
    const user = state.users[username];
    if (user === undefined) throw keyError(username);
    if (total > user.balance) return { status: false, message: 'Insufficient balance to place the order' };
    user.balance -= total;
    state.orders.push({ user_name: username, merchant_name: merchantName as string, items: orderItems, total_price: total });
    db.write('FoodPlatform', state as unknown as JsonObject);
    return { status: true, message: `Food delivery order successfully placed with ${merchantName as string}. Total amount: ${pyFloatRepr(total)} yuan` };
  }),
  get_products: aceMethod(['FoodPlatform'], 'FoodPlatform.get_products', [['merchant_name']], (a, db) => {
    const state = db.read('FoodPlatform') as unknown as FoodState;
    const merchant = typeof a.merchant_name === 'string' ? state.merchant_list[a.merchant_name] : undefined;
    if (merchant !== undefined) return merchant.menu as unknown as JsonValue;
    return { status: false, message: `Merchant '${pyStr(a.merchant_name ?? null)}' does not exist` };
  }),
};
