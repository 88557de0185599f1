import type { Result, ToolDoc } from '@autoforge/core';
import { err } from '@autoforge/core';
import { checkCommonOptions, inputIssues } from './compile-environment.js';
import { synthesizeComposed } from './compose.js';
import type { SynthesisResult, SynthesizeOptions } from './synthesis-types.js';
import type { LlmSynthesisResult, LlmSynthesizeOptions } from './synthesize-with-llm.js';
import { synthesizeEnvironmentWithLlm } from './synthesize-with-llm.js';

export type { ReportedCollection, SynthesisReport, SynthesisResult, SynthesizeOptions, ToolCoverage } from './synthesis-types.js';

/**
 * Compiles a ToolDoc (and optionally a sample state) into an executable `EnvironmentSpec`.
 *
 * Without `model` (offline, synchronous): infers collections, fields, relations and id formats,
 * classifies each tool into an operation pattern, emits its sandboxed JavaScript from the
 * pattern's template, fills in every missing output schema, and takes the sample as the seed
 * state or generates one.
 *
 * With `model` (a `ChatModel`): returns a promise of the same result, synthesized by the LLM as
 * {@link synthesizeEnvironmentWithLlm} does.
 *
 * Returns issues for inputs it cannot use (no tools, a sample state that is not an object).
 * Throws `EnvSynthError` (`E_OPTIONS`) for invalid options. Same inputs and seed give a
 * byte-identical spec (compare with `canonicalJson`).
 */
export function synthesizeEnvironment(toolDoc: ToolDoc, options: SynthesizeOptions): Result<SynthesisResult>;
export function synthesizeEnvironment(toolDoc: ToolDoc, options: LlmSynthesizeOptions): Promise<Result<LlmSynthesisResult>>;
export function synthesizeEnvironment(
  toolDoc: ToolDoc,
  options: SynthesizeOptions | LlmSynthesizeOptions,
): Result<SynthesisResult> | Promise<Result<LlmSynthesisResult>> {
  if (typeof options === 'object' && options !== null && options.model !== undefined) {
    return synthesizeEnvironmentWithLlm(toolDoc, options);
  }
  return synthesizeOffline(toolDoc, options as SynthesizeOptions);
}

function synthesizeOffline(toolDoc: ToolDoc, options: SynthesizeOptions): Result<SynthesisResult> {
  const { seed, size } = checkCommonOptions(options);
  const bad = inputIssues(toolDoc, options.sampleState);
  if (bad) return err(bad);
  return synthesizeComposed(toolDoc, options, seed, size);
}
