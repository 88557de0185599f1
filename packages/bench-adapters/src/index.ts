export type { BenchAdapter, BenchEvaluation } from './adapter.js';
export type { BenchAdapterErrorCode } from './error.js';
export { BenchAdapterError } from './error.js';
export type { TauBenchAdapterOptions, TauBenchDomain, TauBenchTask } from './tau-bench-adapter.js';
export { BENCH_USER_GREETING, TAU_BENCH_TERMINATE_TOOLS, createTauBenchAdapter, replayGoldCalls, tauBenchOutputs, tauBenchUserPrompt } from './tau-bench-adapter.js';
export { TAU_BENCH_RETAIL_TOOLS } from './tau-bench-retail-tools.js';
export { TAU_BENCH_AIRLINE_TOOLS } from './tau-bench-airline-tools.js';
export type { Tau2Action, Tau2BenchAdapterOptions, Tau2Domain, Tau2RewardType } from './tau2-bench-adapter.js';
export { createTau2BenchAdapter, tau2ActionMatches, tau2Communicated, tau2Instructions } from './tau2-bench-adapter.js';
export { TAU2_AIRLINE_TOOLS } from './tau2-airline-tools.js';
export { TAU2_RETAIL_TOOLS } from './tau2-retail-tools.js';
export type { Tau2EnvAssertionCheck, Tau2EnvFunctionCall, Tau2TelecomAdapter, Tau2TelecomAdapterOptions } from './tau2-telecom-adapter.js';
export { createTau2TelecomAdapter } from './tau2-telecom-adapter.js';
export type { RunTau2TelecomFunctionOptions, Tau2TelecomContext, Tau2TelecomSide, Tau2TelecomState } from './tau2-telecom-tools.js';
export {
  TAU2_TELECOM_AGENT_TOOL_NAMES,
  TAU2_TELECOM_TOOLS,
  TAU2_TELECOM_USER_TOOLS,
  TAU2_TELECOM_USER_TOOL_NAMES,
  runTau2TelecomFunction,
  syncTau2Telecom,
} from './tau2-telecom-tools.js';
export type { Tau2TelecomUserOptions } from './tau2-telecom-user.js';
export { createTau2TelecomOracleAgent, createTau2TelecomUser, tau2TelecomAsk } from './tau2-telecom-user.js';
export type { NlAssertionCheck } from './tau2-nl-judge.js';
export { judgeNlAssertions, judgeTranscript } from './tau2-nl-judge.js';
export { foldForMatch } from './fold-for-match.js';
export type { TrialResult } from './pass-hat-k.js';
export { isSuccess, passHatK } from './pass-hat-k.js';
export type { OracleAgentOptions } from './oracle-agent.js';
export { createOracleAgent, oracleReply } from './oracle-agent.js';
export type { InstructionUserOptions } from './instruction-user.js';
export { createInstructionUser } from './instruction-user.js';
export type { TaskReplay } from './replay-task.js';
export { replayTask } from './replay-task.js';
export type { BenchTrial, BenchmarkRun, RunBenchmarkOptions } from './run-benchmark.js';
export { runBenchmark } from './run-benchmark.js';
export type { BenchmarkInfo, CreateBenchAdapterOptions } from './registry.js';
export { BENCHMARKS, createBenchAdapter } from './registry.js';
export { pyFloatRepr, pyRound } from './python-number.js';
export { pythonCalculate } from './python-arithmetic.js';
export type { AceBenchAgentAdapterOptions } from './acebench-agent-adapter.js';
export {
  ACEBENCH_FINISH,
  ACEBENCH_SAVED_ATTRIBUTES,
  ACEBENCH_STEP_REPLY,
  aceBenchClassResults,
  aceBenchMilestones,
  aceBenchProcess,
  createAceBenchAgentAdapter,
  createAceBenchStepUser,
} from './acebench-agent-adapter.js';
export type { AceBenchAgentCheck, AceBenchClassResult } from './acebench-agent-check.js';
export { aceBenchAgentCheck, aceBenchAgentSummary, aceBenchProcessAccuracy } from './acebench-agent-check.js';
export type { AceBenchCall, AceBenchCheck, ScoreAceBenchCallOptions } from './acebench-checker.js';
export { aceBenchStandardize, scoreAceBenchCall, scoreAceBenchSpecial } from './acebench-checker.js';
export type { AceBenchCategory, AceBenchSample } from './acebench-data.js';
export { ACEBENCH_CATEGORIES, loadAceBenchCategory } from './acebench-data.js';
export type { AceBenchClass } from './acebench-phone-tools.js';
export { ACEBENCH_PHONE_TOOLS } from './acebench-phone-tools.js';
export { ACEBENCH_TRAVEL_TOOLS } from './acebench-travel-tools.js';
export type { PythonCall } from './python-call.js';
export { parsePythonCalls, pythonCallsText } from './python-call.js';
export type { PyFormatOptions, PyJsonDumpsOptions } from './python-repr.js';
export { pyJsonDumps, pyRepr } from './python-repr.js';
export type { PyValue } from './python-value.js';
export { PyFloat, parsePyJson, pyEquals } from './python-value.js';
export type { VitaBenchAdapterOptions, VitaBenchDomain } from './vitabench-adapter.js';
export { createVitaBenchAdapter } from './vitabench-adapter.js';
export type { JudgeVitaRubricsOptions, VitaEvaluation, VitaRubricCheck, VitaRubricTask, VitaRubricVerdict } from './vitabench-judge.js';
export { judgeVitaRubrics, vitaRubrics, vitaTranscript, vitaWeekday } from './vitabench-judge.js';
export { VITABENCH_DELIVERY_TOOLS, VITABENCH_INSTORE_TOOLS, vitaDeliveryMinutes, vitaDistance } from './vitabench-tools.js';
export { fuzzDefaultProcess, fuzzExtract, fuzzPartialRatio, fuzzRatio, fuzzRerank } from './fuzzy-ratio.js';
export type { BfclAdapter, BfclAdapterOptions } from './bfcl-adapter.js';
export { BFCL_HELD_OUT_PROMPT, BFCL_MAX_STEPS_PER_TURN, bfclModelTurns, bfclSplitOf, createBfclAdapter } from './bfcl-adapter.js';
export type { BfclCheckEntry, BfclCheckResult, BfclModelCall } from './bfcl/checker.js';
export { bfclCheck, bfclLongContext } from './bfcl/checker.js';
export type { BfclCategory, BfclEntry, BfclExpectedCall, BfclExpectedEntry } from './bfcl/data.js';
export { BFCL_CATEGORIES, readBfclEntries, readBfclExpected, readBfclGold } from './bfcl/data.js';
export type { BfclCallResult, BfclExecutorSnapshot } from './bfcl/executor.js';
export { BFCL_CLASSES, BfclExecutor } from './bfcl/executor.js';
export { PyRandom } from './bfcl/python-random.js';
