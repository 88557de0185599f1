export type {
  AdvantageEstimator,
  AdvantageOptions,
  AdvantageResult,
  AdvantageSample,
  AdvantageStats,
  GroupedSamples,
  StdKind,
} from './advantages.js';
export { ADVANTAGE_ESTIMATORS, computeAdvantages, computeGroupedAdvantages, groupSamples } from './advantages.js';
export type { FilterGroupsResult, GroupRef } from './filter-groups.js';
export { filterGroups } from './filter-groups.js';
export type { SamplesFromTrajectoriesOptions, TrajectoryOutcome, TrajectorySample } from './samples.js';
export { samplesFromTrajectories } from './samples.js';
export type { AdvantageRecord, ExportSample, WriteAdvantagesJsonlOptions } from './export.js';
export {
  advantagesToJsonl,
  advantagesToParquet,
  groupUid,
  toAdvantageRecords,
  writeAdvantagesJsonl,
  writeAdvantagesParquet,
} from './export.js';
export type { ErpoErrorCode } from './error.js';
export { ErpoError } from './error.js';
