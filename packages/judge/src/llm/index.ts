export type { FaultAuthor, LLMJudgeOptions, UserErrorSeverity } from './llm-judge.js';
export { createLLMJudge, llmJudgeMessages, verdictSchema } from './llm-judge.js';
export { LLM_JUDGE_PROMPT } from './prompt.js';
