// Realistic, schema-valid values by field meaning, for seeded state, generated arguments and the
// behaviour families' probes. The package barrel (src/index.ts) re-exports the public part.
export type { RecordContext, ValueContext } from './value-for.js';
export { constrainedValue, recordFor, valueFor } from './value-for.js';
export type { Meaning } from './meaning.js';
export { isPersonNoun, meaningOf } from './meaning.js';
export { stringMatching, satisfies } from './schema-kit.js';
export { dateTimeValue, dateValue, timeValue } from './realistic.js';
