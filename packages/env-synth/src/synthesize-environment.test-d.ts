// Type tests (checked by `tsc`, not run): synthesizeEnvironment is offline and sync, synthesizeEnvironmentWithLlm async.
import { describe, expectTypeOf, it } from 'vitest';
import type { Issue, Result, ToolDoc } from '@autoforge/core';
import type { EnvSynthIssueCode } from './error.js';
import type { ChatModel } from '@autoforge/core';
import { synthesizeEnvironment } from './synthesize-environment.js';
import type { SynthesisResult } from './synthesize-environment.js';
import type { LlmSynthesisResult } from './llm/index.js';
import { synthesizeEnvironmentWithLlm } from './llm/index.js';

declare const doc: ToolDoc;
declare const model: ChatModel;

describe('synthesizeEnvironment and synthesizeEnvironmentWithLlm', () => {
  it('is synchronous without a model', () => {
    expectTypeOf(synthesizeEnvironment(doc, { seed: 1 })).toEqualTypeOf<Result<SynthesisResult, Issue<EnvSynthIssueCode>>>();
    expectTypeOf(synthesizeEnvironment(doc, { seed: 1, model: undefined })).toEqualTypeOf<Result<SynthesisResult, Issue<EnvSynthIssueCode>>>();
  });

  it('takes no model: synthesis with a model is synthesizeEnvironmentWithLlm, a promise', () => {
    // @ts-expect-error synthesizeEnvironment is offline
    synthesizeEnvironment(doc, { seed: 1, model });
    expectTypeOf(synthesizeEnvironmentWithLlm(doc, { seed: 1, model, maxRepairs: 1 })).toEqualTypeOf<Promise<Result<LlmSynthesisResult, Issue<EnvSynthIssueCode>>>>();
  });

  it('rejects LLM-only options without a model', () => {
    // @ts-expect-error maxRepairs needs a model
    synthesizeEnvironment(doc, { seed: 1, maxRepairs: 2 });
  });
});
