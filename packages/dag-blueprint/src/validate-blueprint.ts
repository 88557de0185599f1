import type { Issue, JsonSchema, Result, ToolSpec } from '@autoforge/core';
import { err, ok } from '@autoforge/core';
import { hasCycle } from 'graphology-dag';
import type { ArgSource, Blueprint, BlueprintNode } from './blueprint.js';
import { toGraph } from './dag.js';
import { itemsOf, schemaAt, typeOf, typeOfValue, typesFit } from './schema-at.js';
import { itemField, itemFieldSchema } from './item-fields.js';

/** The codes of `validateBlueprint`'s issues. */
export type BlueprintIssueCode =
  | 'E_DUPLICATE_NODE'
  | 'E_UNKNOWN_TOOL'
  | 'E_UNKNOWN_PARAMETER'
  | 'E_UNBOUND_PARAMETER'
  | 'E_UNKNOWN_SOURCE'
  | 'E_CONDITIONAL_SOURCE'
  | 'E_EDGE_MISMATCH'
  | 'E_CYCLE'
  | 'E_TYPE_MISMATCH';

/**
 * Checks a blueprint against the tools it calls: node ids unique; every tool known; every
 * required parameter bound by exactly one source and no unknown parameter bound; every source
 * names an earlier node (a tool or reasoning node, or a user node by its fact) with an edge that
 * says so, and every edge stands for a source; acyclic (graphology-dag `hasCycle`); value types
 * compatible where both schemas say them (an array parameter also takes one item). A state edge
 * (`kind: 'state'`, an ordering only) must join two tool nodes.
 *
 * A conditional call (`when`) must name a `compare` node (with its `when` edge), and nothing may
 * read a conditional call's output.
 *
 * Issue codes: `E_DUPLICATE_NODE`, `E_UNKNOWN_TOOL`, `E_UNKNOWN_PARAMETER`, `E_UNBOUND_PARAMETER`,
 * `E_UNKNOWN_SOURCE`, `E_CONDITIONAL_SOURCE`, `E_EDGE_MISMATCH`, `E_CYCLE`, `E_TYPE_MISMATCH`.
 */
export function validateBlueprint(blueprint: Blueprint, tools: readonly ToolSpec[]): Result<void, Issue<BlueprintIssueCode>> {
  const issues: Issue<BlueprintIssueCode>[] = [];
  const add = (code: BlueprintIssueCode, pointer: string, message: string): void => {
    issues.push({ code, pointer, message: `dag-blueprint: ${blueprint.id}${pointer}: ${message}` });
  };
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  const byId = new Map<string, BlueprintNode>();
  const factNode = new Map<string, string>();
  blueprint.nodes.forEach((node, i) => {
    if (byId.has(node.id)) add('E_DUPLICATE_NODE', `/nodes/${i}/id`, `node id "${node.id}" is used twice`);
    byId.set(node.id, node);
    if (node.kind === 'user') {
      if (factNode.has(node.fact)) add('E_DUPLICATE_NODE', `/nodes/${i}/fact`, `fact "${node.fact}" is used twice`);
      factNode.set(node.fact, node.id);
    }
  });

  const needed = new Set<string>();
  const edgeKey = (from: string, to: string, parameter: string): string => `${from}\u0000${to}\u0000${parameter}`;

  // The output schema of a node's value at a path, when known.
  const outputSchema = (from: string, path: string): JsonSchema | undefined => {
    const node = byId.get(from);
    if (!node) return undefined;
    if (node.kind === 'tool') {
      const tool = toolByName.get(node.tool);
      if (path.startsWith('$input.')) return schemaAt(tool?.parameters, path.slice('$input.'.length));
      return schemaAt(tool?.outputSchema, path);
    }
    if (node.kind === 'reasoning') {
      // A count is an integer; a sum or a computed value is a number that may be whole (it can feed an integer).
      if (node.op === 'count') return path === '$' ? { type: 'integer' } : undefined;
      if (node.op === 'sum' || node.op === 'arithmetic') return undefined;
      if (node.op === 'compare') return path === '$' ? { type: 'boolean' } : undefined;
      const element = outputSchema(node.input.from, node.input.path);
      return schemaAt(element, path);
    }
    return undefined;
  };

  const checkSource = (source: ArgSource, to: string, parameter: string, pointer: string): boolean => {
    if ('const' in source) return true;
    if ('user' in source) {
      const id = factNode.get(source.user);
      if (id === undefined) {
        add('E_UNKNOWN_SOURCE', pointer, `no user node has fact "${source.user}"`);
        return false;
      }
      needed.add(edgeKey(id, to, parameter));
      return true;
    }
    const from = byId.get(source.from);
    if (!from) {
      add('E_UNKNOWN_SOURCE', pointer, `node "${source.from}" does not exist`);
      return false;
    }
    if (from.kind === 'tool' && from.when !== undefined) {
      add('E_CONDITIONAL_SOURCE', pointer, `"${source.from}" runs only on a branch; nothing may read it`);
      return false;
    }
    needed.add(edgeKey(source.from, to, parameter));
    return true;
  };

  blueprint.nodes.forEach((node, i) => {
    if (node.kind === 'reasoning') {
      checkSource(node.input, node.id, 'input', `/nodes/${i}/input`);
      if (node.params.via && !toolByName.has(node.params.via.tool)) {
        add('E_UNKNOWN_TOOL', `/nodes/${i}/params/via/tool`, `tool "${node.params.via.tool}" does not exist`);
      }
      return;
    }
    if (node.kind !== 'tool') return;
    if (node.when !== undefined) {
      const cond = byId.get(node.when);
      if (cond?.kind !== 'reasoning' || cond.op !== 'compare') add('E_UNKNOWN_SOURCE', `/nodes/${i}/when`, `"${node.when}" is not a compare node`);
      else needed.add(edgeKey(node.when, node.id, 'when'));
    }
    const tool = toolByName.get(node.tool);
    if (!tool) {
      add('E_UNKNOWN_TOOL', `/nodes/${i}/tool`, `tool "${node.tool}" does not exist`);
      return;
    }
    const props = (tool.parameters.properties ?? {}) as Record<string, JsonSchema>;
    for (const parameter of tool.parameters.required ?? []) {
      if (!(parameter in node.args)) add('E_UNBOUND_PARAMETER', `/nodes/${i}/args/${parameter}`, `required parameter "${parameter}" of ${node.tool} has no source`);
    }
    for (const [parameter, source] of Object.entries(node.args)) {
      const pointer = `/nodes/${i}/args/${parameter}`;
      // `observations.entityName`: a field of the items of a list parameter (or of an object one).
      const at = itemField(parameter);
      const target = at === undefined ? props[parameter] : itemFieldSchema(props[at.parameter], at.field);
      if (target === undefined && !(parameter in props)) {
        add('E_UNKNOWN_PARAMETER', pointer, at === undefined ? `${node.tool} has no parameter "${parameter}"` : `${node.tool} has no parameter "${at.parameter}" whose items have a field "${at.field}"`);
        continue;
      }
      if (at !== undefined && !(at.parameter in node.args)) {
        add('E_UNBOUND_PARAMETER', pointer, `${node.tool}.${parameter} sets a field of "${at.parameter}", which has no source`);
        continue;
      }
      if (!checkSource(source, node.id, parameter, pointer)) continue;
      const sourceType =
        'const' in source ? typeOfValue(source.const) : 'from' in source ? typeOf(outputSchema(source.from, source.path)) : undefined;
      const targetType = typeOf(target);
      const fits =
        typesFit(sourceType, targetType) || (targetType === 'array' && typesFit(sourceType, typeOf(itemsOf(target))));
      if (!fits) add('E_TYPE_MISMATCH', pointer, `a ${sourceType} cannot feed ${node.tool}.${parameter} (${targetType})`);
    }
  });

  const have = new Set<string>();
  blueprint.edges.forEach((e, i) => {
    if (e.kind === 'state') {
      // An ordering between two calls: both must be tool nodes.
      if (byId.get(e.from)?.kind !== 'tool' || byId.get(e.to)?.kind !== 'tool') add('E_EDGE_MISMATCH', `/edges/${i}`, `state edge ${e.from} → ${e.to} must join two tool nodes`);
      return;
    }
    const key = edgeKey(e.from, e.to, e.parameter);
    have.add(key);
    if (!needed.has(key)) add('E_EDGE_MISMATCH', `/edges/${i}`, `edge ${e.from} → ${e.to} (${e.parameter}) stands for no source`);
  });
  for (const key of needed) {
    if (!have.has(key)) {
      const [from, to, parameter] = key.split('\u0000');
      add('E_EDGE_MISMATCH', '/edges', `no edge ${from} → ${to} (${parameter}) for its source`);
    }
  }
  if (hasCycle(toGraph(blueprint))) add('E_CYCLE', '/edges', 'the blueprint has a cycle');
  return issues.length > 0 ? err(issues) : ok(undefined);
}
