// The plans tools compile to are the params of env-runtime's `records` driver: one definition,
// there. This module re-exports them and converts id formats to the driver's form.
import type { RecordIdFormat } from '@autoforge/env-runtime';
import type { IdFormat } from './id-format.js';
import { FIRST_NAMES, LAST_NAMES } from './id-format.js';

export type {
  Assignment,
  BatchPlan,
  ComputePlan,
  CreatePlan,
  DeletePlan,
  FallbackPlan,
  Filter,
  FindPlan,
  ListPlan,
  LookupPlan,
  NoopPlan,
  OperationPattern,
  RecordIdFormat,
  RecordsParams,
  RefCheck,
  RunnablePlan,
  SwitchPlan,
  ToolPlan,
  UpdatePlan,
} from '@autoforge/env-runtime';

/** An id format as the records driver generates it: name words become lists of names. */
export function driverIdFormat(format: IdFormat): RecordIdFormat {
  return {
    segments: format.segments.map((s) => ('word' in s ? { oneOf: [...(s.word === 'first' ? FIRST_NAMES : LAST_NAMES)] } : 'oneOf' in s ? { oneOf: [...s.oneOf] } : { ...s })),
  };
}
