import type { Issue, JsonObject, Result, ToolDoc } from '@autoforge/core';
import { err, isJsonObject, ok } from '@autoforge/core';
import type { EnvSynthIssueCode } from './error.js';
import { synthesizeEnvironment } from './synthesize-environment.js';
import type { SynthesisResult, SynthesizeOptions } from './synthesis-types.js';

// Dual control: a document whose user has tools of their own (a phone) comes as two documents,
// the agent's tools and the user's, each with its own database. They are synthesized into one
// environment whose state holds both sides — as a dual-control benchmark steps both sides in one
// environment — with the user's tools named in `metadata.userTools`: tasks compiled on it
// carry them as `Task.userTools`, so the agent is never shown them and must ask the user.

/** Options of {@link synthesizeDualControlEnvironment}: `synthesizeEnvironment`'s, and the user side's sample. */
export interface DualControlOptions extends SynthesizeOptions {
  /**
   * The user side's sample state (the device's database). A sample whose only top-level entry is
   * one object (`{ device: {...} }`) is read as that object's entries: a device's settings. Its keys
   * must differ from `sampleState`'s.
   */
  userSampleState?: JsonObject;
}

/** What {@link synthesizeDualControlEnvironment} returns: the synthesis, and the user side's tool names. */
export interface DualControlSynthesis extends SynthesisResult {
  /** The user's own tools (also in `spec.metadata.userTools`). */
  userTools: string[];
}

/** A user-side sample wrapped in one object (`{ device: {...} }`) is read as that object's entries. */
export function unwrapSingletonSample(sample: JsonObject): JsonObject {
  const keys = Object.keys(sample);
  if (keys.length !== 1) return sample;
  const only = sample[keys[0] as string];
  return isJsonObject(only) ? only : sample;
}

/**
 * Synthesizes one environment from an agent-side and a user-side tool document (and their
 * sample states): both sides' tools over one state, the user's tools listed in
 * `spec.metadata.userTools`. Returns located issues (`E_DUAL_CONTROL`) for a tool name both
 * documents use, or a top-level sample key both samples use; otherwise what
 * `synthesizeEnvironment` returns. Offline and deterministic, as `synthesizeEnvironment`.
 */
export function synthesizeDualControlEnvironment(agent: ToolDoc, user: ToolDoc, options: DualControlOptions): Result<DualControlSynthesis, Issue<EnvSynthIssueCode>> {
  const issues: Issue<EnvSynthIssueCode>[] = [];
  const agentNames = new Set(agent.tools.map((t) => t.name));
  for (const tool of user.tools) {
    if (agentNames.has(tool.name)) {
      issues.push({
        code: 'E_DUAL_CONTROL',
        message: `the user's tool "${tool.name}" has the name of one of the agent's tools: one side's tools must be told apart from the other's by name`,
        pointer: tool.source.pointer,
        ...(tool.source.file !== undefined ? { file: tool.source.file } : {}),
        ...(tool.source.line !== undefined ? { line: tool.source.line } : {}),
        ...(tool.source.column !== undefined ? { column: tool.source.column } : {}),
      });
    }
  }
  const { userSampleState, ...rest } = options;
  let sampleState = options.sampleState;
  if (userSampleState !== undefined) {
    const userSide = unwrapSingletonSample(userSampleState);
    const base = sampleState ?? {};
    for (const key of Object.keys(userSide)) {
      if (key in base) issues.push({ code: 'E_DUAL_CONTROL', message: `the user side's sample has a key "${key}" that the agent side's sample has too`, pointer: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
    sampleState = { ...base, ...userSide };
  }
  if (issues.length > 0) return err(issues);
  const toolDoc: ToolDoc = { ...agent, tools: [...agent.tools, ...user.tools] };
  const synthesis = synthesizeEnvironment(toolDoc, { ...rest, ...(sampleState !== undefined ? { sampleState } : {}) });
  if (!synthesis.ok) return synthesis;
  const userTools = user.tools.map((t) => t.name);
  const spec = { ...synthesis.value.spec, metadata: { ...synthesis.value.spec.metadata, userTools } };
  return ok({ ...synthesis.value, spec, userTools }, synthesis.warnings);
}
