import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolDoc, ToolResult } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { synthesizeEnvironment } from '../synthesize-environment.js';
import { tool } from './test-tools.js';

const nums = { type: 'array', items: { type: 'number' } } as const;

/** A statistics and conversion toolbox written for this test. */
const toolbox: ToolDoc = {
  format: 'openai-chat',
  tools: [
    tool('divide_numbers', 'Divide the numerator by the denominator.', { numerator: { type: 'number' }, denominator: { type: 'number' } }, ['numerator', 'denominator'], {
      type: 'object',
      properties: { quotient: { type: 'number' } },
    }),
    tool('sum_list', 'Sum a list of values.', { values: nums }, ['values']),
    tool('sample_stdev', 'The sample standard deviation of values.', { values: nums }, ['values']),
    tool('convert_units', 'Convert an amount between units of measure.', { amount: { type: 'number' }, from_unit: { type: 'string' }, to_unit: { type: 'string' } }, ['amount', 'from_unit', 'to_unit']),
    tool('log_base', 'The logarithm of x in a base.', { x: { type: 'number' }, base: { type: 'number' } }, ['x', 'base']),
    tool('round_to', 'Round a value to some decimal places.', { value: { type: 'number' }, decimal_places: { type: 'integer' } }, ['value']),
    tool('exponentiate', 'Raise a base to an exponent.', { exponent: { type: 'number' }, base: { type: 'number' } }, ['exponent', 'base']),
    tool('pounds_to_kilograms', 'Pounds in kilograms.', { pounds: { type: 'number' } }, ['pounds'], { type: 'object', properties: { kilograms: { type: 'number' } } }),
    // Not calculators: a workout log, a building's floor setting, a wishlist, a hand-over.
    tool('transfer_to_agent', 'Hand the chat to a person.', { priority: { type: 'number' } }, ['priority']),
    tool('log_workout', 'Record minutes of exercise.', { minutes: { type: 'number' } }, ['minutes']),
    tool('set_floor', 'Send the lift to a floor.', { level: { type: 'integer' } }, ['level']),
    tool('add_to_wishlist', 'Add a product to the wishlist.', { product_id: { type: 'string' } }, ['product_id']),
  ],
};

function synth() {
  const r = synthesizeEnvironment(toolbox, { seed: 3 });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

describe('calculatorFamily', () => {
  it('claims the arithmetic tools only, and each passes its self-check', () => {
    const { report } = synth();
    const byTool = Object.fromEntries((report.coverage ?? []).map((c) => [c.tool, c]));
    for (const name of ['divide_numbers', 'sum_list', 'sample_stdev', 'convert_units', 'log_base', 'round_to', 'exponentiate', 'pounds_to_kilograms']) {
      expect(byTool[name]?.family, name).toBe('calculator');
      expect(byTool[name]?.works, `${name}: ${byTool[name]?.reason ?? ''}`).toBe(true);
    }
    for (const name of ['log_workout', 'set_floor', 'add_to_wishlist', 'transfer_to_agent']) expect(byTool[name]?.family, name).not.toBe('calculator');
  });

  it('answers in the output schema property, errors on division by zero and unknown units', async () => {
    const env = await createEnvironment(synth().spec);
    const s = env.createSession();
    let n = 0;
    const call = (name: string, args: JsonObject): ToolResult => s.stepSync({ id: `c${n++}`, name, arguments: JSON.stringify(args) });
    try {
      expect(call('divide_numbers', { numerator: 6, denominator: 3 })).toMatchObject({ ok: true, output: { quotient: 2 } });
      expect(call('divide_numbers', { numerator: 6, denominator: 0 }).ok).toBe(false);
      expect(call('sum_list', { values: [1.5, 2.5, 4] })).toMatchObject({ output: { result: 8 } });
      expect(call('sample_stdev', { values: [2, 4, 4, 4, 5, 5, 7, 9] })).toMatchObject({ output: { result: Math.sqrt(32 / 7) } });
      expect(call('exponentiate', { base: 3, exponent: 4 })).toMatchObject({ output: { result: 81 } });
      expect(call('log_base', { x: 1000, base: 10 })).toMatchObject({ output: { result: 3 } });
      expect(call('round_to', { value: 2.71828, decimal_places: 3 })).toMatchObject({ output: { result: 2.718 } });
      const miles = call('convert_units', { amount: 1, from_unit: 'miles', to_unit: 'km' });
      expect(miles.ok && (miles.output as JsonObject).result).toBeCloseTo(1.609344, 9);
      const boiling = call('convert_units', { amount: 212, from_unit: 'fahrenheit', to_unit: 'celsius' });
      expect(boiling.ok && (boiling.output as JsonObject).result).toBeCloseTo(100, 9);
      expect(call('convert_units', { amount: 1, from_unit: 'kg', to_unit: 'm' }).ok).toBe(false);
      expect(call('convert_units', { amount: 1, from_unit: 'furlong-ish', to_unit: 'm' }).ok).toBe(false);
      expect(call('sample_stdev', { values: [] }).ok).toBe(false);
      expect(call('pounds_to_kilograms', { pounds: 10 })).toMatchObject({ output: { kilograms: 4.5359237 } });
    } finally {
      env.close();
    }
  });
});
