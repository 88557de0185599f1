// Type tests (checked by `tsc`, not run): the return type follows from the options.
import { describe, expectTypeOf, it } from 'vitest';
import type { Result, ToolDoc } from '@autoforge/core';
import type { ChatModel } from '@autoforge/llm';
import { synthesizeEnvironment } from './synthesize-environment.js';
import type { SynthesisResult } from './synthesize-environment.js';
import type { LlmSynthesisResult } from './synthesize-with-llm.js';
import { synthesizeEnvironmentWithLlm } from './synthesize-with-llm.js';

declare const doc: ToolDoc;
declare const model: ChatModel;

describe('synthesizeEnvironment overloads', () => {
  it('is synchronous without a model', () => {
    expectTypeOf(synthesizeEnvironment(doc, { seed: 1 })).toEqualTypeOf<Result<SynthesisResult>>();
    expectTypeOf(synthesizeEnvironment(doc, { seed: 1, model: undefined })).toEqualTypeOf<Result<SynthesisResult>>();
  });

  it('returns a promise of the LLM result with a model', () => {
    expectTypeOf(synthesizeEnvironment(doc, { seed: 1, model })).toEqualTypeOf<Promise<Result<LlmSynthesisResult>>>();
    expectTypeOf(synthesizeEnvironmentWithLlm(doc, { seed: 1, model, maxRepairs: 1 })).toEqualTypeOf<Promise<Result<LlmSynthesisResult>>>();
  });

  it('rejects LLM-only options without a model', () => {
    // @ts-expect-error maxRepairs needs a model
    synthesizeEnvironment(doc, { seed: 1, maxRepairs: 2 });
  });
});
