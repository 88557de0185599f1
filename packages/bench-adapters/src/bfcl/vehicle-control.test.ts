import type { JsonObject, JsonValue } from '@autoforge/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../test-support.js';
import { PyFloat } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { callPort, canonicalJson, replayClass } from './class-replay.js';
import { BFCL_CATEGORIES, readBfclEntries, readBfclExpected } from './data.js';
import type { BfclCategory, BfclEntry, BfclExpectedEntry } from './data.js';
import { longContextValue } from './long-context.js';
import { bfclOutputJson } from './result.js';
import type { VehicleControlApi } from './vehicle-control.js';
import { vehicleControlApiPort } from './vehicle-control.js';

const CLASS = 'VehicleControlAPI';
const data = new Map<BfclCategory, { entries: BfclEntry[]; expected: BfclExpectedEntry[] }>();

beforeAll(() => {
  for (const category of BFCL_CATEGORIES) {
    data.set(category, { entries: readBfclEntries(BENCHMARKS, category), expected: readBfclExpected(BENCHMARKS, category) });
  }
});

function loaded(category: BfclCategory): { entries: BfclEntry[]; expected: BfclExpectedEntry[] } {
  const d = data.get(category);
  if (d === undefined) throw new Error(`not loaded: ${category}`);
  return d;
}

/** The calls of this class in a reference replay, counted from the file itself. */
function countCalls(expected: readonly BfclExpectedEntry[]): number {
  return expected.reduce((n, e) => n + e.turns.reduce((m, t) => m + t.calls.filter((c) => c.class === CLASS).length, 0), 0);
}

function fresh(longContext = false, config?: JsonObject): VehicleControlApi {
  return vehicleControlApiPort.load(config, longContext);
}

function call(instance: VehicleControlApi, name: string, args: Record<string, PyValue> = {}): string {
  return callPort(vehicleControlApiPort, instance, name, args).result;
}

const ALL_DOORS = ['driver', 'passenger', 'rear_left', 'rear_right'];

describe('vehicleControlApiPort against the reference replays', () => {
  for (const category of BFCL_CATEGORIES) {
    it(`${category}: every gold call of ${CLASS} and every state match, directly and via snapshots`, () => {
      const { entries, expected } = loaded(category);
      const calls = countCalls(expected);
      // 314 in each category (summary.json's per-method counts for these 17 methods).
      expect(calls).toBe(314);
      for (const viaSnapshot of [false, true]) {
        const report = replayClass(vehicleControlApiPort, entries, expected, { viaSnapshot });
        expect(report.mismatches).toEqual([]);
        expect(report.calls).toBe(calls);
        expect(report.entries).toBe(expected.filter((e) => e.involved_classes.includes(CLASS)).length);
      }
    });
  }

  it('the replay notices a wrong port (the acceptance test can fail)', () => {
    const { entries, expected } = loaded('base');
    const broken = {
      ...vehicleControlApiPort,
      methods: { ...vehicleControlApiPort.methods, find_nearest_tire_shop: { params: [], call: () => ({ shopLocation: 'elsewhere' }) } },
    };
    expect(replayClass(broken, entries, expected).mismatches.length).toBeGreaterThan(0);
  });
});

describe('VehicleControlAPI outputs Python prints', () => {
  it('keeps float-ness: an int amount added to a float tank prints 10.0; an int pedal position stores an int force', () => {
    const api = fresh();
    expect(call(api, 'fillFuelTank', { fuelAmount: 10 })).toBe('{"fuelLevel": 10.0}');
    expect(call(api, 'pressBrakePedal', { pedalPosition: 1 })).toBe('{"brakePedalStatus": "pressed", "brakePedalForce": 1000.0}');
    expect(call(api, 'displayCarStatus', { option: 'brakePedal' })).toBe('{"brakePedalStatus": "pressed", "brakePedalForce": 1000}');
    expect(call(api, 'pressBrakePedal', { pedalPosition: new PyFloat(1) })).toBe('{"brakePedalStatus": "pressed", "brakePedalForce": 1000.0}');
    expect(call(api, 'displayCarStatus', { option: 'brakePedal' })).toBe('{"brakePedalStatus": "pressed", "brakePedalForce": 1000.0}');
  });

  it('draws uniform(0, 120) and uniform(-10, 40) from random.Random(141053) in call order', () => {
    const api = fresh();
    expect(call(api, 'get_current_speed')).toBe('{"currentSpeed": 111.92365689097284}');
    expect(call(api, 'get_outside_temperature_from_google')).toBe('{"outsideTemperature": 31.29968928699752}');
  });

  it('converts Fahrenheit and reports the argument as given', () => {
    const api = fresh();
    expect(call(api, 'adjustClimateControl', { temperature: 50, unit: 'fahrenheit' })).toBe(
      '{"currentACTemperature": 50, "climateMode": "auto", "humidityLevel": 50.0}',
    );
    expect(call(api, 'displayCarStatus', { option: 'climate' })).toBe('{"currentACTemperature": 10.0, "fanSpeed": 50, "climateMode": "auto", "humidityLevel": 50.0}');
  });

  it('setCruiseControl applies float() to strings, as Python does', () => {
    const api = fresh(false, { engineState: 'running' });
    expect(call(api, 'setCruiseControl', { speed: '60', activate: 1, distanceToNextVehicle: ' 4_0 ' })).toBe(
      '{"cruiseStatus": "active", "currentSpeed": 60.0, "distanceToNextVehicle": 40.0}',
    );
    expect(call(api, 'setCruiseControl', { speed: '62.5', activate: true, distanceToNextVehicle: 40 })).toBe('{"error": "Invalid speed"}');
    // The distance is stored before the speed is checked.
    expect(api.publicState().distanceToNextVehicle).toBe(40);
  });
});

describe('VehicleControlAPI errors a model can cause', () => {
  const cases: [string, Record<string, PyValue>, string][] = [
    ['fillFuelTank', { fuelAmount: '10' }, "'<' not supported between instances of 'str' and 'int'"],
    ['fillFuelTank', { fuelAmount: null }, "'<' not supported between instances of 'NoneType' and 'int'"],
    ['lockDoors', { unlock: false, door: 'driver' }, "'d'"],
    ['lockDoors', { unlock: false, door: [['driver']] }, "unhashable type: 'list'"],
    ['lockDoors', { unlock: true, door: 5 }, "'int' object is not iterable"],
    ['lockDoors', { unlock: true, door: ['\u3000'] }, "'\\u3000'"],
    ['adjustClimateControl', { temperature: 50, fanSpeed: 'high' }, "'<=' not supported between instances of 'int' and 'str'"],
    ['pressBrakePedal', { pedalPosition: '1' }, "'<=' not supported between instances of 'int' and 'str'"],
    ['setCruiseControl', { speed: 65, activate: true, distanceToNextVehicle: 'far' }, "could not convert string to float: 'far'"],
    ['setCruiseControl', { speed: null, activate: true, distanceToNextVehicle: 10 }, "float() argument must be a string or a real number, not 'NoneType'"],
    ['set_navigation', { destination: 42 }, 'can only concatenate str (not "int") to str'],
    ['liter_to_gallon', { liter: '3' }, "can't multiply sequence by non-int of type 'float'"],
    ['gallon_to_liter', { gallon: [1] }, "can't multiply sequence by non-int of type 'float'"],
    ['estimate_drive_feasibility_by_mileage', { distance: '5' }, "'<' not supported between instances of 'float' and 'str'"],
    ['startEngine', {}, "VehicleControlAPI.startEngine() missing 1 required positional argument: 'ignitionMode'"],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}(${JSON.stringify(args)}) raises ${message}`, () => {
      expect(callPort(vehicleControlApiPort, fresh(), name, args)).toEqual({ result: `Error during execution: ${message}`, output: undefined });
    });
  }

  it('keeps the changes Python made before raising', () => {
    const api = fresh();
    expect(call(api, 'lockDoors', { unlock: false, door: ['driver', 'trunk'] })).toBe("Error during execution: 'trunk'");
    expect(call(api, 'startEngine', { ignitionMode: 'START' })).toBe(
      '{"error": "All doors must be locked before starting the engine. Here are the unlocked doors: passenger, rear_left, rear_right"}',
    );
    expect(call(api, 'adjustClimateControl', { temperature: 'hot', unit: 'fahrenheit' })).toBe(
      "Error during execution: unsupported operand type(s) for -: 'str' and 'int'",
    );
    expect(call(api, 'set_navigation', { destination: 42 })).toMatch(/^Error during execution/);
    const state = api.publicState();
    expect([state.acTemperature, state.destination, state.remainingUnlockedDoors]).toEqual(['hot', 42, 3]);
  });

  it('answers unknown options and modes with the error dicts, not exceptions', () => {
    const api = fresh();
    expect(call(api, 'displayCarStatus', { option: ['fuel'] })).toBe('{"error": "Invalid option"}');
    expect(call(api, 'setHeadlights', { mode: null })).toBe('{"error": "Invalid headlight mode."}');
    expect(call(api, 'activateParkingBrake', { mode: 'ENGAGE' })).toBe('{"error": "Invalid mode"}');
    expect(call(api, 'estimate_distance', { cityA: 83214, cityB: '74532' })).toBe('{"error": "distance not found in database."}');
    expect(call(api, 'get_zipcode_based_on_city', { city: 'toString' })).toBe('{"zipcode": "00000"}');
  });
});

describe('VehicleControlAPI instances share nothing', () => {
  it('a mutated instance leaves a fresh load and the config unchanged', () => {
    const config: JsonObject = { fuelLevel: 5, doorStatus: { driver: 'locked', passenger: 'unlocked', rear_left: 'locked', rear_right: 'locked' } };
    const before = canonicalJson(config);
    const a = fresh(false, config);
    const pristine = canonicalJson(fresh(false, config).publicState());
    call(a, 'lockDoors', { unlock: true, door: ALL_DOORS });
    call(a, 'fillFuelTank', { fuelAmount: 7 });
    const shown = callPort(vehicleControlApiPort, a, 'displayCarStatus', { option: 'doors' }).output as { doorStatus: JsonObject };
    shown.doorStatus.driver = 'stolen';
    expect(a.publicState().doorStatus).toEqual({ driver: 'unlocked', passenger: 'unlocked', rear_left: 'unlocked', rear_right: 'unlocked' });
    expect(canonicalJson(config)).toBe(before);
    expect(canonicalJson(fresh(false, config).publicState())).toBe(pristine);
  });

  it('long-context weather: each call returns a fresh copy of LONG_WEATHER_EXTENSION with the new temperature last', () => {
    const a = fresh(true);
    const first = callPort(vehicleControlApiPort, a, 'get_outside_temperature_from_google', {}).output as Record<string, JsonValue>;
    const keys = Object.keys(first);
    expect(keys[keys.length - 1]).toBe('outsideTemperature');
    first['-1_day'] = 'changed';
    const second = callPort(vehicleControlApiPort, fresh(true), 'get_outside_temperature_from_google', {}).output as Record<string, JsonValue>;
    // A fresh instance draws the same first value and sees the pristine constant.
    expect(second.outsideTemperature).toBe(first.outsideTemperature);
    const { outsideTemperature: _drawn, ...rest } = second;
    expect(rest).toEqual(bfclOutputJson(longContextValue('LONG_WEATHER_EXTENSION')));
    expect(rest['-1_day']).not.toBe('changed');
    expect(callPort(vehicleControlApiPort, a, 'get_outside_temperature_from_google', {}).output).not.toEqual(second);
  });

  it('long-context extensions are attached to the outputs that Python extends', () => {
    const api = fresh(true);
    expect(call(api, 'check_tire_pressure')).toContain('"car_info": "Manufacturer: Audi;');
    expect(call(api, 'activateParkingBrake', { mode: 'engage' })).toMatch(/^\{"parkingBrakeInstruction": "The parking brake.*"_slopeAngle": 10\.0\}$/);
    expect(call(api, 'estimate_distance', { cityA: '94016', cityB: '83214' })).toMatch(/^\{"distance": 980\.0, "intermediaryCities": \["New Hamilton", /);
    expect(call(fresh(false), 'check_tire_pressure')).toContain('"car_info": {}');
  });

  it('a snapshot restores float-ness, private forces and the generator position', () => {
    const api = fresh();
    call(api, 'pressBrakePedal', { pedalPosition: 1 });
    call(api, 'activateParkingBrake', { mode: 'engage' });
    call(api, 'adjustClimateControl', { temperature: { b: 1, a: [new PyFloat(2)] } });
    call(api, 'get_current_speed');
    const copy = vehicleControlApiPort.restore(JSON.parse(JSON.stringify(api.snapshot())) as JsonValue);
    for (const [name, args] of [
      ['displayCarStatus', { option: 'brakePedal' }],
      ['displayCarStatus', { option: 'parkingBrake' }],
      ['displayCarStatus', { option: 'climate' }],
      ['get_current_speed', {}],
    ] as const) {
      expect(call(copy, name, args)).toBe(call(api, name, args));
    }
    expect(call(copy, 'displayCarStatus', { option: 'climate' })).toContain('"currentACTemperature": {"b": 1, "a": [2.0]}');
  });
});
