import type { JsonObject, Seed } from '@autoforge/core';
import type { EnvironmentSpec } from '@autoforge/env-runtime';
import type { OperationPattern } from './plan.js';
import type { Relation } from './state-model.js';

/** Options of {@link synthesizeEnvironment}. */
export interface SynthesizeOptions {
  /** The seed of every random choice (generated state, the environment's id seed). Required. */
  seed: Seed;
  /**
   * A sample state (a benchmark's database): its collections become the state schema and the
   * seed state. Top-level objects of records are collections; arrays of records with a unique
   * id field are converted to collections keyed by it. Default: none, a state is generated.
   */
  sampleState?: JsonObject;
  /** Records per collection of a generated state (ignored with `sampleState`). Default 20. */
  size?: number;
  /** The spec's `id`. Default `synth-` + 12 hex digits of a digest of the inputs. */
  id?: string;
  /** The spec's `name`. Default the ToolDoc's `info.title`, else `Synthesized environment`. */
  name?: string;
  /** The spec's clock. Default `{ start: '2025-01-01T00:00:00.000Z', tickMs: 0 }`. */
  clock?: { start: string; tickMs?: number };
  /** The agent policy (markdown) to carry in the spec. Default none. */
  policy?: string;
  /**
   * No model: `synthesizeEnvironment` is offline. To synthesize with a `ChatModel`, call
   * `synthesizeEnvironmentWithLlm` from `@autoforge/env-synth/llm` (see `LlmSynthesizeOptions`).
   */
  model?: undefined;
}

/** One collection of the synthesized state, as reported. */
export interface ReportedCollection {
  name: string;
  /** The singular noun tools use for it. */
  entity: string;
  records: number;
  /** The record field holding the id, when records carry it. */
  keyField?: string;
  /**
   * `sample`: read from the sample state; `tools`: inferred from the tool documentation;
   * `llm`: proposed by the model (LLM synthesis).
   */
  origin: 'sample' | 'tools' | 'llm';
  /** The id format, written as a pattern (`#W<digit×7>`). */
  idFormat?: string;
}

/** One tool in the coverage report: its family and pattern, and whether it passed its self-check. */
export interface ToolCoverage {
  tool: string;
  /** The behaviour family (`records` for keyed records, the default). */
  family: string;
  /** The operation pattern (`lookup`, `file-tree:mkdir`, `stand-in` after a failed check). */
  pattern: string;
  /** True when it passed its behavioural self-check on the seed state. */
  works: boolean;
  /** Why it does not work (`sandboxed`: LLM-written code, checked by the LLM path). */
  reason?: string;
}

/** What the synthesizer did, for people and for tests. */
export interface SynthesisReport {
  /** `sample`: the state came from `sampleState`; `generated`: it was generated. */
  mode: 'sample' | 'generated';
  collections: ReportedCollection[];
  /** Top-level state values that are not collections. */
  values: string[];
  /** Tool names per operation pattern (every pattern listed, possibly empty). */
  patterns: Record<OperationPattern, string[]>;
  /**
   * Every tool, in document order, with its pattern (a keyed-records pattern such as `lookup`, or
   * `family:operation` for a behaviour family's tool) and the collection it works on.
   */
  tools: { tool: string; pattern: OperationPattern | `${string}:${string}`; collection?: string }[];
  /** Tools no pattern fits, with the reason; they got a read-only implementation. */
  unclassified: { tool: string; reason: string }[];
  /** References between collections. */
  relations: Relation[];
  /** Fields added to record schemas because tools write them (`orders.cancel_reason`). */
  addedFields: string[];
  /** Conversions and other remarks. */
  notes: string[];
  /** Every tool: family, pattern, works or not (offline synthesis). */
  coverage?: ToolCoverage[];
  /** Tools that failed their self-check and answer every call with an error (offline synthesis). */
  standIns?: string[];
  /** The behaviour families that claimed tools, and why (offline synthesis). */
  families?: { family: string; why: string; tools: string[]; stateKeys: string[]; sampleKeys: string[] }[];
}

/** The synthesized environment and the report. */
export interface SynthesisResult {
  spec: EnvironmentSpec;
  report: SynthesisReport;
}
