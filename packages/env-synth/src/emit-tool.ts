import type { JsonValue } from '@autoforge/core';
import type { ToolImplementation } from '@autoforge/env-runtime';
import type { ToolPlan } from './plan.js';

/** The records driver's version the compiler writes params for. */
export const RECORDS_DRIVER_VERSION = 1;

/**
 * The implementation of a compiled tool: env-runtime's `records` driver with the plan as its
 * params, or a stand-in (every call an error naming why) for a tool no pattern fits.
 */
export function implementationFor(plan: ToolPlan): Extract<ToolImplementation, { kind: 'driver' }> {
  if (plan.pattern === 'unclassified') return { kind: 'driver', driver: 'stand-in', version: 1, params: { reason: plan.note } };
  return { kind: 'driver', driver: 'records', version: RECORDS_DRIVER_VERSION, params: plan as unknown as JsonValue };
}
