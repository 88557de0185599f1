import type { JsonSchema, JsonValue, ToolSpec } from '@autoforge/core';
import { canonicalJson, createRng, digest } from '@autoforge/core';
import type { DependencyBinding, DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import type { ArgSource, Blueprint, BlueprintEdge, BlueprintNode, ReasoningNode, ReasoningOp, ToolNode, UserNode } from './blueprint.js';
import { DagBlueprintError } from './error.js';
import { splitAtIteration } from './path.js';
import { schemaAt, typeOf } from './schema-at.js';

/** Options of {@link mergeSequences}. */
export interface MergeSequencesOptions {
  /** Seed of every random choice (reasoning operations). Required. */
  seed: number | string;
  /** Operations a list-selecting binding may become, drawn uniformly. Default `['select', 'argmin', 'argmax']`. */
  listOps?: readonly ('select' | 'argmin' | 'argmax')[];
  /** Merge read tools that resolve the same entity from user facts by different keys. Default `true`. */
  mergeLookups?: boolean;
  /**
   * The tools with their output schemas (an `EnvironmentSpec`'s `tools`). When given, `argmin` and
   * `argmax` are drawn only for lists whose elements have a numeric field. Default: not used.
   */
  tools?: readonly ToolSpec[];
}

interface Candidate {
  source: ToolNode;
  binding: DependencyBinding;
  /** Bindings the source's edge gives the target (sources that give many are preferred). */
  edgeBindings: number;
  /** Position of the source in the blueprint (later is nearer). */
  order: number;
}

/**
 * Merges tool walks into one blueprint DAG. Tools become tool nodes in walk order; each required
 * parameter takes the best binding any earlier tool node offers (depgraph edges, best score first,
 * then the source that binds most of the target's parameters, then the nearest); a binding that
 * picks from a list (`orders[]`, `items[].item_id`, `variants.*.item_id`) goes through a reasoning
 * node (select, argmin or argmax over the list's elements, shared by every parameter reading the
 * same list); parameters nothing binds become user nodes. The same tool with the same sources is
 * one node, and two read tools that resolve the same entity from user facts (`find_user_id_by_email`,
 * `find_user_id_by_name_zip`) are one node. Deterministic for a seed.
 *
 * Throws `DagBlueprintError` `E_UNKNOWN_TOOL` for a walk tool not in the graph, `E_OPTIONS` for bad options.
 */
export function mergeSequences(
  sequences: readonly ToolSequence[],
  graph: DependencyGraph,
  options: MergeSequencesOptions,
): Blueprint {
  if (options === undefined || (typeof options.seed !== 'number' && typeof options.seed !== 'string')) {
    throw new DagBlueprintError('E_OPTIONS', 'dag-blueprint: mergeSequences: `seed` must be a number or a string');
  }
  const listOps = options.listOps ?? ['select', 'argmin', 'argmax'];
  if (listOps.length === 0) throw new DagBlueprintError('E_OPTIONS', 'dag-blueprint: mergeSequences: `listOps` is empty');
  const mergeLookups = options.mergeLookups ?? true;
  const rng = createRng(options.seed, 'merge');
  const toolByName = new Map((options.tools ?? []).map((t) => [t.name, t]));

  const nodes: BlueprintNode[] = [];
  const edges: BlueprintEdge[] = [];
  const toolNodes: ToolNode[] = [];
  const bySignature = new Map<string, ToolNode>();
  const byEntity = new Map<string, ToolNode>();
  const reasoningByList = new Map<string, ReasoningNode>();
  const readFacts = new Map<string, UserNode>();
  const usedFacts = new Set<string>();
  const idCount = new Map<string, number>();
  const newId = (base: string): string => {
    const n = (idCount.get(base) ?? 0) + 1;
    idCount.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };

  for (const sequence of sequences) {
    for (const tool of sequence.tools) {
      if (!graph.hasNode(tool)) throw new DagBlueprintError('E_UNKNOWN_TOOL', `dag-blueprint: mergeSequences: tool "${tool}" is not in the graph`);
      const attrs = graph.getNodeAttributes(tool);

      // Best binding per required parameter, over every earlier tool node.
      const candidates: Candidate[] = [];
      toolNodes.forEach((source, order) => {
        if (!graph.hasEdge(source.tool, tool)) return;
        const edge = graph.getEdgeAttributes(source.tool, tool);
        for (const binding of edge.bindings) {
          if (!attrs.required.includes(binding.parameter)) continue;
          const split = splitAtIteration(binding.outputPath);
          if (split && splitAtIteration(split.rest)) continue; // lists of lists: no single selection
          candidates.push({ source, binding, edgeBindings: edge.bindings.length, order });
        }
      });
      candidates.sort(
        (a, b) => b.binding.score - a.binding.score || b.edgeBindings - a.edgeBindings || b.order - a.order,
      );
      const chosen = new Map<string, Candidate>();
      const used = new Set<string>();
      for (const c of candidates) {
        const key = `${c.source.id}\u0000${c.binding.outputPath}`;
        if (chosen.has(c.binding.parameter) || used.has(key)) continue;
        chosen.set(c.binding.parameter, c);
        used.add(key);
      }

      const args: Record<string, ArgSource> = {};
      const plannedUser: string[] = [];
      for (const parameter of attrs.required) {
        const c = chosen.get(parameter);
        if (!c) {
          plannedUser.push(parameter);
          continue;
        }
        const split = splitAtIteration(c.binding.outputPath);
        if (!split) {
          args[parameter] = { from: c.source.id, path: c.binding.outputPath };
          continue;
        }
        const listKey = `${c.source.id}\u0000${split.list}`;
        let reasoning = reasoningByList.get(listKey);
        if (!reasoning) {
          const via = split.rest === '$' ? lookupTool(graph, parameter) : undefined;
          // Ids looked up one by one are told apart by a predicate; extremes need numeric fields.
          const numeric = via === undefined && hasNumericField(toolByName.get(c.source.tool)?.outputSchema, split.list);
          const ops = listOps.filter((o) => o === 'select' || numeric !== false);
          const op: ReasoningOp = rng.pick(ops.length > 0 ? ops : listOps);
          reasoning = {
            kind: 'reasoning',
            id: newId(`choose:${split.list.replace(/\[\]$|\.\*$/, '') || 'item'}`),
            op,
            input: { from: c.source.id, path: split.list },
            params: via ? { via: { tool: via, parameter: bareParameter(parameter) } } : {},
          };
          reasoningByList.set(listKey, reasoning);
          nodes.push(reasoning);
          edges.push({ from: c.source.id, to: reasoning.id, parameter: 'input' });
        }
        args[parameter] = { from: reasoning.id, path: split.rest };
      }

      // A read tool fed only by user facts that resolves an entity already resolved: one node.
      const entity = mergeLookups && attrs.access === 'read' && Object.keys(args).length === 0 ? resolvedEntity(graph, tool) : undefined;
      if (entity && byEntity.has(entity)) continue;

      const userNodes: UserNode[] = [];
      const userParams = new Map<UserNode, string>();
      for (const parameter of plannedUser) {
        let node = attrs.access === 'read' ? readFacts.get(parameter) : undefined;
        if (!node) {
          let fact = parameter;
          for (let k = 2; usedFacts.has(fact) || userNodes.some((u) => u.fact === fact); k++) fact = `${parameter}_${k}`;
          node = {
            kind: 'user',
            id: `user:${fact}`,
            fact,
            description: attrs.access === 'read' ? `your ${words(parameter)}` : `the ${words(parameter)} for ${words(tool)}`,
          };
          userNodes.push(node);
          userParams.set(node, parameter);
        }
        args[parameter] = { user: node.fact };
      }

      const signature = `${tool}\u0000${canonicalJson(args)}`;
      if (bySignature.has(signature)) continue; // the same call again: one node
      for (const u of userNodes) {
        nodes.push(u);
        usedFacts.add(u.fact);
        if (attrs.access === 'read') readFacts.set(userParams.get(u) ?? u.fact, u);
      }
      const node: ToolNode = { kind: 'tool', id: newId(tool), tool, access: attrs.access, args };
      bySignature.set(signature, node);
      if (entity) byEntity.set(entity, node);
      toolNodes.push(node);
      nodes.push(node);
      for (const [parameter, source] of Object.entries(args)) {
        const from = 'from' in source ? source.from : 'user' in source ? `user:${source.user}` : undefined;
        if (from !== undefined) edges.push({ from, to: node.id, parameter });
      }
    }
  }
  const body = { nodes, edges };
  return { id: `bp-${digest(body as unknown as JsonValue).slice(0, 12)}`, ...body };
}

/** Whether the elements at a list path have a numeric field; undefined when the schema is unknown. */
function hasNumericField(schema: JsonSchema | undefined, listPath: string): boolean | undefined {
  if (schema === undefined) return undefined;
  const element = schemaAt(schema, listPath);
  if (element === undefined) return undefined;
  const numeric = (s: JsonSchema | undefined, depth: number): boolean => {
    const t = typeOf(s);
    if (t === 'number' || t === 'integer') return true;
    if (t !== 'object' || depth === 0 || typeof s !== 'object') return false;
    const props = (s as { properties?: Record<string, JsonSchema> }).properties ?? {};
    return Object.values(props).some((p) => numeric(p, depth - 1));
  };
  return numeric(element, 3);
}

/** `item_ids` → `item_id`: a list parameter fed element by element names one element. */
function bareParameter(parameter: string): string {
  return parameter.endsWith('_ids') ? parameter.slice(0, -1) : parameter;
}

/** A read tool whose only required parameter is (the singular of) `parameter`: `get_order_details` for `order_id`. */
function lookupTool(graph: DependencyGraph, parameter: string): string | undefined {
  const name = bareParameter(parameter);
  let found: string | undefined;
  graph.forEachNode((node, a) => {
    if (found === undefined && a.access === 'read' && a.required.length === 1 && a.required[0] === name) found = node;
  });
  return found;
}

/** The parameters a read tool's bare output supplies (`user_id` for `find_user_id_by_email`), as one key. */
function resolvedEntity(graph: DependencyGraph, tool: string): string | undefined {
  const supplied = new Set<string>();
  graph.forEachOutEdge(tool, (_e, a) => {
    for (const b of a.bindings) if (b.outputPath === '$') supplied.add(b.parameter);
  });
  return supplied.size > 0 ? [...supplied].sort().join(',') : undefined;
}

function words(name: string): string {
  return name.replace(/_/g, ' ');
}
