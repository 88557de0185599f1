import type { JsonObject } from './json.js';
import task from './schemas/task.schema.json' with { type: 'json' };
import trajectory from './schemas/trajectory.schema.json' with { type: 'json' };
import verdict from './schemas/verdict.schema.json' with { type: 'json' };

// Generated from the types by scripts/generate-schemas.mjs (`pnpm --filter @autoforge/core schemas`);
// schemas.test.ts fails when a type changes and the files were not regenerated.

/** JSON Schema (draft-07) of a `Task` line (`tasks.jsonl`), derived from the `Task` type. */
export const TASK_SCHEMA: JsonObject = task as JsonObject;

/** JSON Schema (draft-07) of a `Trajectory` line (`trajectories.jsonl`), derived from the `Trajectory` type. */
export const TRAJECTORY_SCHEMA: JsonObject = trajectory as JsonObject;

/** JSON Schema (draft-07) of a `Verdict` line (`verdicts.jsonl`), derived from the `Verdict` type. */
export const VERDICT_SCHEMA: JsonObject = verdict as JsonObject;
