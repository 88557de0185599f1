import type { Issue } from '@autoforge/core';
import type { ChatModel, CompleteJsonOptions, JsonIssueCode } from '@autoforge/llm';
import { completeJson } from '@autoforge/llm';
import type { AnalyzedTool, BuildDependencyGraphOptions, DependencyTool } from '../build-dependency-graph.js';
import {
  addDependencyEdge,
  analyzeTools,
  edgeScore,
  emptyGraph,
  matchEdges,
  parameterName,
  refreshStarts,
  resolveBuildOptions,
} from '../build-dependency-graph.js';
import type { DependencyBinding, DependencyEdgeAttributes, DependencyGraph } from '../dependency-graph.js';
import { compare } from '../dependency-graph.js';
import type { DepGraphIssueCode } from '../error.js';
import { DepGraphError } from '../error.js';
import type { SchemaSlot } from '../schema-slots.js';
import type { JudgeCandidate, JudgeReply, JudgeToolSummary } from './judge-prompt.js';
import { JUDGE_SCHEMA, JUDGE_SYSTEM_PROMPT, judgePrompt } from './judge-prompt.js';

/** Options of {@link buildDependencyGraphWithModel}: those of `buildDependencyGraph`, and these. */
export interface BuildWithModelOptions extends BuildDependencyGraphOptions {
  /** The model that judges candidate edges. Required. */
  model: ChatModel;
  /**
   * Pairs whose bindings score at least this are candidates the model judges; pairs between
   * this and `minScore` become edges only if the model confirms them. Default: `0.3`.
   */
  candidateMinScore?: number;
  /** At most this many candidates are judged, weakest first; the rest keep the matcher's decision. Default: `200`. */
  maxCandidates?: number;
  /** Candidates per request. Default: `30`. */
  batchSize?: number;
  /** At most this many judging requests (each may repair its JSON up to `maxRepairs` times). Default: `10`. */
  maxRequests?: number;
  /** At most this many edges the model may add, in all (0 forbids adding). Default: `20`. */
  maxAdded?: number;
  /** The score of a binding the model added (when the matcher scored it lower or not at all). Default: `0.6`. */
  addedBindingScore?: number;
  /** Characters of each tool description shown to the model. Default: `300`. */
  descriptionChars?: number;
  /** Output and parameter paths shown per tool. Default: `60`. */
  maxPathsPerTool?: number;
  /** Passed to `completeJson` (`temperature`, `maxRepairs`, `signal`, …). Default: `{ temperature: 0 }`. */
  completeOptions?: CompleteJsonOptions;
}

/** What the model decided. */
export interface JudgeReport {
  /** Judging requests sent (repairs not counted). */
  requests: number;
  /** Candidate edges (matcher pairs at `candidateMinScore`). */
  candidates: number;
  /** Candidates the model confirmed / rejected / did not answer (those keep the matcher's decision). */
  confirmed: string[];
  rejected: string[];
  unjudged: string[];
  /** Edges the model added (`from->to`). */
  added: string[];
  /** Replies or parts of replies that were unusable: invalid JSON after repairs, unknown tools or paths. */
  issues: Issue<JsonIssueCode | DepGraphIssueCode>[];
}

function typeText(slot: SchemaSlot): string {
  const base = slot.type ?? 'any';
  return slot.path.endsWith('[]') ? `${base}[]` : base;
}

function summarize(a: AnalyzedTool, descriptionChars: number, maxPaths: number): JudgeToolSummary {
  const description = typeof a.tool.description === 'string' ? a.tool.description : '';
  const params = new Map<string, string>();
  for (const p of a.parameters) if (!params.has(parameterName(p.slot))) params.set(parameterName(p.slot), typeText(p.slot));
  return {
    name: a.node.name,
    description: description.length > descriptionChars ? `${description.slice(0, descriptionChars)}…` : description,
    access: a.node.access,
    parameters: [...params].slice(0, maxPaths).map(([path, type]) => `${path}: ${type}`),
    outputs: a.outputs.slice(0, maxPaths).map((o) => `${o.slot.path}: ${o.slot.type ?? 'any'}`),
  };
}

function check(name: string, value: unknown, ok: boolean, want: string): void {
  if (!ok) throw new DepGraphError('E_OPTIONS', `depgraph: buildDependencyGraphWithModel: \`${name}\` must be ${want}, got ${String(value)}`);
}

const keyOf = (from: string, to: string): string => `${from}->${to}`;

/**
 * Builds the dependency graph as `buildDependencyGraph` does, then lets a model judge the
 * candidate edges: the matcher's pairs down to `candidateMinScore` (below its `minScore`) go to
 * the model in bounded batches through `completeJson` with the schema
 * `{ edges: [{ from, to, bindings: [{ output, parameter }], confirmed, reason }] }`. Confirmed
 * candidates stay (or become) edges, rejected ones go, unanswered ones keep the matcher's
 * decision; the model may add up to `maxAdded` edges whose bindings name real output paths and
 * parameters (anything else is reported in `issues`, not added). Judged edges record
 * `judged: { confirmed, reason }`; added ones have origin `llm`.
 *
 * @throws DepGraphError `E_OPTIONS` for bad options (no model, bad bounds) and what
 *   `buildDependencyGraph` throws; the model's transport errors (`LlmError`) pass through.
 * @example
 * const model = createOpenAIChatModel({ baseURL: process.env.OPENAI_BASE_URL, model: 'qwen3-30b-a3b' });
 * const { graph, report } = await buildDependencyGraphWithModel(spec.tools, { model });
 * console.log(report.rejected, report.added);
 */
export async function buildDependencyGraphWithModel(
  tools: readonly DependencyTool[],
  options: BuildWithModelOptions,
): Promise<{ graph: DependencyGraph; report: JudgeReport }> {
  check('model', options?.model, typeof options?.model?.complete === 'function', 'a ChatModel');
  const resolved = resolveBuildOptions(options, 'buildDependencyGraphWithModel');
  const candidateMinScore = options.candidateMinScore ?? Math.min(0.3, resolved.minScore);
  const maxCandidates = options.maxCandidates ?? 200;
  const batchSize = options.batchSize ?? 30;
  const maxRequests = options.maxRequests ?? 10;
  const maxAdded = options.maxAdded ?? 20;
  const addedBindingScore = options.addedBindingScore ?? 0.6;
  const descriptionChars = options.descriptionChars ?? 300;
  const maxPaths = options.maxPathsPerTool ?? 60;
  check('candidateMinScore', candidateMinScore, typeof candidateMinScore === 'number' && candidateMinScore >= 0 && candidateMinScore <= resolved.minScore, `a number in [0, minScore (${resolved.minScore})]`);
  for (const [name, value, min] of [
    ['maxCandidates', maxCandidates, 0],
    ['batchSize', batchSize, 1],
    ['maxRequests', maxRequests, 0],
    ['maxAdded', maxAdded, 0],
    ['descriptionChars', descriptionChars, 0],
    ['maxPathsPerTool', maxPaths, 1],
  ] as const) {
    check(name, value, Number.isInteger(value) && value >= min, `an integer >= ${min}`);
  }
  check('addedBindingScore', addedBindingScore, addedBindingScore > 0 && addedBindingScore <= 1, 'a number in (0, 1]');

  const analyzed = analyzeTools(tools, resolved, 'buildDependencyGraphWithModel');
  const byName = new Map(analyzed.map((a) => [a.node.name, a]));
  const candidates = matchEdges(analyzed, resolved, candidateMinScore);
  const byKey = new Map(candidates.map((c) => [keyOf(c.from, c.to), c]));
  // The weakest first: the matcher is least sure of them.
  const toJudge = [...candidates].sort((a, b) => a.score - b.score || compare(a.from, b.from) || compare(a.to, b.to)).slice(0, maxCandidates);
  const summaries = analyzed.map((a) => summarize(a, descriptionChars, maxPaths));

  const report: JudgeReport = { requests: 0, candidates: candidates.length, confirmed: [], rejected: [], unjudged: [], added: [], issues: [] };
  const verdicts = new Map<string, { confirmed: boolean; reason?: string; bindings: { output: string; parameter: string }[] }>();
  const added = new Map<string, DependencyEdgeAttributes>();
  const batches: DependencyEdgeAttributes[][] = [];
  for (let i = 0; i < toJudge.length; i += batchSize) batches.push(toJudge.slice(i, i + batchSize));
  if (batches.length === 0 && maxAdded > 0) batches.push([]);

  for (const batch of batches.slice(0, maxRequests)) {
    const shown: JudgeCandidate[] = batch.map((c) => ({
      from: c.from,
      to: c.to,
      bindings: c.bindings.map((b) => ({ output: b.outputPath, parameter: b.parameter })),
    }));
    const room = maxAdded - added.size;
    report.requests++;
    const result = await completeJson<JudgeReply>(
      options.model,
      [
        { role: 'system', content: JUDGE_SYSTEM_PROMPT },
        { role: 'user', content: judgePrompt(summaries, shown, room) },
      ],
      JUDGE_SCHEMA,
      { temperature: 0, ...options.completeOptions },
    );
    if (!result.ok) {
      report.issues.push(...result.issues.map((issue) => ({ ...issue, message: `request ${report.requests}: ${issue.message}` })));
      continue;
    }
    const inBatch = new Set(batch.map((c) => keyOf(c.from, c.to)));
    result.value.edges.forEach((answer, index) => {
      const key = keyOf(answer.from, answer.to);
      const pointer = `/edges/${index}`;
      if (inBatch.has(key)) {
        if (!verdicts.has(key)) {
          verdicts.set(key, { confirmed: answer.confirmed, bindings: answer.bindings, ...(answer.reason ? { reason: answer.reason } : {}) });
        }
        return;
      }
      if (!answer.confirmed || byKey.has(key) || added.has(key)) return;
      if (added.size >= maxAdded) {
        report.issues.push({ code: 'W_JUDGE', message: `request ${report.requests}: ${pointer}: ${key} not added: \`maxAdded\` (${maxAdded}) reached`, pointer, severity: 'warning' });
        return;
      }
      const edge = addedEdge(answer, byName, resolved.selfLoops, addedBindingScore);
      if (typeof edge === 'string') {
        report.issues.push({ code: 'W_JUDGE', message: `request ${report.requests}: ${pointer}: ${edge}`, pointer, severity: 'warning' });
        return;
      }
      added.set(key, edge);
    });
  }

  const graph = emptyGraph(resolved);
  for (const a of analyzed) graph.addNode(a.node.name, { ...a.node });
  const edges: DependencyEdgeAttributes[] = [];
  for (const candidate of candidates) {
    const key = keyOf(candidate.from, candidate.to);
    const verdict = verdicts.get(key);
    if (!verdict) {
      if (toJudge.includes(candidate)) report.unjudged.push(key);
      const bindings = candidate.bindings.filter((b) => b.score >= resolved.minScore);
      if (bindings.length > 0) edges.push({ ...candidate, bindings, score: edgeScore(bindings, byName.get(candidate.to)?.node.required ?? []) });
      continue;
    }
    const judged = { confirmed: verdict.confirmed, ...(verdict.reason ? { reason: verdict.reason } : {}) };
    if (!verdict.confirmed) {
      report.rejected.push(key);
      continue;
    }
    report.confirmed.push(key);
    const agreed = candidate.bindings.filter((b) => verdict.bindings.some((v) => v.output === b.outputPath && v.parameter === b.parameter));
    const bindings = agreed.length > 0 ? agreed : candidate.bindings;
    edges.push({ ...candidate, bindings, score: edgeScore(bindings, byName.get(candidate.to)?.node.required ?? []), judged });
  }
  for (const [key, edge] of added) {
    report.added.push(key);
    edges.push(edge);
  }
  edges.sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  for (const edge of edges) addDependencyEdge(graph, edge);
  refreshStarts(graph);
  return { graph, report };
}

/** An edge the model added, or why it cannot be. */
function addedEdge(
  answer: JudgeReply['edges'][number],
  byName: ReadonlyMap<string, AnalyzedTool>,
  selfLoops: boolean,
  bindingScore: number,
): DependencyEdgeAttributes | string {
  const from = byName.get(answer.from);
  const to = byName.get(answer.to);
  const key = keyOf(answer.from, answer.to);
  if (!from || !to) return `${key} not added: unknown tool "${from ? answer.to : answer.from}"`;
  if (from === to && !selfLoops) return `${key} not added: self-loops are off`;
  if (answer.bindings.length === 0) return `${key} not added: no bindings`;
  const outputs = new Map(from.outputs.map((o) => [o.slot.path, o]));
  const params = new Set(to.parameters.map((p) => parameterName(p.slot)));
  const bindings: DependencyBinding[] = [];
  for (const b of answer.bindings) {
    if (!outputs.has(b.output)) return `${key} not added: "${b.output}" is not an output path of ${answer.from}`;
    if (!params.has(b.parameter)) return `${key} not added: "${b.parameter}" is not a parameter of ${answer.to}`;
    if (bindings.some((x) => x.outputPath === b.output && x.parameter === b.parameter)) continue;
    bindings.push({ outputPath: b.output, parameter: b.parameter, score: bindingScore, reason: `added by the model: ${answer.reason ?? 'no reason given'}` });
  }
  return {
    from: answer.from,
    to: answer.to,
    score: edgeScore(bindings, to.node.required),
    bindings,
    origin: 'llm',
    judged: { confirmed: true, ...(answer.reason ? { reason: answer.reason } : {}) },
  };
}
