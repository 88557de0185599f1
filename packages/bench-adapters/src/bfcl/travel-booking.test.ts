import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, JsonValue } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { parsePyJson, PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { callPort, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, bfclDir, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { longContextValue } from './long-context.js';
import { TRAVEL_TODAY, travelApiPort } from './travel-booking.js';
import type { TravelApiInstance } from './travel-booking.js';

// The entries as Python's json.loads reads them: `"balance": 5000.0` stays a float (PyFloat),
// which JSON.parse (readBfclEntries) would turn into the int 5000.
function pyEntries(category: BfclCategory): BfclEntry[] {
  const text = readFileSync(join(bfclDir(BENCHMARKS), 'data', `BFCL_v4_multi_turn_${category}.json`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parsePyJson(line) as unknown as BfclEntry);
}

const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) data.set(category, { entries: pyEntries(category), expected: readBfclExpected(BENCHMARKS, category) });
});

function loaded(category: BfclCategory): { entries: BfclEntry[]; expected: BfclExpectedEntry[] } {
  const d = data.get(category);
  if (d === undefined) throw new Error(`not loaded: ${category}`);
  return d;
}

/** The TravelAPI calls in a reference replay, counted here, not by replayClass. */
function travelCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.flatMap((e) => e.turns.flatMap((t) => t.calls)).filter((c) => c.class === 'TravelAPI').length;
}

const CALLS: Record<BfclCategory, number> = { base: 204, miss_func: 202, miss_param: 202, long_context: 205 };

function run(instance: TravelApiInstance, name: string, args: Record<string, PyValue> = {}): string {
  return callPort(travelApiPort, instance, name, args).result;
}

function authenticated(config?: JsonObject, longContext = false): { t: TravelApiInstance; token: string } {
  const t = travelApiPort.load(config, longContext);
  const auth = JSON.parse(
    run(t, 'authenticate_travel', {
      client_id: 'c',
      client_secret: 's',
      refresh_token: 'r',
      grant_type: 'read_write',
      user_first_name: 'Ada',
      user_last_name: 'Lovelace',
    }),
  ) as { access_token: string };
  return { t, token: auth.access_token };
}

describe('travelApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    for (const viaSnapshot of [false, true]) {
      it(`replays every TravelAPI call of ${category}${viaSnapshot ? ' through snapshots' : ''} with 0 mismatches`, () => {
        const { entries, expected } = loaded(category);
        const report = replayClass(travelApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(report.entries).toBe(50);
        expect(report.calls).toBe(travelCalls(expected));
        expect(report.calls).toBe(CALLS[category]);
      });
    }
  }

  it('needs Python floats in initial_config: JSON.parse turns 9500.0 into 9500 and the results differ', () => {
    const expected = loaded('base').expected;
    // The entries as plain JSON.parse reads them (readBfclEntries reads them as Python does).
    const plain = readFileSync(join(BENCHMARKS, 'bfcl/data/BFCL_v4_multi_turn_base.json'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as BfclEntry);
    const report = replayClass(travelApiPort, plain, expected);
    expect(report.mismatches.length).toBeGreaterThan(0);
    expect(report.mismatches.every((m) => m.what === 'result' && m.expected.replace(/(\d)\.0\b/g, '$1') === m.actual)).toBe(true);
  });
});

describe('travelApiPort randomness', () => {
  it('draws token, card id and balance, booking and transaction ids, insurance id in Python order (seed 141053)', () => {
    const { t, token } = authenticated();
    expect(token).toBe('251675');
    expect(run(t, 'register_credit_card', { access_token: token, card_number: '4111', expiration_date: '12/2030', cardholder_name: 'Ada Lovelace', card_verification_number: 123 })).toBe(
      '{"card_id": "391310425148"}',
    );
    expect(run(t, 'get_credit_card_balance', { access_token: token, card_id: '391310425148' })).toBe('{"card_balance": 58617}');
    expect(
      run(t, 'book_flight', { access_token: token, card_id: '391310425148', travel_date: '2026-11-15', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }),
    ).toBe('{"booking_id": "4191922", "transaction_id": "56121276", "booking_status": true, "booking_history": {}}');
    expect(
      run(t, 'purchase_insurance', { access_token: token, insurance_type: 'travel', booking_id: '4191922', insurance_cost: new PyFloat(50), card_id: '391310425148' }),
    ).toBe('{"insurance_id": "789652479", "insurance_status": true}');
    // int balance minus float costs is a float.
    expect(run(t, 'get_credit_card_balance', { access_token: token, card_id: '391310425148' })).toBe('{"card_balance": 58167.0}');
  });

  it('draws nothing on an error return', () => {
    const { t, token } = authenticated();
    expect(run(t, 'register_credit_card', { access_token: 'wrong', card_number: '4111', expiration_date: 'x', cardholder_name: 'x', card_verification_number: 1 })).toBe(
      '{"error": "Invalid access token"}',
    );
    expect(run(t, 'register_credit_card', { access_token: token, card_number: '4111', expiration_date: 'x', cardholder_name: 'x', card_verification_number: 1 })).toBe(
      '{"card_id": "391310425148"}',
    );
  });
});

describe('travelApiPort errors a model can cause (strings checked against CPython 3.11)', () => {
  const cases: [string, Record<string, PyValue>, string][] = [
    ['book_flight', { card_id: 'CARD', travel_date: 5, travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }, 'Error during execution: strptime() argument 1 must be str, not int'],
    ['book_flight', { card_id: 'CARD', travel_date: null, travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }, 'Error during execution: strptime() argument 1 must be str, not None'],
    ['book_flight', { card_id: 'CARD', travel_date: '2024-02-30', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }, '{"booking_status": false, "error": "Invalid date format. Use YYYY-MM-DD."}'],
    ['book_flight', { card_id: 'CARD', travel_date: '2024-02-29', travel_from: 'SFO', travel_to: 'LAX', travel_class: ['economy'] }, "Error during execution: unhashable type: 'list'"],
    ['book_flight', { card_id: 'CARD', travel_date: '2024-02-29', travel_from: 'SFO', travel_to: 'CDG', travel_class: 'economy' }, '{"booking_status": false, "error": "No available route for the given airports."}'],
    ['book_flight', { card_id: ['x'], travel_date: '2024-02-29', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }, "Error during execution: unhashable type: 'list'"],
    ['book_flight', { card_id: 'CARD', travel_date: '2024-02-29', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'premium' }, '{"booking_status": false, "error": "Invalid travel class. Must be one of {\'economy\', \'business\', \'first\'}"}'],
    ['book_flight', { card_id: 'CARD', travel_date: '2024-02-29', travel_from: 'SFO', travel_to: 7, travel_class: 'economy' }, '{"booking_status": false, "error": "Invalid destination airport code: 7"}'],
    ['get_flight_cost', { travel_from: 'SFO', travel_to: 'LAX', travel_date: 20240101, travel_class: 'economy' }, "Error during execution: 'int' object is not iterable"],
    ['get_flight_cost', { travel_from: 'SFO', travel_to: 'LAX', travel_date: '2024-01-0²', travel_class: 'economy' }, "Error during execution: invalid literal for int() with base 10: '²'"],
    ['get_flight_cost', { travel_from: 'SFO', travel_to: 'LAX', travel_date: ['2024', 7], travel_class: 'economy' }, "Error during execution: 'int' object has no attribute 'isdigit'"],
    ['get_flight_cost', { travel_from: 'SFO', travel_to: 'LAX', travel_date: '٢٠٢٤-٠١-٠٥', travel_class: 'first' }, '{"travel_cost_list": [2000.0]}'],
    ['get_flight_cost', { travel_from: 'SFO', travel_to: 'XXX', travel_date: '2024-01-01', travel_class: 'first' }, 'Error during execution: No available route for the given airports.'],
    ['set_budget_limit', { budget_limit: 'abc' }, "Error during execution: could not convert string to float: 'abc'"],
    ['set_budget_limit', { budget_limit: null }, "Error during execution: float() argument must be a string or a real number, not 'NoneType'"],
    ['set_budget_limit', { budget_limit: ' 1_000 ' }, '{"budget_limit": 1000.0}'],
    ['compute_exchange_rate', { base_currency: 'USD', target_currency: 'RMB', value: '1' }, '{"exchanged_value": 1111111.0}'],
    ['compute_exchange_rate', { base_currency: 'RMB', target_currency: 'USD', value: '1' }, "Error during execution: unsupported operand type(s) for /: 'str' and 'int'"],
    ['compute_exchange_rate', { base_currency: 'USD', target_currency: 'EUR', value: '1' }, "Error during execution: can't multiply sequence by non-int of type 'float'"],
    ['compute_exchange_rate', { base_currency: 'EUR', target_currency: 'USD', value: 100 }, '{"exchanged_value": 125.0}'],
    ['compute_exchange_rate', { base_currency: 'USD', target_currency: 'CHF', value: 100 }, 'Error during execution: No available exchange rate for the given currencies.'],
    ['verify_traveler_information', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '2008-01-01', passport_number: 123 }, "Error during execution: 'int' object has no attribute 'startswith'"],
    ['verify_traveler_information', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-02-30', passport_number: 'US1' }, '{"verification_status": false, "verification_failure": "Invalid date of birth format. Please use YYYY-MM-DD."}'],
    ['verify_traveler_information', { first_name: 'Bob', last_name: null, date_of_birth: '1990-01-01', passport_number: 'US1' }, '{"verification_status": false, "verification_failure": "Cannot book flight information for another user.Expected Ada Lovelace, got Bob None"}'],
    ['get_nearest_airport_by_city', { location: ['Tokyo'] }, "Error during execution: unhashable type: 'list'"],
    ['contact_customer_support', { booking_id: {}, message: 'hi' }, "Error during execution: unhashable type: 'dict'"],
    ['get_credit_card_balance', { card_id: 'nope' }, '{"error": "Card not registered. Here are a list of card_id\'s: [\'CARD\']"}'],
    ['book_flight', { travel_date: '2024-02-29' }, "Error during execution: TravelAPI.book_flight() missing 1 required positional argument: 'card_id'"],
  ];
  for (const [name, args, want] of cases) {
    it(`${name}(${JSON.stringify(args)}) gives ${want}`, () => {
      const { t, token } = authenticated({ credit_card_list: { CARD: { balance: 9000 } } });
      expect(run(t, name, { access_token: token, ...args })).toBe(want);
    });
  }

  it('raises KeyError for a loaded booking without the fields cancel_booking and retrieve_invoice read', () => {
    const t = travelApiPort.load({ access_token: 'tk', token_expires_in: 3600, booking_record: { zeta: { flight_number: 'LA123' } } }, false);
    expect(run(t, 'cancel_booking', { access_token: 'tk', booking_id: 'zeta' })).toBe("Error during execution: 'card_id'");
    expect(run(t, 'retrieve_invoice', { access_token: 'tk', booking_id: 'zeta' })).toBe("Error during execution: 'travel_date'");
    expect(run(t, 'retrieve_invoice', { access_token: 'tk' })).toBe('{"error": "Booking not found"}');
  });

  it('compares a non-number insurance cost with the budget limit as Python does (TypeError)', () => {
    const { t, token } = authenticated({ credit_card_list: { CARD: { balance: 9000 } }, booking_record: { B: { card_id: 'CARD', travel_cost: 10 } } });
    run(t, 'set_budget_limit', { access_token: token, budget_limit: 500 });
    expect(run(t, 'purchase_insurance', { access_token: token, insurance_type: 'travel', booking_id: 'B', insurance_cost: '50', card_id: 'CARD' })).toBe(
      "Error during execution: '<' not supported between instances of 'float' and 'str'",
    );
  });

  it(`computes ages on ${TRAVEL_TODAY.year}-0${TRAVEL_TODAY.month}-0${TRAVEL_TODAY.day}: 18 that day passes, a day younger does not`, () => {
    const { t } = authenticated();
    const verify = (dob: string): string => run(t, 'verify_traveler_information', { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: dob, passport_number: 'US1' });
    expect(verify('2008-01-01')).toBe('{"verification_status": true}');
    expect(verify('2008-01-02')).toBe('{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}');
    expect(verify('1995-08-15')).toBe('{"verification_status": true}');
  });
});

describe('travelApiPort dicts', () => {
  it("keeps Python's insertion order for a numeric booking id after a named one", () => {
    const t = travelApiPort.load(
      { access_token: 'tk', token_expires_in: 3600, credit_card_list: { c1: { balance: new PyFloat(5000) } }, booking_record: { zeta: { price: new PyFloat(1500) } } } as unknown as JsonObject,
      false,
    );
    run(t, 'book_flight', { access_token: 'tk', card_id: 'c1', travel_date: '2026-11-15', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' });
    expect(run(t, 'get_booking_history', { access_token: 'tk' })).toBe(
      '{"booking_history": {"zeta": {"price": 1500.0}, "3426812": {"card_id": "c1", "travel_date": "2026-11-15", "travel_from": "SFO", "travel_to": "LAX", "travel_class": "economy", "travel_cost": 400.0, "transaction_id": "45451592"}}}',
    );
    expect(run(t, 'get_all_credit_cards')).toBe('{"credit_card_list": {"c1": {"balance": 4600.0}}}');
  });
});

describe('travelApiPort long context and isolation', () => {
  it('merges the 22 extension cards and 16 extension bookings and prices every route into the lookup', () => {
    const t = travelApiPort.load(undefined, true);
    const state = t.publicState();
    expect(Object.keys(state.credit_card_list as JsonObject)).toHaveLength(22);
    expect(Object.keys(state.booking_record as JsonObject)).toHaveLength(16);
    const costs = JSON.parse(run(t, 'get_flight_cost', { travel_from: 'SFO', travel_to: 'LAX', travel_date: '2024-01-01', travel_class: 'economy' })) as { travel_cost_list: number[] };
    expect(costs.travel_cost_list).toHaveLength(153);
    const snapshot = t.snapshot() as { flight_cost_lookup: [string, number][] };
    expect(snapshot.flight_cost_lookup).toHaveLength(153);
    expect(snapshot.flight_cost_lookup[0]).toEqual(['SFO|LAX|economy|2024-01-01', 400]);
  });

  it('never shares an extension card or booking between instances or with long-context.ts', () => {
    const pristineCards = JSON.stringify(longContextValue('CREDIT_CARD_EXTENSION'));
    const { t, token } = authenticated(undefined, true);
    const booked = JSON.parse(
      run(t, 'book_flight', { access_token: token, card_id: '1234567812345678', travel_date: '2026-11-15', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' }),
    ) as { booking_id: string; booking_status: boolean };
    expect(booked).toMatchObject({ booking_id: '5431449', booking_status: true });
    // booking_902 was paid with the extension card 2345678923456789 (7500.0, cost 900.0).
    expect(run(t, 'cancel_booking', { access_token: token, booking_id: 'booking_902' })).toBe('{"cancel_status": true}');
    const cards = (state: JsonObject): Record<string, JsonObject> => state.credit_card_list as Record<string, JsonObject>;
    const mutated = t.publicState();
    expect(cards(mutated)['1234567812345678']?.balance).toBe(4600);
    expect(cards(mutated)['2345678923456789']?.balance).toBe(8400);
    expect(mutated.booking_record as JsonObject).not.toHaveProperty('booking_902');

    const fresh = travelApiPort.load(undefined, true).publicState();
    expect(cards(fresh)['1234567812345678']?.balance).toBe(5000);
    expect(cards(fresh)['2345678923456789']?.balance).toBe(7500);
    expect(fresh.booking_record as JsonObject).toHaveProperty('booking_902');
    expect(JSON.stringify(longContextValue('CREDIT_CARD_EXTENSION'))).toBe(pristineCards);
    // The booking on the extension card shows in the long-context history, in Python's order.
    const history = run(t, 'get_booking_history', { access_token: token });
    expect(history.indexOf('"booking_903"')).toBeGreaterThan(0);
    expect(history.indexOf('"booking_903"')).toBeLessThan(history.indexOf('"5431449"'));
  });

  it('never aliases the config, the arguments or a returned value into the state', () => {
    const config = { credit_card_list: { c1: { balance: 100 } }, booking_record: {}, access_token: 'tk', token_expires_in: 3600 } as JsonObject;
    const a = travelApiPort.load(config, false);
    const b = travelApiPort.load(config, false);
    const name = ['Ada'];
    run(a, 'authenticate_travel', { client_id: 'c', client_secret: 's', refresh_token: 'r', grant_type: 'read', user_first_name: name, user_last_name: 'L' });
    name.push('mutated');
    expect(a.publicState().user_first_name).toEqual(['Ada']);
    const out = callPort(travelApiPort, a, 'get_all_credit_cards', {}).output as { credit_card_list: Record<string, JsonObject> };
    (out.credit_card_list.c1 as JsonObject).balance = -1;
    expect(run(a, 'purchase_insurance', { access_token: a.publicState().access_token as string, insurance_type: 't', booking_id: 'x', insurance_cost: 1, card_id: 'c1' })).toBe(
      '{"insurance_status": false, "error": "Booking not found"}',
    );
    expect((a.publicState().credit_card_list as Record<string, JsonObject>).c1?.balance).toBe(100);
    expect(b.publicState().user_first_name).toBeNull();
    expect((config.credit_card_list as Record<string, JsonObject>).c1?.balance).toBe(100);
  });
});

describe('travelApiPort snapshots', () => {
  it('keep float-ness, key order, the generator position and the flight cost lookup', () => {
    const { t, token } = authenticated({ credit_card_list: { c1: { balance: new PyFloat(5000) } }, booking_record: { zeta: {} } } as unknown as JsonObject, true);
    run(t, 'book_flight', { access_token: token, card_id: 'c1', travel_date: '2026-11-15', travel_from: 'SFO', travel_to: 'LAX', travel_class: 'economy' });
    run(t, 'get_flight_cost', { travel_from: 'SFO', travel_to: 'JFK', travel_date: '2024-01-01', travel_class: 'first' });
    const snapshot = JSON.parse(JSON.stringify(t.snapshot())) as JsonValue;
    const r = travelApiPort.restore(snapshot);
    expect(r.snapshot()).toEqual(snapshot);
    expect(r.publicState()).toEqual(t.publicState());
    for (const [name, args] of [
      ['get_credit_card_balance', { access_token: token, card_id: 'c1' }],
      ['get_booking_history', { access_token: token }],
      ['register_credit_card', { access_token: token, card_number: 'n', expiration_date: 'e', cardholder_name: 'h', card_verification_number: 1 }],
    ] as const) {
      expect(run(r, name, args)).toBe(run(t, name, args));
    }
    expect(run(r, 'get_credit_card_balance', { access_token: token, card_id: 'c1' })).toBe('{"card_balance": 4600.0}');
  });

  it('reject what is not a snapshot', () => {
    expect(() => travelApiPort.restore({ random: { seed: 1 } })).toThrow(/TravelAPI snapshot/);
    expect(() => travelApiPort.restore(null)).toThrow(/TravelAPI snapshot/);
  });
});
