import type { JsonObject, JsonValue } from '@autoforge/core';
import type { NativeTool, ToolContext } from '@autoforge/env-runtime';
import { resolveKeyFolded } from './fold-for-match.js';
import { pythonCalculate } from './python-arithmetic.js';
import { pyNumberText } from './python-number.js';
import { toolError } from './tau-bench-retail-tools.js';

// Ports of tau2-bench's airline toolkit (sierra-research/tau2-bench, src/tau2/domains/airline/
// tools.py). tau2 raises ValueError("…"); the observation is "Error: …" with the error flag,
// which is what a thrown Error gives here. Outputs are the pydantic models' model_dump(): every
// optional field present, null when unset.

type Obj = Record<string, JsonValue>;

const asObj = (value: JsonValue | undefined): Obj => value as Obj;
const asList = (value: JsonValue | undefined): Obj[] => value as Obj[];
const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function lookup(ctx: ToolContext, collection: string, id: string, what: string): string {
  const key = resolveKeyFolded(ctx.db.ids(collection), (k) => ctx.db.has(collection, k), id);
  return key ?? toolError(`${what} ${id} not found`);
}

function flightInstance(ctx: ToolContext, flightNumber: string, date: string): { flight: Obj; onDate: Obj; key: string } {
  const key = lookup(ctx, 'flights', flightNumber, 'Flight');
  const flight = ctx.db.get('flights', key) as Obj;
  const dates = asObj(flight.dates);
  if (!has(dates, date)) toolError(`Flight ${flightNumber} not found on date ${date}`);
  return { flight, onDate: asObj(dates[date]), key };
}

/** `DirectFlight(...)` as model_dump gives it. */
function directFlight(flight: Obj, date: string, dateField: string | null): Obj {
  const onDate = asObj(asObj(flight.dates)[date]);
  return {
    flight_number: flight.flight_number as string,
    origin: flight.origin as string,
    destination: flight.destination as string,
    status: 'available',
    scheduled_departure_time_est: flight.scheduled_departure_time_est as string,
    scheduled_arrival_time_est: flight.scheduled_arrival_time_est as string,
    date: dateField,
    available_seats: onDate.available_seats as JsonValue,
    prices: onDate.prices as JsonValue,
  };
}

function searchDirect(ctx: ToolContext, date: string, origin: string | null, destination: string | null, leaveAfter: string | null): Obj[] {
  const results: Obj[] = [];
  for (const flight of ctx.db.all('flights')) {
    const dates = asObj(flight.dates);
    if (
      (origin === null || flight.origin === origin) &&
      (destination === null || flight.destination === destination) &&
      has(dates, date) &&
      asObj(dates[date]).status === 'available' &&
      (leaveAfter === null || (flight.scheduled_departure_time_est as string) >= leaveAfter)
    ) {
      results.push(directFlight(flight, date, null));
    }
  }
  return results;
}

/** `_payment_for_update`: checks, deducts a gift card, returns the Payment or null. */
function paymentForUpdate(ctx: ToolContext, userId: string, paymentId: string, total: number): Obj | null {
  const methods = asObj((ctx.db.get('users', userId) as Obj).payment_methods);
  if (!has(methods, paymentId)) return toolError('Payment method not found');
  const method = asObj(methods[paymentId]);
  if (method.source === 'certificate') return toolError('Certificate cannot be used to update reservation');
  if (method.source === 'gift_card' && (method.amount as number) < total) return toolError('Gift card balance is not enough');
  if (method.source === 'gift_card') {
    const card = asObj(asObj(ctx.db.edit('users', userId).payment_methods)[paymentId]);
    card.amount = (card.amount as number) - total;
  }
  return total !== 0 ? { payment_id: paymentId, amount: total } : null;
}

const passenger = (p: Obj): Obj => ({ first_name: p.first_name as string, last_name: p.last_name as string, dob: p.dob as string });

/** The 14 tau2 airline tools, by name. */
export const TAU2_AIRLINE_TOOLS: Readonly<Record<string, NativeTool>> = {
  book_reservation(args, ctx) {
    const cabin = args.cabin as string;
    const flights = args.flights as Obj[];
    const passengers = (args.passengers as Obj[]).map(passenger);
    const payments = (args.payment_methods as Obj[]).map((p) => ({ payment_id: p.payment_id as string, amount: p.amount as number }));
    const nonfree = args.nonfree_baggages as number;
    const insurance = args.insurance as string;
    const userId = lookup(ctx, 'users', args.user_id as string, 'User');
    const user = ctx.db.get('users', userId) as Obj;
    const reservationId = ['HATHAT', 'HATHAU', 'HATHAV'].find((id) => !ctx.db.has('reservations', id)) ?? toolError('Too many reservations');
    const reservation: Obj = {
      reservation_id: reservationId,
      user_id: userId,
      origin: args.origin as string,
      destination: args.destination as string,
      flight_type: args.flight_type as string,
      cabin,
      flights: [],
      passengers,
      payment_history: payments,
      created_at: '2024-05-15T15:00:00',
      total_baggages: args.total_baggages as number,
      nonfree_baggages: nonfree,
      insurance,
      status: null,
    };
    let total = 0;
    const seats: { key: string; date: string }[] = [];
    for (const info of flights) {
      const date = info.date as string;
      const { flight, onDate, key } = flightInstance(ctx, info.flight_number as string, date);
      const number = flight.flight_number as string;
      if (onDate.status !== 'available') toolError(`Flight ${number} not available on date ${date}`);
      if ((asObj(onDate.available_seats)[cabin] as number) < passengers.length) toolError(`Not enough seats on flight ${number}`);
      const price = asObj(onDate.prices)[cabin] as number;
      asList(reservation.flights).push({ flight_number: number, origin: flight.origin as string, destination: flight.destination as string, date, price });
      seats.push({ key, date });
      total += price * passengers.length;
    }
    if (insurance === 'yes') total += 30 * passengers.length;
    total += 50 * nonfree;
    const methods = asObj(user.payment_methods);
    for (const payment of payments) {
      if (!has(methods, payment.payment_id)) toolError(`Payment method ${payment.payment_id} not found`);
      const method = asObj(methods[payment.payment_id]);
      if ((method.source === 'gift_card' || method.source === 'certificate') && (method.amount as number) < payment.amount) {
        toolError(`Not enough balance in payment method ${payment.payment_id}`);
      }
    }
    const paid = payments.reduce((sum, p) => sum + p.amount, 0);
    if (paid !== total) toolError(`Payment amount does not add up, total price is ${pyNumberText(total)}, but paid ${pyNumberText(paid)}`);
    const edited = ctx.db.edit('users', userId);
    const editedMethods = asObj(edited.payment_methods);
    for (const payment of payments) {
      const method = editedMethods[payment.payment_id] as Obj | undefined;
      // A certificate listed twice: Python's second lookup raises KeyError after the first pop.
      if (method === undefined) return toolError(`'${payment.payment_id}'`);
      if (method.source === 'gift_card') method.amount = (method.amount as number) - payment.amount;
      else if (method.source === 'certificate') delete editedMethods[payment.payment_id];
    }
    for (const { key, date } of seats) {
      const flight = ctx.db.edit('flights', key);
      const available = asObj(asObj(asObj(flight.dates)[date]).available_seats);
      available[cabin] = (available[cabin] as number) - passengers.length;
    }
    ctx.db.put('reservations', reservationId, reservation);
    (edited.reservations as string[]).push(reservationId);
    return reservation;
  },

  calculate(args) {
    const result = pythonCalculate(args.expression as string);
    if (result.ok) return result.value;
    const message = (result.issues[0] as { message: string }).message;
    return toolError(message === 'invalid characters in expression' ? 'Invalid characters in expression' : message);
  },

  cancel_reservation(args, ctx) {
    const id = lookup(ctx, 'reservations', args.reservation_id as string, 'Reservation');
    const reservation = ctx.db.edit('reservations', id);
    const history = asList(reservation.payment_history);
    history.push(...history.map((p) => ({ payment_id: p.payment_id as string, amount: -(p.amount as number) })));
    reservation.status = 'cancelled';
    return reservation;
  },

  get_flight_status(args, ctx) {
    return flightInstance(ctx, args.flight_number as string, args.date as string).onDate.status as string;
  },

  get_reservation_details(args, ctx) {
    return ctx.db.get('reservations', lookup(ctx, 'reservations', args.reservation_id as string, 'Reservation')) as JsonObject;
  },

  get_user_details(args, ctx) {
    return ctx.db.get('users', lookup(ctx, 'users', args.user_id as string, 'User')) as JsonObject;
  },

  list_all_airports() {
    return [
      ['SFO', 'San Francisco'], ['JFK', 'New York'], ['LAX', 'Los Angeles'], ['ORD', 'Chicago'], ['DFW', 'Dallas'],
      ['DEN', 'Denver'], ['SEA', 'Seattle'], ['ATL', 'Atlanta'], ['MIA', 'Miami'], ['BOS', 'Boston'],
      ['PHX', 'Phoenix'], ['IAH', 'Houston'], ['LAS', 'Las Vegas'], ['MCO', 'Orlando'], ['EWR', 'Newark'],
      ['CLT', 'Charlotte'], ['MSP', 'Minneapolis'], ['DTW', 'Detroit'], ['PHL', 'Philadelphia'], ['LGA', 'LaGuardia'],
    ].map(([iata, city]) => ({ iata: iata as string, city: city as string }));
  },

  search_direct_flight(args, ctx) {
    return searchDirect(ctx, args.date as string, args.origin as string, args.destination as string, null);
  },

  search_onestop_flight(args, ctx) {
    const date = args.date as string;
    const results: Obj[][] = [];
    for (const first of searchDirect(ctx, date, args.origin as string, null, null)) {
      first.date = date;
      const arrival = first.scheduled_arrival_time_est as string;
      let date2 = date;
      if (arrival.includes('+1')) {
        const day = date.slice(-2).trim();
        if (!/^[+-]?\d+$/.test(day)) return toolError(`invalid literal for int() with base 10: '${date.slice(-2)}'`);
        date2 = `2024-05-${Number.parseInt(day, 10) + 1}`;
      }
      for (const second of searchDirect(ctx, date2, first.destination as string, args.destination as string, arrival)) {
        second.date = date2;
        results.push([first, second]);
      }
    }
    return results;
  },

  send_certificate(args, ctx) {
    const userId = lookup(ctx, 'users', args.user_id as string, 'User');
    const amount = args.amount as number;
    const methods = asObj((ctx.db.get('users', userId) as Obj).payment_methods);
    for (const id of [3221322, 3221323, 3221324]) {
      const paymentId = `certificate_${id}`;
      if (!has(methods, paymentId)) {
        asObj(ctx.db.edit('users', userId).payment_methods)[paymentId] = { source: 'certificate', id: paymentId, amount };
        return `Certificate ${paymentId} added to user ${args.user_id as string} with amount ${pyNumberText(amount)}.`;
      }
    }
    return toolError('Too many certificates');
  },

  transfer_to_human_agents() {
    return 'Transfer successful';
  },

  update_reservation_baggages(args, ctx) {
    const id = lookup(ctx, 'reservations', args.reservation_id as string, 'Reservation');
    const current = ctx.db.get('reservations', id) as Obj;
    const userId = lookup(ctx, 'users', current.user_id as string, 'User');
    const nonfree = args.nonfree_baggages as number;
    const total = 50 * Math.max(0, nonfree - (current.nonfree_baggages as number));
    const payment = paymentForUpdate(ctx, userId, args.payment_id as string, total);
    const reservation = ctx.db.edit('reservations', id);
    if (payment !== null) asList(reservation.payment_history).push(payment);
    reservation.total_baggages = args.total_baggages as number;
    reservation.nonfree_baggages = nonfree;
    return reservation;
  },

  update_reservation_flights(args, ctx) {
    const cabin = args.cabin as string;
    const id = lookup(ctx, 'reservations', args.reservation_id as string, 'Reservation');
    const current = ctx.db.get('reservations', id) as Obj;
    const userId = lookup(ctx, 'users', current.user_id as string, 'User');
    const passengers = asList(current.passengers).length;
    const existing = asList(current.flights);
    let total = 0;
    const flights: Obj[] = [];
    for (const info of args.flights as Obj[]) {
      const date = info.date as string;
      const key = lookup(ctx, 'flights', info.flight_number as string, 'Flight');
      const flight = ctx.db.get('flights', key) as Obj;
      const number = flight.flight_number as string;
      const same = existing.find((f) => f.flight_number === number && f.date === date && cabin === current.cabin);
      if (same !== undefined) {
        total += (same.price as number) * passengers;
        flights.push(structuredClone(same));
        continue;
      }
      const { onDate } = flightInstance(ctx, number, date);
      if (onDate.status !== 'available') toolError(`Flight ${number} not available on date ${date}`);
      if ((asObj(onDate.available_seats)[cabin] as number) < passengers) toolError(`Not enough seats on flight ${number}`);
      const price = asObj(onDate.prices)[cabin] as number;
      flights.push({ flight_number: number, origin: flight.origin as string, destination: flight.destination as string, date, price });
      total += price * passengers;
    }
    total -= existing.reduce((sum, f) => sum + (f.price as number), 0) * passengers;
    const payment = paymentForUpdate(ctx, userId, args.payment_id as string, total);
    const reservation = ctx.db.edit('reservations', id);
    if (payment !== null) asList(reservation.payment_history).push(payment);
    reservation.flights = flights;
    reservation.cabin = cabin;
    return reservation;
  },

  update_reservation_passengers(args, ctx) {
    const passengers = (args.passengers as Obj[]).map(passenger);
    const id = lookup(ctx, 'reservations', args.reservation_id as string, 'Reservation');
    if (passengers.length !== asList((ctx.db.get('reservations', id) as Obj).passengers).length) {
      return toolError('Number of passengers does not match');
    }
    const reservation = ctx.db.edit('reservations', id);
    reservation.passengers = passengers;
    return reservation;
  },
};
