import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generateSchemas } from '../scripts/generate-schemas.mjs';
import { TASK_SCHEMA, TRAJECTORY_SCHEMA, VERDICT_SCHEMA } from './schemas.js';

describe('TASK_SCHEMA, TRAJECTORY_SCHEMA, VERDICT_SCHEMA', () => {
  it('are what the TypeScript types give today (regenerate with `pnpm --filter @autoforge/core schemas`)', () => {
    const generated = (generateSchemas as () => Record<string, string>)();
    expect(Object.keys(generated).sort()).toEqual(['task.schema.json', 'trajectory.schema.json', 'verdict.schema.json']);
    for (const [file, text] of Object.entries(generated)) {
      expect(readFileSync(join(import.meta.dirname, 'schemas', file), 'utf8'), file).toBe(text);
    }
  });

  it('require the fields every reader relies on', () => {
    const required = (schema: typeof TASK_SCHEMA, name: string): unknown => (schema.definitions as Record<string, { required?: unknown }>)[name]?.required;
    expect(required(TASK_SCHEMA, 'Task')).toEqual(expect.arrayContaining(['id', 'envId', 'intent', 'goldCalls', 'userFacts', 'expectedFinalDigest', 'requiredOutputs']));
    expect(required(TRAJECTORY_SCHEMA, 'Trajectory')).toEqual(expect.arrayContaining(['id', 'taskId', 'rollout', 'messages', 'reward']));
    expect(required(VERDICT_SCHEMA, 'Verdict')).toEqual(expect.arrayContaining(['trajectoryId', 'rollout', 'userError']));
  });
});
