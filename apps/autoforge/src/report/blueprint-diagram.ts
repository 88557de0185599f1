import type { JsonValue } from '@autoforge/core';
import { isJsonObject } from '@autoforge/core';
import type { ArgSource, Blueprint, BlueprintNode, ReasoningParams } from '@autoforge/dag-blueprint';
import type { DiagramNode } from './layered-diagram.js';
import { layeredDiagram } from './layered-diagram.js';

/** Node colours of blueprints, also used by their key in the report. */
export const BLUEPRINT_COLORS = {
  tool: { fill: '#e3f0fb', stroke: '#0072b2' },
  write: { fill: '#fde8dc', stroke: '#d55e00' },
  reasoning: { fill: '#f7e6f1', stroke: '#a23b7d' },
  user: { fill: '#ddf3ea', stroke: '#007a5a' },
} as const;

/** A blueprint as `blueprints.jsonl` stores it (`autoforge synth` adds a `status`). */
export type StoredBlueprint = Blueprint & { status?: string };

const short = (value: JsonValue | undefined): string => {
  const text = JSON.stringify(value) ?? '';
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
};

/** One line saying what a reasoning node computes (`argmin by price`, `select status = "x"`). */
export function reasoningSummary(op: string, params: ReasoningParams): string {
  const parts: string[] = [];
  if (params.field !== undefined) parts.push(`${params.field} = ${params.value === undefined ? '?' : short(params.value)}`);
  if (params.key !== undefined) parts.push(`by ${params.key}`);
  if (params.operator !== undefined) parts.push(`${params.operator} ${params.operand === undefined ? '?' : short(params.operand)}`);
  if (params.via) parts.push(`via ${params.via.tool}`);
  return parts.length > 0 ? parts.join(', ') : op;
}

function sourceText(source: ArgSource): string {
  if ('from' in source) return `${source.from}.${source.path}`;
  if ('user' in source) return `user: ${source.user}`;
  return `const ${short(source.const)}`;
}

function node(n: BlueprintNode, resolved: Readonly<Record<string, ReasoningParams>>): DiagramNode {
  switch (n.kind) {
    case 'tool': {
      const args = Object.entries(n.args).map(([p, s]) => `${p} ← ${sourceText(s)}`);
      return {
        id: n.id,
        label: n.tool,
        kind: n.access === 'write' ? 'tool-write' : 'tool',
        title: [`tool ${n.tool} (${n.access})`, ...args].join('\n'),
        ...(n.access === 'write' ? BLUEPRINT_COLORS.write : BLUEPRINT_COLORS.tool),
        emphasis: n.access === 'write',
        ...(n.access === 'write' ? { badge: 'W' } : {}),
      };
    }
    case 'reasoning': {
      const extra: unknown = resolved[n.id];
      const params: ReasoningParams = { ...n.params, ...(isJsonObject(extra) ? (extra as ReasoningParams) : {}) };
      const summary = reasoningSummary(n.op, params);
      return {
        id: n.id,
        label: n.op,
        ...(summary === n.op ? {} : { sublabel: summary }),
        kind: 'reasoning',
        title: `reasoning ${n.op} over ${n.input.from}.${n.input.path}\n${JSON.stringify(params)}`,
        ...BLUEPRINT_COLORS.reasoning,
        shape: 'hexagon',
      };
    }
    default:
      return {
        id: n.id,
        label: `user: ${n.fact}`,
        kind: 'user',
        title: `the user knows ${n.description}`,
        ...BLUEPRINT_COLORS.user,
        shape: 'pill',
      };
  }
}

/** Options of {@link blueprintDiagram}. */
export interface BlueprintDiagramOptions {
  /** Prefix of the ids inside the `<svg>`; unique per page. */
  idPrefix: string;
  /**
   * Reasoning criteria chosen when a task was compiled from the blueprint, by node id (a task's
   * `metadata.reasoning`); they complete the blueprint's own (often unset) parameters.
   */
  reasoning?: Readonly<Record<string, ReasoningParams>>;
}

/**
 * A blueprint as a layered `<svg>` (top to bottom): tool nodes blue (writes orange, `W`
 * badge), reasoning nodes purple hexagons with their criterion, user facts green pills;
 * each edge's parameter shows on hover.
 */
export function blueprintDiagram(blueprint: Blueprint, options: BlueprintDiagramOptions): string {
  const resolved = options.reasoning ?? {};
  return layeredDiagram(
    blueprint.nodes.map((n) => node(n, resolved)),
    blueprint.edges.map((e) => ({ from: e.from, to: e.to, title: e.parameter })),
    { title: `Blueprint ${blueprint.id}`, idPrefix: options.idPrefix, rankdir: 'TB', nodesep: 18, ranksep: 34 },
  );
}

/**
 * The blueprints worth drawing: accepted ones (all, if none is marked accepted) with reasoning
 * nodes first, then the larger ones (up to 16 nodes, beyond which a drawing stops helping), then by id.
 */
export function pickBlueprints(blueprints: readonly StoredBlueprint[], count: number): StoredBlueprint[] {
  const accepted = blueprints.filter((b) => b.status === undefined || b.status === 'accepted');
  const pool = accepted.length > 0 ? accepted : [...blueprints];
  const reasoning = (b: Blueprint): number => b.nodes.filter((n) => n.kind === 'reasoning').length;
  const size = (b: Blueprint): number => (b.nodes.length > 16 ? 0 : b.nodes.length);
  return pool
    .map((b) => ({ b, r: reasoning(b) > 0 ? 1 : 0, s: size(b) }))
    .sort((x, y) => y.r - x.r || y.s - x.s || (x.b.id < y.b.id ? -1 : x.b.id > y.b.id ? 1 : 0))
    .slice(0, count)
    .map((x) => x.b);
}
