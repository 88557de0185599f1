import type { Issue, Result, ToolDoc } from '@autoforge/core';
import type { EnvSynthIssueCode } from './error.js';
import { err } from '@autoforge/core';
import { checkCommonOptions, inputIssues } from './compile-environment.js';
import { synthesizeComposed } from './compose.js';
import { EnvSynthError } from './error.js';
import type { SynthesisResult, SynthesizeOptions } from './synthesis-types.js';

export type { ReportedCollection, SynthesisReport, SynthesisResult, SynthesizeOptions, ToolCoverage } from './synthesis-types.js';

/**
 * Compiles a ToolDoc (and optionally a sample state) into an executable `EnvironmentSpec`,
 * offline and synchronously: infers collections, fields, relations and id formats, classifies
 * each tool into an operation pattern, emits its sandboxed JavaScript from the pattern's
 * template, fills in every missing output schema, and takes the sample as the seed state or
 * generates one. Synthesis with an LLM is `synthesizeEnvironmentWithLlm` from
 * `@autoforge/env-synth/llm` (kept there so that this entry never loads the LLM client).
 *
 * Returns issues for inputs it cannot use (no tools, a sample state that is not an object).
 * Throws `EnvSynthError` (`E_OPTIONS`) for invalid options, a `model` among them. Same inputs
 * and seed give a byte-identical spec (compare with `canonicalJson`).
 */
export function synthesizeEnvironment(toolDoc: ToolDoc, options: SynthesizeOptions): Result<SynthesisResult, Issue<EnvSynthIssueCode>> {
  if (typeof options === 'object' && options !== null && (options as { model?: unknown }).model !== undefined) {
    throw new EnvSynthError('E_OPTIONS', 'env-synth: synthesizeEnvironment is offline and takes no `model`; synthesize with an LLM through `synthesizeEnvironmentWithLlm` from `@autoforge/env-synth/llm`');
  }
  const { seed, size } = checkCommonOptions(options);
  const bad = inputIssues(toolDoc, options.sampleState);
  if (bad) return err(bad);
  return synthesizeComposed(toolDoc, options, seed, size);
}
