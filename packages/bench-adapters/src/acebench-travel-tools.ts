import type { JsonObject, JsonValue } from '@autoforge/core';
import type { Db, NativeTool } from '@autoforge/env-runtime';
import { aceMethod } from './acebench-phone-tools.js';
import { PyException, keyError, noneSubscript, readCopy } from './python-exec.js';
import { pyFloatRepr } from './python-number.js';
import { pyStr } from './python-repr.js';

interface TravelUser {
  user_name: string;
  password: string;
  cash_balance: number;
  bank_balance: number;
  membership_level: string;
}

interface Flight {
  flight_no: string;
  origin: string;
  destination: string;
  depart_time: string;
  arrival_time: string;
  status: string;
  seats_available: number;
  economy_price: number;
  business_price: number;
}

interface Reservation {
  reservation_id: string;
  user_id: string;
  flight_no: string;
  payment_method: string;
  cabin: string;
  baggage: number;
  origin?: string;
  destination?: string;
}

interface TravelState {
  users: Record<string, TravelUser>;
  flights: Flight[];
  reservations: Reservation[];
}

const TRAVEL = ['Travel'] as const;
const FREE_BAGGAGE: Record<string, Record<string, number>> = {
  regular: { 'Economy Class': 1, 'Business Class': 2 },
  silver: { 'Economy Class': 2, 'Business Class': 3 },
  gold: { 'Economy Class': 3, 'Business Class': 3 },
};
// `cancel_reservation`'s fixed "now": July 14, 2024, 06:00.
const NOW = Date.UTC(2024, 6, 14, 6, 0, 0);
const DAY_MS = 24 * 3600 * 1000;

const own = <T>(record: Record<string, T>, key: JsonValue | undefined): T | undefined =>
  typeof key === 'string' && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
const truthy = (value: JsonValue | undefined): boolean => value !== undefined && value !== null && value !== '' && value !== false && value !== 0;
const state = (db: Db): TravelState => db.read('Travel') as unknown as TravelState;
const flightSummary = (f: Flight): JsonObject => ({
  flight_no: f.flight_no,
  origin: f.origin,
  destination: f.destination,
  depart_time: f.depart_time,
  arrival_time: f.arrival_time,
  status: f.status,
  seats_available: f.seats_available,
  economy_price: f.economy_price,
  business_price: f.business_price,
});

function parseDateTime(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (match === null) throw new PyException(`time data ${pyStr(text)} does not match format '%Y-%m-%d %H:%M:%S'`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

/** `authenticate_user`: the user record, or the error dict (truthy, without `membership_level`). */
function authenticate(travel: TravelState, userId: JsonValue | undefined, password: JsonValue | undefined): Partial<TravelUser> & JsonObject {
  const user = own(travel.users, userId);
  if (user !== undefined && user.password === password) return user as unknown as JsonObject;
  return { status: 'error', message: 'Incorrect username or password.' };
}

function baggageFee(membership: JsonValue | undefined, cabin: JsonValue | undefined, count: JsonValue | undefined): number {
  const levels = own(FREE_BAGGAGE, membership);
  if (levels === undefined) throw keyError(pyStr(membership ?? null));
  const free = own(levels, cabin);
  if (free === undefined) throw keyError(pyStr(cabin ?? null));
  if (typeof count !== 'number') throw new PyException(`unsupported operand type(s) for -: '${count === null ? 'NoneType' : typeof count === 'string' ? 'str' : 'list'}' and 'int'`);
  return Math.max(count - free, 0) * 50;
}

/** `update_balance`: false when the balance would go negative; any other method changes nothing. */
function updateBalance(user: TravelUser, method: JsonValue | undefined, amount: number): boolean {
  if (method === 'cash') {
    if (user.cash_balance + amount < 0) return false;
    user.cash_balance += amount;
  } else if (method === 'bank') {
    if (user.bank_balance + amount < 0) return false;
    user.bank_balance += amount;
  }
  return true;
}

/**
 * Native ports of ACEBench's `Travel` class (English scenario): flight search, reservations,
 * baggage fees, cabin changes and cancellations with the reference's checks, texts and quirks
 * (a failed authentication returns a truthy dict, so booking goes on to a `KeyError`; a
 * cancellation refunds to cash and leaves the reservation in place; `now` is 2024-07-14 06:00).
 */
export const ACEBENCH_TRAVEL_TOOLS: Readonly<Record<string, NativeTool>> = {
  get_flight_details: aceMethod(TRAVEL, 'Travel.get_flight_details', [['origin', null], ['destination', null]], (a, db) => {
    let flights = state(db).flights;
    if (truthy(a.origin)) flights = flights.filter((f) => f.origin === a.origin);
    if (truthy(a.destination)) flights = flights.filter((f) => f.destination === a.destination);
    if (flights.length === 0) return 'There are no direct flights that meet the criteria.';
    return flights.map(flightSummary);
  }),
  get_user_details: aceMethod(TRAVEL, 'Travel.get_user_details', [['user_id'], ['password']], (a, db) => {
    const user = own(state(db).users, a.user_id);
    if (user !== undefined && user.password === a.password) {
      return Object.fromEntries(Object.entries(user).filter(([k]) => k !== 'password')) as JsonObject;
    }
    return { status: 'error', message: 'Incorrect username or password.' };
  }),
  get_reservation_details: aceMethod(TRAVEL, 'Travel.get_reservation_details', [['reservation_id', null], ['user_id', null]], (a, db) => {
    const travel = state(db);
    let reservations: Reservation[];
    if (truthy(a.reservation_id)) reservations = travel.reservations.filter((r) => r.reservation_id === a.reservation_id);
    else if (truthy(a.user_id)) reservations = travel.reservations.filter((r) => r.user_id === a.user_id);
    else return { status: 'error', message: 'Please provide a valid reservation ID or user ID' };
    return reservations.map((r) => {
      const flight = travel.flights.find((f) => f.flight_no === r.flight_no);
      return { ...(r as unknown as JsonObject), flight_info: flight === undefined ? null : (flight as unknown as JsonObject) };
    });
  }),
  find_transfer_flights: aceMethod(TRAVEL, 'Travel.find_transfer_flights', [['origin_city'], ['transfer_city'], ['destination_city']], (a, db) => {
    const { flights } = state(db);
    const first = flights.filter((f) => f.origin === a.origin_city && f.destination === a.transfer_city && f.status === 'available');
    const second = flights.filter((f) => f.origin === a.transfer_city && f.destination === a.destination_city && f.status === 'available');
    const pairs: JsonObject[] = [];
    for (const leg1 of first) {
      const arrival = parseDateTime(leg1.arrival_time);
      for (const leg2 of second) {
        if (arrival < parseDateTime(leg2.depart_time)) pairs.push({ first_leg: leg1 as unknown as JsonObject, second_leg: leg2 as unknown as JsonObject });
      }
    }
    return pairs.length > 0 ? pairs : 'No connecting flights that meet the criteria were found.';
  }),
  reserve_flight: aceMethod(TRAVEL, 'Travel.reserve_flight', [['user_id'], ['password'], ['flight_no'], ['cabin'], ['payment_method'], ['baggage_count']], (a, db) => {
    const travel = readCopy<JsonObject>(db, 'Travel') as unknown as TravelState;
    const user = authenticate(travel, a.user_id, a.password);
    const flight = travel.flights.find((f) => f.flight_no === a.flight_no && f.status === 'available');
    if (flight === undefined) throw noneSubscript();
    let total = a.cabin === 'Economy Class' ? flight.economy_price : flight.business_price;
    if (!('membership_level' in user)) throw keyError('membership_level');
    total += baggageFee(user.membership_level, a.cabin, a.baggage_count);
    if (a.payment_method !== 'cash' && a.payment_method !== 'bank') return 'Invalid payment method';
    const payer = own(travel.users, a.user_id) as TravelUser;
    if (a.payment_method === 'cash') {
      if (total > payer.cash_balance) return 'Your cash balance is insufficient. Please consider using another payment method.';
      payer.cash_balance -= total;
    } else {
      if (total > payer.bank_balance) return 'Your bank balance is insufficient. Please consider using another payment method.';
      payer.bank_balance -= total;
    }
    flight.seats_available -= 1;
    const reservationId = `res_${travel.reservations.length + 1}`;
    travel.reservations.push({
      reservation_id: reservationId,
      user_id: a.user_id as string,
      flight_no: a.flight_no as string,
      payment_method: a.payment_method,
      cabin: a.cabin as string,
      baggage: a.baggage_count as number,
    });
    db.write('Travel', travel as unknown as JsonObject);
    return `Booking successful. Reservation ID: ${reservationId}. Total cost: ${pyStr(total)} yuan (including baggage fees).`;
  }),
  modify_flight: aceMethod(
    TRAVEL,
    'Travel.modify_flight',
    [['user_id'], ['reservation_id'], ['new_flight_no', null], ['new_cabin', null], ['add_baggage', 0], ['new_payment_method', null]],
    (a, db) => {
      const travel = readCopy<JsonObject>(db, 'Travel') as unknown as TravelState;
      const reservation = travel.reservations.find((r) => r.reservation_id === a.reservation_id && r.user_id === a.user_id);
      if (reservation === undefined) return 'Reservation not found or user ID does not match.';
      const current = travel.flights.find((f) => f.flight_no === reservation.flight_no);
      if (current === undefined) return 'Flight information not found.';
      const method = truthy(a.new_payment_method) ? a.new_payment_method : reservation.payment_method;
      const user = own(travel.users, a.user_id);
      if (user === undefined) throw keyError(String(a.user_id));
      const messages: string[] = [];
      if (truthy(a.new_flight_no) && a.new_flight_no !== reservation.flight_no) {
        const next = travel.flights.find((f) => f.flight_no === a.new_flight_no);
        if (next === undefined || next.origin !== current.origin || next.destination !== current.destination) {
          return 'Flight change failed: Invalid new flight number or destination does not match.';
        }
        reservation.flight_no = a.new_flight_no as string;
        messages.push('Flight number has been changed.');
      }
      if (truthy(a.new_cabin) && a.new_cabin !== reservation.cabin) {
        // The difference is priced on the flight the reservation had before any change above.
        const prices: Record<string, number> = { 'Economy Class': current.economy_price, 'Business Class': current.business_price };
        const difference = (own(prices, a.new_cabin) ?? 0) - (own(prices, reservation.cabin) ?? 0);
        reservation.cabin = a.new_cabin as string;
        if (difference > 0) {
          messages.push(
            updateBalance(user, method, -difference)
              ? `Cabin change successful. Price difference paid: ${pyStr(difference)}.`
              : 'Insufficient balance to pay the cabin price difference.',
          );
        } else if (difference < 0) {
          updateBalance(user, method, -difference);
          messages.push(`Cabin change successful. Price difference refunded: ${pyStr(-difference)}.`);
        }
      }
      const add = a.add_baggage;
      if (typeof add === 'number' && add > 0) {
        const free = own(own(FREE_BAGGAGE, user.membership_level) ?? {}, reservation.cabin) ?? 0;
        const total = (reservation.baggage ?? 0) + add;
        const cost = Math.max(0, total - free) * 50;
        if (cost > 0) {
          messages.push(
            updateBalance(user, method, -cost) ? `Baggage has been added. Additional fee to be paid: ${pyStr(cost)}.` : 'Insufficient balance to pay the additional baggage fees.',
          );
        }
        reservation.baggage = total;
      }
      if (messages.length === 0) messages.push('Modification completed with no additional fees.');
      db.write('Travel', travel as unknown as JsonObject);
      return messages.join(' ');
    },
  ),
  cancel_reservation: aceMethod(TRAVEL, 'Travel.cancel_reservation', [['user_id'], ['reservation_id'], ['reason']], (a, db) => {
    const travel = readCopy<JsonObject>(db, 'Travel') as unknown as TravelState;
    const user = own(travel.users, a.user_id);
    if (user === undefined) return 'Invalid user ID.';
    const reservation = travel.reservations.find((r) => r.reservation_id === a.reservation_id && r.user_id === a.user_id);
    if (reservation === undefined) return 'Invalid reservation ID or it does not belong to the user.';
    const flight = travel.flights.find((f) => f.flight_no === reservation.flight_no);
    if (flight === undefined) return 'Invalid flight information.';
    const depart = parseDateTime(flight.depart_time);
    if (NOW > depart) return 'The flight segment has been used and cannot be canceled.';
    const price = reservation.cabin === 'Economy Class' ? flight.economy_price : flight.business_price;
    let text: string;
    if (a.reason === 'The airline has canceled the flight.') {
      user.cash_balance += price;
      text = `The flight has been canceled. Your reservation will be canceled free of charge, and ${pyStr(price)} yuan has been refunded.`;
    } else if (depart - NOW > DAY_MS) {
      user.cash_balance += price;
      text = `More than 24 hours before departure. Free cancellation successful, ${pyStr(price)} yuan has been refunded.`;
    } else {
      const fee = price * 0.1;
      const refund = price - fee;
      user.cash_balance += refund;
      text = `Less than 24 hours before departure. A cancellation fee of ${pyFloatRepr(fee)} yuan has been deducted, and ${pyFloatRepr(refund)} yuan has been refunded.`;
    }
    db.write('Travel', travel as unknown as JsonObject);
    return text;
  }),
};
