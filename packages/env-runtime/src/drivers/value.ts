import type { JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import { DriverParamsError, defineDriver } from './driver.js';
import type { Facts } from './output-template.js';
import { fillTemplate } from './output-template.js';
import { argValue } from './settings.js';

// The `value` driver: one top-level value is the state — a memo or running text, a limit, a
// preference. Tools read it, set it, append to it, replace a part of it or clear it.

/** What one value tool does. */
export type ValueOp = 'get' | 'set' | 'append' | 'replace' | 'clear';

/** The params of one value tool. */
export interface ValueParams {
  op: ValueOp;
  /** The top-level state key holding the value. */
  key: string;
  /** `set`, `append`: the argument holding the new value (or the text to append). */
  valueArg?: string;
  /** `replace`: the arguments holding the text to find and the text to put in its place. */
  oldArg?: string;
  newArg?: string;
  /** The kind of value kept: text, a number or a flag (an argument given as text is converted). */
  kind: 'string' | 'number' | 'boolean';
  /** `append`: what goes between the old text and the appended one (default a space). */
  separator: string;
  /** `clear`: the value left (the empty text, 0 or false). */
  empty: JsonValue;
  /**
   * The output: JSON where `{"$": fact}` is a fact (`value`: the value after the call,
   * `previous`, `message`, `ok`).
   */
  output: JsonValue;
  /** The message text; `{value}` is the value after the call. */
  message: string;
}

function show(v: JsonValue | undefined): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}

function coerce(v: JsonValue, kind: ValueParams['kind'], name: string): JsonValue {
  if (kind === 'number') {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got ${show(v)}`);
    return n;
  }
  if (kind === 'boolean') {
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw new Error(`${name} must be true or false, got ${show(v)}`);
  }
  if (typeof v !== 'string') throw new Error(`${name} must be text, got ${show(v)}`);
  return v;
}

const OPS: readonly ValueOp[] = ['get', 'set', 'append', 'replace', 'clear'];

/** The value driver. */
export const valueDriver = defineDriver<ValueParams>({
  name: 'value',
  version: 1,
  parse(params) {
    if (!isJsonObject(params)) throw new DriverParamsError('', 'value params must be an object');
    const { op, key, kind } = params;
    if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op)) throw new DriverParamsError('/op', `unknown value op ${JSON.stringify(op)}`);
    if (typeof key !== 'string' || key === '') throw new DriverParamsError('/key', 'key must be a state key');
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') throw new DriverParamsError('/kind', 'kind must be string, number or boolean');
    const out: ValueParams = {
      op: op as ValueOp,
      key,
      kind,
      separator: typeof params.separator === 'string' ? params.separator : ' ',
      empty: params.empty ?? (kind === 'string' ? '' : kind === 'number' ? 0 : false),
      output: params.output ?? { $: 'value' },
      message: typeof params.message === 'string' ? params.message : '{value}',
    };
    for (const arg of ['valueArg', 'oldArg', 'newArg'] as const) {
      const v = params[arg];
      if (v !== undefined && typeof v !== 'string') throw new DriverParamsError(`/${arg}`, `${arg} must be an argument name`);
      if (typeof v === 'string') out[arg] = v;
    }
    if ((out.op === 'set' || out.op === 'append') && out.valueArg === undefined) throw new DriverParamsError('/valueArg', `${out.op} needs the argument holding the value`);
    if (out.op === 'append' && kind !== 'string') throw new DriverParamsError('/kind', 'append keeps text');
    if (out.op === 'replace' && (out.oldArg === undefined || out.newArg === undefined || kind !== 'string')) {
      throw new DriverParamsError('/oldArg', 'replace needs oldArg and newArg over text');
    }
    return out;
  },
  compile(p, tool) {
    return (args, ctx) => {
      const previous = ctx.db.read(p.key) ?? null;
      let value: JsonValue = previous;
      const arg = (name: string): JsonValue => {
        const v = argValue(args, name, tool);
        if (v === undefined) throw new Error(`${tool.name}: ${name} is required`);
        return v;
      };
      switch (p.op) {
        case 'get':
          break;
        case 'set':
          value = coerce(arg(p.valueArg as string), p.kind, p.valueArg as string);
          break;
        case 'append': {
          const text = coerce(arg(p.valueArg as string), 'string', p.valueArg as string) as string;
          const before = typeof previous === 'string' ? previous : '';
          value = before === '' ? text : `${before}${p.separator}${text}`;
          break;
        }
        case 'replace': {
          const old = coerce(arg(p.oldArg as string), 'string', p.oldArg as string) as string;
          const next = coerce(arg(p.newArg as string), 'string', p.newArg as string) as string;
          const before = typeof previous === 'string' ? previous : '';
          if (old === '') throw new Error(`${p.oldArg} must not be empty`);
          if (!before.includes(old)) throw new Error(`${show(old)} does not occur in ${p.key}`);
          value = before.split(old).join(next);
          break;
        }
        case 'clear':
          value = p.empty;
          break;
      }
      if (p.op !== 'get') ctx.db.write(p.key, value);
      const facts: Facts = { value, previous, ok: true, message: p.message.replace(/\{value\}/g, show(value)) };
      return fillTemplate(p.output, facts) ?? null;
    };
  },
});
