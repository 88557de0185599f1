import type { JsonObject, JsonValue } from '@autoforge/core';
import type { PyValue } from '../python-value.js';

/**
 * The contract every BFCL multi-turn class port implements (GorillaFileSystem, MathAPI,
 * MessageAPI, TwitterAPI, TicketAPI, TradingBot, TravelAPI, VehicleControlAPI).
 *
 * A port reproduces the Python class at gorilla commit 6ea57973 (bfcl_eval/eval_checker/
 * multi_turn_eval/func_source_code/): the same state after every call, the same return value,
 * and the same draws from CPython's `random.Random` (see `python-random.ts`).
 */

/** Python's `mpmath.mpf`: printed by `str()` and `repr()` (`mpf('2.0')`), never JSON-serialisable. */
export class PyMpf {
  constructor(
    readonly str: string,
    readonly repr: string,
  ) {}
}

/** Python's `Ellipsis` (`...`), as it appears at the end of a long-context list. */
export class PyEllipsis {
  static readonly instance = new PyEllipsis();
  private constructor() {}
}

/**
 * A value a method returns, as the executor sees it before formatting: Python values with
 * `PyFloat` for integral floats, plus `PyMpf` and `PyEllipsis`. A dict is a plain object whose
 * key order is Python's insertion order (a port whose dict has integer-like keys out of
 * ascending order must say so; none of the gold outputs needs it).
 */
export type PyOut = PyValue | PyMpf | PyEllipsis | PyOut[] | { [key: string]: PyOut };

/**
 * A Python exception raised by a method. The executor reports it as
 * `Error during execution: ${message}` (`message` is `str(e)`; for a `KeyError` that is the
 * repr of the key, e.g. `'x'`).
 */
export class BfclPyError extends Error {}

/** One public method of a class. */
export interface BfclMethod<I> {
  /**
   * The parameters in signature order (after `self`), each with whether it has a default. Used to
   * bind positional arguments and to report Python's `TypeError`s for missing or unknown ones.
   */
  readonly params: readonly (readonly [name: string, hasDefault: boolean])[];
  /** Runs the method on the instance with arguments bound by name (defaults not filled in). */
  call(instance: I, args: Readonly<Record<string, PyValue>>): PyOut;
}

/** A live instance of a ported class. */
export interface BfclInstance {
  /**
   * The public attributes (`vars(instance)` without `_` names), mapped to JSON exactly as
   * `expected/README.md` maps them: int dict keys as strings, sets as sorted arrays, `Directory`
   * and `File` nodes as `{type, name, contents|content}`, floats as plain numbers.
   */
  publicState(): JsonObject;
  /**
   * Everything the instance needs to continue where it is, public and private (current
   * directory, generator position, float-ness of numbers, int-versus-str dict keys), as JSON.
   * `restore(snapshot())` behaves exactly like the instance itself from then on.
   */
  snapshot(): JsonValue;
}

/** One ported class. */
export interface BfclClassPort<I extends BfclInstance = BfclInstance> {
  /** The Python class name, as in `involved_classes`. */
  readonly className: string;
  /** True for a class in BFCL's `STATELESS_CLASSES` (MathAPI): `load` ignores the config. */
  readonly stateless: boolean;
  /** `cls()` then `_load_scenario(copy.deepcopy(config ?? {}), long_context=longContext)`. */
  load(config: JsonObject | undefined, longContext: boolean): I;
  /** An instance from `snapshot()`. */
  restore(snapshot: JsonValue): I;
  /** The public methods, by name. */
  readonly methods: Readonly<Record<string, BfclMethod<I>>>;
}
