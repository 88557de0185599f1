// @autoforge/bench-adapters/vitabench: VitaBench delivery and in-store (meituan-longcat/vitabench).
export type { VitaBenchAdapterOptions, VitaBenchDomain } from '../vitabench-adapter.js';
export { createVitaBenchAdapter } from '../vitabench-adapter.js';
export type { JudgeVitaRubricsOptions, VitaEvaluation, VitaRubricCheck, VitaRubricTask, VitaRubricVerdict } from '../vitabench-judge.js';
export { judgeVitaRubrics, vitaRubrics, vitaTranscript, vitaWeekday } from '../vitabench-judge.js';
export { VITABENCH_DELIVERY_TOOLS, VITABENCH_INSTORE_TOOLS, vitaDeliveryMinutes, vitaDistance } from '../vitabench-tools.js';
