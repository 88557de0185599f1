import type { JsonObject, JsonValue } from '@autoforge/core';
import type { NativeTool } from '@autoforge/env-runtime';
import { pythonCalculate } from './python-arithmetic.js';
import { pyNumberText } from './python-number.js';
import { toolError } from './tau-bench-retail-tools.js';

// Ports of tau-bench's airline tools (sierra-research/tau-bench, tau_bench/envs/airline/tools),
// with the same conventions as the retail ports: "Error: …" strings become thrown errors whose
// observation is the same text, and no tool writes before its last check.

type Obj = Record<string, JsonValue>;

const asObj = (value: JsonValue | undefined): Obj => value as Obj;
const asList = (value: JsonValue | undefined): Obj[] => value as Obj[];
const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Python's `str(KeyError(key))`: the key's repr. */
const keyError = (key: string): never => toolError(`'${key}'`);

const AIRPORTS: readonly (readonly [string, string])[] = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

/** `{k: v for k, v in flight.items() if k != "dates"}` updated with one date's data. */
function flightOn(flight: Obj, dateData: Obj): Obj {
  const result: Obj = {};
  for (const [k, v] of Object.entries(flight)) if (k !== 'dates') result[k] = v;
  return Object.assign(result, dateData);
}

/**
 * Prices a list of `{flight_number, date}` segments on the flight data, as book_reservation and
 * update_reservation_flights do: adds `price`, `origin`, `destination` to each (a copy).
 */
function priceSegment(
  flights: (id: string) => Obj | undefined,
  segment: Obj,
  cabin: string,
  passengers: number,
): number {
  const number = segment.flight_number as string;
  const date = segment.date as string;
  const flight = flights(number);
  if (flight === undefined) return toolError(`flight ${number} not found`);
  const dates = asObj(flight.dates);
  if (!has(dates, date)) return toolError(`flight ${number} not found on date ${date}`);
  const onDate = asObj(dates[date]);
  if (onDate.status !== 'available') return toolError(`flight ${number} not available on date ${date}`);
  const seats = asObj(onDate.available_seats);
  const prices = asObj(onDate.prices);
  if (!has(seats, cabin)) return keyError(cabin);
  if ((seats[cabin] as number) < passengers) return toolError(`not enough seats on flight ${number}`);
  if (!has(prices, cabin)) return keyError(cabin);
  segment.price = prices[cabin] as number;
  segment.origin = flight.origin as string;
  segment.destination = flight.destination as string;
  return (segment.price as number) * passengers;
}

/** The 14 tau-bench airline tools, by name. */
export const TAU_BENCH_AIRLINE_TOOLS: Readonly<Record<string, NativeTool>> = {
  book_reservation(args, ctx) {
    const userId = args.user_id as string;
    const cabin = args.cabin as string;
    const passengers = args.passengers as Obj[];
    const payments = args.payment_methods as Obj[];
    const nonfree = args.nonfree_baggages as number;
    const insurance = args.insurance as string;
    const user = ctx.db.get('users', userId);
    if (user === undefined) return toolError('user not found');
    // tau-bench assumes at most 3 bookings per task and does not check past HATHAV.
    let reservationId = 'HATHAT';
    if (ctx.db.has('reservations', reservationId)) {
      reservationId = 'HATHAU';
      if (ctx.db.has('reservations', reservationId)) reservationId = 'HATHAV';
    }
    const reservation: Obj = {
      reservation_id: reservationId,
      user_id: userId,
      origin: args.origin as string,
      destination: args.destination as string,
      flight_type: args.flight_type as string,
      cabin,
      flights: structuredClone(args.flights as Obj[]),
      passengers,
      payment_history: payments,
      created_at: '2024-05-15T15:00:00',
      total_baggages: args.total_baggages as number,
      nonfree_baggages: nonfree,
      insurance,
    };
    let total = 0;
    for (const segment of asList(reservation.flights)) {
      total += priceSegment((id) => ctx.db.get('flights', id), segment, cabin, passengers.length);
    }
    if (insurance === 'yes') total += 30 * passengers.length;
    total += 50 * nonfree;
    const methods = asObj(user.payment_methods);
    for (const payment of payments) {
      const paymentId = payment.payment_id as string;
      if (!has(methods, paymentId)) return toolError(`payment method ${paymentId} not found`);
      const method = asObj(methods[paymentId]);
      if (method.source === 'gift_card' || method.source === 'certificate') {
        if ((method.amount as number) < (payment.amount as number)) {
          return toolError(`not enough balance in payment method ${paymentId}`);
        }
      }
    }
    const paid = payments.reduce((sum, p) => sum + (p.amount as number), 0);
    if (paid !== total) {
      return toolError(`payment amount does not add up, total price is ${pyNumberText(total)}, but paid ${pyNumberText(paid)}`);
    }
    const edited = ctx.db.edit('users', userId);
    const editedMethods = asObj(edited.payment_methods);
    for (const payment of payments) {
      const paymentId = payment.payment_id as string;
      const method = editedMethods[paymentId] as Obj | undefined;
      // A certificate listed twice: Python's second lookup raises KeyError after the first `del`,
      // keeping the writes made so far. Return that text as the observation, writes kept.
      if (method === undefined) return `Error: '${paymentId}'`;
      if (method.source === 'gift_card') method.amount = (method.amount as number) - (payment.amount as number);
      else if (method.source === 'certificate') delete editedMethods[paymentId];
    }
    ctx.db.put('reservations', reservationId, reservation);
    (edited.reservations as string[]).push(reservationId);
    return reservation;
  },

  calculate(args) {
    const result = pythonCalculate(args.expression as string);
    return result.ok ? result.value : toolError((result.issues[0] as { message: string }).message);
  },

  cancel_reservation(args, ctx) {
    const reservationId = args.reservation_id as string;
    if (!ctx.db.has('reservations', reservationId)) return toolError('reservation not found');
    const reservation = ctx.db.edit('reservations', reservationId);
    const history = asList(reservation.payment_history);
    const refunds = history.map((p) => ({ payment_id: p.payment_id as string, amount: -(p.amount as number) }));
    history.push(...refunds);
    reservation.status = 'cancelled';
    return reservation;
  },

  get_reservation_details(args, ctx) {
    // tau-bench's own message for an unknown reservation.
    return ctx.db.get('reservations', args.reservation_id as string) ?? toolError('user not found');
  },

  get_user_details(args, ctx) {
    return ctx.db.get('users', args.user_id as string) ?? toolError('user not found');
  },

  list_all_airports() {
    const result: JsonObject = {};
    for (const [code, city] of AIRPORTS) result[code] = city;
    return result;
  },

  search_direct_flight(args, ctx) {
    const { origin, destination, date } = args as { origin: string; destination: string; date: string };
    const results: Obj[] = [];
    for (const flight of ctx.db.all('flights')) {
      if (flight.origin === origin && flight.destination === destination) {
        const dates = asObj(flight.dates);
        if (has(dates, date) && asObj(dates[date]).status === 'available') results.push(flightOn(flight, asObj(dates[date])));
      }
    }
    return results;
  },

  search_onestop_flight(args, ctx) {
    const { origin, destination, date } = args as { origin: string; destination: string; date: string };
    const flights = ctx.db.all('flights');
    const results: Obj[][] = [];
    for (const first of flights) {
      if (first.origin !== origin) continue;
      for (const second of flights) {
        if (!(second.destination === destination && first.destination === second.origin)) continue;
        const arrival = first.scheduled_arrival_time_est as string;
        // Python: f"2024-05-{int(date[-2:])+1}" — no zero padding, and int() of the last two characters.
        let date2 = date;
        if (arrival.includes('+1')) {
          const day = date.slice(-2).trim();
          if (!/^[+-]?\d+$/.test(day)) return toolError(`invalid literal for int() with base 10: '${date.slice(-2)}'`);
          date2 = `2024-05-${Number.parseInt(day, 10) + 1}`;
        }
        if (arrival > (second.scheduled_departure_time_est as string)) continue;
        const dates1 = asObj(first.dates);
        const dates2 = asObj(second.dates);
        if (has(dates1, date) && has(dates2, date2)) {
          if (asObj(dates1[date]).status === 'available' && asObj(dates2[date2]).status === 'available') {
            // tau-bench updates the second leg with flight2["dates"][date], not date2.
            if (!has(dates2, date)) return keyError(date);
            const leg1 = flightOn(first, asObj(dates1[date]));
            leg1.date = date;
            const leg2 = flightOn(second, asObj(dates2[date]));
            leg2.date = date2;
            results.push([leg1, leg2]);
          }
        }
      }
    }
    return results;
  },

  send_certificate(args, ctx) {
    const userId = args.user_id as string;
    const amount = args.amount as number;
    if (!ctx.db.has('users', userId)) return toolError('user not found');
    const methods = asObj((ctx.db.get('users', userId) as Obj).payment_methods);
    for (const id of [3221322, 3221323, 3221324]) {
      const paymentId = `certificate_${id}`;
      if (!has(methods, paymentId)) {
        const user = ctx.db.edit('users', userId);
        asObj(user.payment_methods)[paymentId] = { source: 'certificate', amount, id: paymentId };
        return `Certificate ${paymentId} added to user ${userId} with amount ${pyNumberText(amount)}.`;
      }
    }
    // tau-bench falls off the loop and returns None when all three certificates exist.
    return null;
  },

  think() {
    return '';
  },

  transfer_to_human_agents() {
    return 'Transfer successful';
  },

  update_reservation_baggages(args, ctx) {
    const reservationId = args.reservation_id as string;
    const total = args.total_baggages as number;
    const nonfree = args.nonfree_baggages as number;
    const paymentId = args.payment_id as string;
    const current = ctx.db.get('reservations', reservationId);
    if (current === undefined) return toolError('reservation not found');
    const price = 50 * Math.max(0, nonfree - (current.nonfree_baggages as number));
    const userId = current.user_id as string;
    const methods = asObj((ctx.db.get('users', userId) as Obj).payment_methods);
    if (!has(methods, paymentId)) return toolError('payment method not found');
    const method = asObj(methods[paymentId]);
    if (method.source === 'certificate') return toolError('certificate cannot be used to update reservation');
    if (method.source === 'gift_card' && (method.amount as number) < price) return toolError('gift card balance is not enough');
    const reservation = ctx.db.edit('reservations', reservationId);
    reservation.total_baggages = total;
    reservation.nonfree_baggages = nonfree;
    if (method.source === 'gift_card') {
      const card = asObj(asObj(ctx.db.edit('users', userId).payment_methods)[paymentId]);
      card.amount = (card.amount as number) - price;
    }
    if (price !== 0) asList(reservation.payment_history).push({ payment_id: paymentId, amount: price });
    return reservation;
  },

  update_reservation_flights(args, ctx) {
    const reservationId = args.reservation_id as string;
    const cabin = args.cabin as string;
    const paymentId = args.payment_id as string;
    const current = ctx.db.get('reservations', reservationId);
    if (current === undefined) return toolError('reservation not found');
    const passengers = asList(current.passengers).length;
    const existing = asList(current.flights);
    const flights = structuredClone(args.flights as Obj[]);
    let total = 0;
    for (const segment of flights) {
      const same = existing.find(
        (f) => f.flight_number === segment.flight_number && f.date === segment.date && cabin === current.cabin,
      );
      if (same !== undefined) {
        total += (same.price as number) * passengers;
        segment.price = same.price as number;
        segment.origin = same.origin as string;
        segment.destination = same.destination as string;
        continue;
      }
      total += priceSegment((id) => ctx.db.get('flights', id), segment, cabin, passengers);
    }
    total -= existing.reduce((sum, f) => sum + (f.price as number), 0) * passengers;
    const userId = current.user_id as string;
    const methods = asObj((ctx.db.get('users', userId) as Obj).payment_methods);
    if (!has(methods, paymentId)) return toolError('payment method not found');
    const method = asObj(methods[paymentId]);
    if (method.source === 'certificate') return toolError('certificate cannot be used to update reservation');
    if (method.source === 'gift_card' && (method.amount as number) < total) return toolError('gift card balance is not enough');
    if (method.source === 'gift_card') {
      const card = asObj(asObj(ctx.db.edit('users', userId).payment_methods)[paymentId]);
      card.amount = (card.amount as number) - total;
    }
    const reservation = ctx.db.edit('reservations', reservationId);
    reservation.flights = flights;
    if (total !== 0) asList(reservation.payment_history).push({ payment_id: paymentId, amount: total });
    // tau-bench does not update the flight data here ("assume it takes time to be updated").
    return reservation;
  },

  update_reservation_passengers(args, ctx) {
    const reservationId = args.reservation_id as string;
    const passengers = args.passengers as Obj[];
    const current = ctx.db.get('reservations', reservationId);
    if (current === undefined) return toolError('reservation not found');
    if (passengers.length !== asList(current.passengers).length) return toolError('number of passengers does not match');
    const reservation = ctx.db.edit('reservations', reservationId);
    reservation.passengers = passengers;
    return reservation;
  },
};
