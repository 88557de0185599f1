import type { JsonObject, JsonValue } from '@autoforge/core';
import { BenchAdapterError } from '../error.js';
import { pyFloatRepr } from '../python-number.js';
import { pyStrRepr } from '../python-repr.js';
import { PyFloat, pyEquals, pyTypeName } from '../python-value.js';
import type { PyValue } from '../python-value.js';
import { longContextValue } from './long-context.js';
import { BfclPyError } from './port.js';
import type { BfclClassPort, BfclInstance, BfclMethod, PyOut } from './port.js';
import { PyRandom } from './python-random.js';
import type { PyRandomSnapshot } from './python-random.js';

/**
 * BFCL's `VehicleControlAPI` (`vehicle_control.py`, ShishirPatil/gorilla at 6ea57973,
 * Apache-2.0), ported to TypeScript: the car's engine, doors, climate, brakes, cruise control,
 * tyres and navigation, with the class's `random.Random(141053)` for the outside temperature and
 * the current speed, and its long-context extensions (`CAR_STATUS_METADATA_EXTENSION`,
 * `LONG_WEATHER_EXTENSION`, `PARKING_BRAKE_INSTRUCTION`, `INTERMEDIARY_CITIES`).
 *
 * Attributes hold Python values (`PyValue`, with `PyFloat` for integral floats), because a
 * method stores whatever the model passes (`adjustClimateControl(temperature='hot')` sets
 * `acTemperature` to a string before raising). Arithmetic, comparisons, `float()`, iteration and
 * dict lookups follow Python, so a wrong-typed argument raises the `TypeError`, `ValueError` or
 * `KeyError` Python raises, after the same partial changes.
 *
 * Two deliberate differences from Python, neither visible in a result:
 * - Python's long-context `get_outside_temperature_from_google` writes the temperature into the
 *   module dict `LONG_WEATHER_EXTENSION` and returns that dict; the port returns a fresh copy
 *   with the key added at the same place (the end), so instances never share it.
 * - Returned dicts never alias the instance's own (`displayCarStatus('doors')` returns a copy).
 */

const CLASS = 'VehicleControlAPI';
const DEFAULT_SEED = 141053;
const MAX_FUEL_LEVEL = 50;
const MIN_FUEL_LEVEL = new PyFloat(0);
const MILE_PER_GALLON = new PyFloat(20);

type PyDict = { [key: string]: PyValue };

/** Every attribute `_load_scenario` sets (besides `_random`), in `vars()` order. */
interface VehicleAttributes {
  fuelLevel: PyValue;
  batteryVoltage: PyValue;
  engine_state: PyValue;
  remainingUnlockedDoors: PyValue;
  doorStatus: PyValue;
  acTemperature: PyValue;
  fanSpeed: PyValue;
  acMode: PyValue;
  humidityLevel: PyValue;
  headLightStatus: PyValue;
  parkingBrakeStatus: PyValue;
  _parkingBrakeForce: PyValue;
  _slopeAngle: PyValue;
  brakePedalStatus: PyValue;
  _brakePedalForce: PyValue;
  distanceToNextVehicle: PyValue;
  cruiseStatus: PyValue;
  destination: PyValue;
  frontLeftTirePressure: PyValue;
  frontRightTirePressure: PyValue;
  rearLeftTirePressure: PyValue;
  rearRightTirePressure: PyValue;
  long_context: PyValue;
}

type AttributeName = keyof VehicleAttributes;

const ATTRIBUTES: readonly AttributeName[] = [
  'fuelLevel',
  'batteryVoltage',
  'engine_state',
  'remainingUnlockedDoors',
  'doorStatus',
  'acTemperature',
  'fanSpeed',
  'acMode',
  'humidityLevel',
  'headLightStatus',
  'parkingBrakeStatus',
  '_parkingBrakeForce',
  '_slopeAngle',
  'brakePedalStatus',
  '_brakePedalForce',
  'distanceToNextVehicle',
  'cruiseStatus',
  'destination',
  'frontLeftTirePressure',
  'frontRightTirePressure',
  'rearLeftTirePressure',
  'rearRightTirePressure',
  'long_context',
];

// ---------------------------------------------------------------------------------------------
// Python semantics on PyValue

function pyError(message: string): BfclPyError {
  return new BfclPyError(message);
}

/** A plain-object copy that keeps a `__proto__` key an ordinary property. */
function setKey(target: PyDict, key: string, value: PyValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isDict(value: PyValue | undefined): value is PyDict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof PyFloat);
}

function hasKey(dict: PyDict, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(dict, key);
}

/** A deep copy (Python's `copy.deepcopy` of a JSON-like value). */
function deepCopy(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isDict(value)) {
    const out: PyDict = {};
    for (const [k, v] of Object.entries(value)) setKey(out, k, deepCopy(v));
    return out;
  }
  return value;
}

/** A float result: `PyFloat` when integral (so that it prints `10.0`), else the number. */
function float(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

interface Num {
  x: number;
  isFloat: boolean;
}

/** The number of an int, float or bool (Python's numeric tower), else `undefined`. */
function num(value: PyValue | undefined): Num | undefined {
  if (value instanceof PyFloat) return { x: value.value, isFloat: true };
  // `+ 0` turns JSON's `-0` into Python's int 0 (ints have no negative zero).
  if (typeof value === 'number') return Number.isInteger(value) ? { x: value + 0, isFloat: false } : { x: value, isFloat: true };
  if (typeof value === 'boolean') return { x: value ? 1 : 0, isFloat: false };
  return undefined;
}

function fromNum(x: number, isFloat: boolean): number | PyFloat {
  return isFloat ? float(x) : x;
}

function typeName(value: PyValue | undefined): string {
  return pyTypeName(value);
}

type CompareOp = '<' | '<=' | '>' | '>=';

/** Python's `a OP b` for numbers and strings; other pairs raise its `TypeError`. */
function compare(op: CompareOp, a: PyValue, b: PyValue): boolean {
  const na = num(a);
  const nb = num(b);
  let left: number | string;
  let right: number | string;
  if (na !== undefined && nb !== undefined) {
    left = na.x;
    right = nb.x;
  } else if (typeof a === 'string' && typeof b === 'string') {
    left = a;
    right = b;
  } else {
    throw pyError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  }
  if (op === '<') return left < right;
  if (op === '<=') return left <= right;
  if (op === '>') return left > right;
  return left >= right;
}

type ArithOp = '+' | '-' | '*' | '/';

function unsupported(op: ArithOp, a: PyValue, b: PyValue): BfclPyError {
  return pyError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** Python's `a OP b` for the operands these methods meet: numbers, and `str`/`list` concatenation and repetition. */
function arith(op: ArithOp, a: PyValue, b: PyValue): PyValue {
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) {
    const isFloat = na.isFloat || nb.isFloat;
    if (op === '+') return fromNum(na.x + nb.x, isFloat);
    if (op === '-') return fromNum(na.x - nb.x, isFloat);
    if (op === '*') return fromNum(na.x * nb.x, isFloat);
    if (nb.x === 0) throw pyError(isFloat ? 'float division by zero' : 'division by zero');
    return float(na.x / nb.x);
  }
  const seq = (v: PyValue): v is string | PyValue[] => typeof v === 'string' || Array.isArray(v);
  if (op === '+' && seq(a)) {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a.map(deepCopy), ...b.map(deepCopy)];
    throw pyError(`can only concatenate ${typeName(a)} (not "${typeName(b)}") to ${typeName(a)}`);
  }
  if (op === '*' && (seq(a) || seq(b))) {
    const [sequence, count] = seq(a) ? [a, b] : [b as string | PyValue[], a];
    const n = num(count);
    if (n === undefined || n.isFloat) throw pyError(`can't multiply sequence by non-int of type '${typeName(count)}'`);
    const times = Math.max(0, n.x);
    if (typeof sequence === 'string') return sequence.repeat(times);
    const out: PyValue[] = [];
    for (let i = 0; i < times; i++) out.push(...sequence.map(deepCopy));
    return out;
  }
  throw unsupported(op, a, b);
}

/** Python's truth value. */
function truthy(value: PyValue): boolean {
  if (value === null || value === false) return false;
  if (value === true) return true;
  if (value instanceof PyFloat) return value.value !== 0;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

// Characters Python's repr() escapes beyond the ASCII controls pyStrRepr handles: those
// str.isprintable() rejects (other, separators except the space).
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

/** Python's `repr(str)`, non-printable characters escaped as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`. */
function strRepr(text: string): string {
  return pyStrRepr(text).replace(NON_PRINTABLE, (ch) => {
    const code = ch.codePointAt(0) as number;
    if (code === 0x20) return ch;
    if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
    if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
    return `\\U${code.toString(16).padStart(8, '0')}`;
  });
}

/** Python's `repr()` of a value, as `str(KeyError(key))` shows it. */
function repr(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  if (typeof value === 'string') return strRepr(value);
  if (Array.isArray(value)) return `[${value.map(repr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${strRepr(k)}: ${repr(v)}`).join(', ')}}`;
}

/** `for item in value`: a list's items, a string's characters, a dict's keys. */
function iterate(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return [...value];
  if (typeof value === 'string') return Array.from(value);
  if (isDict(value)) return Object.keys(value);
  throw pyError(`'${typeName(value)}' object is not iterable`);
}

/** `dict[key]` on a dict with string keys: `KeyError(key)` when absent, `TypeError` when unhashable. */
function lookup(dict: PyDict, key: PyValue): string {
  if (Array.isArray(key) || isDict(key)) throw pyError(`unhashable type: '${typeName(key)}'`);
  if (typeof key === 'string' && hasKey(dict, key)) return key;
  throw pyError(repr(key));
}

// Python's str.isspace() characters, which float() strips.
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');
const DIGITS = '[0-9](?:_?[0-9])*';
const FLOAT_TEXT = new RegExp(`^[+-]?(?:(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf|infinity|nan)$`, 'i');

/** Python's `float(value)`. */
function toFloat(value: PyValue): number | PyFloat {
  const n = num(value);
  if (n !== undefined) return float(n.x);
  if (typeof value === 'string') {
    const text = value.replace(STRIP, '');
    if (!FLOAT_TEXT.test(text)) throw pyError(`could not convert string to float: ${strRepr(value)}`);
    const lower = text.toLowerCase();
    const negative = lower.startsWith('-');
    const body = lower.replace(/^[+-]/, '');
    if (body === 'nan') return Number.NaN;
    if (body === 'inf' || body === 'infinity') return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    return float(Number(lower.replace(/_/g, '')));
  }
  throw pyError(`float() argument must be a string or a real number, not '${typeName(value)}'`);
}

// ---------------------------------------------------------------------------------------------
// Snapshot encoding: JSON that keeps float-ness, non-finite floats and dict key order.

function encode(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return { $f: Object.is(value.value, -0) ? '-0' : value.value };
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { $f: 'nan' };
    if (!Number.isFinite(value)) return { $f: value > 0 ? 'inf' : '-inf' };
    return value;
  }
  if (Array.isArray(value)) return value.map(encode);
  if (isDict(value)) return { $d: Object.entries(value).map(([k, v]) => [k, encode(v)]) };
  return value;
}

function badSnapshot(what: string): BenchAdapterError {
  return new BenchAdapterError('E_OPTIONS', `bfcl ${CLASS}: not a snapshot of this port (${what})`);
}

function decode(value: JsonValue | undefined): PyValue {
  if (value === undefined) throw badSnapshot('a value is missing');
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const f = value.$f;
    if (f !== undefined) {
      if (f === 'nan') return Number.NaN;
      if (f === 'inf') return Number.POSITIVE_INFINITY;
      if (f === '-inf') return Number.NEGATIVE_INFINITY;
      if (f === '-0') return new PyFloat(-0);
      if (typeof f === 'number') return float(f);
      throw badSnapshot(`float ${JSON.stringify(f)}`);
    }
    const entries = value.$d;
    if (!Array.isArray(entries)) throw badSnapshot('a dict without $d');
    const out: PyDict = {};
    for (const entry of entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw badSnapshot('a dict entry');
      setKey(out, entry[0], decode(entry[1]));
    }
    return out;
  }
  return value;
}

/** A Python value as the reference replays write it in a state (floats as plain numbers). */
function stateJson(value: PyValue): JsonValue {
  if (value instanceof PyFloat) return Object.is(value.value, -0) ? 0 : value.value;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : { __py_type__: 'float', repr: pyFloatRepr(value) };
  }
  if (Array.isArray(value)) return value.map(stateJson);
  if (isDict(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: stateJson(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Loading

/**
 * The config keys whose values are Python floats. JSON as `JSON.parse` reads it cannot tell
 * `10` from `10.0`; every `initial_config` in the data writes these as floats (as the class's
 * annotations and `DEFAULT_STATE` do), so an integral number there is read as a float. A
 * `PyFloat` or a non-integral number is a float anyway.
 */
const FLOAT_CONFIG_KEYS = new Set([
  'fuelLevel',
  'batteryVoltage',
  'acTemperature',
  'humidityLevel',
  'parkingBrakeForce',
  'slopeAngle',
  'brakePedalForce',
  'distanceToNextVehicle',
  'frontLeftTirePressure',
  'frontRightTirePressure',
  'rearLeftTirePressure',
  'rearRightTirePressure',
]);

function defaultDoors(): PyDict {
  return { driver: 'unlocked', passenger: 'unlocked', rear_left: 'unlocked', rear_right: 'unlocked' };
}

function configValue(config: Readonly<Record<string, PyValue>>, key: string, fallback: PyValue): PyValue {
  if (!Object.prototype.hasOwnProperty.call(config, key)) return fallback;
  const value = config[key] as PyValue;
  if (FLOAT_CONFIG_KEYS.has(key) && typeof value === 'number' && Number.isInteger(value)) return new PyFloat(value);
  return deepCopy(value);
}

function seedOf(value: PyValue): number {
  const n = num(value);
  // random.Random(n) seeds with abs(n) for an int; an integral float hashes to its value.
  if (n !== undefined && Number.isSafeInteger(n.x)) return Math.abs(n.x);
  throw new BenchAdapterError('E_DATA', `bfcl ${CLASS}: random_seed ${repr(value)} is not a seed this port supports (a safe integer)`);
}

// ---------------------------------------------------------------------------------------------
// The instance

/** The snapshot of a `VehicleControlApi`: its generator position and every attribute, encoded. */
interface VehicleSnapshot {
  random: PyRandomSnapshot;
  attributes: Record<AttributeName, JsonValue>;
}

/** A live `VehicleControlAPI` instance (after `_load_scenario`). */
export class VehicleControlApi implements BfclInstance {
  private constructor(
    private random: PyRandom,
    readonly attrs: VehicleAttributes,
  ) {}

  /** `VehicleControlAPI()` then `_load_scenario(deepcopy(config), long_context)`. */
  static load(config: Readonly<Record<string, PyValue>> | undefined, longContext: boolean): VehicleControlApi {
    const scenario = config ?? {};
    const random = new PyRandom(seedOf(configValue(scenario, 'random_seed', DEFAULT_SEED)));
    const doorStatus = configValue(scenario, 'doorStatus', defaultDoors());
    if (!isDict(doorStatus)) throw new BfclPyError(`'${typeName(doorStatus)}' object has no attribute 'keys'`);
    const locked = Object.keys(doorStatus).filter((door) => pyEquals(doorStatus[door], 'locked')).length;
    const attrs: VehicleAttributes = {
      fuelLevel: configValue(scenario, 'fuelLevel', new PyFloat(0)),
      batteryVoltage: configValue(scenario, 'batteryVoltage', 12.6),
      engine_state: configValue(scenario, 'engineState', 'stopped'),
      // Read from the config by Python, then always recomputed from the doors.
      remainingUnlockedDoors: 4 - locked,
      doorStatus,
      acTemperature: configValue(scenario, 'acTemperature', new PyFloat(25)),
      fanSpeed: configValue(scenario, 'fanSpeed', 50),
      acMode: configValue(scenario, 'acMode', 'auto'),
      humidityLevel: configValue(scenario, 'humidityLevel', new PyFloat(50)),
      headLightStatus: configValue(scenario, 'headLightStatus', 'off'),
      parkingBrakeStatus: configValue(scenario, 'parkingBrakeStatus', 'released'),
      _parkingBrakeForce: configValue(scenario, 'parkingBrakeForce', new PyFloat(0)),
      _slopeAngle: configValue(scenario, 'slopeAngle', new PyFloat(0)),
      brakePedalStatus: configValue(scenario, 'brakePedalStatus', 'released'),
      _brakePedalForce: configValue(scenario, 'brakePedalForce', new PyFloat(0)),
      distanceToNextVehicle: configValue(scenario, 'distanceToNextVehicle', new PyFloat(50)),
      cruiseStatus: configValue(scenario, 'cruiseStatus', 'inactive'),
      destination: configValue(scenario, 'destination', 'None'),
      frontLeftTirePressure: configValue(scenario, 'frontLeftTirePressure', new PyFloat(32)),
      frontRightTirePressure: configValue(scenario, 'frontRightTirePressure', new PyFloat(32)),
      rearLeftTirePressure: configValue(scenario, 'rearLeftTirePressure', new PyFloat(30)),
      rearRightTirePressure: configValue(scenario, 'rearRightTirePressure', new PyFloat(30)),
      long_context: longContext,
    };
    return new VehicleControlApi(random, attrs);
  }

  /** An instance from `snapshot()`. */
  static restore(snapshot: JsonValue): VehicleControlApi {
    if (snapshot === null || typeof snapshot !== 'object' || Array.isArray(snapshot)) throw badSnapshot('not an object');
    const rng = snapshot.random;
    const encoded = snapshot.attributes;
    if (rng === null || typeof rng !== 'object' || Array.isArray(rng) || typeof rng.seed !== 'number' || typeof rng.words !== 'number') {
      throw badSnapshot('random');
    }
    if (encoded === null || typeof encoded !== 'object' || Array.isArray(encoded)) throw badSnapshot('attributes');
    const attrs = {} as VehicleAttributes;
    for (const name of ATTRIBUTES) attrs[name] = decode(encoded[name]);
    return new VehicleControlApi(PyRandom.restore({ seed: rng.seed, words: rng.words }), attrs);
  }

  /** The public attributes, as the reference replays write the state. */
  publicState(): JsonObject {
    const out: JsonObject = {};
    for (const name of ATTRIBUTES) if (!name.startsWith('_')) out[name] = stateJson(this.attrs[name]);
    return out;
  }

  /** Every attribute (private ones too) and the generator position. */
  snapshot(): JsonValue {
    const attributes = {} as Record<AttributeName, JsonValue>;
    for (const name of ATTRIBUTES) attributes[name] = encode(this.attrs[name]);
    const out: VehicleSnapshot = { random: this.random.snapshot(), attributes };
    return out as unknown as JsonValue;
  }

  private doors(): PyDict {
    const doors = this.attrs.doorStatus;
    // load() checks it is a dict, and no method replaces it.
    if (!isDict(doors)) throw pyError(`'${typeName(doors)}' object has no attribute 'items'`);
    return doors;
  }

  private get longContext(): boolean {
    return truthy(this.attrs.long_context);
  }

  startEngine(ignitionMode: PyValue): PyOut {
    const a = this.attrs;
    if (ignitionMode === 'STOP') a.engine_state = 'stopped';
    if (compare('>', a.remainingUnlockedDoors, 0)) {
      const doors = this.doors();
      const unlocked = Object.keys(doors).filter((door) => pyEquals(doors[door], 'unlocked'));
      return { error: `All doors must be locked before starting the engine. Here are the unlocked doors: ${unlocked.join(', ')}` };
    }
    if (!pyEquals(a.brakePedalStatus, 'pressed')) return { error: 'Brake pedal needs to be pressed when starting the engine.' };
    if (!pyEquals(a._brakePedalForce, new PyFloat(1000))) return { error: 'Must press the brake fully before starting the engine.' };
    if (compare('<', a.fuelLevel, MIN_FUEL_LEVEL)) return { error: 'Fuel tank is empty.' };
    if (ignitionMode === 'START') a.engine_state = 'running';
    else return { error: 'Invalid ignition mode.' };
    return { engineState: deepCopy(a.engine_state), fuelLevel: deepCopy(a.fuelLevel), batteryVoltage: deepCopy(a.batteryVoltage) };
  }

  fillFuelTank(fuelAmount: PyValue): PyOut {
    const a = this.attrs;
    if (compare('<', fuelAmount, 0)) return { error: 'Fuel amount cannot be negative.' };
    if (compare('>', arith('+', a.fuelLevel, fuelAmount), MAX_FUEL_LEVEL)) return { error: 'Cannot fill gas above the tank capacity.' };
    if (compare('<', arith('+', a.fuelLevel, fuelAmount), MIN_FUEL_LEVEL)) return { error: 'Fuel tank is empty. Min fuel level is 0 gallons.' };
    a.fuelLevel = arith('+', a.fuelLevel, fuelAmount);
    return { fuelLevel: deepCopy(a.fuelLevel) };
  }

  lockDoors(unlock: PyValue, door: PyValue): PyOut {
    const a = this.attrs;
    const doors = this.doors();
    const target = truthy(unlock) ? 'unlocked' : 'locked';
    for (const d of iterate(door)) {
      const key = lookup(doors, d);
      if (pyEquals(doors[key], target)) continue;
      setKey(doors, key, target);
      a.remainingUnlockedDoors = arith(target === 'unlocked' ? '+' : '-', a.remainingUnlockedDoors, 1);
    }
    return { lockStatus: target, remainingUnlockedDoors: deepCopy(a.remainingUnlockedDoors) };
  }

  adjustClimateControl(temperature: PyValue, unit: PyValue, fanSpeed: PyValue, mode: PyValue): PyOut {
    const a = this.attrs;
    if (!(compare('<=', 0, fanSpeed) && compare('<=', fanSpeed, 100))) return { error: 'Fan speed must be between 0 and 100.' };
    a.acTemperature = deepCopy(temperature);
    if (unit === 'fahrenheit') a.acTemperature = arith('/', arith('*', arith('-', temperature, 32), 5), 9);
    a.fanSpeed = deepCopy(fanSpeed);
    a.acMode = deepCopy(mode);
    return { currentACTemperature: deepCopy(temperature), climateMode: deepCopy(mode), humidityLevel: deepCopy(a.humidityLevel) };
  }

  get_outside_temperature_from_google(): PyOut {
    if (this.longContext) {
      // Python writes into the module dict and returns it; a fresh copy gives the same output.
      const weather = longContextValue('LONG_WEATHER_EXTENSION') as { [key: string]: PyOut };
      weather.outsideTemperature = float(this.random.uniform(-10, 40));
      return weather;
    }
    return { outsideTemperature: float(this.random.uniform(-10, 40)) };
  }

  get_outside_temperature_from_weather_com(): PyOut {
    return { error: 404 };
  }

  setHeadlights(mode: PyValue): PyOut {
    if (mode !== 'on' && mode !== 'off' && mode !== 'auto') return { error: 'Invalid headlight mode.' };
    this.attrs.headLightStatus = mode === 'on' ? 'on' : 'off';
    return { headlightStatus: this.attrs.headLightStatus };
  }

  displayCarStatus(option: PyValue): PyOut {
    const a = this.attrs;
    const status: { [key: string]: PyOut } = {};
    if (this.longContext) status.metadata = longContextValue('CAR_STATUS_METADATA_EXTENSION');
    const copy = (v: PyValue): PyValue => deepCopy(v);
    if (option === 'fuel') status.fuelLevel = copy(a.fuelLevel);
    else if (option === 'battery') status.batteryVoltage = copy(a.batteryVoltage);
    else if (option === 'doors') status.doorStatus = copy(a.doorStatus);
    else if (option === 'climate') {
      status.currentACTemperature = copy(a.acTemperature);
      status.fanSpeed = copy(a.fanSpeed);
      status.climateMode = copy(a.acMode);
      status.humidityLevel = copy(a.humidityLevel);
    } else if (option === 'headlights') status.headlightStatus = copy(a.headLightStatus);
    else if (option === 'parkingBrake') {
      status.parkingBrakeStatus = copy(a.parkingBrakeStatus);
      status.parkingBrakeForce = copy(a._parkingBrakeForce);
      status.slopeAngle = copy(a._slopeAngle);
    } else if (option === 'brakePedal') {
      status.brakePedalStatus = copy(a.brakePedalStatus);
      status.brakePedalForce = copy(a._brakePedalForce);
    } else if (option === 'engine') status.engineState = copy(a.engine_state);
    else status.error = 'Invalid option';
    return status;
  }

  activateParkingBrake(mode: PyValue): PyOut {
    if (mode !== 'engage' && mode !== 'release') return { error: 'Invalid mode' };
    const engage = mode === 'engage';
    const a = this.attrs;
    a.parkingBrakeStatus = engage ? 'engaged' : 'released';
    a._parkingBrakeForce = new PyFloat(engage ? 500 : 0);
    a._slopeAngle = new PyFloat(10);
    const out: { [key: string]: PyOut } = {};
    if (this.longContext) out.parkingBrakeInstruction = longContextValue('PARKING_BRAKE_INSTRUCTION');
    out.parkingBrakeStatus = a.parkingBrakeStatus;
    out._parkingBrakeForce = new PyFloat(engage ? 500 : 0);
    out._slopeAngle = new PyFloat(10);
    return out;
  }

  pressBrakePedal(pedalPosition: PyValue): PyOut {
    const a = this.attrs;
    if (!(compare('<=', 0, pedalPosition) && compare('<=', pedalPosition, 1))) return { error: 'Pedal position must be between 0 and 1.' };
    if (pyEquals(pedalPosition, 0)) {
      a.brakePedalStatus = 'released';
      a._brakePedalForce = new PyFloat(0);
      return { brakePedalStatus: 'released', brakePedalForce: new PyFloat(0) };
    }
    const force = arith('*', pedalPosition, 1000);
    a.brakePedalStatus = 'pressed';
    a._brakePedalForce = force;
    return { brakePedalStatus: 'pressed', brakePedalForce: toFloat(force) };
  }

  releaseBrakePedal(): PyOut {
    this.attrs.brakePedalStatus = 'released';
    this.attrs._brakePedalForce = new PyFloat(0);
    return { brakePedalStatus: 'released', brakePedalForce: new PyFloat(0) };
  }

  setCruiseControl(speed: PyValue, activate: PyValue, distanceToNextVehicle: PyValue): PyOut {
    const a = this.attrs;
    const distance = toFloat(distanceToNextVehicle);
    const velocity = toFloat(speed);
    if (pyEquals(a.engine_state, 'stopped')) return { error: 'Start the engine before activating the cruise control.' };
    const kmh = velocity instanceof PyFloat ? velocity.value : velocity;
    if (truthy(activate)) {
      a.distanceToNextVehicle = distance;
      // Python's float % 5 equals JavaScript's for the speeds that reach it (0 to 120, or NaN).
      if (kmh < 0 || kmh > 120 || kmh % 5 !== 0) return { error: 'Invalid speed' };
      a.cruiseStatus = 'active';
      return { cruiseStatus: 'active', currentSpeed: velocity, distanceToNextVehicle: distance };
    }
    a.cruiseStatus = 'inactive';
    a.distanceToNextVehicle = distance;
    return { cruiseStatus: 'inactive', currentSpeed: velocity, distanceToNextVehicle: distance };
  }

  get_current_speed(): PyOut {
    return { currentSpeed: float(this.random.uniform(0, 120)) };
  }

  display_log(messages: PyValue): PyOut {
    return { log: deepCopy(messages) };
  }

  estimate_drive_feasibility_by_mileage(distance: PyValue): PyOut {
    return { canDrive: !compare('<', arith('*', this.attrs.fuelLevel, MILE_PER_GALLON), distance) };
  }

  liter_to_gallon(liter: PyValue): PyOut {
    return { gallon: arith('*', liter, 0.264172) };
  }

  gallon_to_liter(gallon: PyValue): PyOut {
    return { liter: arith('*', gallon, 3.78541) };
  }

  estimate_distance(cityA: PyValue, cityB: PyValue): PyOut {
    let km: number | undefined;
    for (const [x, y, d] of CITY_DISTANCES) {
      if ((cityA === x && cityB === y) || (cityA === y && cityB === x)) {
        km = d;
        break;
      }
    }
    const out: { [key: string]: PyOut } = km === undefined ? { error: 'distance not found in database.' } : { distance: new PyFloat(km) };
    if (this.longContext) out.intermediaryCities = longContextValue('INTERMEDIARY_CITIES');
    return out;
  }

  get_zipcode_based_on_city(city: PyValue): PyOut {
    const zipcode = typeof city === 'string' && Object.prototype.hasOwnProperty.call(ZIPCODES, city) ? (ZIPCODES[city] as string) : '00000';
    return { zipcode };
  }

  set_navigation(destination: PyValue): PyOut {
    this.attrs.destination = deepCopy(destination);
    if (typeof destination !== 'string') throw pyError(`can only concatenate str (not "${typeName(destination)}") to str`);
    return { status: `Navigating to ${destination}` };
  }

  check_tire_pressure(): PyOut {
    const a = this.attrs;
    const total = arith('+', arith('+', arith('+', a.frontLeftTirePressure, a.frontRightTirePressure), a.rearLeftTirePressure), a.rearRightTirePressure);
    const mean = arith('/', total, 4);
    const healthy = compare('<=', 30, mean) && compare('<=', mean, 35);
    return {
      frontLeftTirePressure: deepCopy(a.frontLeftTirePressure),
      frontRightTirePressure: deepCopy(a.frontRightTirePressure),
      rearLeftTirePressure: deepCopy(a.rearLeftTirePressure),
      rearRightTirePressure: deepCopy(a.rearRightTirePressure),
      healthy_tire_pressure: healthy,
      car_info: this.longContext ? longContextValue('CAR_STATUS_METADATA_EXTENSION') : {},
    };
  }

  find_nearest_tire_shop(): PyOut {
    return { shopLocation: '456 Oakwood Avenue, Rivermist, 83214' };
  }
}

/** `estimate_distance`'s table, in the order of its `elif` chain (either direction matches). */
const CITY_DISTANCES: readonly (readonly [string, string, number])[] = [
  ['83214', '74532', 750],
  ['56108', '62947', 320],
  ['71354', '83462', 450],
  ['47329', '52013', 290],
  ['69238', '51479', 630],
  ['94016', '83214', 980],
  ['94016', '94704', 600],
  ['94704', '08540', 2550],
  ['94016', '08540', 1950],
  ['62947', '47329', 1053],
  ['94016', '62947', 780],
  ['74532', '94016', 880],
];

const ZIPCODES: Readonly<Record<string, string>> = {
  Rivermist: '83214',
  Stonebrook: '74532',
  Maplecrest: '56108',
  Silverpine: '62947',
  Shadowridge: '71354',
  'Sunset Valley': '83462',
  Oakendale: '47329',
  Willowbend: '52013',
  'Crescent Hollow': '69238',
  Autumnville: '51479',
  'San Francisco': '94016',
};

// ---------------------------------------------------------------------------------------------
// The port

type Args = Readonly<Record<string, PyValue>>;
type Param = readonly [name: string, hasDefault: boolean];

function method(name: string, params: readonly Param[], defaults: Readonly<Record<string, PyValue>>, run: (api: VehicleControlApi, values: PyValue[]) => PyOut): BfclMethod<VehicleControlApi> {
  return {
    params,
    call(instance, args: Args) {
      const missing = params.filter(([p, hasDefault]) => !hasDefault && !Object.prototype.hasOwnProperty.call(args, p)).map(([p]) => `'${p}'`);
      if (missing.length > 0) {
        const list = missing.length === 1 ? missing[0] : missing.length === 2 ? `${missing[0]} and ${missing[1]}` : `${missing.slice(0, -1).join(', ')}, and ${missing[missing.length - 1]}`;
        throw pyError(`${CLASS}.${name}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${list}`);
      }
      const values = params.map(([p]) => (Object.prototype.hasOwnProperty.call(args, p) ? (args[p] as PyValue) : (defaults[p] as PyValue)));
      return run(instance, values);
    },
  };
}

const v = (values: PyValue[], i: number): PyValue => values[i] as PyValue;

/** The `VehicleControlAPI` port: every public method, with Python's signatures. */
export const vehicleControlApiPort: BfclClassPort<VehicleControlApi> = {
  className: CLASS,
  stateless: false,
  load: (config, longContext) => VehicleControlApi.load(config, longContext),
  restore: (snapshot) => VehicleControlApi.restore(snapshot),
  methods: {
    startEngine: method('startEngine', [['ignitionMode', false]], {}, (api, a) => api.startEngine(v(a, 0))),
    fillFuelTank: method('fillFuelTank', [['fuelAmount', false]], {}, (api, a) => api.fillFuelTank(v(a, 0))),
    lockDoors: method('lockDoors', [['unlock', false], ['door', false]], {}, (api, a) => api.lockDoors(v(a, 0), v(a, 1))),
    adjustClimateControl: method(
      'adjustClimateControl',
      [['temperature', false], ['unit', true], ['fanSpeed', true], ['mode', true]],
      { unit: 'celsius', fanSpeed: 50, mode: 'auto' },
      (api, a) => api.adjustClimateControl(v(a, 0), v(a, 1), v(a, 2), v(a, 3)),
    ),
    get_outside_temperature_from_google: method('get_outside_temperature_from_google', [], {}, (api) => api.get_outside_temperature_from_google()),
    get_outside_temperature_from_weather_com: method('get_outside_temperature_from_weather_com', [], {}, (api) => api.get_outside_temperature_from_weather_com()),
    setHeadlights: method('setHeadlights', [['mode', false]], {}, (api, a) => api.setHeadlights(v(a, 0))),
    displayCarStatus: method('displayCarStatus', [['option', false]], {}, (api, a) => api.displayCarStatus(v(a, 0))),
    activateParkingBrake: method('activateParkingBrake', [['mode', false]], {}, (api, a) => api.activateParkingBrake(v(a, 0))),
    pressBrakePedal: method('pressBrakePedal', [['pedalPosition', false]], {}, (api, a) => api.pressBrakePedal(v(a, 0))),
    releaseBrakePedal: method('releaseBrakePedal', [], {}, (api) => api.releaseBrakePedal()),
    setCruiseControl: method(
      'setCruiseControl',
      [['speed', false], ['activate', false], ['distanceToNextVehicle', false]],
      {},
      (api, a) => api.setCruiseControl(v(a, 0), v(a, 1), v(a, 2)),
    ),
    get_current_speed: method('get_current_speed', [], {}, (api) => api.get_current_speed()),
    display_log: method('display_log', [['messages', false]], {}, (api, a) => api.display_log(v(a, 0))),
    estimate_drive_feasibility_by_mileage: method('estimate_drive_feasibility_by_mileage', [['distance', false]], {}, (api, a) =>
      api.estimate_drive_feasibility_by_mileage(v(a, 0)),
    ),
    liter_to_gallon: method('liter_to_gallon', [['liter', false]], {}, (api, a) => api.liter_to_gallon(v(a, 0))),
    gallon_to_liter: method('gallon_to_liter', [['gallon', false]], {}, (api, a) => api.gallon_to_liter(v(a, 0))),
    estimate_distance: method('estimate_distance', [['cityA', false], ['cityB', false]], {}, (api, a) => api.estimate_distance(v(a, 0), v(a, 1))),
    get_zipcode_based_on_city: method('get_zipcode_based_on_city', [['city', false]], {}, (api, a) => api.get_zipcode_based_on_city(v(a, 0))),
    set_navigation: method('set_navigation', [['destination', false]], {}, (api, a) => api.set_navigation(v(a, 0))),
    check_tire_pressure: method('check_tire_pressure', [], {}, (api) => api.check_tire_pressure()),
    find_nearest_tire_shop: method('find_nearest_tire_shop', [], {}, (api) => api.find_nearest_tire_shop()),
  },
};
