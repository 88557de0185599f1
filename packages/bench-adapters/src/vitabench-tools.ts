import type { JsonObject, JsonValue } from '@autoforge/core';
import { sha256Hex } from '@autoforge/core';
import type { Db, NativeTool, ToolContext } from '@autoforge/env-runtime';
import { fuzzExtract, fuzzRatio, fuzzRerank } from './fuzzy-ratio.js';
import type { PySignature } from './python-exec.js';
import { PyException, bindArguments } from './python-exec.js';
import { pyFloatRepr, pyRound } from './python-number.js';
import { pyJsonDumps, pyRepr, pyStr } from './python-repr.js';
import { bookRepr, orderRepr, orderStr, reservationRepr, shopProductRepr, shopStr, storeProductRepr, storeRepr, storeStr, weatherRepr } from './vitabench-repr.js';

type Args = Record<string, JsonValue | undefined>;

/** A failed `assert` in a VitaBench tool: the tool answers with the message (not an error). */
class Assertion extends Error {}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Assertion(message);
}

/**
 * Wraps a tool method as VitaBench's `is_tool` and environment do: the keyword arguments bound to
 * the Python signature, a failed assertion answered with its message, any other exception an
 * error observation `Error: <message>`, a non-string result written as `json.dumps` of its
 * `str()` (a float distance reads `"1234.0"`, with the quotes).
 */
function tool(qualname: string, signature: PySignature, run: (args: Args, ctx: ToolContext) => JsonValue): NativeTool {
  return (raw, ctx) => {
    let bound: Args;
    try {
      bound = bindArguments(qualname, signature, raw);
    } catch (error) {
      throw new Error((error as Error).message);
    }
    try {
      const result = run(bound, ctx);
      if (typeof result === 'string') return result;
      return pyJsonDumps(result, { ensureAscii: false });
    } catch (error) {
      if (error instanceof Assertion) return error.message;
      throw error instanceof PyException ? new Error(error.message) : error;
    }
  };
}

/** A float result as the environment writes it: `json.dumps(str(x))`, quotes included. */
const floatResult = (x: number): string => JSON.stringify(pyFloatRepr(x));

// Python's strptime for "%Y-%m-%d" and "%Y-%m-%d %H:%M:%S" (1- or 2-digit fields, real dates).
const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/;

function parseTime(text: JsonValue | undefined, withTime: boolean): number | undefined {
  const match = typeof text === 'string' ? (withTime ? DATE_TIME : DATE).exec(text) : null;
  if (match === null) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = match.slice(1).map(Number) as number[];
  const ms = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
  const date = new Date(ms);
  const valid = date.getUTCFullYear() === y && date.getUTCMonth() === (mo as number) - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
  return valid ? ms : undefined;
}

function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** The environment's "now" (`db.time`): VitaBench's clock does not move during an episode. */
const now = (db: Db): string => String(db.read('time') ?? '');

/** The haversine distance VitaBench computes, rounded to whole meters (a Python float). */
export function vitaDistance(lng1: number, lat1: number, lng2: number, lat2: number): number {
  if (lng1 === lng2 && lat1 === lat2) return 0;
  const rad = (x: number): number => (x * Math.PI) / 180;
  const [a1, b1, a2, b2] = [rad(lng1), rad(lat1), rad(lng2), rad(lat2)];
  const h = Math.sin((b2 - b1) / 2) ** 2 + Math.cos(b1) * Math.cos(b2) * Math.sin((a2 - a1) / 2) ** 2;
  return pyRound(6371000 * 2 * Math.asin(Math.sqrt(h)), 0);
}

/** `delivery_distance_to_time`: minutes, `round(25 + int(distance) * 0.00651)`. */
export function vitaDeliveryMinutes(distance: number): number {
  return pyRound(25 + Math.trunc(distance) * 0.00651, 0);
}

/**
 * Every location the environment knows, by address (VitaBench registers each `Location` object it
 * builds: the environment's `location` list, orders', stores' and shops'); later ones replace
 * earlier ones in place.
 */
function knownLocations(db: Db): Map<string, { longitude: number; latitude: number }> {
  const out = new Map<string, { longitude: number; latitude: number }>();
  const add = (loc: JsonValue | undefined): void => {
    if (typeof loc !== 'object' || loc === null || Array.isArray(loc) || typeof loc.address !== 'string') return;
    out.set(loc.address, { longitude: Number(loc.longitude), latitude: Number(loc.latitude) });
  };
  for (const loc of (db.read('location') ?? []) as JsonValue[]) add(loc);
  for (const order of db.all('orders')) add(order.location);
  for (const name of ['stores', 'shops']) if (db.collections().includes(name)) for (const s of db.all(name)) add(s.location);
  return out;
}

function addressToLngLat(db: Db, address: string): [number, number] {
  const locations = knownLocations(db);
  const ranked = fuzzRerank(address, new Map([...locations.keys()].map((a) => [a, a])));
  const top = ranked[0];
  if (top === undefined) throw new PyException('list index out of range');
  if (top[2] < 30 || fuzzRatio(address, top[1]) < 20) throw new PyException(`Longitude and latitude not found for address ${address}`);
  const found = locations.get(top[0]) as { longitude: number; latitude: number };
  return [found.longitude, found.latitude];
}

// python-holidays' China calendar for the years the tasks use (statutory days off; the names it
// gives in English). The library itself is not in the data: see the README.
const CHINA_HOLIDAYS: Record<string, string> = {};
for (const [name, dates] of Object.entries({
  "New Year's Day": ['2023-01-01', '2024-01-01', '2025-01-01', '2026-01-01'],
  "Chinese New Year's Eve": ['2025-01-28', '2026-02-16'],
  'Chinese New Year (Spring Festival)': ['2023-01-22', '2023-01-23', '2023-01-24', '2024-02-10', '2024-02-11', '2024-02-12', '2025-01-29', '2025-01-30', '2025-01-31', '2026-02-17', '2026-02-18', '2026-02-19'],
  'Tomb-Sweeping Day': ['2023-04-05', '2024-04-04', '2025-04-04', '2026-04-05'],
  'Labor Day': ['2023-05-01', '2024-05-01', '2025-05-01', '2025-05-02', '2026-05-01', '2026-05-02'],
  'Dragon Boat Festival': ['2023-06-22', '2024-06-10', '2025-05-31', '2026-06-19'],
  'Mid-Autumn Festival': ['2023-09-29', '2024-09-17', '2025-10-06', '2026-09-25'],
  'National Day': ['2023-10-01', '2023-10-02', '2023-10-03', '2024-10-01', '2024-10-02', '2024-10-03', '2025-10-01', '2025-10-02', '2025-10-03', '2026-10-01', '2026-10-02', '2026-10-03'],
})) {
  for (const date of dates) CHINA_HOLIDAYS[date] = name;
}

// `get_holiday_date`'s own table (English).
const HOLIDAY_DATES: Record<string, Record<string, string>> = {
  '2025': {
    "New Year's Day": '2025-01-01',
    'Start of Autumn': '2025-08-07',
    "Women's Day": '2025-03-08',
    'Laba Festival': '2025-01-07',
    'Dragon Head Festival': '2025-03-01',
    'Party Founding Day': '2025-07-01',
    'Qingming Festival': '2025-04-04',
    'Double Ninth Festival': '2025-10-29',
    'Dragon Boat Festival': '2025-05-31',
    "Mother's Day": '2025-05-11',
    'Lantern Festival': '2025-02-15',
    'Labor Day': '2025-05-01',
    'Qixi Festival': '2025-08-29',
    'Winter Solstice': '2025-12-21',
    'Christmas Day': '2025-12-25',
    'National Day': '2025-10-01',
    'Mid-Autumn Festival': '2025-10-06',
  },
  '2024': {
    'Double Ninth Festival': '2024-10-11',
    'Qixi Festival': '2024-08-10',
    "Valentine's Day": '2024-02-14',
    'Qingming Festival': '2024-04-04',
    'Dragon Boat Festival': '2024-06-10',
    'Lantern Festival': '2024-02-24',
    'Mid-Autumn Festival': '2024-09-17',
  },
  '2023': {
    'National Day': '2023-10-01',
    'Dragon Boat Festival': '2023-06-22',
    'Mid-Autumn Festival': '2023-09-29',
    'Qingming Festival': '2023-04-05',
    'Double Ninth Festival': '2023-10-23',
    "Father's Day": '2023-06-18',
  },
};

const str = (value: JsonValue | undefined): string => pyStr(value ?? null);

/** The generic tools every VitaBench domain has (`ToolKitBase`). */
const GENERIC_TOOLS: Readonly<Record<string, NativeTool>> = {
  longitude_latitude_to_distance: tool('ToolKitBase.longitude_latitude_to_distance', [['longitude1'], ['latitude1'], ['longitude2'], ['latitude2']], (a) =>
    floatResult(vitaDistance(Number(a.longitude1), Number(a.latitude1), Number(a.longitude2), Number(a.latitude2))),
  ),
  weather: tool('ToolKitBase.weather', [['address'], ['date_start'], ['date_end']], (a, ctx) => {
    check(parseTime(a.date_start, false) !== undefined, `Invalid date_start format. Expected yyyy-mm-dd, got: ${str(a.date_start)}`);
    check(parseTime(a.date_end, false) !== undefined, `Invalid date_end format. Expected yyyy-mm-dd, got: ${str(a.date_end)}`);
    const weather = (ctx.db.read('weather') ?? []) as JsonObject[];
    const cities = new Map(weather.map((w) => [String(w.city), String(w.city)]));
    const top = fuzzRerank(str(a.address), cities)[0];
    if (top === undefined) throw new PyException('list index out of range');
    if (top[2] < 50) throw new PyException(`Weather information not found for ${str(a.address)}`);
    const start = parseTime(a.date_start, false) as number;
    const end = parseTime(a.date_end, false) as number;
    const found = weather
      .filter((w) => w.city === top[0] && (parseTime(w.datetime, false) ?? NaN) >= start && (parseTime(w.datetime, false) ?? NaN) <= end)
      .sort((x, y) => (String(x.datetime) < String(y.datetime) ? -1 : String(x.datetime) > String(y.datetime) ? 1 : 0));
    if (found.length === 0) return `No weather information found for ${top[0]} between ${str(a.date_start)} and ${str(a.date_end)}`;
    return found.map(weatherRepr).join('\n');
  }),
  address_to_longitude_latitude: tool('ToolKitBase.address_to_longitude_latitude', [['address']], (a, ctx) =>
    addressToLngLat(ctx.db, str(a.address)).map((x) => pyFloatRepr(x)),
  ),
  get_date_holiday_info: tool('ToolKitBase.get_date_holiday_info', [['date']], (a) => {
    const ms = parseTime(a.date, false);
    check(ms !== undefined, `Date format error, should be yyyy-mm-dd, actual: ${str(a.date)}`);
    return CHINA_HOLIDAYS[formatTime(ms).slice(0, 10)] ?? `Date ${str(a.date)} is not a holiday`;
  }),
  get_holiday_date: tool('ToolKitBase.get_holiday_date', [['year'], ['holiday_name']], (a) => {
    const year = HOLIDAY_DATES[str(a.year)];
    if (typeof a.year !== 'string' || year === undefined) return `Holiday data for year ${str(a.year)} not found`;
    const best = fuzzExtract(str(a.holiday_name), Object.keys(year))[0];
    if (best !== undefined && best[1] >= 80) return year[best[0]] as string;
    return `Holiday named '${str(a.holiday_name)}' not found in year ${a.year}`;
  }),
  get_user_historical_behaviors: tool('ToolKitBase.get_user_historical_behaviors', [], (_a, ctx) => pyRepr(ctx.db.read('user_historical_behaviors') ?? {})),
  get_user_all_orders: tool('ToolKitBase.get_user_all_orders', [], (_a, ctx) => ctx.db.all('orders').map(orderRepr).join('\n')),
  get_nearby: tool('ToolKitBase.get_nearby', [['longitude'], ['latitude'], ['range']], (a, ctx) => {
    const found: string[] = [];
    const within = (loc: JsonValue | undefined): boolean => {
      const l = (loc ?? {}) as JsonObject;
      return vitaDistance(Number(a.longitude), Number(a.latitude), Number(l.longitude), Number(l.latitude)) <= Number(a.range);
    };
    const collections = ctx.db.collections();
    if (collections.includes('stores')) for (const s of ctx.db.all('stores')) if (within(s.location)) found.push(storeStr(s));
    if (collections.includes('shops')) for (const s of ctx.db.all('shops')) if (within(s.location)) found.push(shopStr(s));
    return found.length === 0 ? 'No search results found' : found.join('\n');
  }),
};

/** An order id as VitaBench makes one (`<prefix><10 hex digits of a hash>`), hashed over the call's step instead of the wall clock. */
function orderId(prefix: string, seed: string, ctx: ToolContext): string {
  return `${prefix}${sha256Hex(`${seed}${ctx.call.step}`).slice(0, 10)}`;
}

function checkUser(db: Db, userId: JsonValue | undefined): void {
  check(typeof userId === 'string' && userId !== '', 'User ID cannot be empty');
  check(userId === db.read('user_id'), 'User ID does not match');
}

// ----- delivery -----

/** Delivery products by id: the stores' products, replaced by the copies ordered since (VitaBench's product registry). */
function deliveryProducts(db: Db): Map<string, JsonObject> {
  const products = new Map<string, JsonObject>();
  for (const store of db.all('stores')) for (const p of (store.products ?? []) as JsonObject[]) products.set(String(p.product_id), p);
  for (const order of db.all('orders')) {
    for (const p of (order.products ?? []) as JsonValue[]) {
      if (typeof p === 'object' && p !== null && !Array.isArray(p) && 'store_name' in p) products.set(String(p.product_id), p);
    }
  }
  return products;
}

function deliveryProduct(db: Db, id: JsonValue | undefined): JsonObject {
  const product = deliveryProducts(db).get(str(id));
  if (product === undefined) throw new PyException(`${str(id)} not found`);
  return product;
}

function deliveryOrder(db: Db, id: JsonValue | undefined): JsonObject {
  const order = db.get('orders', str(id));
  if (order === undefined) throw new PyException(`Order ${str(id)} not found`);
  if (order.order_type !== 'delivery') throw new PyException(`Order ${str(id)} is not a delivery order`);
  return order;
}

function store(db: Db, id: JsonValue | undefined): JsonObject {
  const found = db.get('stores', str(id));
  if (found === undefined) throw new PyException(`Store ${str(id)} not found`);
  return found;
}

const DELIVERY = 'DeliveryTools';

/** The delivery domain's tools (VitaBench `DeliveryTools`) with the generic ones. */
export const VITABENCH_DELIVERY_TOOLS: Readonly<Record<string, NativeTool>> = {
  ...GENERIC_TOOLS,
  delivery_distance_to_time: tool(`${DELIVERY}.delivery_distance_to_time`, [['distance']], (a) => {
    check(typeof a.distance === 'number', `distance value type should be float or int, but get <class '${typeof a.distance === 'string' ? 'str' : 'NoneType'}'>`);
    return floatResult(vitaDeliveryMinutes(a.distance));
  }),
  get_delivery_store_info: tool(`${DELIVERY}.get_delivery_store_info`, [['store_id']], (a, ctx) => storeRepr(store(ctx.db, a.store_id))),
  get_delivery_product_info: tool(`${DELIVERY}.get_delivery_product_info`, [['product_id']], (a, ctx) => storeProductRepr(deliveryProduct(ctx.db, a.product_id))),
  delivery_store_search_recommand: tool(`${DELIVERY}.delivery_store_search_recommand`, [['keywords']], (a, ctx) => {
    const tags = new Map(ctx.db.all('stores').map((s) => [String(s.store_id), `${str(s.name)}${((s.tags ?? []) as JsonValue[]).map(str).join(',')}`]));
    const query = Array.isArray(a.keywords) ? a.keywords.map(str).join('') : str(a.keywords);
    return fuzzRerank(query, tags)
      .slice(0, 100)
      .map(([id]) => storeStr(store(ctx.db, id)))
      .join('\n');
  }),
  delivery_product_search_recommand: tool(`${DELIVERY}.delivery_product_search_recommand`, [['keywords']], (a, ctx) => {
    const products = deliveryProducts(ctx.db);
    const tags = new Map([...products].map(([id, p]) => [id, `${str(p.store_name)} ${str(p.name)} ${pyRepr(p.tags ?? null)}`]));
    const query = Array.isArray(a.keywords) ? a.keywords.map(str).join('') : str(a.keywords);
    return fuzzRerank(query, tags)
      .slice(0, 100)
      .map(([id]) => storeProductRepr(products.get(id) as JsonObject))
      .join('\n');
  }),
  create_delivery_order: tool(
    `${DELIVERY}.create_delivery_order`,
    [['user_id'], ['store_id'], ['product_ids'], ['product_cnts'], ['address'], ['dispatch_time'], ['attributes', null], ['note', '']],
    (a, ctx) => {
      const { db } = ctx;
      checkUser(db, a.user_id);
      check(db.has('stores', str(a.store_id)), `Store ${str(a.store_id)} not found`);
      const ids = (Array.isArray(a.product_ids) ? a.product_ids : []).map(str);
      const products = ids.map((id) => deliveryProduct(db, id));
      check(a.address !== '', `Location ${str(a.address)} is empty`);
      const counts = (Array.isArray(a.product_cnts) ? a.product_cnts : []) as number[];
      check(ids.length === counts.length && counts.every((c) => c > 0), `product_cnts ${pyRepr(a.product_cnts ?? null)} list is invalid`);
      const dispatch = parseTime(a.dispatch_time, true);
      check(typeof a.dispatch_time === 'string' && a.dispatch_time !== '' && dispatch !== undefined, `dispatch_time ${str(a.dispatch_time)} time format is invalid, yyyy-mm-dd HH:MM:SS required`);
      const current = parseTime(now(db), true);
      if (current === undefined) throw new PyException(`time data ${pyRepr(now(db))} does not match format '%Y-%m-%d %H:%M:%S'`);
      check(dispatch >= current, `dispatch_time ${a.dispatch_time} must be in the future`);
      const shop = store(db, a.store_id);
      const [longitude, latitude] = addressToLngLat(db, str(a.address));
      const location = (shop.location ?? {}) as JsonObject;
      const shipping = vitaDeliveryMinutes(vitaDistance(longitude, latitude, Number(location.longitude), Number(location.latitude)));
      const attributes = Array.isArray(a.attributes) ? a.attributes : [];
      const ordered = products.map((p, i) => ({
        product_id: p.product_id ?? '',
        name: p.name ?? null,
        store_id: p.store_id ?? null,
        store_name: p.store_name ?? null,
        price: p.price ?? 0,
        quantity: counts[i] as number,
        attributes: i < attributes.length && attributes[i] ? (attributes[i] as JsonValue) : '',
        tags: p.tags ?? [],
      }));
      const order: JsonObject = {
        order_id: orderId('OT', `#DELIVERY#${str(a.user_id)}`, ctx),
        order_type: 'delivery',
        user_id: str(a.user_id),
        store_id: str(a.store_id),
        note: a.note ?? null,
        location: { address: str(a.address), longitude, latitude },
        dispatch_time: a.dispatch_time ?? null,
        shipping_time: shipping,
        delivery_time: formatTime(dispatch + shipping * 60000),
        total_price: products.reduce((sum, p, i) => sum + Number(p.price ?? 0) * (counts[i] as number), 0),
        create_time: now(db),
        update_time: now(db),
        status: 'unpaid',
        products: ordered,
      };
      if (db.has('orders', order.order_id as string)) return 'Order already exists';
      db.put('orders', order.order_id as string, order);
      return orderRepr(order);
    },
  ),
  pay_delivery_order: tool(`${DELIVERY}.pay_delivery_order`, [['order_id']], (a, ctx) => {
    const order = deliveryOrder(ctx.db, a.order_id);
    if (order.status !== 'unpaid') return 'Order is not in `unpaid` status.';
    ctx.db.update('orders', str(a.order_id), { status: 'paid' });
    return 'Payment successful';
  }),
  get_delivery_order_status: tool(`${DELIVERY}.get_delivery_order_status`, [['order_id']], (a, ctx) => str(deliveryOrder(ctx.db, a.order_id).status)),
  cancel_delivery_order: tool(`${DELIVERY}.cancel_delivery_order`, [['order_id']], (a, ctx) => {
    const order = deliveryOrder(ctx.db, a.order_id);
    check(order.status !== 'cancelled', `Order ${str(a.order_id)} is already cancelled`);
    ctx.db.update('orders', str(a.order_id), { status: 'cancelled' });
    return `Order ${str(order.order_id)} has been cancelled.`;
  }),
  modify_delivery_order: tool(`${DELIVERY}.modify_delivery_order`, [['order_id'], ['note']], (a, ctx) => {
    const order = deliveryOrder(ctx.db, a.order_id);
    ctx.db.update('orders', str(a.order_id), { note: a.note ?? null });
    return `Order ${str(order.order_id)} has been modified.`;
  }),
  search_delivery_orders: tool(`${DELIVERY}.search_delivery_orders`, [['user_id'], ['status', 'unpaid']], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    const found = ctx.db.all('orders').filter((o) => o.order_type === 'delivery' && o.status === a.status && o.user_id === a.user_id);
    return found.length === 0 ? 'No delivery orders available' : found.map(orderStr).join('\n');
  }),
  get_delivery_order_detail: tool(`${DELIVERY}.get_delivery_order_detail`, [['order_id']], (a, ctx) => {
    check(typeof a.order_id === 'string' && a.order_id !== '', 'Order ID cannot be empty');
    return orderRepr(deliveryOrder(ctx.db, a.order_id));
  }),
};

// ----- in-store -----

/** In-store products by id: every shop's products (VitaBench's registry). */
function shopProducts(db: Db): Map<string, { shop: JsonObject; product: JsonObject }> {
  const out = new Map<string, { shop: JsonObject; product: JsonObject }>();
  for (const shop of db.all('shops')) for (const p of (shop.products ?? []) as JsonObject[]) out.set(String(p.product_id), { shop, product: p });
  return out;
}

function shop(db: Db, id: JsonValue | undefined): JsonObject {
  const found = db.get('shops', str(id));
  if (found === undefined) throw new PyException(`Shop ${str(id)} does not exist`);
  return found;
}

function instoreOrder(db: Db, id: JsonValue | undefined): JsonObject {
  const order = db.get('orders', str(id));
  if (order === undefined) throw new PyException(`Order ${str(id)} not found`);
  if (order.order_type !== 'instore') throw new PyException(`Order ${str(id)} is not an instore order`);
  return order;
}

function record(db: Db, collection: 'books' | 'reservations', id: JsonValue | undefined): JsonObject {
  const found = db.get(collection, str(id));
  if (found === undefined) throw new PyException(`${collection === 'books' ? 'BookInfo' : 'ReservationInfo'} ${str(id)} not found`);
  return found;
}

function checkTime(value: JsonValue | undefined, what: string): void {
  check(parseTime(value, true) !== undefined, `${what} time format is incorrect, correct format is %Y-%m-%d %H:%M:%S`);
}

const INSTORE = 'InStoreTools';

/** The in-store domain's tools (VitaBench `InStoreTools`) with the generic ones. */
export const VITABENCH_INSTORE_TOOLS: Readonly<Record<string, NativeTool>> = {
  ...GENERIC_TOOLS,
  instore_shop_search_recommend: tool(`${INSTORE}.instore_shop_search_recommend`, [['keywords']], (a, ctx) => {
    const tags = new Map(ctx.db.all('shops').map((s) => [String(s.shop_id), `${str(s.shop_name)},${((s.tags ?? []) as JsonValue[]).map(str).join(',')}`]));
    const query = Array.isArray(a.keywords) ? a.keywords.map(str).join('') : str(a.keywords);
    return fuzzRerank(query, tags)
      .slice(0, 1000)
      .map(([id]) => shopStr(shop(ctx.db, id)))
      .join('\n');
  }),
  instore_product_search_recommend: tool(`${INSTORE}.instore_product_search_recommend`, [['keywords']], (a, ctx) => {
    const products = shopProducts(ctx.db);
    const tags = new Map([...products].map(([id, { product }]) => [id, `${str(product.name)},${((product.tags ?? []) as JsonValue[]).map(str).join(',')}`]));
    const query = Array.isArray(a.keywords) ? a.keywords.map(str).join('') : str(a.keywords);
    return fuzzRerank(query, tags)
      .slice(0, 1000)
      .map(([id]) => shopProductRepr((products.get(id) as { product: JsonObject }).product))
      .join('\n');
  }),
  create_instore_product_order: tool(`${INSTORE}.create_instore_product_order`, [['user_id'], ['shop_id'], ['product_id'], ['quantity', 1]], (a, ctx) => {
    const { db } = ctx;
    checkUser(db, a.user_id);
    check(db.has('shops', str(a.shop_id)), 'Shop does not exist');
    const target = shop(db, a.shop_id);
    const index = ((target.products ?? []) as JsonObject[]).findIndex((p) => p.product_id === a.product_id);
    check(index >= 0, 'Product does not exist');
    check(typeof a.quantity === 'number' && a.quantity > 0, 'Quantity must be greater than 0');
    const entry = shopProducts(db).get(str(a.product_id));
    if (entry === undefined) throw new PyException(`Product ${str(a.product_id)} does not exist`);
    // VitaBench sets the quantity on the registered product object itself (the shop's product).
    const product: JsonObject = { ...entry.product, quantity: a.quantity };
    const owner = db.edit('shops', String(entry.shop.shop_id));
    (owner.products as JsonObject[]).forEach((p, i) => {
      if (p.product_id === a.product_id) (owner.products as JsonObject[])[i] = product;
    });
    const order: JsonObject = {
      order_id: orderId('OI', '#INSTORE#', ctx),
      order_type: 'instore',
      user_id: str(a.user_id),
      store_id: str(a.shop_id),
      note: '',
      location: null,
      dispatch_time: '',
      shipping_time: 0,
      delivery_time: '',
      total_price: a.quantity * Number(product.price ?? 0),
      create_time: now(db),
      update_time: now(db),
      status: 'unpaid',
      products: [product],
    };
    if (db.has('orders', order.order_id as string)) return 'Order already exists';
    db.put('orders', order.order_id as string, order);
    return orderRepr(order);
  }),
  pay_instore_order: tool(`${INSTORE}.pay_instore_order`, [['order_id']], (a, ctx) => {
    check(typeof a.order_id === 'string' && a.order_id !== '', 'Order ID cannot be empty');
    const order = instoreOrder(ctx.db, a.order_id);
    if (order.status !== 'unpaid') return `Order ${str(a.order_id)} is not in \`unpaid\` status.`;
    ctx.db.update('orders', str(a.order_id), { status: 'paid', update_time: now(ctx.db) });
    return 'Payment successful';
  }),
  instore_cancel_order: tool(`${INSTORE}.instore_cancel_order`, [['order_id']], (a, ctx) => {
    check(typeof a.order_id === 'string' && a.order_id !== '', 'Order ID cannot be empty');
    const order = instoreOrder(ctx.db, a.order_id);
    if (order.status === 'cancelled') return `Order ${str(order.order_id)} is already cancelled.`;
    ctx.db.update('orders', str(a.order_id), { status: 'cancelled', update_time: now(ctx.db) });
    return `Order ${str(order.order_id)} is cancelled.`;
  }),
  instore_book: tool(`${INSTORE}.instore_book`, [['user_id'], ['shop_id'], ['time'], ['customer_count', 1]], (a, ctx) => {
    const { db } = ctx;
    checkUser(db, a.user_id);
    check(db.has('shops', str(a.shop_id)), 'Shop does not exist');
    check(typeof a.customer_count === 'number' && a.customer_count > 0, 'Number of customers for table booking must be greater than 0');
    check(typeof a.time === 'string' && a.time !== '', 'Table booking time cannot be empty');
    checkTime(a.time, 'Table booking');
    const target = shop(db, a.shop_id);
    check(target.enable_book === true, 'Shop does not support table booking');
    const price = Number(target.book_price ?? 0);
    const book: JsonObject = {
      book_id: orderId('OI', '#INSTORE_BOOK#', ctx),
      shop_id: str(a.shop_id),
      book_time: a.time ?? null,
      customer_count: a.customer_count,
      book_price: price,
      customer_id: str(a.user_id),
      status: price > 0 ? 'unpaid' : 'paid',
      update_time: now(db),
    };
    if (db.has('books', book.book_id as string)) return 'BookInfo already exists';
    db.put('books', book.book_id as string, book);
    return bookRepr(book);
  }),
  pay_instore_book: tool(`${INSTORE}.pay_instore_book`, [['book_id']], (a, ctx) => {
    check(typeof a.book_id === 'string' && a.book_id !== '', 'Booking ID cannot be empty');
    const book = record(ctx.db, 'books', a.book_id);
    if (book.status !== 'unpaid') return `BookInfo ${str(book.book_id)} is not in \`unpaid\` status.`;
    ctx.db.update('books', str(a.book_id), { status: 'paid', update_time: now(ctx.db) });
    return 'Payment successful';
  }),
  instore_cancel_book: tool(`${INSTORE}.instore_cancel_book`, [['book_id']], (a, ctx) => {
    check(typeof a.book_id === 'string' && a.book_id !== '', 'Booking ID cannot be empty');
    const book = record(ctx.db, 'books', a.book_id);
    if (book.status === 'cancelled') return `BookInfo ${str(book.book_id)} is already cancelled.`;
    ctx.db.update('books', str(a.book_id), { status: 'cancelled', update_time: now(ctx.db) });
    return `BookInfo ${str(book.book_id)} is cancelled.`;
  }),
  instore_reservation: tool(`${INSTORE}.instore_reservation`, [['user_id'], ['shop_id'], ['time'], ['customer_count', 1]], (a, ctx) => {
    const { db } = ctx;
    checkUser(db, a.user_id);
    check(db.has('shops', str(a.shop_id)), 'Shop does not exist');
    checkTime(a.time, 'Reservation');
    check(typeof a.customer_count === 'number' && a.customer_count > 0, 'Number of customers for reservation must be greater than 0');
    const reservation: JsonObject = {
      reservation_id: orderId('OI', '#INSTORE_RESV#', ctx),
      shop_id: str(a.shop_id),
      reservation_time: a.time ?? null,
      customer_id: str(a.user_id),
      customer_count: a.customer_count,
      status: 'unconsumed',
      update_time: now(db),
    };
    if (db.has('reservations', reservation.reservation_id as string)) return 'ReservationInfo already exists';
    db.put('reservations', reservation.reservation_id as string, reservation);
    return reservationRepr(reservation);
  }),
  instore_modify_reservation: tool(`${INSTORE}.instore_modify_reservation`, [['reservation_id'], ['time'], ['customer_count', 0]], (a, ctx) => {
    check(typeof a.reservation_id === 'string' && a.reservation_id !== '', 'Reservation ID cannot be empty');
    const reservation = record(ctx.db, 'reservations', a.reservation_id);
    if (reservation.status === 'consumed' || reservation.status === 'cancelled') return `ReservationInfo ${str(reservation.reservation_id)} is already ${str(reservation.status)}.`;
    check(typeof a.customer_count === 'number' && a.customer_count >= 0, 'Number of customers for reservation must be greater than or equal to 0');
    check(typeof a.time === 'string' && a.time !== '', 'Reservation time cannot be empty');
    checkTime(a.time, 'Reservation');
    return reservationRepr(ctx.db.update('reservations', str(a.reservation_id), { reservation_time: a.time, customer_count: a.customer_count, update_time: now(ctx.db) }));
  }),
  instore_cancel_reservation: tool(`${INSTORE}.instore_cancel_reservation`, [['reservation_id']], (a, ctx) => {
    check(typeof a.reservation_id === 'string' && a.reservation_id !== '', 'Reservation ID cannot be empty');
    const reservation = record(ctx.db, 'reservations', a.reservation_id);
    if (reservation.status === 'cancelled') return `ReservationInfo ${str(reservation.reservation_id)} is already cancelled.`;
    ctx.db.update('reservations', str(a.reservation_id), { status: 'cancelled', update_time: now(ctx.db) });
    return `ReservationInfo ${str(reservation.reservation_id)} is cancelled.`;
  }),
  get_instore_orders: tool(`${INSTORE}.get_instore_orders`, [['user_id']], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    const found = ctx.db.all('orders').filter((o) => o.order_type === 'instore' && o.user_id === a.user_id);
    return found.length === 0 ? `User ${str(a.user_id)} has no order information.` : found.map(orderRepr).join('\n');
  }),
  get_instore_reservations: tool(`${INSTORE}.get_instore_reservations`, [['user_id']], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    const found = ctx.db.all('reservations').filter((r) => r.customer_id === a.user_id);
    return found.length === 0 ? `User ${str(a.user_id)} has no reservation information.` : found.map(reservationRepr).join('\n');
  }),
  get_instore_books: tool(`${INSTORE}.get_instore_books`, [['user_id']], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    const found = ctx.db.all('books').filter((b) => b.customer_id === a.user_id);
    return found.length === 0 ? `User ${str(a.user_id)} has no book information.` : found.map(bookRepr).join('\n');
  }),
  search_instore_book: tool(`${INSTORE}.search_instore_book`, [['user_id'], ['book_id', null]], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    if (a.book_id === null || a.book_id === undefined) {
      const found = ctx.db.all('books').filter((b) => b.customer_id === a.user_id);
      return found.length === 0 ? `User ${str(a.user_id)} has no book information.` : found.map(bookRepr).join('\n');
    }
    const book = record(ctx.db, 'books', a.book_id);
    return book.customer_id !== a.user_id ? `BookInfo ${str(a.book_id)} is not belong to user ${str(a.user_id)}.` : bookRepr(book);
  }),
  search_instore_reservation: tool(`${INSTORE}.search_instore_reservation`, [['user_id'], ['reservation_id', null]], (a, ctx) => {
    checkUser(ctx.db, a.user_id);
    if (a.reservation_id === null || a.reservation_id === undefined) {
      const found = ctx.db.all('reservations').filter((r) => r.customer_id === a.user_id);
      return found.length === 0 ? `User ${str(a.user_id)} has no reservation information.` : found.map(reservationRepr).join('\n');
    }
    const reservation = record(ctx.db, 'reservations', a.reservation_id);
    return reservation.customer_id !== a.user_id ? `ReservationInfo ${str(a.reservation_id)} is not belong to user ${str(a.user_id)}.` : reservationRepr(reservation);
  }),
};
