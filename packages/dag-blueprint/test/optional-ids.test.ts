// A list output whose records' `id` the schema leaves optional (a server assigns it, as OpenAPI
// documents often say) still feeds the id a later call takes, through a selection.
import { synthesizeEnvironment } from '@autoforge/env-synth';
import { parseToolDoc } from '@autoforge/tooldoc-parser';
import { describe, expect, it } from 'vitest';
import { mergeSequences } from '../src/merge-sequences.js';
import { buildTaskGraph } from '../src/task-graph.js';

const widget = { type: 'object', required: ['label'], properties: { id: { type: 'integer' }, label: { type: 'string' } } };
// MCP tool list: output schemas ride along as `outputSchema`.
const parsed = parseToolDoc({
  tools: [
    { name: 'list_widgets', description: 'List all widgets.', inputSchema: { type: 'object', properties: {} }, outputSchema: { type: 'array', items: widget } },
    { name: 'delete_widget', description: 'Delete a widget.', inputSchema: { type: 'object', required: ['widgetId'], properties: { widgetId: { type: 'integer', description: 'ID of the widget to delete' } } } },
  ],
});
if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join('\n'));
const doc = parsed.value;

describe('mergeSequences with optional ids', () => {
  const synth = synthesizeEnvironment(doc, { seed: 1 });
  if (!synth.ok) throw new Error(synth.issues.map((i) => i.message).join('\n'));
  const { spec } = synth.value;
  const graph = buildTaskGraph(spec);
  const walk = (to: string) => ({ tools: ['list_widgets', to], edges: [{ from: 'list_widgets', to, bindings: graph.getEdgeAttributes('list_widgets', to).bindings }], starts: [0] });

  it('binds a record’s own optional id from the list, through a selection', () => {
    const bp = mergeSequences([walk('delete_widget')], graph, { seed: 1, tools: spec.tools });
    const del = bp.nodes.find((n) => n.kind === 'tool' && n.tool === 'delete_widget');
    expect(del && del.kind === 'tool' ? del.args.widgetId : undefined).toMatchObject({ path: 'id' });
    expect(bp.nodes.some((n) => n.kind === 'reasoning')).toBe(true);
  });
});
