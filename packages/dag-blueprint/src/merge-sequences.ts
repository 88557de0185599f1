import type { JsonSchema, JsonValue, Rng } from '@autoforge/core';
import { canonicalJson, createRng, digest, isIdParam, singularize, splitWords } from '@autoforge/core';
import type { DependencyBinding, DependencyGraph, ToolSequence } from '@autoforge/depgraph';
import type { ArgSource, Blueprint, BlueprintEdge, BlueprintNode, ReasoningNode, ReasoningOp, ToolNode, UserNode } from './blueprint.js';
import { opensContext } from './context-tools.js';
import type { EffectfulTool } from './effect-facts.js';
import { DagBlueprintError } from './error.js';
import { pathIterates, splitAtIteration } from './path.js';
import { numericPaths, pathIsReliable, schemaAt, typeOf } from './schema-at.js';
import { itemFieldSchema } from './item-fields.js';

/** Options of {@link mergeSequences}. */
export interface MergeSequencesOptions {
  /** Seed of every random choice (reasoning operations). Required. */
  seed: number | string;
  /** Operations a list-selecting binding may become, drawn uniformly. Default `['select', 'argmin', 'argmax']`. */
  listOps?: readonly ('select' | 'argmin' | 'argmax')[];
  /**
   * Operations added beyond selections, each where the data allows it (see below). Default
   * `['count', 'sum', 'compare', 'arithmetic']`; `[]` adds none.
   */
  extraOps?: readonly ('count' | 'sum' | 'compare' | 'arithmetic')[];
  /** Merge read tools that resolve the same entity from user facts by different keys. Default `true`. */
  mergeLookups?: boolean;
  /**
   * The tools with their output schemas (an `EnvironmentSpec`'s `tools`). When given, bindings
   * from fields the schema marks optional are not used, `argmin`/`argmax` are drawn only for
   * lists whose elements all have a numeric field, and the extra operations can find numbers.
   * Default: not used (and no extra operations).
   */
  tools?: readonly EffectfulTool[];
}

interface Candidate {
  source: ToolNode;
  binding: DependencyBinding;
  /** Bindings the source's edge gives the target (sources that give many are preferred). */
  edgeBindings: number;
  /** Position of the source in the blueprint (later is nearer). */
  order: number;
}

// How often an extra operation is added where the data allows it.
const P_AGGREGATE = 0.5;
const P_COMPARE = 0.35;
const P_ARITHMETIC = 0.5;

/** Qualifiers that mark the new value of a parameter (`new_item_ids` vs `item_ids`). */
const QUALIFIED = /^(new|target|to|replacement|updated)_(.+)$/;

/**
 * Merges tool walks into one blueprint DAG. Tools become tool nodes in walk order; each required
 * parameter takes the best binding any earlier tool node offers (depgraph edges, best score first,
 * then the source that binds most of the target's parameters, then the nearest); a binding that
 * picks from a list (`orders[]`, `items[].item_id`, `variants.*.item_id`) goes through a reasoning
 * node (select, argmin or argmax over the list's elements, shared by every parameter reading the
 * same list of the same node); parameters nothing binds become user nodes. Bindings from fields
 * the output schema marks optional are not used (they may be missing), and a list that could feed
 * both `item_ids` and `new_item_ids` feeds the new one. The same tool with the same sources is one
 * node, and two read tools that resolve the same entity from user facts (`find_member_id_by_email`,
 * `find_member_id_by_name_city`) are one node. With tools that declare effects, a sign-in goes
 * before the first call that requires its session and its output (a token) feeds such calls, and
 * what a write creates is never bound from an earlier read.
 *
 * With `tools`, where the data allows, it adds (each with a fixed chance, from the seed): to a
 * read-only blueprint a final `count` or `sum` over a list of the last call (the task's answer);
 * to a blueprint whose one write nothing reads, a `compare` over a number read before it that
 * the write is conditioned on (`when`); for a numeric fact a write takes from the user, an
 * `arithmetic` step over a number read before it. Deterministic for a seed.
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
  const extraOps = new Set(options.extraOps ?? ['count', 'sum', 'compare', 'arithmetic']);
  const mergeLookups = options.mergeLookups ?? true;
  const rng = createRng(options.seed, 'merge');
  const toolByName = new Map<string, EffectfulTool>((options.tools ?? []).map((t) => [t.name, t]));
  const outputSchema = (tool: string): JsonSchema | undefined => toolByName.get(tool)?.outputSchema;

  const nodes: BlueprintNode[] = [];
  const edges: BlueprintEdge[] = [];
  const toolNodes: ToolNode[] = [];
  const bySignature = new Map<string, ToolNode>();
  const byEntity = new Map<string, ToolNode>();
  const reasoningByList = new Map<string, ReasoningNode>();
  const readFacts = new Map<string, UserNode>();
  const usedFacts = new Set<string>();
  const usedDescriptions = new Set<string>();
  // The sources writes read (`node` or `node\0path`): another write does not act on the same record.
  const writeSources = new Set<string>();
  const afterWrite = new Set<string>();
  const idCount = new Map<string, number>();
  const newId = (base: string): string => {
    const n = (idCount.get(base) ?? 0) + 1;
    idCount.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };

  const established = new Set<string>();
  for (const sequence of sequences) {
    for (const tool of withPrerequisites(sequence.tools, graph, toolByName, established)) {
      if (!graph.hasNode(tool)) throw new DagBlueprintError('E_UNKNOWN_TOOL', `dag-blueprint: mergeSequences: tool "${tool}" is not in the graph`);
      const attrs = graph.getNodeAttributes(tool);
      // The parameters a call needs: the required ones, and those naming what a write acts on
      // (`echo`'s optional file: without it nothing is written).
      const wanted = wantedParameters(attrs.required, toolByName.get(tool));

      // Best binding per required parameter, over every earlier tool node.
      const candidates: Candidate[] = [];
      toolNodes.forEach((source, order) => {
        if (!graph.hasEdge(source.tool, tool)) return;
        const edge = graph.getEdgeAttributes(source.tool, tool);
        for (const edgeBinding of edge.bindings) {
          // A field inside a list the call takes (`observations[].entityName`): bound as
          // `observations.entityName`, a scalar from a read, the rest of the list the user's.
          const nested = itemFieldKey(toolByName.get(tool), edgeBinding.parameter, wanted, edgeBinding.outputPath);
          if (!wanted.includes(edgeBinding.parameter) && nested === undefined) continue;
          const binding = nested === undefined ? edgeBinding : { ...edgeBinding, parameter: nested };
          const split = splitAtIteration(binding.outputPath);
          if (nested !== undefined) {
            // One value per item field: a scalar, or one element's scalar.
            const from = toolByName.get(source.tool);
            const element = split ? sourceSchema(from, split.list) : undefined;
            const t = typeOf(split ? (split.rest === '$' ? element : schemaAt(element, split.rest)) : sourceSchema(from, binding.outputPath));
            if (t !== 'string' && t !== 'integer' && t !== 'number') continue;
          }
          if (split && splitAtIteration(split.rest)) continue; // lists of lists: no single selection
          // An optional key may be missing; a record's own id is there in practice (a schema lists
          // `id` as optional where the server assigns it), and compiling runs the call anyway.
          const ownId = isIdParam(binding.parameter) && /^(\[\]\.)?id$|\.id$/.test(binding.outputPath);
          if (!binding.outputPath.startsWith('$input.') && !ownId && !pathIsReliable(outputSchema(source.tool), binding.outputPath)) continue;
          // A whole list does not feed one value (`item_ids` of a checkout for the `item_id` of another call).
          if (!split && typeOf(sourceSchema(toolByName.get(source.tool), binding.outputPath)) === 'array' && !acceptsList(toolByName.get(tool), binding.parameter)) continue;
          // Two writes on one record contradict each other (return it, then modify it as pending);
          // a write may act on what an earlier write created (create an order, then pay it).
          // Declared effects say which writes build on each other (`mkdir` makes the folder `cd` enters).
          // A sign-in's output (its token) feeds the calls that need its session.
          if (attrs.access === 'write' && source.access === 'write' && !isCreateLike(source.tool) && binding.effect === undefined && !opensContextFor(source.tool, tool, toolByName)) continue;
          // What a write creates is new: an earlier read's record is not it (`entities` of a tool that creates entities).
          if (attrs.access === 'write' && binding.effect === undefined && namesCreated(toolByName.get(tool), binding.parameter)) continue;
          // …nor on a record read back after an earlier write changed it.
          if (attrs.access === 'write' && actedOn(tool, binding.parameter) && afterWrite.has(source.id)) continue;
          // Nor may two writes act on the record one value names (modify it as pending, return it as delivered).
          if (attrs.access === 'write' && actedOn(tool, binding.parameter) && !splitAtIteration(binding.outputPath) && writeSources.has(`${source.id}\u0000${binding.outputPath}`)) continue;
          candidates.push({ source, binding, edgeBindings: edge.bindings.length, order });
        }
      });
      // A list that can feed both `item_ids` and `new_item_ids` feeds the new one.
      const qualifiedPaths = new Set<string>();
      for (const c of candidates) {
        const m = QUALIFIED.exec(c.binding.parameter);
        if (m && wanted.includes(m[2] as string)) qualifiedPaths.add(`${c.source.id}\u0000${c.binding.outputPath}\u0000${m[2]}`);
      }
      const usable = candidates.filter((c) => !qualifiedPaths.has(`${c.source.id}\u0000${c.binding.outputPath}\u0000${c.binding.parameter}`));
      usable.sort((a, b) => b.binding.score - a.binding.score || b.edgeBindings - a.edgeBindings || b.order - a.order);
      const chosen = new Map<string, Candidate>();
      const used = new Set<string>();
      for (const c of usable) {
        const key = `${c.source.id}\u0000${c.binding.outputPath}`;
        if (chosen.has(c.binding.parameter) || used.has(key)) continue;
        chosen.set(c.binding.parameter, c);
        used.add(key);
      }

      // A write does not set a field to what the record it acts on already holds there: a value
      // read back from the same field of the record whose id the same read gives (`tier` from
      // get_member_details, which also gives the member_id) is the user's to state instead.
      if (attrs.access === 'write') {
        for (const [parameter, c] of [...chosen]) {
          if (isIdParam(parameter) || splitAtIteration(c.binding.outputPath)) continue;
          const field = c.binding.outputPath.split('.').pop() ?? '';
          if (field !== parameter) continue;
          const sameRecord = [...chosen].some(([p, o]) => p !== parameter && isIdParam(p) && o.source === c.source && !splitAtIteration(o.binding.outputPath));
          if (sameRecord) chosen.delete(parameter);
        }
      }

      const args: Record<string, ArgSource> = {};
      const plannedUser: string[] = [];
      // The plain parameters, then the fields inside lists the user states (`observations.entityName`).
      const bound = [...wanted, ...[...chosen.keys()].filter((k) => !wanted.includes(k))];
      for (const parameter of bound) {
        const c = chosen.get(parameter);
        if (!c) {
          plannedUser.push(parameter);
          continue;
        }
        const holder = parameter.split('.')[0] as string;
        if (holder !== parameter && chosen.has(holder)) continue;
        const split = splitAtIteration(c.binding.outputPath);
        if (!split) {
          args[parameter] = { from: c.source.id, path: c.binding.outputPath };
          continue;
        }
        const listKey = `${c.source.id}\u0000${split.list}`;
        let reasoning = reasoningByList.get(listKey);
        // A second write chooses its own element of a list an earlier write chose from.
        if (reasoning && attrs.access === 'write' && actedOn(tool, parameter) && writeSources.has(reasoning.id)) reasoning = undefined;
        if (!reasoning) {
          // A listing of names (a directory's entries) is chosen from by name, not looked up one by one.
          const via = split.rest === '$' && c.binding.effect === undefined ? lookupTool(graph, parameter) : undefined;
          // Ids looked up one by one are told apart by a predicate; extremes need numeric fields.
          const numeric = via === undefined && hasNumericField(outputSchema(c.source.tool), split.list);
          const ops = listOps.filter((o) => o === 'select' || numeric !== false);
          const op: ReasoningOp = rng.pick(ops.length > 0 ? ops : listOps);
          reasoning = {
            kind: 'reasoning',
            id: newId(`choose:${listName(split.list)}`),
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
        // Which view a read gives (`method: get | get_comments | get_labels`) is the agent's
        // choice, not a fact a user holds: the first (the plain one) is fixed.
        const view = attrs.access === 'read' ? readSwitchValue(toolByName.get(tool), parameter) : undefined;
        if (view !== undefined) {
          args[parameter] = { const: view };
          continue;
        }
        let node = attrs.access === 'read' ? readFacts.get(parameter) : undefined;
        if (!node) {
          let fact = parameter;
          for (let k = 2; usedFacts.has(fact) || userNodes.some((u) => u.fact === fact); k++) fact = `${parameter}_${k}`;
          // Descriptions are how the user is asked: two facts never share one.
          let description = attrs.access === 'read' ? `your ${words(parameter)}` : `the ${words(parameter)} for ${words(tool)}`;
          for (let k = 2; usedDescriptions.has(description) || userNodes.some((u) => u.description === description); k++) {
            description = `the ${words(parameter)} for the ${ordinal(k)} ${words(tool)}`;
          }
          node = { kind: 'user', id: `user:${fact}`, fact, description };
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
        usedDescriptions.add(u.description);
        if (attrs.access === 'read') readFacts.set(userParams.get(u) ?? u.fact, u);
      }
      const node: ToolNode = { kind: 'tool', id: newId(tool), tool, access: attrs.access, args };
      if (attrs.access === 'write') {
        for (const [parameter, source] of Object.entries(args)) {
          if (!('from' in source) || !actedOn(tool, parameter)) continue;
          writeSources.add(source.path === '$' ? source.from : `${source.from}\u0000${source.path}`);
          if (source.path !== '$') writeSources.add(source.from);
        }
      }
      bySignature.set(signature, node);
      if (entity) byEntity.set(entity, node);
      toolNodes.push(node);
      nodes.push(node);
      // What is read after a write (of a record it did not create) shows the changed record.
      for (const source of Object.values(args)) {
        if (!('from' in source)) continue;
        const from = nodes.find((n) => n.id === source.from);
        const fromTool = from?.kind === 'reasoning' ? nodes.find((n) => n.id === from.input.from) : from;
        if (fromTool && (afterWrite.has(fromTool.id) || (fromTool.kind === 'tool' && fromTool.access === 'write' && !isCreateLike(fromTool.tool)))) afterWrite.add(node.id);
      }
      for (const [parameter, source] of Object.entries(args)) {
        const from = 'from' in source ? source.from : 'user' in source ? `user:${source.user}` : undefined;
        if (from !== undefined) edges.push({ from, to: node.id, parameter });
      }
      // A call that acts on the state an earlier call left (declared effects) runs after it.
      for (const earlier of toolNodes) {
        if (earlier === node || !graph.hasEdge(earlier.tool, tool) || edges.some((e) => e.from === earlier.id && e.to === node.id)) continue;
        const links = graph.getEdgeAttributes(earlier.tool, tool).effects ?? [];
        if (links.length > 0) edges.push({ from: earlier.id, to: node.id, parameter: (links[0] as { resource: string }).resource, kind: 'state' });
      }
    }
  }

  pruneAfterWrites(nodes, edges, toolNodes, toolByName);
  pruneUnreportableReads(nodes, edges, toolNodes, outputSchema, toolByName);
  if (toolByName.size > 0 && toolNodes.length > 0) {
    addExtraOps({ graph, nodes, edges, toolNodes, extraOps, rng: rng.fork('extra'), outputSchema, toolByName, newId });
  }
  const body = { nodes, edges };
  return { id: `bp-${digest(body as unknown as JsonValue).slice(0, 12)}`, ...body };
}

/**
 * Drops what only reads back the result of a write (`get_booking_details` after `cancel_open_booking`
 * when nothing else needs it): it changes nothing and no one asks for it. A sign-in is no such
 * write: what reads its token reads the records of the session it opened.
 */
function pruneAfterWrites(nodes: BlueprintNode[], edges: BlueprintEdge[], toolNodes: ToolNode[], toolByName: ReadonlyMap<string, EffectfulTool>): void {
  const writes = toolNodes.filter((n) => n.access === 'write' && !opensContext(n.tool, toolByName));
  if (writes.length === 0) return;
  const parents = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  for (const e of edges) {
    parents.set(e.to, [...(parents.get(e.to) ?? []), e.from]);
    // Acting on the state a write left (listing the directory `cd` entered) is not reading it back.
    if (e.kind !== 'state') children.set(e.from, [...(children.get(e.from) ?? []), e.to]);
  }
  const closure = (start: readonly string[], next: Map<string, string[]>): Set<string> => {
    const seen = new Set<string>(start);
    const stack = [...start];
    while (stack.length > 0) {
      for (const n of next.get(stack.pop() as string) ?? []) {
        if (seen.has(n)) continue;
        seen.add(n);
        stack.push(n);
      }
    }
    return seen;
  };
  const needed = closure(writes.map((w) => w.id), parents);
  const after = closure(writes.map((w) => w.id), children);
  const drop = new Set(nodes.filter((n) => n.kind !== 'user' && after.has(n.id) && !needed.has(n.id)).map((n) => n.id));
  if (drop.size === 0) return;
  const keptEdges = edges.filter((e) => !drop.has(e.from) && !drop.has(e.to));
  const used = new Set(keptEdges.map((e) => e.from));
  for (const n of nodes) if (n.kind === 'user' && !used.has(n.id)) drop.add(n.id);
  nodes.splice(0, nodes.length, ...nodes.filter((n) => !drop.has(n.id)));
  edges.splice(0, edges.length, ...keptEdges);
  toolNodes.splice(0, toolNodes.length, ...toolNodes.filter((n) => !drop.has(n.id)));
}

/** Whether every scalar a schema describes is a boolean (at least one; unknown shapes: false). */
function onlyBooleans(schema: JsonSchema | undefined): boolean {
  let leaves = 0;
  const walk = (s: JsonSchema | undefined): boolean => {
    const t = typeOf(s);
    if (t === 'boolean') {
      leaves += 1;
      return true;
    }
    if (t === 'object' && typeof s === 'object') {
      const props = Object.values((s.properties ?? {}) as Record<string, JsonSchema>);
      return props.length > 0 && props.every(walk);
    }
    if (t === 'array') return walk(schemaAt(s, '[]'));
    return false;
  };
  return walk(schema) && leaves > 0;
}

/** Whether an object schema holds only lists (at least one): `{ entities: [...], relations: [...] }`. */
function onlyLists(schema: JsonSchema | undefined): boolean {
  if (typeOf(schema) !== 'object' || typeof schema !== 'object') return false;
  const props = Object.values((schema.properties ?? {}) as Record<string, JsonSchema>);
  return props.length > 0 && props.every((p) => typeOf(p) === 'array');
}

/**
 * Drops the reads nothing else needs whose output holds only booleans (`{ canDrive: true }` at the
 * end of a walk): a read-only goal is reported as a value the agent says, and a yes/no flag is no
 * such value, so the blueprint would fail at its answer. Beside a write (a sign-in is none), the same goes for a read
 * that answers only lists (a whole graph): the write is the goal, and a list is no value to say
 * (a read-only blueprint keeps it: a count over it is its answer). A read that feeds a later node
 * (a condition, a choice) stays. At least one call is kept.
 */
function pruneUnreportableReads(
  nodes: BlueprintNode[],
  edges: BlueprintEdge[],
  toolNodes: ToolNode[],
  outputSchema: (tool: string) => JsonSchema | undefined,
  toolByName: ReadonlyMap<string, EffectfulTool>,
): void {
  for (;;) {
    const feeds = new Set(edges.map((e) => e.from));
    // A sign-in is no goal: what is read after it is the question.
    const writes = toolNodes.some((n) => n.access === 'write' && !opensContext(n.tool, toolByName));
    const unreportable = (schema: JsonSchema | undefined): boolean => onlyBooleans(schema) || (writes && onlyLists(schema));
    const drop = toolNodes.find((n) => n.access === 'read' && !feeds.has(n.id) && unreportable(outputSchema(n.tool)));
    if (drop === undefined || toolNodes.length <= 1) return;
    const keptEdges = edges.filter((e) => e.to !== drop.id);
    const used = new Set(keptEdges.map((e) => e.from));
    const gone = new Set([drop.id, ...nodes.filter((n) => n.kind === 'user' && !used.has(n.id)).map((n) => n.id)]);
    nodes.splice(0, nodes.length, ...nodes.filter((n) => !gone.has(n.id)));
    edges.splice(0, edges.length, ...keptEdges);
    toolNodes.splice(0, toolNodes.length, ...toolNodes.filter((n) => n !== drop));
  }
}

interface ExtraContext {
  graph: DependencyGraph;
  nodes: BlueprintNode[];
  edges: BlueprintEdge[];
  toolNodes: ToolNode[];
  extraOps: ReadonlySet<string>;
  rng: Rng;
  outputSchema: (tool: string) => JsonSchema | undefined;
  toolByName: ReadonlyMap<string, EffectfulTool>;
  newId: (base: string) => string;
}

/** A number available before a node: a numeric field of an earlier tool's output, or a sum over one of its lists. */
interface NumberSource {
  from: ToolNode;
  /** A scalar path (`total`), or a list path and numeric key to sum (`items[]`, `price`). */
  path: string;
  sumKey?: string;
}

function numberSources(ctx: ExtraContext, before: number): NumberSource[] {
  const out: NumberSource[] = [];
  for (const node of ctx.toolNodes.slice(0, before)) {
    // A sign-in's numbers (how long its token lasts) are about the session, not the task.
    if (node.when !== undefined || opensContext(node.tool, ctx.toolByName)) continue;
    const schema = ctx.outputSchema(node.tool);
    for (const path of numericPaths(schema)) out.push({ from: node, path });
    for (const list of listPaths(schema)) for (const key of numericPaths(schemaAt(schema, list))) out.push({ from: node, path: list, sumKey: key });
  }
  return out;
}

/** Top-level list paths of an output (`items[]`, `variants.*`, `[]`) whose elements are objects. */
function listPaths(schema: JsonSchema | undefined): string[] {
  const out: string[] = [];
  const t = typeOf(schema);
  if (t === 'array' && typeOf(schemaAt(schema, '[]')) === 'object') out.push('[]');
  if (t === 'object' && typeof schema === 'object') {
    const required = Array.isArray(schema.required) ? schema.required : undefined;
    for (const [key, p] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (required !== undefined && !required.includes(key)) continue;
      const pt = typeOf(p);
      if (pt === 'array' && typeOf(schemaAt(p, '[]')) === 'object') out.push(`${key}[]`);
      else if (pt === 'object' && typeof p === 'object' && p.properties === undefined && typeOf(schemaAt(p, '*')) === 'object') out.push(`${key}.*`);
    }
  }
  return out;
}

function addEdge(ctx: ExtraContext, from: string, to: string, parameter: string): void {
  ctx.edges.push({ from, to, parameter });
}

/** A `sum` node over a list (or the numeric path itself): the node id and path a number is read from. */
function numberNode(ctx: ExtraContext, source: NumberSource, insertAt: number): { from: string; path: string; inserted: number } {
  if (source.sumKey === undefined) return { from: source.from.id, path: source.path, inserted: 0 };
  const sum: ReasoningNode = {
    kind: 'reasoning',
    id: ctx.newId(`sum:${listName(source.path)}`),
    op: 'sum',
    input: { from: source.from.id, path: source.path },
    params: { key: source.sumKey },
  };
  ctx.nodes.splice(insertAt, 0, sum);
  addEdge(ctx, source.from.id, sum.id, 'input');
  return { from: sum.id, path: '$', inserted: 1 };
}

function addExtraOps(ctx: ExtraContext): void {
  const { rng, toolNodes, nodes } = ctx;
  const writes = toolNodes.filter((n) => n.access === 'write');
  const readers = (id: string): boolean => nodes.some((n) => (n.kind === 'tool' && Object.values(n.args).some((s) => 'from' in s && s.from === id)) || (n.kind === 'reasoning' && n.input.from === id));

  // Arithmetic: a numeric fact a write (or a tool that touches no state, such as a calculator's)
  // takes from the user, computed from a number read before.
  if (ctx.extraOps.has('arithmetic')) {
    const computing = toolNodes.filter((n) => n.access === 'write' || ctx.toolByName.get(n.tool)?.effects?.length === 0);
    for (const write of computing) {
      const k = toolNodes.indexOf(write);
      const props = (ctx.toolByName.get(write.tool)?.parameters.properties ?? {}) as Record<string, JsonSchema>;
      const pure = write.access !== 'write';
      for (const [parameter, source] of Object.entries(write.args)) {
        const t = typeOf(props[parameter]);
        if (t !== 'number' && t !== 'integer') continue;
        // A computation may go on from a value the one before it gave, changed first ("twice the result").
        if (pure && 'from' in source && toolNodes.some((n) => n.id === source.from) && !pathIterates(source.path) && rng.bool(P_ARITHMETIC / 2)) {
          const at = nodes.indexOf(write);
          const node: ReasoningNode = { kind: 'reasoning', id: ctx.newId(`compute:${parameter}`), op: 'arithmetic', input: { from: source.from, path: source.path }, params: {} };
          nodes.splice(at, 0, node);
          ctx.edges.splice(0, ctx.edges.length, ...ctx.edges.filter((e) => !(e.from === source.from && e.to === write.id && e.parameter === parameter)));
          addEdge(ctx, source.from, node.id, 'input');
          write.args[parameter] = { from: node.id, path: '$' };
          addEdge(ctx, node.id, write.id, parameter);
          continue;
        }
        if (!('user' in source) || !rng.bool(P_ARITHMETIC)) continue;
        const sources = numberSources(ctx, k).filter((s) => s.sumKey === undefined);
        if (sources.length === 0) continue;
        const src = rng.pick(sources);
        const at = nodes.indexOf(write);
        const node: ReasoningNode = { kind: 'reasoning', id: ctx.newId(`compute:${parameter}`), op: 'arithmetic', input: { from: src.from.id, path: src.path }, params: {} };
        nodes.splice(at, 0, node);
        addEdge(ctx, src.from.id, node.id, 'input');
        // The user node goes; the write reads the computed value.
        const fact = source.user;
        const userIndex = nodes.findIndex((n) => n.kind === 'user' && n.fact === fact);
        if (userIndex >= 0) nodes.splice(userIndex, 1);
        ctx.edges.splice(0, ctx.edges.length, ...ctx.edges.filter((e) => !(e.from === `user:${fact}` && e.to === write.id)));
        write.args[parameter] = { from: node.id, path: '$' };
        addEdge(ctx, node.id, write.id, parameter);
      }
    }
  }

  // Compare: the one write, read by nothing, made only if a number read before it passes a threshold.
  if (ctx.extraOps.has('compare') && writes.length === 1 && rng.bool(P_COMPARE)) {
    const write = writes[0] as ToolNode;
    const sources = readers(write.id) ? [] : numberSources(ctx, toolNodes.indexOf(write));
    if (sources.length > 0) {
      const src = rng.pick(sources);
      const at = nodes.indexOf(write);
      const number = numberNode(ctx, src, at);
      const compare: ReasoningNode = { kind: 'reasoning', id: ctx.newId('check'), op: 'compare', input: { from: number.from, path: number.path }, params: {} };
      nodes.splice(at + number.inserted, 0, compare);
      addEdge(ctx, number.from, compare.id, 'input');
      write.when = compare.id;
      addEdge(ctx, compare.id, write.id, 'when');
    }
  }

  // Count or sum: a read-only blueprint's answer, over a list of its last call.
  if (writes.length === 0 && (ctx.extraOps.has('count') || ctx.extraOps.has('sum')) && rng.bool(P_AGGREGATE)) {
    const last = toolNodes[toolNodes.length - 1] as ToolNode;
    const schema = ctx.outputSchema(last.tool);
    const options: ReasoningNode[] = [];
    for (const list of listPaths(schema)) {
      const element = schemaAt(schema, list);
      if (ctx.extraOps.has('count')) options.push({ kind: 'reasoning', id: `count:${listName(list)}`, op: 'count', input: { from: last.id, path: list }, params: {} });
      if (ctx.extraOps.has('sum')) for (const key of numericPaths(element)) options.push({ kind: 'reasoning', id: `sum:${listName(list)}`, op: 'sum', input: { from: last.id, path: list }, params: { key } });
    }
    // Lists of ids counted by a field of the records they name ("how many of your orders are pending").
    if (ctx.extraOps.has('count') && typeOf(schema) === 'object' && typeof schema === 'object') {
      const required = Array.isArray(schema.required) ? schema.required : undefined;
      for (const [key, p] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
        if ((required !== undefined && !required.includes(key)) || typeOf(p) !== 'array' || typeOf(schemaAt(p, '[]')) !== 'string') continue;
        const parameter = `${singularize(key)}_id`;
        const via = lookupTool(ctx.graph, parameter);
        if (via) options.push({ kind: 'reasoning', id: `count:${key}`, op: 'count', input: { from: last.id, path: `${key}[]` }, params: { via: { tool: via, parameter } } });
      }
    }
    if (options.length > 0 && !readers(last.id)) {
      const node = rng.pick(options);
      node.id = ctx.newId(node.id);
      nodes.push(node);
      addEdge(ctx, last.id, node.id, 'input');
    }
  }
}

/**
 * The walk's tools with, before the first tool that requires a resource no earlier tool creates
 * (a session), the tool of the graph that creates it (`sign_in`), as its declared effects say.
 * `established` carries the resources created so far across the merged walks.
 */
function withPrerequisites(tools: readonly string[], graph: DependencyGraph, toolByName: ReadonlyMap<string, EffectfulTool>, established: Set<string>): string[] {
  const out: string[] = [];
  const creates = (tool: string): string[] => (toolByName.get(tool)?.effects ?? []).filter((e) => e.action === 'creates' && e.via === undefined && e.path === undefined).map((e) => e.resource);
  for (const tool of tools) {
    for (const e of toolByName.get(tool)?.effects ?? []) {
      if (e.action !== 'requires' || established.has(e.resource)) continue;
      const maker = graph.filterNodes((n) => n !== tool && creates(n).includes(e.resource)).sort()[0];
      if (maker === undefined || out.includes(maker) || tools.includes(maker)) continue;
      out.push(maker);
      for (const r of creates(maker)) established.add(r);
    }
    const effects = toolByName.get(tool)?.effects ?? [];
    const made = creates(tool);
    // Signing in again while signed in changes nothing: the second sign-in of merged walks goes.
    const onlyContext = effects.every((e) => e.action === 'reads' || e.action === 'requires' || (e.action === 'creates' && e.via === undefined && e.path === undefined));
    if (made.length > 0 && onlyContext && made.every((r) => established.has(r)) && (out.length > 0 || established.size > 0)) continue;
    out.push(tool);
    for (const r of made) established.add(r);
    for (const e of effects) if (e.action === 'removes' && e.via === undefined) established.delete(e.resource);
  }
  return out;
}

/**
 * The blueprint key of a binding to a scalar field of the items of a wanted list parameter (or of
 * a wanted object parameter): `observations[].entityName` → `observations.entityName`; undefined
 * for any other parameter. Only a field that refers to another record is bound so: one named for
 * the record it takes (`entityName` from an entity's `name`, `bin_id` from a bin's `id`), or an
 * end of a link (`from`, `to`, `parent`) taking a record's name or id. A field of the item itself
 * (a passenger's `first_name`) stays the user's, so what the user states is never emptied.
 */
function itemFieldKey(tool: EffectfulTool | undefined, parameter: string, wanted: readonly string[], outputPath: string): string | undefined {
  const m = /^([A-Za-z_$][\w$-]*)(?:\[\])?\.([A-Za-z_$][\w$-]*)$/.exec(parameter);
  if (!m || tool === undefined) return undefined;
  const [, holder, field] = m as unknown as [string, string, string];
  if (!wanted.includes(holder)) return undefined;
  const t = typeOf(itemFieldSchema((tool.parameters.properties ?? {})[holder], field));
  if (t !== 'string' && t !== 'integer' && t !== 'number') return undefined;
  // The source: a record's name or id, of a list named for its records (`entities[].name`).
  const segments = outputPath.split(/\[\]|\./).filter(Boolean);
  const key = segments[segments.length - 1] ?? '';
  const list = outputPath.includes('[]') ? singularize(splitWords(segments[segments.length - 2] ?? '').join('_')) : undefined;
  if (!/^(id|name)$/i.test(key)) return undefined;
  if (/^(from|to|source|target|parent|owner)$/.test(field)) return `${holder}.${field}`;
  const named = /^(.+?)_?(id|name|Id|Name)$/.exec(field);
  const noun = named ? singularize(splitWords(named[1] as string).join('_')) : undefined;
  return noun !== undefined && list !== undefined && noun === list ? `${holder}.${field}` : undefined;
}

/** The schema at a binding's source path: an output path, or `$input.x` (the argument `x` the source was called with). */
function sourceSchema(tool: EffectfulTool | undefined, path: string): JsonSchema | undefined {
  if (!path.startsWith('$input.')) return schemaAt(tool?.outputSchema, path);
  const [name, ...rest] = path.slice('$input.'.length).split('.');
  const param = (tool?.parameters.properties ?? {})[name ?? ''];
  return rest.length === 0 ? param : schemaAt(param, rest.join('.'));
}

// Parameters that switch what one tool does or shows (`method`, `mode`).
const SWITCH_PARAMETER = /^(method|action|operation|op|mode|command|view)$/i;

/** The first value of a read's enum switch parameter (`method`), or undefined. */
function readSwitchValue(tool: EffectfulTool | undefined, parameter: string): JsonValue | undefined {
  if (!SWITCH_PARAMETER.test(parameter)) return undefined;
  const schema = (tool?.parameters.properties ?? {})[parameter];
  const values = typeof schema === 'object' && Array.isArray(schema.enum) ? schema.enum : undefined;
  return values !== undefined && values.length > 1 ? (values[0] as JsonValue) : undefined;
}

/** Whether a top-level parameter takes a list, or its schema is unknown (no tools given). */
function acceptsList(tool: EffectfulTool | undefined, parameter: string): boolean {
  if (tool === undefined || parameter.includes('.') || parameter.includes('[')) return true;
  const schema = (tool.parameters.properties ?? {})[parameter];
  const t = typeOf(schema);
  return schema === undefined || t === undefined || t === 'array';
}

/**
 * Whether a parameter names what the tool creates, as its declared effects say: the parameter is
 * the created resource, singular or plural (`entities` for `creates: 'entity'`), or its `via`.
 */
function namesCreated(tool: EffectfulTool | undefined, parameter: string): boolean {
  const words = splitWords(parameter).map((w) => singularize(w));
  return (tool?.effects ?? []).some((e) => {
    if (e.action !== 'creates') return false;
    if (e.via !== undefined) return e.via === parameter;
    const resource = splitWords(e.resource).map((w) => singularize(w));
    return resource.length > 0 && resource.join(' ') === words.join(' ');
  });
}

/**
 * Whether `source` opens a context `target` requires (a sign-in before a call that needs its
 * session), as their declared effects say: what the sign-in returns (a token) is the session's.
 */
function opensContextFor(source: string, target: string, toolByName: ReadonlyMap<string, EffectfulTool>): boolean {
  const opened = (toolByName.get(source)?.effects ?? []).filter((e) => e.action === 'creates' && e.via === undefined && e.path === undefined).map((e) => e.resource);
  return opened.length > 0 && (toolByName.get(target)?.effects ?? []).some((e) => e.action === 'requires' && opened.includes(e.resource));
}

/** Required parameters, then the `via` parameters of what the tool creates, changes or removes (declared effects). */
function wantedParameters(required: readonly string[], tool: EffectfulTool | undefined): string[] {
  const props = tool?.parameters.properties ?? {};
  const out = [...required];
  for (const e of tool?.effects ?? []) {
    if (e.via === undefined || e.action === 'reads' || e.action === 'lists' || e.action === 'requires' || !(e.via in props) || out.includes(e.via)) continue;
    out.push(e.via);
  }
  return out;
}

const CREATE_VERBS = new Set(['create', 'book', 'place', 'add', 'make', 'reserve', 'purchase', 'buy', 'register', 'open', 'submit', 'new', 'insert', 'post', 'generate', 'issue', 'schedule']);

/** Whether a tool makes a new record (`create_order`, `book_room`): what it returns is new. */
function isCreateLike(tool: string): boolean {
  return CREATE_VERBS.has(splitWords(tool)[0] ?? '');
}

/**
 * Whether a write acts on the record an id parameter names: its entity is in the tool's name
 * (`order_id` of `cancel_open_booking`, `item_ids` of `return_shipped_parcel_items`), unlike
 * context such as the `user_id` of `cancel_trip_booking`.
 */
function actedOn(tool: string, parameter: string): boolean {
  const m = /^(.+?)_ids?$/.exec(parameter);
  if (!m) return false;
  const name = new Set(splitWords(tool).map((w) => singularize(w)));
  return splitWords(m[1] as string).every((w) => name.has(singularize(w)));
}

/** `orders[]` → `orders`, `variants.*` → `variants`, `[]` → `item`. */
function listName(list: string): string {
  return list.replace(/\[\]$|\.\*$/, '') || 'item';
}

/** Whether the elements at a list path all have a numeric field; undefined when the schema is unknown. */
function hasNumericField(schema: JsonSchema | undefined, listPath: string): boolean | undefined {
  if (schema === undefined) return undefined;
  const element = schemaAt(schema, listPath);
  if (element === undefined) return undefined;
  const t = typeOf(element);
  if (t === 'number' || t === 'integer') return true;
  return numericPaths(element, 3).length > 0;
}

/** `item_ids` → `item_id`: a list parameter fed element by element names one element. */
function bareParameter(parameter: string): string {
  return parameter.endsWith('_ids') ? parameter.slice(0, -1) : parameter;
}

/** A read tool whose only required parameter is (the singular of) `parameter`: `get_booking_details` for `order_id`. */
function lookupTool(graph: DependencyGraph, parameter: string): string | undefined {
  const name = bareParameter(parameter);
  let found: string | undefined;
  graph.forEachNode((node, a) => {
    if (found === undefined && a.access === 'read' && a.required.length === 1 && a.required[0] === name) found = node;
  });
  return found;
}

/** The parameters a read tool's bare output supplies (`user_id` for `find_member_id_by_email`), as one key. */
function resolvedEntity(graph: DependencyGraph, tool: string): string | undefined {
  const supplied = new Set<string>();
  graph.forEachOutEdge(tool, (_e, a) => {
    for (const b of a.bindings) if (b.outputPath === '$') supplied.add(b.parameter);
  });
  return supplied.size > 0 ? [...supplied].sort().join(',') : undefined;
}

function ordinal(k: number): string {
  return ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'][k] ?? `${k}th`;
}

function words(name: string): string {
  return name.replace(/_/g, ' ');
}
