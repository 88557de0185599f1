import type { JsonObject, JsonValue } from '@autoforge/core';
import { BenchAdapterError } from '../error.js';
import { pyRound } from '../python-number.js';
import { pyRepr, pyStr, pyStrListRepr, pyStrRepr } from '../python-repr.js';
import type { PyValue } from '../python-value.js';
import { isPyDict, pyEquals, pyTypeName, PyFloat, toJsonValue } from '../python-value.js';
import { longContextValue } from './long-context.js';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { BfclPyError } from './port.js';
import { PyRandom } from './python-random.js';
import type { PyRandomSnapshot } from './python-random.js';

/**
 * BFCL's `TravelAPI` (`travel_booking.py`, ShishirPatil/gorilla at 6ea57973, Apache-2.0): flights,
 * credit cards, bookings, insurance and a budget limit, ported method for method.
 *
 * What it reproduces beyond the happy path:
 * - the draws of `random.Random(141053)` in Python's order: `authenticate_travel` (token),
 *   `register_credit_card` (card id, then balance), `book_flight` (booking id, then transaction
 *   id), `purchase_insurance` (insurance id), only on the success path;
 * - Python's insertion order of `credit_card_list` and `booking_record`, also for keys such as
 *   `"3426812"` that a JavaScript object would move to the front (long-context `book_flight`
 *   returns the whole record, and its JSON shows the order);
 * - float versus int (`balance` 5000 versus 5000.0) through `PyFloat`, including floats in an
 *   `initial_config` read with `parsePyJson`;
 * - long context: `CREDIT_CARD_EXTENSION` and `BOOKING_RECORD_EXTENSION` merged into the state
 *   (as fresh copies, where Python shares the module dicts), and `get_flight_cost` pricing every
 *   route into the private `_flight_cost_lookup`;
 * - the exceptions Python raises on arguments of the wrong type (`TypeError`, `AttributeError`,
 *   `ValueError`, `KeyError`), with their `str(e)`.
 *
 * Where Python itself is not deterministic or cannot be matched:
 * - `verify_traveler_information` reads `datetime.today()`; the port uses `TRAVEL_TODAY`.
 * - `book_flight`'s invalid-class message prints a `set` of strings, whose order depends on
 *   `PYTHONHASHSEED`; the port prints it in the literal's order.
 * - Tuples arrive as lists (`PyValue` has no tuple), so a tuple argument used as a dict key
 *   raises `unhashable type: 'list'` where Python would look it up and miss.
 */

/**
 * The date `verify_traveler_information` takes as today (Python reads `datetime.today()`).
 * Fixed at 2026-01-01 for determinism. The gold dates of birth run from 1950 to 1995-08-15, so any
 * date after 2013 gives the reference results; this one is shortly after the reference replays.
 */
export const TRAVEL_TODAY = { year: 2026, month: 1, day: 1 } as const;

const DEFAULT_SEED = 141053;

type PyDict = { [key: string]: PyValue };

// ---------------------------------------------------------------------------------------------
// Python semantics the methods need.

function pyError(message: string): BfclPyError {
  return new BfclPyError(message);
}

function isFloat(value: PyValue): boolean {
  return value instanceof PyFloat || (typeof value === 'number' && !Number.isInteger(value));
}

/** A Python float with this value: `PyFloat` when integral, so that it prints `5.0`. */
function pyFloat(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

/** The number of an int, float or bool, else `undefined`. */
function numeric(value: PyValue): number | undefined {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function defineKey(target: PyDict, key: string, value: PyValue): void {
  // defineProperty keeps a "__proto__" key an ordinary own property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `copy.deepcopy` of a value (PyFloat is immutable and may be shared). */
function pyCopy(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(pyCopy);
  if (isPyDict(value)) {
    const out: PyDict = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, pyCopy(v));
    return out;
  }
  return value;
}

function hasKey(dict: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(dict, key);
}

/** Python hashes a dict key or set member first: lists and dicts raise `TypeError`. */
function requireHashable(value: PyValue): void {
  if (Array.isArray(value) || isPyDict(value)) throw pyError(`unhashable type: '${pyTypeName(value)}'`);
}

/** `key in d` for a dict whose keys are all strings. */
function mapHas(map: ReadonlyMap<string, PyValue>, key: PyValue): key is string {
  requireHashable(key);
  return typeof key === 'string' && map.has(key);
}

/** `d[key]` for a dict whose keys are all strings (`KeyError` prints the key's repr). */
function mapGet(map: ReadonlyMap<string, PyValue>, key: PyValue): PyValue {
  if (mapHas(map, key)) return map.get(key) as PyValue;
  throw pyError(pyRepr(key));
}

/** `container[name]` with a string subscript, as Python raises for every container type. */
function getItem(container: PyValue, name: string): PyValue {
  if (isPyDict(container)) {
    if (hasKey(container, name)) return container[name] as PyValue;
    throw pyError(pyStrRepr(name));
  }
  if (typeof container === 'string') throw pyError("string indices must be integers, not 'str'");
  if (Array.isArray(container)) throw pyError('list indices must be integers or slices, not str');
  throw pyError(`'${pyTypeName(container)}' object is not subscriptable`);
}

/** `item in container` (`in` on a dict tests keys, on a str substrings, on a list members). */
function contains(container: PyValue, item: string): boolean {
  if (isPyDict(container)) return hasKey(container, item);
  if (typeof container === 'string') return container.includes(item);
  if (Array.isArray(container)) return container.some((x) => pyEquals(x, item));
  throw pyError(`argument of type '${pyTypeName(container)}' is not iterable`);
}

function compareCodePoints(a: string, b: string): number {
  const ca = Array.from(a, (c) => c.codePointAt(0) as number);
  const cb = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    if (ca[i] !== cb[i]) return (ca[i] as number) - (cb[i] as number);
  }
  return ca.length - cb.length;
}

/** Python's `a < b` for numbers, strings and lists; `TypeError` for anything else. */
function pyLess(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b) < 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i] as PyValue;
      const y = b[i] as PyValue;
      if (!pyEquals(x, y)) return pyLess(x, y);
    }
    return a.length < b.length;
  }
  throw pyError(`'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** The items `for x in value` yields; `TypeError` for a value that is not iterable. */
function pyIterate(value: PyValue): PyValue[] {
  if (typeof value === 'string') return Array.from(value);
  if (Array.isArray(value)) return value;
  if (isPyDict(value)) return Object.keys(value);
  throw pyError(`'${pyTypeName(value)}' object is not iterable`);
}

/** Python's in-place `a += b` / `a -= b` (numbers; `+=` also concatenates str and extends list). */
function pyInPlace(op: '+=' | '-=', a: PyValue, b: PyValue): PyValue {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    const r = op === '+=' ? na + nb : na - nb;
    return isFloat(a) || isFloat(b) ? pyFloat(r) : r;
  }
  if (op === '+=' && typeof a === 'string') {
    if (typeof b === 'string') return a + b;
    throw pyError(`can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  if (op === '+=' && Array.isArray(a)) return [...a, ...pyIterate(b).map(pyCopy)];
  throw pyError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** Python's `value * rate` for a numeric rate (sequences repeat by an int). */
function pyMul(value: PyValue, rate: number | PyFloat): PyValue {
  const nv = numeric(value);
  const nr = numeric(rate) as number;
  if (nv !== undefined) return isFloat(value) || isFloat(rate) ? pyFloat(nv * nr) : nv * nr;
  if (typeof value === 'string' || Array.isArray(value)) {
    if (isFloat(rate)) throw pyError("can't multiply sequence by non-int of type 'float'");
    const times = Math.max(0, nr);
    if (typeof value === 'string') return value.repeat(times);
    const out: PyValue[] = [];
    for (let i = 0; i < times; i++) out.push(...value.map(pyCopy));
    return out;
  }
  throw pyError(`unsupported operand type(s) for *: '${pyTypeName(value)}' and '${pyTypeName(rate)}'`);
}

/** Python's `value / rate` (true division: always a float). */
function pyTrueDiv(value: PyValue, rate: number | PyFloat): number {
  const nv = numeric(value);
  if (nv === undefined) throw pyError(`unsupported operand type(s) for /: '${pyTypeName(value)}' and '${pyTypeName(rate)}'`);
  return nv / (numeric(rate) as number);
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;
// Python's str.isdigit() is also true for these (Numeric_Type=Digit: superscripts, circled
// digits, …), which int() then rejects; listed from CPython 3.11's Unicode 14 tables.
const DIGIT_ONLY_RANGES: readonly (readonly [number, number])[] = [
  [0xb2, 0xb3], [0xb9, 0xb9], [0x1369, 0x1371], [0x19da, 0x19da], [0x2070, 0x2070], [0x2074, 0x2079],
  [0x2080, 0x2089], [0x2460, 0x2468], [0x2474, 0x247c], [0x2488, 0x2490], [0x24ea, 0x24ea],
  [0x24f5, 0x24fd], [0x24ff, 0x24ff], [0x2776, 0x277e], [0x2780, 0x2788], [0x278a, 0x2792],
  [0x10a40, 0x10a43], [0x10e60, 0x10e68], [0x11052, 0x1105a], [0x1f100, 0x1f10a],
];

function isDecimalChar(ch: string): boolean {
  return DECIMAL_DIGIT.test(ch);
}

/** `str.isdigit()`: non-empty and every character a digit. */
function pyIsDigit(text: string): boolean {
  if (text === '') return false;
  for (const ch of text) {
    if (isDecimalChar(ch)) continue;
    const cp = ch.codePointAt(0) as number;
    if (!DIGIT_ONLY_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi)) return false;
  }
  return true;
}

/** The value of a decimal digit of any script (Unicode puts each script's 0–9 in a row). */
function decimalValue(ch: string): number {
  let start = ch.codePointAt(0) as number;
  const cp = start;
  while (start > 0 && isDecimalChar(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** `int(text)` for a string `isdigit()` accepted: decimal digits of any script, else ValueError. */
function pyIntOfDigits(text: string): number {
  let out = 0;
  for (const ch of text) {
    if (!isDecimalChar(ch)) throw pyError(`invalid literal for int() with base 10: ${pyStrRepr(text)}`);
    out = out * 10 + decimalValue(ch);
  }
  return out;
}

const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Python's `float(value)`. */
function pyFloatOf(value: PyValue): number {
  const n = numeric(value);
  if (n !== undefined) return n;
  if (typeof value === 'string') {
    const ascii = Array.from(value.trim(), (ch) => (isDecimalChar(ch) ? String(decimalValue(ch)) : ch)).join('');
    if (FLOAT_TEXT.test(ascii)) return Number(ascii.replace(/_/g, ''));
    const special = FLOAT_SPECIAL.exec(ascii);
    if (special !== null) {
      if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
      return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
    throw pyError(`could not convert string to float: ${pyStrRepr(value)}`);
  }
  throw pyError(`float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
}

// `_strptime`'s regex for "%Y-%m-%d": \d is any Unicode decimal digit there too.
const YMD = /^(\p{Nd}{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12]\p{Nd}|0[1-9]|[1-9]| [1-9])/u;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * `datetime.strptime(value, "%Y-%m-%d")`: the date, or `undefined` where Python raises
 * `ValueError` (no match, unconverted data, no such day). A non-string raises `TypeError`.
 */
function pyStrptimeYmd(value: PyValue): { year: number; month: number; day: number } | undefined {
  // CPython's argument parser names None itself, other values by type.
  if (typeof value !== 'string') throw pyError(`strptime() argument 1 must be str, not ${value === null ? 'None' : pyTypeName(value)}`);
  const m = YMD.exec(value);
  if (m === null || m[0].length !== value.length) return undefined;
  const year = pyIntOfDigits(m[1] as string);
  const month = pyIntOfDigits(m[2] as string);
  const day = pyIntOfDigits((m[3] as string).trim());
  if (year < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

// ---------------------------------------------------------------------------------------------
// Python's ordered dicts as return values.

/**
 * A dict for a return value whose keys keep Python's insertion order even where they look like
 * array indices (`"3426812"`), which an ordinary object would enumerate first: a proxy whose
 * `ownKeys` lists the keys in insertion order, so `Object.entries` and `JSON.stringify` (and with
 * them `bfclResultText`) see Python's order.
 */
function orderedDict(entries: Iterable<readonly [string, PyOut]>): { [key: string]: PyOut } {
  const target: { [key: string]: PyOut } = {};
  const keys: string[] = [];
  for (const [k, v] of entries) {
    if (!hasKey(target, k)) keys.push(k);
    Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return new Proxy(target, { ownKeys: () => [...keys] });
}

function dictOut(map: ReadonlyMap<string, PyValue>): { [key: string]: PyOut } {
  return orderedDict(Array.from(map, ([k, v]) => [k, pyCopy(v)] as const));
}

// ---------------------------------------------------------------------------------------------
// Snapshots: JSON that keeps float-ness and key order.

type Encoded = JsonValue;

/** A value as JSON: dicts as `{"$d": [[key, value], …]}` (order kept), floats `{"$f": …}`. */
function encode(value: PyValue): Encoded {
  if (value instanceof PyFloat) return { $f: Object.is(value.value, -0) ? '-0' : value.value };
  if (typeof value === 'number' && !Number.isFinite(value)) return { $f: String(value) };
  if (Array.isArray(value)) return value.map(encode);
  if (isPyDict(value)) return { $d: Object.entries(value).map(([k, v]) => [k, encode(v)]) };
  return value;
}

function badSnapshot(what: string): never {
  throw new BenchAdapterError('E_DATA', `bfcl TravelAPI snapshot: ${what}`);
}

function decode(value: JsonValue | undefined): PyValue {
  if (value === undefined) return badSnapshot('missing value');
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(decode);
  if ('$f' in value) {
    const f = value.$f;
    if (typeof f === 'number') return new PyFloat(f);
    if (typeof f === 'string') return pyFloat(Number(f));
    return badSnapshot('a float that is neither a number nor a string');
  }
  const pairs = value.$d;
  if (!Array.isArray(pairs)) return badSnapshot('a dict without "$d"');
  const out: PyDict = {};
  for (const pair of pairs) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string') return badSnapshot('a dict entry that is not [key, value]');
    defineKey(out, pair[0], decode(pair[1]));
  }
  return out;
}

function encodeMap(map: ReadonlyMap<string, PyValue>): Encoded {
  return Array.from(map, ([k, v]) => [k, encode(v)]);
}

function decodeMap(value: JsonValue | undefined): Map<string, PyValue> {
  if (!Array.isArray(value)) return badSnapshot('a dict that is not a list of entries');
  const out = new Map<string, PyValue>();
  for (const pair of value) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string') return badSnapshot('a dict entry that is not [key, value]');
    out.set(pair[0], decode(pair[1]));
  }
  return out;
}

function mapFromConfig(value: PyValue | undefined, name: string): Map<string, PyValue> {
  if (value === undefined) return new Map();
  if (!isPyDict(value)) throw new BenchAdapterError('E_DATA', `bfcl TravelAPI initial_config: ${name} is not a dict`);
  return new Map(Object.entries(value).map(([k, v]) => [k, pyCopy(v)]));
}

// ---------------------------------------------------------------------------------------------
// The class.

/** The routes `get_flight_cost` prices, with their base cost in USD, in Python's order. */
const BASE_COSTS: readonly (readonly [string, string, number])[] = (
  'SFO LAX 200,SFO JFK 500,SFO ORD 400,SFO BOS 450,SFO RMS 300,SFO SBK 350,SFO MPC 370,SFO SVP 320,' +
  'SFO SHD 330,SFO SSV 340,SFO OKD 360,SFO WLB 310,SFO CRH 380,SFO ATV 390,SFO PHV 420,SFO GFD 430,' +
  'SFO CIA 700,LAX SFO 100,LAX JFK 600,LAX ORD 500,LAX BOS 550,LAX RMS 310,LAX SBK 320,LAX MPC 330,' +
  'LAX SVP 340,LAX SHD 350,LAX SSV 360,LAX OKD 370,LAX WLB 380,LAX CRH 390,LAX ATV 400,LAX PHV 410,' +
  'LAX GFD 420,LAX HND 430,JFK ORD 300,JFK BOS 250,JFK RMS 450,JFK SBK 460,JFK MPC 470,JFK SVP 480,' +
  'JFK SHD 490,JFK SSV 500,JFK OKD 510,JFK WLB 520,JFK CRH 530,JFK ATV 540,JFK PHV 550,JFK GFD 560,' +
  'JFK LAX 570,JFK HND 800,JFK PVG 950,JFK PEK 1000,ORD LAX 180,ORD BOS 200,ORD RMS 350,ORD SBK 360,' +
  'ORD MPC 370,ORD SVP 380,ORD SHD 390,ORD SSV 400,ORD OKD 410,ORD WLB 420,ORD CRH 430,ORD ATV 440,' +
  'ORD PHV 450,ORD GFD 460,BOS RMS 400,BOS SBK 410,BOS MPC 420,BOS SVP 430,BOS SHD 440,BOS SSV 450,' +
  'BOS OKD 460,BOS WLB 470,BOS CRH 480,BOS ATV 490,BOS PHV 500,BOS GFD 510,RMS BOS 200,RMS JFK 210,' +
  'RMS SBK 220,RMS MPC 230,RMS SVP 240,RMS SHD 250,RMS SSV 260,RMS OKD 270,RMS WLB 280,RMS CRH 290,' +
  'RMS ATV 300,RMS PHV 310,RMS GFD 320,RMS LAX 330,SBK MPC 200,SBK SVP 210,SBK SHD 220,SBK SSV 230,' +
  'SBK OKD 240,SBK WLB 250,SBK CRH 260,SBK ATV 270,SBK PHV 280,SBK GFD 290,MPC SVP 210,MPC SHD 220,' +
  'MPC SSV 230,MPC OKD 240,MPC WLB 250,MPC CRH 260,MPC ATV 270,MPC PHV 280,MPC GFD 290,SVP SHD 230,' +
  'SVP SSV 240,SVP OKD 250,SVP WLB 260,SVP CRH 270,SVP ATV 280,SVP PHV 290,SVP GFD 300,SHD SSV 220,' +
  'SHD OKD 230,SHD WLB 240,SHD CRH 250,SHD ATV 260,SHD PHV 270,SHD GFD 280,SSV OKD 240,SSV WLB 250,' +
  'SSV CRH 260,SSV ATV 270,SSV PHV 280,SSV GFD 290,OKD WLB 230,OKD CRH 240,OKD ATV 250,OKD PHV 260,' +
  'OKD GFD 270,WLB CRH 250,WLB ATV 260,WLB PHV 270,WLB GFD 280,CRH ATV 240,CRH PHV 250,CRH GFD 260,' +
  'CRH SFO 270,CRH RMS 280,CRH HKG 290,CRH JFK 300,ATV PHV 230,ATV GFD 240,PHV GFD 220,LHR CDG 100,' +
  'OKD LAX 220'
)
  .split(',')
  .map((row) => {
    const [from = '', to = '', cost = ''] = row.split(' ');
    return [from, to, Number(cost)] as const;
  });

const BASE_COST_BY_ROUTE = new Map(BASE_COSTS.map(([from, to, cost]) => [`${from} ${to}`, cost]));

const AIRPORTS = [
  'RMS', 'SBK', 'MPC', 'SVP', 'SHD', 'CDG', 'LHR', 'SSV', 'OKD', 'WLB', 'PEK', 'HND',
  'HKG', 'CIA', 'CRH', 'ATV', 'PHV', 'GFD', 'SFO', 'LAX', 'JFK', 'ORD', 'BOS',
] as const;

const AIRPORT_BY_CITY = new Map<string, string>([
  ['Rivermist', 'RMS'], ['Stonebrook', 'SBK'], ['Maplecrest', 'MPC'], ['Silverpine', 'SVP'],
  ['Shadowridge', 'SHD'], ['London', 'LHR'], ['Paris', 'CDG'], ['Sunset Valley', 'SSV'],
  ['Oakendale', 'OKD'], ['Willowbend', 'WLB'], ['Crescent Hollow', 'CRH'], ['Autumnville', 'ATV'],
  ['Pinehaven', 'PHV'], ['Greenfield', 'GFD'], ['San Francisco', 'SFO'], ['Los Angeles', 'LAX'],
  ['New York', 'JFK'], ['Chicago', 'ORD'], ['Boston', 'BOS'], ['Beijing', 'PEK'], ['Hong Kong', 'HKG'],
  ['Rome', 'CIA'], ['Tokyo', 'HND'],
]);

/** `compute_exchange_rate`'s table: USD to each currency, in Python's order. */
const EXCHANGE_RATES: readonly (readonly [string, string, number | PyFloat])[] = [
  ['USD', 'RMB', 7], ['USD', 'EUR', 0.8], ['USD', 'JPY', 110], ['USD', 'GBP', 0.7], ['USD', 'CAD', 1.3],
  ['USD', 'AUD', 1.4], ['USD', 'INR', 70], ['USD', 'RUB', 60], ['USD', 'BRL', 3.8], ['USD', 'MXN', 20],
];

const TRAVEL_CLASS_FACTOR = new Map([['economy', 1], ['business', 2], ['first', 5]]);

/** The JSON form of `TravelApiInstance.snapshot()`. */
interface TravelApiSnapshot {
  random: PyRandomSnapshot;
  credit_card_list: Encoded;
  booking_record: Encoded;
  access_token: Encoded;
  token_type: Encoded;
  token_expires_in: Encoded;
  token_scope: Encoded;
  user_first_name: Encoded;
  user_last_name: Encoded;
  budget_limit: Encoded;
  long_context: boolean;
  /** `_flight_cost_lookup`: `[key, cost]` in insertion order (every cost is a Python float). */
  flight_cost_lookup: [string, number][];
}

/**
 * One `TravelAPI` instance: its public attributes, its generator and `_flight_cost_lookup`. The
 * methods carry Python's names and positional order; `travelApiPort.methods` binds arguments by
 * name, fills in the defaults and turns Python's exceptions into `BfclPyError`.
 */
export class TravelApiInstance implements BfclInstance {
  private constructor(
    private readonly random: PyRandom,
    private creditCardList: Map<string, PyValue>,
    private bookingRecord: Map<string, PyValue>,
    private accessToken: PyValue,
    private tokenType: PyValue,
    private tokenExpiresIn: PyValue,
    private tokenScope: PyValue,
    private userFirstName: PyValue,
    private userLastName: PyValue,
    private budgetLimit: PyValue,
    private readonly longContext: boolean,
    private flightCostLookup: Map<string, number>,
  ) {}

  /** `TravelAPI()` then `_load_scenario(copy.deepcopy(config), long_context)`. */
  static load(config: JsonObject | undefined, longContext: boolean): TravelApiInstance {
    // The config may carry PyFloat (read with parsePyJson) although typed as JSON.
    const scenario = (config ?? {}) as unknown as Readonly<Record<string, PyValue>>;
    const get = (name: string): PyValue => (hasKey(scenario, name) ? pyCopy(scenario[name] as PyValue) : null);
    const seed = hasKey(scenario, 'random_seed') ? scenario.random_seed : DEFAULT_SEED;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
      throw new BenchAdapterError('E_DATA', `bfcl TravelAPI initial_config: random_seed ${pyRepr(seed ?? null)} is not an int`);
    }
    const instance = new TravelApiInstance(
      // random.Random(n) seeds with abs(n).
      new PyRandom(Math.abs(seed)),
      mapFromConfig(scenario.credit_card_list, 'credit_card_list'),
      mapFromConfig(scenario.booking_record, 'booking_record'),
      get('access_token'),
      get('token_type'),
      get('token_expires_in'),
      get('token_scope'),
      get('user_first_name'),
      get('user_last_name'),
      get('budget_limit'),
      longContext,
      new Map(),
    );
    if (longContext) {
      // Python stores the module's dicts themselves; fresh copies keep instances apart.
      for (const [name, target] of [
        ['CREDIT_CARD_EXTENSION', instance.creditCardList],
        ['BOOKING_RECORD_EXTENSION', instance.bookingRecord],
      ] as const) {
        const extension = longContextValue(name) as PyDict;
        for (const [k, v] of Object.entries(extension)) if (!target.has(k)) target.set(k, v);
      }
    }
    return instance;
  }

  /** An instance from `snapshot()`'s JSON. */
  static restore(snapshot: JsonValue): TravelApiInstance {
    if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) return badSnapshot('not an object');
    const s = snapshot as unknown as TravelApiSnapshot;
    if (typeof s.random?.seed !== 'number' || typeof s.random.words !== 'number') return badSnapshot('no random position');
    if (typeof s.long_context !== 'boolean' || !Array.isArray(s.flight_cost_lookup)) return badSnapshot('no long_context or flight_cost_lookup');
    return new TravelApiInstance(
      PyRandom.restore(s.random),
      decodeMap(s.credit_card_list),
      decodeMap(s.booking_record),
      decode(s.access_token),
      decode(s.token_type),
      decode(s.token_expires_in),
      decode(s.token_scope),
      decode(s.user_first_name),
      decode(s.user_last_name),
      decode(s.budget_limit),
      s.long_context,
      new Map(s.flight_cost_lookup.map(([k, cost]) => [k, cost])),
    );
  }

  /** The public attributes, as the reference replays write them (floats as plain numbers). */
  publicState(): JsonObject {
    const plain = (map: ReadonlyMap<string, PyValue>): JsonObject => Object.fromEntries(Array.from(map, ([k, v]) => [k, toJsonValue(v)]));
    return {
      credit_card_list: plain(this.creditCardList),
      booking_record: plain(this.bookingRecord),
      access_token: toJsonValue(this.accessToken),
      token_type: toJsonValue(this.tokenType),
      token_expires_in: toJsonValue(this.tokenExpiresIn),
      token_scope: toJsonValue(this.tokenScope),
      user_first_name: toJsonValue(this.userFirstName),
      user_last_name: toJsonValue(this.userLastName),
      budget_limit: toJsonValue(this.budgetLimit),
      long_context: this.longContext,
    };
  }

  /** Everything, private attributes included: generator position, float-ness, key order. */
  snapshot(): JsonValue {
    const s: TravelApiSnapshot = {
      random: this.random.snapshot(),
      credit_card_list: encodeMap(this.creditCardList),
      booking_record: encodeMap(this.bookingRecord),
      access_token: encode(this.accessToken),
      token_type: encode(this.tokenType),
      token_expires_in: encode(this.tokenExpiresIn),
      token_scope: encode(this.tokenScope),
      user_first_name: encode(this.userFirstName),
      user_last_name: encode(this.userLastName),
      budget_limit: encode(this.budgetLimit),
      long_context: this.longContext,
      flight_cost_lookup: Array.from(this.flightCostLookup),
    };
    return s as unknown as JsonValue;
  }

  private tokenExpired(): boolean {
    return pyEquals(this.tokenExpiresIn, 0);
  }

  private wrongToken(accessToken: PyValue): boolean {
    return !pyEquals(accessToken, this.accessToken);
  }

  authenticate_travel(
    _clientId: PyValue,
    _clientSecret: PyValue,
    _refreshToken: PyValue,
    grantType: PyValue,
    userFirstName: PyValue,
    userLastName: PyValue,
  ): PyOut {
    this.tokenExpiresIn = 2;
    this.accessToken = String(this.random.randint(100000, 999999));
    this.tokenType = 'Bearer';
    this.tokenScope = pyCopy(grantType);
    this.userFirstName = pyCopy(userFirstName);
    this.userLastName = pyCopy(userLastName);
    return { expires_in: 2, access_token: this.accessToken, token_type: 'Bearer', scope: pyCopy(grantType) };
  }

  travel_get_login_status(): PyOut {
    const notLoggedIn = this.tokenExpiresIn === null || this.tokenExpired();
    return { status: !notLoggedIn };
  }

  get_budget_fiscal_year(): PyOut {
    return { budget_fiscal_year: '2018' };
  }

  register_credit_card(
    accessToken: PyValue,
    cardNumber: PyValue,
    expirationDate: PyValue,
    cardholderName: PyValue,
    cardVerificationNumber: PyValue,
  ): PyOut {
    if (this.tokenExpiresIn === null) return { error: 'Token not initialized' };
    if (this.tokenExpired()) return { error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { error: 'Invalid access token' };
    if (mapHas(this.creditCardList, cardNumber)) return { error: 'Card already registered' };
    const cardId = String(this.random.randint(100000000000, 999999999999));
    this.creditCardList.set(cardId, {
      card_number: pyCopy(cardNumber),
      expiration_date: pyCopy(expirationDate),
      cardholder_name: pyCopy(cardholderName),
      card_verification_number: pyCopy(cardVerificationNumber),
      balance: this.random.randint(10000, 99999),
    });
    return { card_id: cardId };
  }

  get_flight_cost(travelFrom: PyValue, travelTo: PyValue, travelDate: PyValue, travelClass: PyValue): PyOut {
    requireHashable(travelFrom);
    requireHashable(travelTo);
    const baseCost = typeof travelFrom === 'string' && typeof travelTo === 'string' ? BASE_COST_BY_ROUTE.get(`${travelFrom} ${travelTo}`) : undefined;
    if (baseCost === undefined) throw pyError('No available route for the given airports.');
    const factor = typeof travelClass === 'string' ? TRAVEL_CLASS_FACTOR.get(travelClass) : undefined;
    if (factor === undefined) throw pyError('Invalid travel class. Options are: economy, business, first.');
    let digitSum = 0;
    for (const char of pyIterate(travelDate)) {
      if (typeof char !== 'string') throw pyError(`'${pyTypeName(char)}' object has no attribute 'isdigit'`);
      if (pyIsDigit(char)) digitSum += pyIntOfDigits(char);
    }
    const multiplier = digitSum % 2 === 0 ? 2 : 1;
    const dateText = pyStr(travelDate);
    const travelCostList: PyOut[] = [];
    if (this.longContext) {
      this.flightCostLookup = new Map();
      for (const [from, to, base] of BASE_COSTS) {
        const cost = base * factor * multiplier;
        this.flightCostLookup.set(`${from}|${to}|${travelClass as string}|${dateText}`, cost);
        travelCostList.push(new PyFloat(cost));
      }
    } else {
      const cost = baseCost * factor * multiplier;
      travelCostList.push(new PyFloat(cost));
      this.flightCostLookup = new Map([[`${travelFrom as string}|${travelTo as string}|${travelClass as string}|${dateText}`, cost]]);
    }
    return { travel_cost_list: travelCostList };
  }

  get_credit_card_balance(accessToken: PyValue, cardId: PyValue): PyOut {
    if (this.tokenExpired()) return { error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { error: 'Invalid access token' };
    if (!mapHas(this.creditCardList, cardId)) {
      return { error: `Card not registered. Here are a list of card_id's: ${pyStrListRepr([...this.creditCardList.keys()])}` };
    }
    return { card_balance: pyCopy(getItem(this.creditCardList.get(cardId) as PyValue, 'balance')) };
  }

  book_flight(
    accessToken: PyValue,
    cardId: PyValue,
    travelDate: PyValue,
    travelFrom: PyValue,
    travelTo: PyValue,
    travelClass: PyValue,
  ): PyOut {
    if (this.tokenExpired()) return { booking_status: false, error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { booking_status: false, error: 'Invalid access token' };
    if (!mapHas(this.creditCardList, cardId)) return { booking_status: false, error: 'Card not registered' };
    const card = this.creditCardList.get(cardId) as PyValue;
    if (!contains(card, 'balance')) return { booking_status: false, error: 'Balance not found' };
    const airports = this.list_all_airports();
    if (!airports.some((a) => pyEquals(a, travelFrom))) {
      return { booking_status: false, error: `Invalid departure airport code: ${pyStr(travelFrom)}` };
    }
    if (!airports.some((a) => pyEquals(a, travelTo))) {
      return { booking_status: false, error: `Invalid destination airport code: ${pyStr(travelTo)}` };
    }
    if (pyStrptimeYmd(travelDate) === undefined) return { booking_status: false, error: 'Invalid date format. Use YYYY-MM-DD.' };
    requireHashable(travelClass);
    if (typeof travelClass !== 'string' || !TRAVEL_CLASS_FACTOR.has(travelClass)) {
      return { booking_status: false, error: "Invalid travel class. Must be one of {'economy', 'business', 'first'}" };
    }
    let travelCost: PyValue;
    try {
      this.get_flight_cost(travelFrom, travelTo, travelDate, travelClass);
      const cost = this.flightCostLookup.get(`${pyStr(travelFrom)}|${pyStr(travelTo)}|${travelClass}|${pyStr(travelDate)}`);
      if (cost === undefined) return { booking_status: false, error: 'No available route for the given parameters' };
      travelCost = new PyFloat(cost);
    } catch (error) {
      // Only get_flight_cost's ValueErrors reach here: the arguments are valid strings by now.
      if (error instanceof BfclPyError) return { booking_status: false, error: error.message };
      throw error;
    }
    if (pyLess(getItem(card, 'balance'), travelCost)) return { booking_status: false, error: 'Insufficient funds' };
    if (this.budgetLimit !== null && pyLess(getItem(card, 'balance'), this.budgetLimit)) {
      return { booking_status: false, error: 'Balance is less than budget limit' };
    }
    defineKey(card as PyDict, 'balance', pyInPlace('-=', getItem(card, 'balance'), travelCost));
    const bookingId = String(this.random.randint(1000000, 9999999));
    const transactionId = String(this.random.randint(10000000, 99999999));
    // A rebooked id keeps its place in the dict, as Python's assignment does.
    this.bookingRecord.set(bookingId, {
      card_id: cardId,
      travel_date: travelDate,
      travel_from: travelFrom,
      travel_to: travelTo,
      travel_class: travelClass,
      travel_cost: travelCost,
      transaction_id: transactionId,
    });
    return {
      booking_id: bookingId,
      transaction_id: transactionId,
      booking_status: true,
      booking_history: this.longContext ? dictOut(this.bookingRecord) : {},
    };
  }

  retrieve_invoice(accessToken: PyValue, bookingId: PyValue): PyOut {
    if (this.tokenExpired()) return { error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { error: 'Invalid access token' };
    if (!mapHas(this.bookingRecord, bookingId)) return { error: 'Booking not found' };
    const record = this.bookingRecord.get(bookingId) as PyValue;
    const invoice: { [key: string]: PyOut } = { booking_id: bookingId };
    for (const field of ['travel_date', 'travel_from', 'travel_to', 'travel_class', 'travel_cost', 'transaction_id']) {
      invoice[field] = pyCopy(getItem(record, field));
    }
    return { invoice };
  }

  get_booking_history(accessToken: PyValue): PyOut {
    if (this.tokenExpired()) return { error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { error: 'Invalid access token' };
    return { booking_history: dictOut(this.bookingRecord) };
  }

  list_all_airports(): string[] {
    return [...AIRPORTS];
  }

  cancel_booking(accessToken: PyValue, bookingId: PyValue): PyOut {
    if (this.tokenExpired()) return { cancel_status: false, error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { cancel_status: false, error: 'Invalid access token' };
    if (!mapHas(this.bookingRecord, bookingId)) return { cancel_status: false, error: 'Booking not found' };
    const record = this.bookingRecord.get(bookingId) as PyValue;
    const cardId = getItem(record, 'card_id');
    const travelCost = getItem(record, 'travel_cost');
    const card = mapGet(this.creditCardList, cardId);
    defineKey(card as PyDict, 'balance', pyInPlace('+=', getItem(card, 'balance'), travelCost));
    this.bookingRecord.delete(bookingId);
    return { cancel_status: true };
  }

  compute_exchange_rate(baseCurrency: PyValue, targetCurrency: PyValue, value: PyValue): PyOut {
    for (const [from, to, rate] of EXCHANGE_RATES) {
      if (baseCurrency === from && targetCurrency === to) return { exchanged_value: pyFloat(pyFloatOf(pyMul(value, rate))) };
      if (baseCurrency === to && targetCurrency === from) return { exchanged_value: pyFloat(pyRound(pyTrueDiv(value, rate), 2)) };
    }
    throw pyError('No available exchange rate for the given currencies.');
  }

  verify_traveler_information(firstName: PyValue, lastName: PyValue, dateOfBirth: PyValue, passportNumber: PyValue): PyOut {
    if (!pyEquals(this.userFirstName, firstName) || !pyEquals(this.userLastName, lastName)) {
      return {
        verification_status: false,
        verification_failure:
          'Cannot book flight information for another user.' +
          `Expected ${pyStr(this.userFirstName)} ${pyStr(this.userLastName)}, got ${pyStr(firstName)} ${pyStr(lastName)}`,
      };
    }
    const birth = pyStrptimeYmd(dateOfBirth);
    if (birth === undefined) {
      return { verification_status: false, verification_failure: 'Invalid date of birth format. Please use YYYY-MM-DD.' };
    }
    const today = TRAVEL_TODAY;
    const beforeBirthday = today.month < birth.month || (today.month === birth.month && today.day < birth.day);
    const age = today.year - birth.year - (beforeBirthday ? 1 : 0);
    if (age < 18) return { verification_status: false, verification_failure: 'Traveler must be at least 18 years old.' };
    if (typeof passportNumber !== 'string') throw pyError(`'${pyTypeName(passportNumber)}' object has no attribute 'startswith'`);
    if (!passportNumber.startsWith('US')) {
      return { verification_status: false, verification_failure: 'Passport must be issued by the United States.' };
    }
    return { verification_status: true };
  }

  set_budget_limit(accessToken: PyValue, budgetLimit: PyValue): PyOut {
    if (this.tokenExpired()) return { error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { error: 'Invalid access token' };
    const limit = pyFloat(pyFloatOf(budgetLimit));
    this.budgetLimit = limit;
    return { budget_limit: limit };
  }

  get_nearest_airport_by_city(location: PyValue): PyOut {
    requireHashable(location);
    return { nearest_airport: (typeof location === 'string' ? AIRPORT_BY_CITY.get(location) : undefined) ?? 'Unknown' };
  }

  purchase_insurance(accessToken: PyValue, _insuranceType: PyValue, bookingId: PyValue, insuranceCost: PyValue, cardId: PyValue): PyOut {
    if (this.tokenExpired()) return { insurance_status: false, error: 'Token expired' };
    if (this.wrongToken(accessToken)) return { insurance_status: false, error: 'Invalid access token' };
    if (this.budgetLimit !== null && pyLess(this.budgetLimit, insuranceCost)) {
      return { insurance_status: false, error: 'Exceeded budget limit' };
    }
    if (!mapHas(this.bookingRecord, bookingId)) return { insurance_status: false, error: 'Booking not found' };
    if (!mapHas(this.creditCardList, cardId)) return { insurance_status: false, error: 'Credit card not registered' };
    const card = this.creditCardList.get(cardId) as PyValue;
    defineKey(card as PyDict, 'balance', pyInPlace('-=', getItem(card, 'balance'), insuranceCost));
    return { insurance_id: String(this.random.randint(100000000, 999999999)), insurance_status: true };
  }

  contact_customer_support(bookingId: PyValue): PyOut {
    if (!mapHas(this.bookingRecord, bookingId)) return { error: 'Booking not found' };
    return {
      customer_support_message:
        'Thank you for contacting customer support. Your message has been received and we will get back to you shortly.',
    };
  }

  get_all_credit_cards(): PyOut {
    return { credit_card_list: dictOut(this.creditCardList) };
  }
}

// ---------------------------------------------------------------------------------------------
// The method table.

type Args = Readonly<Record<string, PyValue>>;

function method(
  name: string,
  params: readonly (readonly [string, boolean])[],
  run: (instance: TravelApiInstance, values: PyValue[]) => PyOut,
): BfclMethod<TravelApiInstance> {
  return {
    params,
    call(instance: TravelApiInstance, args: Args): PyOut {
      const values = params.map(([param, hasDefault]) => {
        const value = Object.prototype.hasOwnProperty.call(args, param) ? args[param] : undefined;
        if (value !== undefined) return value;
        if (hasDefault) return null;
        throw pyError(`TravelAPI.${name}() missing 1 required positional argument: '${param}'`);
      });
      return run(instance, values);
    },
  };
}

const r = (name: string): readonly [string, boolean] => [name, false];
const o = (name: string): readonly [string, boolean] => [name, true];
const v = (values: readonly PyValue[], i: number): PyValue => values[i] as PyValue;

const METHODS: Record<string, BfclMethod<TravelApiInstance>> = {
  authenticate_travel: method(
    'authenticate_travel',
    [r('client_id'), r('client_secret'), r('refresh_token'), r('grant_type'), r('user_first_name'), r('user_last_name')],
    (t, a) => t.authenticate_travel(v(a, 0), v(a, 1), v(a, 2), v(a, 3), v(a, 4), v(a, 5)),
  ),
  travel_get_login_status: method('travel_get_login_status', [], (t) => t.travel_get_login_status()),
  get_budget_fiscal_year: method('get_budget_fiscal_year', [o('lastModifiedAfter'), o('includeRemoved')], (t) => t.get_budget_fiscal_year()),
  register_credit_card: method(
    'register_credit_card',
    [r('access_token'), r('card_number'), r('expiration_date'), r('cardholder_name'), r('card_verification_number')],
    (t, a) => t.register_credit_card(v(a, 0), v(a, 1), v(a, 2), v(a, 3), v(a, 4)),
  ),
  get_flight_cost: method(
    'get_flight_cost',
    [r('travel_from'), r('travel_to'), r('travel_date'), r('travel_class')],
    (t, a) => t.get_flight_cost(v(a, 0), v(a, 1), v(a, 2), v(a, 3)),
  ),
  get_credit_card_balance: method('get_credit_card_balance', [r('access_token'), r('card_id')], (t, a) => t.get_credit_card_balance(v(a, 0), v(a, 1))),
  book_flight: method(
    'book_flight',
    [r('access_token'), r('card_id'), r('travel_date'), r('travel_from'), r('travel_to'), r('travel_class')],
    (t, a) => t.book_flight(v(a, 0), v(a, 1), v(a, 2), v(a, 3), v(a, 4), v(a, 5)),
  ),
  retrieve_invoice: method('retrieve_invoice', [r('access_token'), o('booking_id'), o('insurance_id')], (t, a) => t.retrieve_invoice(v(a, 0), v(a, 1))),
  get_booking_history: method('get_booking_history', [r('access_token')], (t, a) => t.get_booking_history(v(a, 0))),
  list_all_airports: method('list_all_airports', [], (t) => t.list_all_airports()),
  cancel_booking: method('cancel_booking', [r('access_token'), r('booking_id')], (t, a) => t.cancel_booking(v(a, 0), v(a, 1))),
  compute_exchange_rate: method(
    'compute_exchange_rate',
    [r('base_currency'), r('target_currency'), r('value')],
    (t, a) => t.compute_exchange_rate(v(a, 0), v(a, 1), v(a, 2)),
  ),
  verify_traveler_information: method(
    'verify_traveler_information',
    [r('first_name'), r('last_name'), r('date_of_birth'), r('passport_number')],
    (t, a) => t.verify_traveler_information(v(a, 0), v(a, 1), v(a, 2), v(a, 3)),
  ),
  set_budget_limit: method('set_budget_limit', [r('access_token'), r('budget_limit')], (t, a) => t.set_budget_limit(v(a, 0), v(a, 1))),
  get_nearest_airport_by_city: method('get_nearest_airport_by_city', [r('location')], (t, a) => t.get_nearest_airport_by_city(v(a, 0))),
  purchase_insurance: method(
    'purchase_insurance',
    [r('access_token'), r('insurance_type'), r('booking_id'), r('insurance_cost'), r('card_id')],
    (t, a) => t.purchase_insurance(v(a, 0), v(a, 1), v(a, 2), v(a, 3), v(a, 4)),
  ),
  contact_customer_support: method('contact_customer_support', [r('booking_id'), r('message')], (t, a) => t.contact_customer_support(v(a, 0))),
  get_all_credit_cards: method('get_all_credit_cards', [], (t) => t.get_all_credit_cards()),
};

/**
 * The port of BFCL's `TravelAPI`: `load` is `TravelAPI()` plus `_load_scenario`, every public
 * method is in `methods` with its Python signature. An `initial_config` read with `parsePyJson`
 * keeps Python's floats (`5000.0`); one read with `JSON.parse` gives ints for them.
 */
export const travelApiPort: BfclClassPort<TravelApiInstance> = {
  className: 'TravelAPI',
  stateless: false,
  load: (config, longContext) => TravelApiInstance.load(config, longContext),
  restore: (snapshot) => TravelApiInstance.restore(snapshot),
  methods: METHODS,
};
