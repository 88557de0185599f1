import { observationText } from '@autoforge/core';
import type { JsonObject, ToolResult } from '@autoforge/core';
import type { Session } from '@autoforge/env-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTauBenchAdapter } from './tau-bench-adapter.js';
import { BENCHMARKS } from './test-support.js';

const adapter = createTauBenchAdapter({ domain: 'airline', dataDir: BENCHMARKS });
let session: Session;

beforeAll(async () => {
  session = (await adapter.environment()).createSession();
});

function call(name: string, args: JsonObject): ToolResult {
  return session.stepSync({ id: 'c', name, arguments: JSON.stringify(args) });
}
const text = (name: string, args: JsonObject): string => observationText(call(name, args));
const value = (name: string, args: JsonObject): JsonObject => {
  const r = call(name, args);
  if (!r.ok) throw new Error(r.error.message);
  return r.output as JsonObject;
};

const users = adapter.environmentSpec.seedState.users as Record<string, JsonObject>;
const flights = adapter.environmentSpec.seedState.flights as Record<string, JsonObject>;

describe('TAU_BENCH_AIRLINE_TOOLS', () => {
  it('answers an unknown reservation with tau-bench\'s "user not found" quirk', () => {
    expect(text('get_reservation_details', { reservation_id: 'NOPE00' })).toBe('Error: user not found');
    expect(text('cancel_reservation', { reservation_id: 'NOPE00' })).toBe('Error: reservation not found');
  });

  it('gives certificates 3221322, 3221323, 3221324 in turn, then returns null (Python None)', () => {
    session.reset();
    const userId = Object.keys(users)[0] as string;
    for (const id of [3221322, 3221323, 3221324]) {
      expect(text('send_certificate', { user_id: userId, amount: 100 })).toBe(`Certificate certificate_${id} added to user ${userId} with amount 100.`);
    }
    const before = session.digest();
    expect(call('send_certificate', { user_id: userId, amount: 100 })).toEqual({ ok: true, output: null });
    expect(session.digest()).toBe(before);
    expect(text('send_certificate', { user_id: userId, amount: 50.5 })).toBe('null');
  });

  it('books reservations HATHAT, HATHAU, HATHAV, then overwrites HATHAV (tau-bench does not check further)', () => {
    session.reset();
    const [number, flight] = Object.entries(flights).find(([, f]) =>
      Object.values(f.dates as Record<string, JsonObject>).some((d) => d.status === 'available' && ((d.available_seats as JsonObject).economy as number) > 0),
    ) as [string, JsonObject];
    const [date, onDate] = Object.entries(flight.dates as Record<string, JsonObject>).find(([, d]) => d.status === 'available') as [string, JsonObject];
    const price = (onDate.prices as JsonObject).economy as number;
    const [userId, user] = Object.entries(users).find(([, u]) =>
      Object.values(u.payment_methods as Record<string, JsonObject>).some((m) => m.source === 'credit_card'),
    ) as [string, JsonObject];
    const card = Object.values(user.payment_methods as Record<string, JsonObject>).find((m) => m.source === 'credit_card')?.id as string;
    const booking = {
      user_id: userId,
      origin: flight.origin as string,
      destination: flight.destination as string,
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: number, date }],
      passengers: [{ first_name: 'A', last_name: 'B', dob: '1990-01-01' }],
      payment_methods: [{ payment_id: card, amount: price }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    const ids = [1, 2, 3, 4].map(() => value('book_reservation', booking).reservation_id);
    expect(ids).toEqual(['HATHAT', 'HATHAU', 'HATHAV', 'HATHAV']);
    const created = value('get_reservation_details', { reservation_id: 'HATHAT' });
    expect(created).toMatchObject({ created_at: '2024-05-15T15:00:00', flights: [{ flight_number: number, date, price, origin: flight.origin, destination: flight.destination }] });
    expect(text('book_reservation', { ...booking, payment_methods: [{ payment_id: card, amount: price + 1 }] })).toBe(
      `Error: payment amount does not add up, total price is ${price}, but paid ${price + 1}`,
    );
    expect(text('book_reservation', { ...booking, flights: [{ flight_number: 'HAT999', date }] })).toBe('Error: flight HAT999 not found');
  });

  it('formats the second leg\'s date of overnight connections without zero padding, as tau-bench does', () => {
    session.reset();
    const results = value('search_onestop_flight', { origin: 'JFK', destination: 'SEA', date: '2024-05-05' }) as unknown as JsonObject[][];
    const dates = new Set(results.map((pair) => pair[1]?.date));
    for (const d of dates) expect(['2024-05-05', '2024-05-6']).toContain(d);
    for (const pair of results) expect(pair[0]?.date).toBe('2024-05-05');
  });

  it('lists the 20 airports with their cities', () => {
    const airports = value('list_all_airports', {});
    expect(Object.keys(airports)).toHaveLength(20);
    expect(airports.LGA).toBe('LaGuardia');
  });

  it('refuses certificates for flight and baggage updates', () => {
    session.reset();
    const [resId, reservation] = Object.entries(adapter.environmentSpec.seedState.reservations as Record<string, JsonObject>)[0] as [string, JsonObject];
    const user = users[reservation.user_id as string] as JsonObject;
    const cert = Object.values(user.payment_methods as Record<string, JsonObject>).find((m) => m.source === 'certificate');
    if (cert) {
      expect(text('update_reservation_baggages', { reservation_id: resId, total_baggages: 1, nonfree_baggages: 0, payment_id: cert.id as string })).toBe(
        'Error: certificate cannot be used to update reservation',
      );
    }
    expect(text('update_reservation_baggages', { reservation_id: resId, total_baggages: 1, nonfree_baggages: 0, payment_id: 'nope' })).toBe('Error: payment method not found');
    expect(text('update_reservation_passengers', { reservation_id: resId, passengers: [] })).toBe('Error: number of passengers does not match');
  });
});
