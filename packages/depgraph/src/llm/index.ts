export type { BuildWithModelOptions, JudgeReport } from './build-with-model.js';
export { buildDependencyGraphWithModel } from './build-with-model.js';
export type { JudgeCandidate, JudgeReply, JudgeToolSummary } from './judge-prompt.js';
export { CANDIDATES_BEGIN, CANDIDATES_END, JUDGE_SCHEMA, JUDGE_SYSTEM_PROMPT, judgePrompt } from './judge-prompt.js';
