import type { JsonObject, JsonValue } from '@autoforge/core';
import { pyRound } from '../python-number.js';
import { pyStr, pyStrRepr } from '../python-repr.js';
import { PyFloat, isPyDict, pyEquals, pyNumber, pyTypeName } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { longContextValue } from './long-context.js';
import type { LongContextName } from './long-context.js';
import { BfclPyError } from './port.js';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { PyRandom } from './python-random.js';
import type { PyRandomSnapshot } from './python-random.js';

/**
 * BFCL's `TradingBot` (`trading_bot.py`, gorilla 6ea57973, Apache-2.0): orders keyed by int ids,
 * an account, a watch list, stock quotes and a transaction history whose timestamps come from
 * `random.Random(1053520)`. In long context, `get_stock_info`, `get_order_details`,
 * `get_watchlist`, `get_transaction_history` and `get_available_stocks` append the large
 * constants of `long_context.py` to what they return; the instance state never holds them.
 *
 * Python behaviour kept on purpose:
 * - `orders` is a dict whose keys are ints (digit-only keys of a config become ints, others such
 *   as `"order_type"` stay strings), looked up with Python's hashing: `12345.0` and `True` find
 *   int keys, a list or dict argument raises `unhashable type`.
 * - The numbers Python holds as floats stay floats (`PyFloat` when integral): `balance`, the
 *   stock quotes and order prices. A config read with `JSON.parse` cannot say `10000.0` from
 *   `10000`, so those fields are floats whenever the config gives a number (every config in the
 *   data has them as floats); any other `PyFloat` a caller passes in is kept.
 * - Comparisons, subscripts and iterations raise what Python raises on wrongly typed arguments
 *   (`'<=' not supported between instances of 'str' and 'int'`, `'int' object is not iterable`).
 *
 * Not reproduced: dicts from a config keep JavaScript's key order, which puts integer-like keys
 * first (only `orders`, a `Map`, keeps insertion order); keys that `str.isdigit()` accepts beyond
 * ASCII digits stay strings; `strptime` reads ASCII digits only.
 */

type Dict = { [key: string]: PyValue };

/** One `orders` item: the key as Python holds it (int or str) and its value. */
interface OrderEntry {
  key: PyValue;
  value: PyValue;
}

/** `datetime(2024, 9, 1, 10, 30)`, computed in UTC so that the host zone never matters. */
const CURRENT_TIME_MS = Date.UTC(2024, 8, 1, 10, 30, 0);
const SECONDS_PER_DAY = 86400;
const DEFAULT_RANDOM_SEED = 1053520;

/** Fields that Python holds as floats in every scenario of the data (see the module comment). */
const ACCOUNT_FLOATS = ['balance'];
const STOCK_FLOATS = ['price', 'percent_change', 'volume', 'MA(5)', 'MA(20)'];
const ORDER_FLOATS = ['price'];
const TRANSACTION_FLOATS = ['price'];

const DEFAULT_STOCKS: readonly (readonly [string, number, number, number, number, number])[] = [
  // symbol, price, percent_change, volume, MA(5), MA(20)
  ['AAPL', 227.16, 0.17, 2.552, 227.11, 227.09],
  ['GOOG', 2840.34, 0.24, 1.123, 2835.67, 2842.15],
  ['TSLA', 667.92, -0.12, 1.654, 671.15, 668.2],
  ['MSFT', 310.23, 0.09, 3.234, 309.88, 310.11],
  ['NVDA', 220.34, 0.34, 1.234, 220.45, 220.67],
  ['ALPH', 1320.45, -0.08, 1.567, 1321.12, 1325.78],
  ['OMEG', 457.23, 0.12, 2.345, 456.78, 458.12],
  ['QUAS', 725.89, -0.03, 1.789, 726.45, 728.0],
  ['NEPT', 88.34, 0.19, 0.654, 88.21, 88.67],
  ['SYNX', 345.67, 0.11, 2.112, 345.34, 346.12],
  ['ZETA', 22.09, -0.05, 0.789, 22.12, 22.34],
];

const SYMBOL_MAP: ReadonlyMap<string, string> = new Map([
  ['Apple', 'AAPL'],
  ['Google', 'GOOG'],
  ['Tesla', 'TSLA'],
  ['Microsoft', 'MSFT'],
  ['Nvidia', 'NVDA'],
  ['Zeta Corp', 'ZETA'],
  ['Alpha Tech', 'ALPH'],
  ['Omega Industries', 'OMEG'],
  ['Quasar Ltd.', 'QUAS'],
  ['Neptune Systems', 'NEPT'],
  ['Synex Solutions', 'SYNX'],
  ['Amazon', 'AMZN'],
  ['Gorilla', 'GORI'],
]);

// ---------------------------------------------------------------------------------------------
// Python semantics on PyValue

function pyError(message: string): BfclPyError {
  return new BfclPyError(message);
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** `obj[key] = value` that keeps a `"__proto__"` key an ordinary own property. */
function setOwn<T>(obj: { [key: string]: T }, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function deepCopy(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isPyDict(value)) {
    const out: Dict = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, deepCopy(v));
    return out;
  }
  return value;
}

function shallowDict(value: Dict): Dict {
  const out: Dict = {};
  for (const [k, v] of Object.entries(value)) setOwn(out, k, v);
  return out;
}

/** `bool(value)`. */
function truthy(value: PyValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

/** Python's `type(x).__name__`, including `NoneType` for a missing value. */
function typeName(value: PyValue | undefined): string {
  return pyTypeName(value);
}

/** The dict key Python's hashing would find: ints, equal floats and bools share one; unhashable values raise. */
function hashKey(value: PyValue | undefined): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return `s:${value}`;
  if (Array.isArray(value) || isPyDict(value)) throw pyError(`unhashable type: '${typeName(value)}'`);
  const n = pyNumber(value) as number;
  return Number.isInteger(n) ? `n:${BigInt(n)}` : `n:${n}`;
}

/** `key in d` for a dict with str keys. */
function dictHas(d: Dict, key: PyValue | undefined): boolean {
  hashKey(key);
  return typeof key === 'string' && hasOwn(d, key);
}

/** `container[key]` with a str key. */
function getItem(container: PyValue | undefined, key: string): PyValue {
  if (isPyDict(container)) {
    if (!hasOwn(container, key)) throw pyError(pyStrRepr(key));
    return container[key] as PyValue;
  }
  if (typeof container === 'string') throw pyError("string indices must be integers, not 'str'");
  if (Array.isArray(container)) throw pyError('list indices must be integers or slices, not str');
  throw pyError(`'${typeName(container)}' object is not subscriptable`);
}

/** `container[key] = value` with a str key. */
function setItem(container: PyValue, key: string, value: PyValue): void {
  if (isPyDict(container)) {
    setOwn(container, key, value);
    return;
  }
  if (Array.isArray(container)) throw pyError('list indices must be integers or slices, not str');
  throw pyError(`'${typeName(container)}' object does not support item assignment`);
}

/** `value.copy()`: a shallow copy of a dict or list. */
function pyCopy(value: PyValue): PyValue {
  if (isPyDict(value)) return shallowDict(value);
  if (Array.isArray(value)) return [...value];
  throw pyError(`'${typeName(value)}' object has no attribute 'copy'`);
}

/** `d.get(key, fallback)` on a value that must be a dict. */
function dictGet(d: PyValue, key: PyValue | undefined, fallback: PyValue): PyValue {
  if (!isPyDict(d)) throw pyError(`'${typeName(d)}' object has no attribute 'get'`);
  return dictHas(d, key) ? (d[key as string] as PyValue) : fallback;
}

/** The items of `for x in value`: a str's characters, a list's items, a dict's keys. */
function pyIter(value: PyValue | undefined): PyValue[] {
  if (typeof value === 'string') return [...value];
  if (Array.isArray(value)) return value;
  if (isPyDict(value)) return Object.keys(value);
  throw pyError(`'${typeName(value)}' object is not iterable`);
}

function codePointCompare(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

type CompareOp = '<=' | '>=' | '<' | '>';

/** `a op b` for numbers (ints, floats, bools) and strings; other mixes raise Python's TypeError. */
function compare(a: PyValue | undefined, op: CompareOp, b: PyValue | undefined): boolean {
  const x = pyNumber(a);
  const y = pyNumber(b);
  let d: number;
  if (x !== undefined && y !== undefined) {
    if (op === '<=') return x <= y;
    if (op === '>=') return x >= y;
    if (op === '<') return x < y;
    return x > y;
  }
  if (typeof a === 'string' && typeof b === 'string') d = codePointCompare(a, b);
  else throw pyError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  if (op === '<=') return d <= 0;
  if (op === '>=') return d >= 0;
  if (op === '<') return d < 0;
  return d > 0;
}

function isFloatValue(value: PyValue): boolean {
  return value instanceof PyFloat || (typeof value === 'number' && !Number.isInteger(value));
}

/** A number with Python's float-ness: integral floats become `PyFloat`. */
function pyNum(x: number, isFloat: boolean): PyValue {
  return isFloat && Number.isInteger(x) ? new PyFloat(x) : x;
}

/** `float(value)` for a number or bool. */
function toFloat(value: PyValue): PyValue {
  return pyNum(pyNumber(value) as number, true);
}

/** `a += b` / `a -= b` on numbers; other operands raise Python's TypeError. */
function arith(a: PyValue | undefined, op: '+=' | '-=', b: PyValue): PyValue {
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x === undefined || y === undefined || a === undefined) {
    if (op === '+=' && (typeof a === 'string' || Array.isArray(a))) {
      const t = typeName(a);
      throw pyError(`can only concatenate ${t} (not "${typeName(b)}") to ${t}`);
    }
    throw pyError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  }
  return pyNum(op === '+=' ? x + y : x - y, isFloatValue(a) || isFloatValue(b));
}

/** `f"{value:.2f}"`. */
function format2f(value: PyValue): string {
  if (typeof value === 'string') throw pyError("Unknown format code 'f' for object of type 'str'");
  const x = pyNumber(value);
  if (x === undefined) throw pyError(`unsupported format string passed to ${typeName(value)}.__format__`);
  if (Number.isNaN(x)) return 'nan';
  const negative = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  let body: string;
  if (abs === Number.POSITIVE_INFINITY) body = 'inf';
  else if (abs >= 1e21) body = `${BigInt(abs)}.00`;
  else body = pyRound(abs, 2).toFixed(2);
  return negative ? `-${body}` : body;
}

/** `int(value)` for a number or bool. */
function toInt(value: PyValue): number {
  const x = pyNumber(value) as number;
  if (Number.isNaN(x)) throw pyError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw pyError('cannot convert float infinity to integer');
  return Math.trunc(x) + 0;
}

// ---------------------------------------------------------------------------------------------
// datetime.strptime for the two formats the class parses

const DATE_RE = /^(\d\d\d\d)-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])/i;
const DATETIME_RE = /^(\d\d\d\d)-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)/i;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * `datetime.strptime(text, '%Y-%m-%d')` or `'%Y-%m-%d %H:%M:%S'` (CPython's `_strptime` regexes),
 * as a number that orders like the datetime.
 */
function strptime(text: PyValue | undefined, withTime: boolean): number {
  if (typeof text !== 'string') throw pyError(`strptime() argument 1 must be str, not ${text === null || text === undefined ? 'None' : typeName(text)}`);
  const format = withTime ? '%Y-%m-%d %H:%M:%S' : '%Y-%m-%d';
  const found = (withTime ? DATETIME_RE : DATE_RE).exec(text);
  if (found === null) throw pyError(`time data ${pyStrRepr(text)} does not match format ${pyStrRepr(format)}`);
  if (found[0].length !== text.length) throw pyError(`unconverted data remains: ${text.slice(found[0].length)}`);
  const [year, month, day, hour = 0, minute = 0, second = 0] = found.slice(1).map((g) => Number.parseInt(g.trim(), 10));
  if (year === 0) throw pyError('year 0 is out of range');
  if ((day as number) > daysInMonth(year as number, month as number)) throw pyError('day is out of range for month');
  if (second > 59) throw pyError('second must be in 0..59');
  return (((((year as number) * 13 + (month as number)) * 32 + (day as number)) * 24 + hour) * 60 + minute) * 60 + second;
}

// ---------------------------------------------------------------------------------------------
// JSON forms

/** A value of the public state: plain JSON, as `expected/README.md` maps Python values. */
function stateJson(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return stateJson(value.value);
  if (typeof value === 'number' && !Number.isFinite(value)) return { __py_type__: 'float', repr: pyStr(value) };
  if (Array.isArray(value)) return value.map(stateJson);
  if (isPyDict(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, stateJson(v));
    return out;
  }
  return value;
}

function floatSpecial(x: number): string | undefined {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (Object.is(x, -0)) return '-0';
  return undefined;
}

/** A value of a snapshot: float-ness kept as `{"$float": x}`, a dict that could be mistaken for one as `{"$dict": [[k, v]]}`. */
function encode(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return { $float: floatSpecial(value.value) ?? value.value };
  if (typeof value === 'number') {
    const special = floatSpecial(value);
    return special === undefined || special === '-0' ? value : { $float: special };
  }
  if (Array.isArray(value)) return value.map(encode);
  if (isPyDict(value)) {
    if (hasOwn(value, '$float') || hasOwn(value, '$dict')) return { $dict: Object.entries(value).map(([k, v]) => [k, encode(v)]) };
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, encode(v));
    return out;
  }
  return value;
}

function decodeSpecial(x: JsonValue | undefined): number {
  if (typeof x === 'number') return x;
  if (x === 'nan') return Number.NaN;
  if (x === 'inf') return Number.POSITIVE_INFINITY;
  if (x === '-inf') return Number.NEGATIVE_INFINITY;
  if (x === '-0') return -0;
  throw new Error(`TradingBot snapshot: bad $float ${JSON.stringify(x)}`);
}

function decode(value: JsonValue): PyValue {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    if (hasOwn(value, '$float')) {
      const x = decodeSpecial(value.$float);
      return Number.isInteger(x) ? new PyFloat(x) : x;
    }
    if (hasOwn(value, '$dict')) {
      const out: Dict = {};
      for (const pair of value.$dict as [string, JsonValue][]) setOwn(out, pair[0], decode(pair[1]));
      return out;
    }
    const out: Dict = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, decode(v));
    return out;
  }
  return value;
}

/** A config value as Python sees it after `copy.deepcopy`; `PyFloat`s a caller passes are kept. */
function fromConfig(value: unknown): PyValue {
  if (value instanceof PyFloat) return value;
  if (Array.isArray(value)) return value.map(fromConfig);
  if (value !== null && typeof value === 'object') {
    const out: Dict = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, fromConfig(v));
    return out;
  }
  return value as PyValue;
}

function markFloats(value: PyValue, fields: readonly string[]): void {
  if (!isPyDict(value)) return;
  for (const f of fields) {
    const v = value[f];
    if (typeof v === 'number' && Number.isInteger(v)) value[f] = new PyFloat(v);
  }
}

// ---------------------------------------------------------------------------------------------
// The class

/** What `TradingBot.snapshot()` returns. */
export interface TradingBotSnapshot {
  orders: [JsonValue, JsonValue][];
  accountInfo: JsonValue;
  authenticated: JsonValue;
  marketStatus: JsonValue;
  orderCounter: JsonValue;
  stocks: JsonValue;
  watchList: JsonValue;
  transactionHistory: JsonValue;
  longContext: boolean;
  random: PyRandomSnapshot;
}

interface TradingBotFields {
  orders: Map<string, OrderEntry>;
  accountInfo: Dict;
  authenticated: PyValue;
  marketStatus: PyValue;
  orderCounter: PyValue;
  stocks: Dict;
  watchList: PyValue[];
  transactionHistory: PyValue[];
  longContext: boolean;
  random: PyRandom;
}

function defaultOrders(): Map<string, OrderEntry> {
  const orders = new Map<string, OrderEntry>();
  const add = (id: number, orderType: string, symbol: string, price: number, amount: number, status: string): void => {
    orders.set(hashKey(id), { key: id, value: { id, order_type: orderType, symbol, price, amount, status } });
  };
  add(12345, 'Buy', 'AAPL', 210.65, 10, 'Completed');
  add(12446, 'Sell', 'GOOG', 2840.56, 5, 'Pending');
  return orders;
}

function defaultStocks(): Dict {
  const stocks: Dict = {};
  for (const [symbol, price, change, volume, ma5, ma20] of DEFAULT_STOCKS) {
    stocks[symbol] = { price, percent_change: change, volume, 'MA(5)': ma5, 'MA(20)': ma20 };
  }
  return stocks;
}

function requireDict(value: PyValue, name: string): Dict {
  if (!isPyDict(value)) throw new Error(`TradingBot port: scenario "${name}" must be a dict, got ${typeName(value)}`);
  return value;
}

function requireList(value: PyValue, name: string): PyValue[] {
  if (!Array.isArray(value)) throw new Error(`TradingBot port: scenario "${name}" must be a list, got ${typeName(value)}`);
  return value;
}

function seedOf(value: PyValue): number {
  const n = typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
  if (n === undefined) throw new Error(`TradingBot port: only int random_seed values are supported, got ${pyStr(value)}`);
  return Math.abs(n);
}

function loadOrders(value: PyValue): Map<string, OrderEntry> {
  if (!isPyDict(value)) throw pyError(`'${typeName(value)}' object has no attribute 'items'`);
  const orders = new Map<string, OrderEntry>();
  for (const [k, v] of Object.entries(value)) {
    // int(k) if isinstance(k, str) and k.isdigit() else k
    const key: PyValue = /^[0-9]+$/.test(k) ? Number(BigInt(k)) : k;
    const tag = hashKey(key);
    const existing = orders.get(tag);
    if (existing === undefined) orders.set(tag, { key, value: v });
    else existing.value = v;
  }
  return orders;
}

/** A live `TradingBot`; its public methods are in `tradingBotPort.methods`. */
export class TradingBot implements BfclInstance {
  private readonly f: TradingBotFields;

  private constructor(fields: TradingBotFields) {
    this.f = fields;
  }

  /** `TradingBot()` then `_load_scenario(copy.deepcopy(scenario), long_context)`. */
  static load(scenario: JsonObject | undefined, longContext: boolean): TradingBot {
    const s = (scenario === undefined ? {} : fromConfig(scenario)) as Dict;
    const get = (key: string, fallback: () => PyValue): PyValue => (hasOwn(s, key) ? (s[key] as PyValue) : fallback());
    const orders = hasOwn(s, 'orders') ? loadOrders(s.orders as PyValue) : defaultOrders();
    const accountInfo = requireDict(
      get('account_info', () => ({ account_id: 12345, balance: 10000, binding_card: 1974202140965533 })),
      'account_info',
    );
    const stocks = requireDict(get('stocks', defaultStocks), 'stocks');
    const transactionHistory = requireList(get('transaction_history', () => []), 'transaction_history');
    markFloats(accountInfo, ACCOUNT_FLOATS);
    for (const stock of Object.values(stocks)) markFloats(stock, STOCK_FLOATS);
    for (const order of orders.values()) markFloats(order.value, ORDER_FLOATS);
    for (const t of transactionHistory) markFloats(t, TRANSACTION_FLOATS);
    return new TradingBot({
      orders,
      accountInfo,
      authenticated: get('authenticated', () => false),
      marketStatus: get('market_status', () => 'Closed'),
      orderCounter: get('order_counter', () => 12446),
      stocks,
      watchList: requireList(get('watch_list', () => ['NVDA']), 'watch_list'),
      transactionHistory,
      longContext,
      random: new PyRandom(seedOf(get('random_seed', () => DEFAULT_RANDOM_SEED))),
    });
  }

  /** An instance from `snapshot()`. */
  static restore(snapshot: JsonValue): TradingBot {
    if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot) || !Array.isArray(snapshot.orders)) {
      throw new Error('TradingBot.restore: not a TradingBot snapshot');
    }
    const s = snapshot as unknown as TradingBotSnapshot;
    const orders = new Map<string, OrderEntry>();
    for (const [k, v] of s.orders) {
      const key = decode(k);
      orders.set(hashKey(key), { key, value: decode(v) });
    }
    return new TradingBot({
      orders,
      accountInfo: decode(s.accountInfo) as Dict,
      authenticated: decode(s.authenticated),
      marketStatus: decode(s.marketStatus),
      orderCounter: decode(s.orderCounter),
      stocks: decode(s.stocks) as Dict,
      watchList: decode(s.watchList) as PyValue[],
      transactionHistory: decode(s.transactionHistory) as PyValue[],
      longContext: s.longContext,
      random: PyRandom.restore(s.random),
    });
  }

  /** The public attributes, in `vars()` order, as the reference replays write them. */
  publicState(): JsonObject {
    const f = this.f;
    const orders: JsonObject = {};
    for (const { key, value } of f.orders.values()) setOwn(orders, pyStr(key), stateJson(value));
    return {
      orders,
      account_info: stateJson(f.accountInfo),
      authenticated: stateJson(f.authenticated),
      market_status: stateJson(f.marketStatus),
      order_counter: stateJson(f.orderCounter),
      stocks: stateJson(f.stocks),
      watch_list: stateJson(f.watchList),
      transaction_history: stateJson(f.transactionHistory),
      long_context: f.longContext,
    };
  }

  /** Everything, private generator position included, as JSON (see `TradingBotSnapshot`). */
  snapshot(): JsonValue {
    const f = this.f;
    const snap: TradingBotSnapshot = {
      orders: [...f.orders.values()].map(({ key, value }) => [encode(key), encode(value)]),
      accountInfo: encode(f.accountInfo),
      authenticated: encode(f.authenticated),
      marketStatus: encode(f.marketStatus),
      orderCounter: encode(f.orderCounter),
      stocks: encode(f.stocks),
      watchList: encode(f.watchList),
      transactionHistory: encode(f.transactionHistory),
      longContext: f.longContext,
      random: f.random.snapshot(),
    };
    return snap as unknown as JsonValue;
  }

  private findOrder(orderId: PyValue): OrderEntry | undefined {
    return this.f.orders.get(hashKey(orderId));
  }

  /** `_generate_transaction_timestamp`: CURRENT_TIME plus `randint(ts, ts + 86400) - ts` seconds. */
  private transactionTimestamp(): string {
    const offset = this.f.random.randint(0, SECONDS_PER_DAY);
    const d = new Date(CURRENT_TIME_MS + offset * 1000);
    const p = (n: number): string => String(n).padStart(2, '0');
    return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  }

  /** `{'current_time': '10:30 AM'}`: CURRENT_TIME is fixed. */
  get_current_time(): PyOut {
    return { current_time: '10:30 AM' };
  }

  /** The symbol of a company name, or `Stock not found`. */
  get_symbol_by_name(name: PyValue): PyOut {
    hashKey(name); // dict.get raises for an unhashable name
    return { symbol: (typeof name === 'string' ? SYMBOL_MAP.get(name) : undefined) ?? 'Stock not found' };
  }

  /** A stock's quote; in long context its MA(5) and MA(20) are the long lists. */
  get_stock_info(symbol: PyValue): PyOut {
    const f = this.f;
    if (!dictHas(f.stocks, symbol)) return { error: `Stock with symbol '${pyStr(symbol)}' not found.` };
    const stock = f.stocks[symbol as string] as PyValue;
    if (f.longContext) {
      const copy = pyCopy(deepCopy(stock));
      setItem(copy, 'MA(5)', longContextValue('MA_5_EXTENSION') as PyValue);
      setItem(copy, 'MA(20)', longContextValue('MA_20_EXTENSION') as PyValue);
      return copy;
    }
    return deepCopy(stock);
  }

  /** An order; in long context with `metadata`, the extension texts formatted with its symbol. */
  get_order_details(orderId: PyValue): PyOut {
    const entry = this.findOrder(orderId);
    if (entry === undefined) {
      const keys = [...this.f.orders.values()].map((e) => e.key);
      return { error: `Order with ID ${pyStr(orderId)} not found.Here is the list of orders_id: ${pyStr(keys)}` };
    }
    if (this.f.longContext) {
      const order = pyCopy(deepCopy(entry.value));
      const symbol = pyStr(getItem(order, 'symbol'));
      // str.format(symbol=...): the texts hold no placeholder but {symbol} and no other brace (tested).
      const extension = longContextValue('ORDER_DETAIL_EXTENSION') as { [key: string]: string };
      const formatted: Dict = {};
      for (const [k, v] of Object.entries(extension)) setOwn(formatted, k, v.replaceAll('{symbol}', symbol));
      setItem(order, 'metadata', formatted);
      return order;
    }
    return deepCopy(entry.value);
  }

  /** Sets an order's status to `Cancelled` unless it is `Completed`. */
  cancel_order(orderId: PyValue): PyOut {
    const entry = this.findOrder(orderId);
    if (entry === undefined) return { error: `Order with ID ${pyStr(orderId)} not found.` };
    if (pyEquals(getItem(entry.value, 'status'), 'Completed')) {
      return { error: `Can't cancel order ${pyStr(orderId)}. Order is already completed.` };
    }
    setItem(entry.value, 'status', 'Cancelled');
    return { order_id: orderId, status: 'Cancelled' };
  }

  /** Adds an `Open` order under `order_counter` (answering `Pending`); a buy needs the funds. */
  place_order(orderType: PyValue, symbol: PyValue, price: PyValue, amount: PyValue): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return { error: 'User not authenticated. Please log in to place an order.' };
    if (!dictHas(f.stocks, symbol)) return { error: `Invalid stock symbol: ${pyStr(symbol)}` };
    if (compare(price, '<=', 0) || compare(amount, '<=', 0)) return { error: 'Price and amount must be positive values.' };
    if (typeof orderType !== 'string') throw pyError(`'${typeName(orderType)}' object has no attribute 'lower'`);
    if (orderType.toLowerCase() === 'buy') {
      const totalCost = pyNum((pyNumber(price) as number) * toInt(amount), true);
      const balance = dictGet(f.accountInfo, 'balance', 0);
      if (compare(totalCost, '>', balance)) {
        return { error: `Insufficient funds: required $${format2f(totalCost)} but only $${format2f(balance)} available.` };
      }
    }
    const floatPrice = toFloat(price);
    const orderId = f.orderCounter;
    const tag = hashKey(orderId);
    const order: Dict = { id: orderId, order_type: orderType, symbol, price: floatPrice, amount, status: 'Open' };
    const existing = f.orders.get(tag);
    if (existing === undefined) f.orders.set(tag, { key: orderId, value: order });
    else existing.value = order;
    f.orderCounter = arith(f.orderCounter, '+=', 1);
    return { order_id: orderId, order_type: orderType, status: 'Pending', price: floatPrice, amount };
  }

  /** Withdraws from the balance while the market is open, recording a timestamped transaction. */
  withdraw_funds(amount: PyValue): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return { error: 'User not authenticated. Please log in to make a transaction.' };
    if (f.marketStatus !== 'Open') return { error: 'Market is closed. Transactions are not allowed.' };
    if (compare(amount, '<=', 0)) return { error: 'Transaction amount must be positive.' };
    if (compare(amount, '>', getItem(f.accountInfo, 'balance'))) return { error: 'Insufficient funds for withdrawal.' };
    f.accountInfo.balance = arith(getItem(f.accountInfo, 'balance'), '-=', amount);
    f.transactionHistory.push({ type: 'withdrawal', amount, timestamp: this.transactionTimestamp() });
    return { status: 'Withdrawal successful', new_balance: f.accountInfo.balance };
  }

  /** The account dict, when logged in. */
  get_account_info(): PyOut {
    if (!truthy(this.f.authenticated)) return { error: 'User not authenticated. Please log in to view account information.' };
    return deepCopy(this.f.accountInfo);
  }

  /** Logs in; no credential is checked. */
  trading_login(_username: PyValue, _password: PyValue): PyOut {
    if (truthy(this.f.authenticated)) return { status: 'Already logged in' };
    this.f.authenticated = true;
    return { status: 'Logged in successfully' };
  }

  /** `{'status': bool(authenticated)}`. */
  trading_get_login_status(): PyOut {
    return { status: truthy(this.f.authenticated) };
  }

  /** Logs out. */
  trading_logout(): PyOut {
    if (!truthy(this.f.authenticated)) return { status: 'No user is currently logged in' };
    this.f.authenticated = false;
    return { status: 'Logged out successfully' };
  }

  /** Adds to the balance, recording a timestamped deposit. */
  fund_account(amount: PyValue): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return { error: 'User not authenticated. Please log in to fund the account.' };
    if (compare(amount, '<=', 0)) return { error: 'Funding amount must be positive.' };
    f.accountInfo.balance = arith(getItem(f.accountInfo, 'balance'), '+=', amount);
    f.transactionHistory.push({ type: 'deposit', amount, timestamp: this.transactionTimestamp() });
    return { status: 'Account funded successfully', new_balance: f.accountInfo.balance };
  }

  /** Removes the first equal symbol from the watch list. */
  remove_stock_from_watchlist(symbol: PyValue): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return { error: 'User not authenticated. Please log in to modify the watchlist.' };
    const index = f.watchList.findIndex((s) => pyEquals(s, symbol));
    if (index < 0) return { error: `Stock ${pyStr(symbol)} not found in watchlist.` };
    f.watchList.splice(index, 1);
    return { status: `Stock ${pyStr(symbol)} removed from watchlist successfully.` };
  }

  /** `{'watchlist': [...]}`, or in long context a bare list ending in the extension's `Ellipsis`. */
  get_watchlist(): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return ['Error: User not authenticated. Please log in to view the watchlist.'];
    if (f.longContext) return [...f.watchList.map(deepCopy), ...(longContextValue('WATCH_LIST_EXTENSION') as PyOut[])];
    return { watchlist: f.watchList.map(deepCopy) };
  }

  /** The order ids in insertion order. */
  get_order_history(): PyOut {
    if (!truthy(this.f.authenticated)) return [{ error: 'User not authenticated. Please log in to view order history.' }];
    return { history: [...this.f.orders.values()].map((e) => e.key) };
  }

  /** The transactions from midnight of `start_date` to midnight of `end_date`, plus the long-context extension. */
  get_transaction_history(startDate: PyValue, endDate: PyValue): PyOut {
    const f = this.f;
    if (!truthy(f.authenticated)) return [{ error: 'User not authenticated. Please log in to view transaction history.' }];
    const start = truthy(startDate) ? strptime(startDate, false) : Number.NEGATIVE_INFINITY;
    const end = truthy(endDate) ? strptime(endDate, false) : Number.POSITIVE_INFINITY;
    const filtered: PyOut[] = f.transactionHistory.filter((t) => {
      const at = strptime(getItem(t, 'timestamp'), true);
      return start <= at && at <= end;
    }).map(deepCopy);
    if (f.longContext) filtered.push(...(longContextValue('TRANSACTION_HISTORY_EXTENSION') as PyOut[]));
    return { transaction_history: filtered };
  }

  /** The symbols of `Technology` or `Automobile` (extended in long context), else `[]`. */
  get_available_stocks(sector: PyValue): PyOut {
    hashKey(sector); // dict.get raises for an unhashable sector
    const extension = (name: LongContextName): string[] => (this.f.longContext ? (longContextValue(name) as string[]) : []);
    if (sector === 'Technology') return { stock_list: ['AAPL', 'GOOG', 'MSFT', 'NVDA', ...extension('TECHNOLOGY_EXTENSION')] };
    if (sector === 'Automobile') return { stock_list: ['TSLA', 'F', 'GM', ...extension('AUTOMOBILE_EXTENSION')] };
    return { stock_list: [] };
  }

  /** The given symbols whose price (0 for an unknown one) lies in [min_price, max_price]. */
  filter_stocks_by_price(stocks: PyValue, minPrice: PyValue, maxPrice: PyValue): PyOut {
    const price = (symbol: PyValue): PyValue => dictGet(dictGet(this.f.stocks, symbol, {}), 'price', 0);
    const filtered = pyIter(stocks).filter((symbol) => compare(price(symbol), '>=', minPrice) && compare(price(symbol), '<=', maxPrice));
    return { filtered_stocks: filtered.map(deepCopy) };
  }

  /** Appends a known symbol not yet watched. */
  add_to_watchlist(stock: PyValue): PyOut {
    const f = this.f;
    if (!f.watchList.some((s) => pyEquals(s, stock)) && dictHas(f.stocks, stock)) f.watchList.push(stock);
    return { watchlist: f.watchList.map(deepCopy) };
  }

  /** Names the given known symbols whose |percent_change| reaches the threshold. */
  notify_price_change(stocks: PyValue, threshold: PyValue): PyOut {
    const changed = pyIter(stocks).filter((symbol) => {
      if (!dictHas(this.f.stocks, symbol)) return false;
      const change = getItem(this.f.stocks[symbol as string] as PyValue, 'percent_change');
      const x = pyNumber(change);
      if (x === undefined) throw pyError(`bad operand type for abs(): '${typeName(change)}'`);
      return compare(pyNum(Math.abs(x), isFloatValue(change)), '>=', threshold);
    });
    if (changed.length > 0) return { notification: `Stocks ${changed.map((s) => pyStr(s)).join(', ')} have significant price changes.` };
    return { notification: 'No significant price changes in the selected stocks.' };
  }
}

// ---------------------------------------------------------------------------------------------
// The port

type Args = Readonly<Record<string, PyValue>>;

function arg(args: Args, method: string, name: string): PyValue {
  if (!hasOwn(args, name)) throw pyError(`TradingBot.${method}() missing 1 required positional argument: '${name}'`);
  return args[name] as PyValue;
}

function optional(args: Args, name: string): PyValue {
  return hasOwn(args, name) ? (args[name] as PyValue) : null;
}

function method(params: readonly (readonly [string, boolean])[], call: (bot: TradingBot, args: Args) => PyOut): BfclMethod<TradingBot> {
  return { params, call };
}

const methods: Record<string, BfclMethod<TradingBot>> = {
  get_current_time: method([], (b) => b.get_current_time()),
  get_symbol_by_name: method([['name', false]], (b, a) => b.get_symbol_by_name(arg(a, 'get_symbol_by_name', 'name'))),
  get_stock_info: method([['symbol', false]], (b, a) => b.get_stock_info(arg(a, 'get_stock_info', 'symbol'))),
  get_order_details: method([['order_id', false]], (b, a) => b.get_order_details(arg(a, 'get_order_details', 'order_id'))),
  cancel_order: method([['order_id', false]], (b, a) => b.cancel_order(arg(a, 'cancel_order', 'order_id'))),
  place_order: method(
    [
      ['order_type', false],
      ['symbol', false],
      ['price', false],
      ['amount', false],
    ],
    (b, a) => {
      const n = 'place_order';
      return b.place_order(arg(a, n, 'order_type'), arg(a, n, 'symbol'), arg(a, n, 'price'), arg(a, n, 'amount'));
    },
  ),
  withdraw_funds: method([['amount', false]], (b, a) => b.withdraw_funds(arg(a, 'withdraw_funds', 'amount'))),
  get_account_info: method([], (b) => b.get_account_info()),
  trading_login: method(
    [
      ['username', false],
      ['password', false],
    ],
    (b, a) => b.trading_login(arg(a, 'trading_login', 'username'), arg(a, 'trading_login', 'password')),
  ),
  trading_get_login_status: method([], (b) => b.trading_get_login_status()),
  trading_logout: method([], (b) => b.trading_logout()),
  fund_account: method([['amount', false]], (b, a) => b.fund_account(arg(a, 'fund_account', 'amount'))),
  remove_stock_from_watchlist: method([['symbol', false]], (b, a) =>
    b.remove_stock_from_watchlist(arg(a, 'remove_stock_from_watchlist', 'symbol')),
  ),
  get_watchlist: method([], (b) => b.get_watchlist()),
  get_order_history: method([], (b) => b.get_order_history()),
  get_transaction_history: method(
    [
      ['start_date', true],
      ['end_date', true],
    ],
    (b, a) => b.get_transaction_history(optional(a, 'start_date'), optional(a, 'end_date')),
  ),
  get_available_stocks: method([['sector', false]], (b, a) => b.get_available_stocks(arg(a, 'get_available_stocks', 'sector'))),
  filter_stocks_by_price: method(
    [
      ['stocks', false],
      ['min_price', false],
      ['max_price', false],
    ],
    (b, a) => {
      const n = 'filter_stocks_by_price';
      return b.filter_stocks_by_price(arg(a, n, 'stocks'), arg(a, n, 'min_price'), arg(a, n, 'max_price'));
    },
  ),
  add_to_watchlist: method([['stock', false]], (b, a) => b.add_to_watchlist(arg(a, 'add_to_watchlist', 'stock'))),
  notify_price_change: method(
    [
      ['stocks', false],
      ['threshold', false],
    ],
    (b, a) => b.notify_price_change(arg(a, 'notify_price_change', 'stocks'), arg(a, 'notify_price_change', 'threshold')),
  ),
};

/** The BFCL port of `TradingBot`: every public method of the Python class, in its signature. */
export const tradingBotPort: BfclClassPort<TradingBot> = {
  className: 'TradingBot',
  stateless: false,
  load: (config, longContext) => TradingBot.load(config, longContext),
  restore: (snapshot) => TradingBot.restore(snapshot),
  methods,
};
