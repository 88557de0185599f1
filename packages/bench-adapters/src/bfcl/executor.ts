import type { JsonObject, JsonValue } from '@autoforge/core';
import type { PythonCall } from '../python-call.js';
import { parsePythonCalls } from '../python-call.js';
import type { PyValue } from '../python-value.js';
import { gorillaFileSystemPort } from './gorilla-file-system.js';
import { mathApiPort } from './math-api.js';
import { messageApiPort } from './message-api.js';
import type { BfclClassPort, BfclInstance } from './port.js';
import { BfclPyError } from './port.js';
import { twitterApiPort } from './posting-api.js';
import { bfclErrorText, bfclOutputJson, bfclResultText } from './result.js';
import { ticketApiPort } from './ticket-api.js';
import { tradingBotPort } from './trading-bot.js';
import { travelApiPort } from './travel-booking.js';
import { vehicleControlApiPort } from './vehicle-control.js';

/**
 * BFCL's executor (`multi_turn_utils.execute_multi_turn_func_call`) over the TypeScript ports:
 * the instances of one entry's involved classes, every public method bound by its name (no name
 * is shared by two classes), Python's argument binding and `TypeError`s, the names it refuses,
 * and the result strings its response checker compares.
 */

/** The eight multi-turn classes, by the name `involved_classes` uses. */
export const BFCL_CLASSES: Readonly<Record<string, BfclClassPort>> = {
  GorillaFileSystem: gorillaFileSystemPort as unknown as BfclClassPort,
  MathAPI: mathApiPort as unknown as BfclClassPort,
  MessageAPI: messageApiPort as unknown as BfclClassPort,
  TwitterAPI: twitterApiPort as unknown as BfclClassPort,
  TicketAPI: ticketApiPort as unknown as BfclClassPort,
  TradingBot: tradingBotPort as unknown as BfclClassPort,
  TravelAPI: travelApiPort as unknown as BfclClassPort,
  VehicleControlAPI: vehicleControlApiPort as unknown as BfclClassPort,
};

/** The function-doc file (`data/multi_turn_func_doc/<file>.json`) of each class. */
export const BFCL_FUNC_DOC_FILES: Readonly<Record<string, string>> = {
  GorillaFileSystem: 'gorilla_file_system',
  MathAPI: 'math_api',
  MessageAPI: 'message_api',
  TwitterAPI: 'posting_api',
  TicketAPI: 'ticket_api',
  TradingBot: 'trading_bot',
  TravelAPI: 'travel_booking',
  VehicleControlAPI: 'vehicle_control',
};

/** The names the executor refuses to run (`Function call X is not allowed.`). */
const REFUSED = new Set(['kill', 'exit', 'quit', 'remove', 'unlink', 'popen', 'Popen', 'run']);

/** One executed call: the executor's string, and the returned value as JSON when there was one. */
export interface BfclCallResult {
  result: string;
  output?: JsonValue;
  /** True when the call raised (the result is `Error during execution: …`). */
  raised: boolean;
}

/** A snapshot of a `BfclExecutor`: everything needed to continue it. */
export interface BfclExecutorSnapshot {
  involved: string[];
  longContext: boolean;
  classes: { [className: string]: JsonValue };
}

function listText(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return quoted[0] as string;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

/** Python 3.11's binding of a call to `Class.method(self, …)`, with its `TypeError` texts. */
export function bindPythonArguments(
  qualname: string,
  params: readonly (readonly [name: string, hasDefault: boolean])[],
  positional: readonly PyValue[],
  keywords: Readonly<Record<string, PyValue>>,
): Record<string, PyValue> {
  const bound: Record<string, PyValue> = {};
  if (positional.length > params.length) {
    const required = params.filter(([, d]) => !d).length;
    const takes = required === params.length ? `${params.length + 1} positional argument${params.length === 0 ? '' : 's'}` : `from ${required + 1} to ${params.length + 1} positional arguments`;
    const given = positional.length + 1;
    throw new BfclPyError(`${qualname}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
  positional.forEach((v, i) => {
    bound[(params[i] as readonly [string, boolean])[0]] = v;
  });
  const names = new Set(params.map(([n]) => n));
  for (const [k, v] of Object.entries(keywords)) {
    if (!names.has(k)) throw new BfclPyError(`${qualname}() got an unexpected keyword argument '${k}'`);
    if (Object.prototype.hasOwnProperty.call(bound, k)) throw new BfclPyError(`${qualname}() got multiple values for argument '${k}'`);
    bound[k] = v;
  }
  const missing = params.filter(([n, d]) => !d && !Object.prototype.hasOwnProperty.call(bound, n)).map(([n]) => n);
  if (missing.length > 0) {
    throw new BfclPyError(`${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${listText(missing)}`);
  }
  return bound;
}

/** The instances of one entry, and BFCL's executor over them. */
export class BfclExecutor {
  readonly involved: readonly string[];
  readonly longContext: boolean;
  private readonly instances = new Map<string, BfclInstance>();
  private readonly owner = new Map<string, string>();

  private constructor(involved: readonly string[], longContext: boolean) {
    this.involved = [...involved];
    this.longContext = longContext;
    for (const cls of involved) {
      const port = BFCL_CLASSES[cls];
      if (port === undefined) throw new RangeError(`BFCL has no multi-turn class "${cls}"`);
      for (const method of Object.keys(port.methods)) this.owner.set(method, cls);
    }
  }

  /** The instances of `involved`, each loaded from its `initial_config` entry (or its default state). */
  static load(initialConfig: Readonly<Record<string, unknown>>, involved: readonly string[], longContext: boolean): BfclExecutor {
    const ex = new BfclExecutor(involved, longContext);
    for (const cls of involved) {
      const port = BFCL_CLASSES[cls] as BfclClassPort;
      const config = Object.prototype.hasOwnProperty.call(initialConfig, cls) ? (initialConfig[cls] as JsonObject) : undefined;
      ex.instances.set(cls, port.load(port.stateless ? undefined : config, longContext));
    }
    return ex;
  }

  /** An executor from `snapshot()`. */
  static restore(snapshot: BfclExecutorSnapshot): BfclExecutor {
    const ex = new BfclExecutor(snapshot.involved, snapshot.longContext);
    for (const cls of snapshot.involved) {
      const port = BFCL_CLASSES[cls] as BfclClassPort;
      ex.instances.set(cls, port.restore(snapshot.classes[cls] as JsonValue));
    }
    return ex;
  }

  /** JSON that `restore` continues from exactly. */
  snapshot(): BfclExecutorSnapshot {
    const classes: { [className: string]: JsonValue } = {};
    for (const [cls, inst] of this.instances) classes[cls] = inst.snapshot();
    return { involved: [...this.involved], longContext: this.longContext, classes };
  }

  /** The public attributes of every involved class, as the reference replays map them. */
  state(): { [className: string]: JsonObject } {
    const out: { [className: string]: JsonObject } = {};
    for (const [cls, inst] of this.instances) out[cls] = inst.publicState();
    return out;
  }

  /** The class a method name is bound to, if any of the involved classes has it. */
  classOf(method: string): string | undefined {
    return this.owner.get(method);
  }

  /** Runs one call by name, with keyword (and positional) arguments, as the executor does. */
  call(name: string, keywords: Readonly<Record<string, PyValue>>, positional: readonly PyValue[] = []): BfclCallResult {
    if (REFUSED.has(name)) return { result: bfclErrorText(`Function call ${name} is not allowed.`), raised: true };
    const cls = this.owner.get(name);
    if (cls === undefined) return { result: bfclErrorText(`name '${name}' is not defined`), raised: true };
    const port = BFCL_CLASSES[cls] as BfclClassPort;
    const method = port.methods[name];
    const instance = this.instances.get(cls) as BfclInstance;
    if (method === undefined) return { result: bfclErrorText(`name '${name}' is not defined`), raised: true };
    try {
      const args = bindPythonArguments(`${cls}.${name}`, method.params, positional, keywords);
      const value = method.call(instance, args);
      return { result: bfclResultText(value), output: bfclOutputJson(value), raised: false };
    } catch (error) {
      if (error instanceof BfclPyError) return { result: bfclErrorText(error.message), raised: true };
      throw error;
    }
  }

  /** Runs a call string (`cd(folder='document')`, `sort('final_report.pdf')`). */
  callText(text: string): BfclCallResult {
    let parsed: PythonCall[];
    try {
      parsed = parsePythonCalls(text, { positional: true });
    } catch (error) {
      return { result: bfclErrorText(`invalid syntax (${(error as Error).message})`), raised: true };
    }
    if (parsed.length !== 1) return { result: bfclErrorText(`invalid syntax (expected one call, got ${parsed.length})`), raised: true };
    const call = parsed[0] as PythonCall;
    return this.call(call.name, call.arguments, call.positional ?? []);
  }
}
