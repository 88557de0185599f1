// VitaBench's pydantic models print themselves with custom __repr__/__str__ (Python f-strings):
// these functions write the same text from the JSON records of a task's environment. Fields the
// models type as float print as Python floats (`25.0`), lists of strings as Python lists.
import type { JsonObject, JsonValue } from '@autoforge/core';
import { pyFloatRepr } from './python-number.js';
import { pyRepr, pyStr } from './python-repr.js';

/** Keys whose numbers VitaBench's models hold as floats (prices, scores, coordinates, …). */
export const VITA_FLOAT_KEYS: ReadonlySet<string> = new Set(['price', 'total_price', 'score', 'longitude', 'latitude', 'humidity', 'book_price', 'shipping_time']);
const FORMAT = { floatKeys: VITA_FLOAT_KEYS };

/** A float field as Python prints it (`None` for null). */
export function pyFloatField(value: JsonValue | undefined): string {
  return typeof value === 'number' ? pyFloatRepr(value) : pyStr(value ?? null);
}

/** A field as an f-string prints it (`str()`), floats where the model has a float. */
function field(record: JsonObject, key: string, fallback: JsonValue = null): string {
  const value = Object.prototype.hasOwnProperty.call(record, key) ? (record[key] as JsonValue) : fallback;
  if (VITA_FLOAT_KEYS.has(key)) return pyFloatField(value);
  return pyStr(value, FORMAT, key);
}

/** `Location.__repr__`: `<address> longitude:<lng>,latitude:<lat>`. */
export function locationRepr(location: JsonValue | undefined): string {
  if (location === null || location === undefined || typeof location !== 'object' || Array.isArray(location)) return 'None';
  return `${pyStr(location.address ?? null)} longitude:${pyFloatField(location.longitude)},latitude:${pyFloatField(location.latitude)}`;
}

/** `Weather.__repr__`. */
export function weatherRepr(weather: JsonObject): string {
  const t = Array.isArray(weather.temperature) ? weather.temperature : [];
  return `city: ${field(weather, 'city')}, weather: ${field(weather, 'category')}, datetime: ${field(weather, 'datetime')}, temperature: ${pyFloatField(t[0])}~${pyFloatField(t[1])}, humidity: ${pyFloatField(weather.humidity)}`;
}

/** `StoreProduct.__repr__` (delivery); a list of attributes is joined with ", " as the model's validator does. */
export function storeProductRepr(p: JsonObject): string {
  const attributes = Array.isArray(p.attributes) ? p.attributes.map(String).join(', ') : pyStr(p.attributes ?? null);
  return (
    `StoreProduct(store_name=${field(p, 'store_name')}, store_id=${field(p, 'store_id')}, product_name=${field(p, 'name')}, ` +
    `product_id=${field(p, 'product_id', '')}, attributes=${attributes}, quantity=${field(p, 'quantity', 0)}, price=${field(p, 'price', 0)}, tags=${field(p, 'tags')})`
  );
}

/** `Store.__str__` (delivery): without the products. */
export function storeStr(s: JsonObject): string {
  return `Store(name=${field(s, 'name')}, store_id=${field(s, 'store_id', '')}, score=${field(s, 'score')}, location=${locationRepr(s.location)}, tags=${field(s, 'tags')})`;
}

/** `Store.__repr__` (delivery): `…tags=[…]), products=<each product's repr, one per line>`. */
export function storeRepr(s: JsonObject): string {
  const products = (Array.isArray(s.products) ? (s.products as JsonObject[]) : []).map(storeProductRepr).join('\n');
  return `${storeStr(s)}, products=${products}`;
}

/** `ShopProduct.__repr__` (in-store). */
export function shopProductRepr(p: JsonObject): string {
  return `ShopProduct(shop_id=${field(p, 'shop_id')}, product_id=${field(p, 'product_id', '')}, name=${field(p, 'name')}, price=${field(p, 'price', 0)}, quantity=${field(p, 'quantity', 0)}, tags=${field(p, 'tags')})`;
}

/** `Shop.__str__` (in-store): without the products (no in-store tool prints a shop's `__repr__`). */
export function shopStr(s: JsonObject): string {
  return (
    `Shop(shop_name=${field(s, 'shop_name')}, shop_id=${field(s, 'shop_id')}, score=${field(s, 'score')}, location=${locationRepr(s.location)}, ` +
    `tags=${field(s, 'tags')}, enable_book=${field(s, 'enable_book')}, book_price=${field(s, 'book_price')}, enable_reservation=${field(s, 'enable_reservation')})`
  );
}

/** `BookInfo.__repr__` (no space after the first comma and no closing parenthesis, as VitaBench writes it). */
export function bookRepr(b: JsonObject): string {
  return (
    `BookInfo(book_id=${field(b, 'book_id')},shop_id=${field(b, 'shop_id')}, book_time=${field(b, 'book_time')}, customer_id=${field(b, 'customer_id')}, ` +
    `customer_count=${field(b, 'customer_count')}, book_price=${field(b, 'book_price')}, status=${field(b, 'status')}`
  );
}

/** `ReservationInfo.__repr__` (as VitaBench writes it: no closing parenthesis). */
export function reservationRepr(r: JsonObject): string {
  return (
    `ReservationInfo(reservation_id=${field(r, 'reservation_id')},shop_id=${field(r, 'shop_id')}, reservation_time=${field(r, 'reservation_time')}, ` +
    `customer_id=${field(r, 'customer_id')}, customer_count=${field(r, 'customer_count')}, status=${field(r, 'status')}`
  );
}

// An order's products: the ones VitaBench's tools create are models (printed with their repr);
// those an environment ships are plain dicts (`List[Any]`), printed as Python dicts.
function productsRepr(products: JsonValue | undefined): string {
  const list = Array.isArray(products) ? products : [];
  return `[${list
    .map((p) => {
      if (typeof p !== 'object' || p === null || Array.isArray(p)) return pyRepr(p, FORMAT);
      if ('store_name' in p) return storeProductRepr(p);
      if ('shop_id' in p) return shopProductRepr(p);
      return pyRepr(p, FORMAT);
    })
    .join(', ')}]`;
}

const ID_FIELD: Record<string, string> = { delivery: 'store_id', instore: 'shop_id', hotel: 'hotel_id', attraction: 'attraction_id', flight: 'flight_id', train: 'train_id' };

/** The fields of `Order` with its defaults (`update_time` falls back to `create_time`). */
function orderField(o: JsonObject, key: string): string {
  const defaults: JsonObject = { note: '', dispatch_time: '', shipping_time: 0, delivery_time: '', total_price: 0, create_time: '', update_time: '', status: 'unpaid' };
  if (key === 'update_time' && (o.update_time === undefined || o.update_time === '' || o.update_time === null)) return field(o, 'create_time', '');
  return field(o, key, defaults[key] ?? null);
}

/** `Order.__str__`: ends with `status:<status>, ` (as VitaBench writes it). */
export function orderStr(o: JsonObject): string {
  const type = String(o.order_type);
  return (
    `Order(order_id:${orderField(o, 'order_id')}, order_type:${type}, user_id:${orderField(o, 'user_id')}, ${ID_FIELD[type] ?? 'store_id'}:${orderField(o, 'store_id')}, ` +
    `total_price:${orderField(o, 'total_price')}, create_time:${orderField(o, 'create_time')}, update_time:${orderField(o, 'update_time')}, status:${orderField(o, 'status')}, `
  );
}

/** `Order.__repr__`: delivery orders with dispatch, shipping and delivery times and the note. */
export function orderRepr(o: JsonObject): string {
  const type = String(o.order_type);
  const head = `Order(order_id:${orderField(o, 'order_id')}, order_type:${type}, user_id:${orderField(o, 'user_id')}, ${ID_FIELD[type] ?? 'store_id'}:${orderField(o, 'store_id')}, `;
  const times = `total_price:${orderField(o, 'total_price')}, create_time:${orderField(o, 'create_time')}, update_time:${orderField(o, 'update_time')}, `;
  if (type === 'delivery') {
    return (
      `${head}dispatch_time:${orderField(o, 'dispatch_time')}, shipping_time:${orderField(o, 'shipping_time')}, delivery_time:${orderField(o, 'delivery_time')}, ` +
      `${times}note:${orderField(o, 'note')}, status:${orderField(o, 'status')}, products:${productsRepr(o.products)})`
    );
  }
  return `${head}${times}status:${orderField(o, 'status')}, products:${productsRepr(o.products)})`;
}
