export { synthesizeEnvironmentWithLlm } from '../synthesize-with-llm.js';
export type {
  ImplementationOrigin,
  LlmReport,
  LlmSynthesisReport,
  LlmSynthesisResult,
  LlmSynthesizeOptions,
  LlmToolReport,
} from '../synthesize-with-llm.js';
