import data from './long-context.json' with { type: 'json' };
import { PyEllipsis } from './port.js';
import type { PyOut } from './port.js';
import { PyFloat } from '../python-value.js';

/**
 * The data constants of BFCL's `long_context.py` (Apache-2.0, ShishirPatil/gorilla at 6ea57973),
 * which the classes read when `long_context=True`. `long-context.json` is written by
 * `scripts/bfcl-long-context.py` from that file; it marks integral floats (`{"$float": 7287}`)
 * and `Ellipsis` so that nothing Python prints differently is lost.
 */
export type LongContextName = keyof typeof data;

function decode(value: unknown): PyOut {
  if (value === null || typeof value !== 'object') return value as PyOut;
  if (Array.isArray(value)) return value.map(decode);
  const record = value as Record<string, unknown>;
  if ('$float' in record) return new PyFloat(record.$float as number);
  if ('$ellipsis' in record) return PyEllipsis.instance;
  const out: { [key: string]: PyOut } = {};
  for (const [k, v] of Object.entries(record)) out[k] = decode(v);
  return out;
}

/** A fresh decoded copy of one long-context constant (callers may change it). */
export function longContextValue(name: LongContextName): PyOut {
  return decode(data[name]);
}
