// Derives the JSON schemas of the records a run directory stores (Task, Trajectory, Verdict)
// from their TypeScript types, once: `pnpm --filter @autoforge/core schemas` rewrites
// src/schemas/*.schema.json, and schemas.test.ts fails when they no longer match the types.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The record types and their schema files. */
export const SCHEMA_FILES = { Task: 'task.schema.json', Trajectory: 'trajectory.schema.json', Verdict: 'verdict.schema.json' };

/** The text of every schema file, by file name. */
export function generateSchemas() {
  const generator = createGenerator({
    path: join(root, 'src/index.ts'),
    tsconfig: join(root, 'tsconfig.json'),
    type: '*',
    // Readers keep working on lines from newer writers (and tolerate fields they do not know).
    additionalProperties: true,
    skipTypeCheck: true,
    jsDoc: 'basic',
    sortProps: true,
  });
  const out = {};
  for (const [type, file] of Object.entries(SCHEMA_FILES)) {
    const schema = generator.createSchema(type);
    // What JSON.parse returns is always a JsonValue: no need to walk it (deep states would make
    // the check recursive and slow); a JsonObject only has to be an object.
    if (schema.definitions.JsonValue) schema.definitions.JsonValue = { description: 'Any JSON value.' };
    if (schema.definitions.JsonObject) schema.definitions.JsonObject = { type: 'object', description: 'A JSON object.' };
    out[file] = `${JSON.stringify(schema, null, 2)}\n`;
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of Object.entries(generateSchemas())) writeFileSync(join(root, 'src/schemas', file), text);
}
