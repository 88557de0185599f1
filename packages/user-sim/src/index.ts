export type { ScriptedUserOptions, UserErrorKind } from './scripted-user.js';
export { createScriptedUser, SCRIPTED_PHRASES, USER_CALL_REPORT, USER_ERROR_KINDS } from './scripted-user.js';
export type { LLMUserOptions } from './llm-user.js';
export { createLLMUser, llmUserSystemPrompt } from './llm-user.js';
export { LLM_USER_PROMPT } from './prompts/llm-user.js';
export { firstPersonIntent } from './first-person.js';
export { INVENTED_REQUIREMENTS } from './invented-requirements.js';
export type { UserSimErrorCode } from './error.js';
export { UserSimError } from './error.js';
