export type { FaultAuthor, LlmJudgeOptions, UserErrorSeverity } from './llm-judge.js';
export { createLlmJudge, llmJudgeMessages, verdictSchema } from './llm-judge.js';
export { LLM_JUDGE_PROMPT } from './prompt.js';
