// @autoforge/bench-adapters/tau2: tau2-bench airline, retail and telecom (sierra-research/tau2-bench).
export type { Tau2Action, Tau2BenchAdapterOptions, Tau2Domain, Tau2RewardType } from '../tau2-bench-adapter.js';
export { createTau2BenchAdapter, tau2ActionMatches, tau2Communicated, tau2Instructions } from '../tau2-bench-adapter.js';
export { TAU2_AIRLINE_TOOLS } from '../tau2-airline-tools.js';
export { TAU2_RETAIL_TOOLS } from '../tau2-retail-tools.js';
export type { Tau2EnvAssertionCheck, Tau2EnvFunctionCall, Tau2TelecomAdapter, Tau2TelecomAdapterOptions } from '../tau2-telecom-adapter.js';
export { createTau2TelecomAdapter } from '../tau2-telecom-adapter.js';
export type { RunTau2TelecomFunctionOptions, Tau2TelecomContext, Tau2TelecomSide, Tau2TelecomState } from '../tau2-telecom-tools.js';
export {
  TAU2_TELECOM_AGENT_TOOL_NAMES,
  TAU2_TELECOM_TOOLS,
  TAU2_TELECOM_USER_TOOLS,
  TAU2_TELECOM_USER_TOOL_NAMES,
  runTau2TelecomFunction,
  syncTau2Telecom,
} from '../tau2-telecom-tools.js';
export type { Tau2TelecomUserOptions } from '../tau2-telecom-user.js';
export { createTau2TelecomOracleAgent, createTau2TelecomUser, tau2TelecomAsk } from '../tau2-telecom-user.js';
export type { NlAssertionCheck } from '../tau2-nl-judge.js';
export { judgeNlAssertions, judgeTranscript } from '../tau2-nl-judge.js';
