import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonSchemaObject, ToolDoc, ToolSpec } from '@autoforge/core';
import { createEnvironment } from '@autoforge/env-runtime';
import { analyzeTool } from './analyze-tool.js';
import { synthesizeEnvironment } from './synthesize-environment.js';

function tool(name: string, description: string, properties: Record<string, JsonSchemaObject> = {}, extra: Partial<ToolSpec> = {}): ToolSpec {
  return {
    name,
    description,
    parameters: { type: 'object', properties, required: Object.keys(properties) },
    source: { format: 'openai-chat', pointer: `/${name}` },
    ...extra,
  };
}

const str = (description = ''): JsonSchemaObject => ({ type: 'string', description });

const shopTools: ToolSpec[] = [
  tool('get_order_info', 'Get the status and details of an order.', { order_id: str("The order id, such as '#W0000000'.") }),
  tool('locate_user_id_by_email', 'Find user id by email.', { email: str() }),
  tool('list_orders', 'List the orders of a user.', { user_id: str(), status: { type: 'string', enum: ['pending', 'delivered'] } }),
  tool('create_order', 'Create an order for a user.', { user_id: str("The user id, such as 'sara_doe_496'."), item_name: str(), price: { type: 'number' } }),
  tool('cancel_the_pending_order', 'Cancel a pending order.', { order_id: str(), reason: { type: 'string', enum: ['no longer needed', 'ordered by mistake'] } }),
  tool('update_user_email', 'Change the email of a user.', { user_id: str(), email: str() }),
  tool('delete_order', 'Delete an order.', { order_id: str() }),
  tool('calculate', 'Calculate the result of a mathematical expression.', { expression: str() }),
  tool('think', 'Use the tool to think about something. It will not obtain new information or change the database.', { thought: str() }),
  tool('frobnicate', 'Does something mysterious.', { widget: str() }),
];
const shopDoc: ToolDoc = { format: 'openai-chat', tools: shopTools };

describe('analyzeTool', () => {
  it('reads verb, object noun, by-clause and whether an id is returned', () => {
    const a = analyzeTool(tool('locate_user_id_by_name_zip', 'Find user id by name and zip.', { first_name: str(), zip: str() }));
    expect(a.verbClass).toBe('find');
    expect(a.nounWords).toEqual(['user']);
    expect(a.byWords).toEqual(['name', 'zip']);
    expect(a.returnsId).toBe(true);
  });

  it('cuts the owner out of the object noun (`get_invoices_for_customer`)', () => {
    const a = analyzeTool(tool('get_invoices_for_customer', 'Invoices of a customer.', { customer_id: str() }));
    expect(a.nounWords).toEqual(['invoices']);
    expect(a.pluralNoun).toBe(true);
  });

  it('recognizes think and transfer tools as acknowledgments', () => {
    expect(analyzeTool(shopTools[8] as ToolSpec).noopKind).toBe('think');
    const transfer = tool('transfer_to_human_staff', 'Transfer the user to a human agent, with a summary.', { summary: str() });
    expect(analyzeTool(transfer).noopKind).toBe('transfer');
  });
});

describe('classification without a sample state', () => {
  const result = synthesizeEnvironment(shopDoc, { seed: 1, size: 5 });
  if (!result.ok) throw new Error('synthesis failed');
  const { spec, report } = result.value;
  const patternOf = (name: string): string | undefined => report.tools.find((t) => t.tool === name)?.pattern;

  it('infers collections from id parameters and object nouns', () => {
    expect(report.collections.map((c) => c.name)).toEqual(['orders', 'users']);
    expect(report.relations).toContainEqual({ from: 'orders', path: 'user_id', to: 'users', many: false });
  });

  it('classifies each tool into its pattern', () => {
    expect(patternOf('get_order_info')).toBe('lookup');
    expect(patternOf('locate_user_id_by_email')).toBe('find');
    expect(patternOf('list_orders')).toBe('list');
    expect(patternOf('create_order')).toBe('create');
    expect(patternOf('cancel_the_pending_order')).toBe('transition');
    expect(patternOf('update_user_email')).toBe('update');
    expect(patternOf('delete_order')).toBe('delete');
    expect(patternOf('calculate')).toBe('compute');
    expect(patternOf('think')).toBe('noop');
  });

  it('reports the tool it cannot classify with a reason, and makes it a stand-in', () => {
    expect(report.unclassified).toEqual([{ tool: 'frobnicate', reason: 'its name has no known verb' }]);
    expect(spec.tools.find((t) => t.name === 'frobnicate')?.implementation).toMatchObject({ kind: 'driver', driver: 'stand-in' });
  });

  it('generates ids in the format the descriptions show', () => {
    for (const id of Object.keys(spec.seedState.orders as JsonObject)) expect(id).toMatch(/^#W\d{7}$/);
    for (const id of Object.keys(spec.seedState.users as JsonObject)) expect(id).toMatch(/^[a-z]+_[a-z]+_\d{3}$/);
  });

  it('runs every pattern through the records driver', async () => {
    const env = await createEnvironment(spec, { validateOutputs: true });
    try {
      const s = env.createSession();
      const call = (name: string, args: JsonObject) => s.stepSync({ id: name, name, arguments: JSON.stringify(args) });
      const userId = Object.keys(spec.seedState.users as JsonObject)[0] as string;
      const user = (spec.seedState.users as Record<string, JsonObject>)[userId] as JsonObject;

      expect(call('locate_user_id_by_email', { email: String(user.email).toUpperCase() })).toEqual({ ok: true, output: userId });
      const created = call('create_order', { user_id: userId, item_name: 'Lamp', price: 12.5 });
      expect(created.ok).toBe(true);
      const order = (created as { output: JsonObject }).output;
      expect(order).toMatchObject({ user_id: userId, item_name: 'Lamp', price: 12.5, status: 'pending' });
      const orderId = order.order_id as string;
      expect(orderId).toMatch(/^#W\d{7}$/);
      expect(call('get_order_info', { order_id: orderId })).toEqual({ ok: true, output: order });

      const listed = call('list_orders', { user_id: userId, status: 'pending' });
      expect(listed.ok && (listed.output as JsonObject[]).some((o) => o.order_id === orderId)).toBe(true);

      const cancelled = call('cancel_the_pending_order', { order_id: orderId, reason: 'ordered by mistake' });
      expect(cancelled).toMatchObject({ ok: true, output: { status: 'cancelled', cancel_reason: 'ordered by mistake' } });
      // The name says "pending": a cancelled order cannot be cancelled again.
      expect(call('cancel_the_pending_order', { order_id: orderId, reason: 'ordered by mistake' })).toMatchObject({ ok: false, error: { code: 'tool_error' } });

      expect(call('update_user_email', { user_id: userId, email: 'new@example.com' })).toMatchObject({ ok: true, output: { email: 'new@example.com' } });
      expect(call('calculate', { expression: '(2 + 3) * 4 / 8' })).toEqual({ ok: true, output: 2.5 });
      expect(call('think', { thought: 'hmm' })).toEqual({ ok: true, output: 'Noted.' });
      expect(call('delete_order', { order_id: orderId })).toMatchObject({ ok: true });
      expect(call('get_order_info', { order_id: orderId })).toEqual({ ok: false, error: { code: 'tool_error', message: 'order not found' } });

      // A tool no pattern fits never answers ok as if it had worked.
      expect(call('frobnicate', { widget: 'x' })).toMatchObject({ ok: false, error: { code: 'tool_error' } });
      expect(env.validateState(s.state()).ok).toBe(true);
    } finally {
      env.close();
    }
  });
});

describe('classification with a sample state', () => {
  const sample: JsonObject = {
    users: {
      ann_lee_101: { name: { first_name: 'Ann', last_name: 'Lee' }, address: { city: 'Austin', zip: '78701' }, email: 'ann@example.com', orders: ['#W1000001'] },
      bob_ray_202: { name: { first_name: 'Bob', last_name: 'Ray' }, address: { city: 'Denver', zip: '80202' }, email: 'bob@example.com', orders: ['#W1000002', '#W1000003'] },
    },
    orders: Object.fromEntries(
      ['#W1000001', '#W1000002', '#W1000003', '#W1000004', '#W1000005', '#W1000006', '#W1000007', '#W1000008'].map((id, i) => [
        id,
        { order_id: id, user_id: i === 0 ? 'ann_lee_101' : 'bob_ray_202', status: ['pending', 'delivered'][i % 2] as string, items: [{ item_id: `${900 + i}`, price: 10 + i }] },
      ]),
    ),
  };
  const doc: ToolDoc = {
    format: 'openai-chat',
    tools: [
      tool('locate_user_id_by_name_zip', 'Find user id by first name, last name, and zip code.', { first_name: str(), last_name: str(), zip: str() }),
      tool('cancel_the_pending_order', 'Cancel a pending order.', { order_id: str(), reason: str() }),
      tool('return_the_delivered_order_items', "Return some items of a delivered order. The order status will be changed to 'return requested'.", {
        order_id: str(),
        item_ids: { type: 'array', items: { type: 'string' } },
      }),
      tool('modify_the_user_address', 'Modify the default address of a user.', { user_id: str(), city: str(), zip: str() }),
    ],
  };
  const result = synthesizeEnvironment(doc, { seed: 2, sampleState: sample });
  if (!result.ok) throw new Error('synthesis failed');
  const { spec, report } = result.value;

  it('takes the sample as the seed state and reads relations from the data', () => {
    expect(spec.seedState).toEqual(sample);
    expect(report.relations).toEqual(
      expect.arrayContaining([
        { from: 'orders', path: 'user_id', to: 'users', many: false },
        { from: 'users', path: 'orders[]', to: 'orders', many: true },
      ]),
    );
  });

  it('adds the status a transition sets to the status enum, and the fields it records', () => {
    const orders = (spec.stateSchema.properties?.orders as JsonSchemaObject).additionalProperties as JsonSchemaObject;
    const status = orders.properties?.status as JsonSchemaObject;
    expect(status.enum).toEqual(['delivered', 'pending', 'cancelled', 'return requested']);
    expect(report.addedFields).toEqual(expect.arrayContaining(['orders.cancel_reason', 'orders.return_items']));
  });

  it('finds by nested fields, guards by the status the name says, and records nested ids sorted', async () => {
    const env = await createEnvironment(spec, { validateOutputs: true });
    try {
      const s = env.createSession();
      const call = (name: string, args: JsonObject) => s.stepSync({ id: name, name, arguments: JSON.stringify(args) });
      expect(call('locate_user_id_by_name_zip', { first_name: 'bob', last_name: 'RAY', zip: '80202' })).toEqual({ ok: true, output: 'bob_ray_202' });
      expect(call('cancel_the_pending_order', { order_id: '#W1000002', reason: 'x' })).toMatchObject({ ok: false, error: { message: 'order status is "delivered"; must be pending' } });
      expect(call('return_the_delivered_order_items', { order_id: '#W1000002', item_ids: ['999'] })).toMatchObject({ ok: false, error: { message: 'item 999 not found' } });
      expect(call('return_the_delivered_order_items', { order_id: '#W1000004', item_ids: ['903'] })).toMatchObject({
        ok: true,
        output: { status: 'return requested', return_items: ['903'] },
      });
      expect(call('modify_the_user_address', { user_id: 'ann_lee_101', city: 'Boston', zip: '02101' })).toMatchObject({
        ok: true,
        output: { address: { city: 'Boston', zip: '02101' } },
      });
      expect(env.validateState(s.state()).ok).toBe(true);
    } finally {
      env.close();
    }
  });
});

describe('hints', () => {
  it('never compiles a tool declared read-only into a write', () => {
    const doc: ToolDoc = {
      format: 'json-schema-defs',
      tools: [tool('cancel_the_order', 'Cancel an order.', { order_id: str() }, { hints: { readOnly: true } })],
    };
    const r = synthesizeEnvironment(doc, { seed: 1, size: 3 });
    expect(r.ok && r.value.report.tools[0]?.pattern).toBe('lookup');
  });
});

describe('plain state values', () => {
  it('turns on, toggles and reads a boolean value the tools name', async () => {
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('turn_on_bluetooth', 'Turn on Bluetooth.'),
        tool('toggle_bluetooth', 'Toggle Bluetooth.'),
        tool('check_bluetooth_status', 'Check whether Bluetooth is on.'),
      ],
    };
    const r = synthesizeEnvironment(doc, { seed: 1, sampleState: { bluetooth: false } });
    if (!r.ok) throw new Error('synthesis failed');
    expect(r.value.report.values).toEqual(['bluetooth']);
    expect(r.value.report.unclassified).toEqual([]);
    const env = await createEnvironment(r.value.spec, { validateOutputs: true });
    try {
      const s = env.createSession();
      const call = (name: string) => s.stepSync({ id: name, name, arguments: '{}' });
      expect(call('turn_on_bluetooth')).toEqual({ ok: true, output: true });
      expect(call('toggle_bluetooth')).toEqual({ ok: true, output: false });
      expect(call('check_bluetooth_status')).toEqual({ ok: true, output: false });
      expect(s.state()).toEqual({ bluetooth: false });
    } finally {
      env.close();
    }
  });
});

describe('open-world keyed records (invented documents)', () => {
  const int = (description = ''): JsonSchemaObject => ({ type: 'integer', description });
  const page: Record<string, JsonSchemaObject> = {
    page: int(),
    per_page: int(),
    since: str(),
    order: { type: 'string', enum: ['asc', 'desc'] },
    state: { type: 'string', enum: ['open', 'closed'] },
  };
  const tools: ToolSpec[] = [
    tool('get_widget', 'Get a widget.', { widget_id: int() }),
    tool('create_widget', 'Create a widget.', { color: str(), size: int() }),
    tool('update_widget', 'Change the color of a widget.', { widget_id: int(), color: str() }),
    tool('delete_widget', 'Delete a widget.', { widget_id: int() }),
    { ...tool('list_widgets', 'List widgets, a page at a time.', page), parameters: { type: 'object', properties: page, required: [] } },
    tool('get_member', 'Get a member by username.', { username: str() }),
    tool('create_member', 'Register a member.', { username: str(), nickname: str() }),
    tool('delete_member', 'Remove a member.', { username: str() }),
    tool('gadget_write', 'Create, update or delete a gadget.', {
      method: { type: 'string', enum: ['create', 'update', 'delete'] },
      gadget_id: str(),
      label: str(),
    }),
    tool('get_gadget', 'Get a gadget.', { gadget_id: str() }),
    tool('create_parts', 'Create several parts at once.', {
      parts: { type: 'array', items: { type: 'object', properties: { part_name: str(), weight: { type: 'number' } }, required: ['part_name', 'weight'] } },
    }),
    tool('delete_parts', 'Delete several parts.', { part_ids: { type: 'array', items: str() } }),
    tool('list_parts', 'List all parts.'),
    tool('close_widget_session', 'Look at a widget without changing it.', { widget_id: int() }, { hints: { readOnly: true } }),
  ];
  const gadgetTool = tools[8] as ToolSpec;
  gadgetTool.parameters = { ...gadgetTool.parameters, required: ['method'] };
  const result = synthesizeEnvironment({ format: 'openai-chat', tools }, { seed: 3, size: 4 });
  if (!result.ok) throw new Error('synthesis failed');
  const { spec, report } = result.value;
  const coverage = new Map((report.coverage ?? []).map((c) => [c.tool, c]));

  it('passes the self-check on every tool', () => {
    expect([...coverage.values()].filter((c) => !c.works)).toEqual([]);
  });

  it('keys records named by an integer id parameter by numbers', async () => {
    const widgets = spec.seedState.widgets as Record<string, JsonObject>;
    for (const [k, w] of Object.entries(widgets)) expect(String(w.widget_id)).toBe(k);
    const env = await createEnvironment(spec);
    try {
      const s = env.createSession();
      const first = Object.values(widgets)[0] as JsonObject;
      expect(s.stepSync({ id: '1', name: 'get_widget', arguments: JSON.stringify({ widget_id: first.widget_id }) })).toEqual({ ok: true, output: first });
      const made = s.stepSync({ id: '2', name: 'create_widget', arguments: JSON.stringify({ color: 'teal', size: 2 }) });
      expect(made.ok && typeof (made.output as JsonObject).widget_id).toBe('number');
    } finally {
      env.close();
    }
  });

  it('recognises a natural key from the identifying parameter of get/delete tools', () => {
    const members = report.collections.find((c) => c.name === 'members');
    expect(members?.keyField).toBe('username');
    const keys = Object.entries(spec.seedState.members as Record<string, JsonObject>);
    for (const [k, m] of keys) expect(m.username).toBe(k);
  });

  it('keeps request-only parameters out of the record schema', () => {
    const fields = Object.keys(((spec.stateSchema.properties?.widgets as JsonSchemaObject).additionalProperties as JsonSchemaObject).properties ?? {});
    for (const f of ['page', 'per_page', 'since', 'order', 'state']) expect(fields).not.toContain(f);
  });

  it('dispatches a method-switch tool per value, and batch tools once per element', () => {
    expect(report.tools.find((t) => t.tool === 'gadget_write')?.pattern).toBe('switch');
    const sw = spec.tools.find((t) => t.name === 'gadget_write')?.implementation as unknown as { params: { cases: Record<string, { pattern: string }> } };
    expect(Object.fromEntries(Object.entries(sw.params.cases).map(([k, v]) => [k, v.pattern]))).toEqual({ create: 'create', update: 'update', delete: 'delete' });
    expect(report.tools.find((t) => t.tool === 'create_parts')?.pattern).toBe('batch');
    expect(report.tools.find((t) => t.tool === 'delete_parts')?.pattern).toBe('batch');
    const fields = Object.keys(((spec.stateSchema.properties?.parts as JsonSchemaObject).additionalProperties as JsonSchemaObject).properties ?? {});
    expect(fields).toEqual(expect.arrayContaining(['part_name', 'weight']));
    expect(fields).not.toContain('parts');
  });

  it('reads a tool declared read-only, whatever its verb says', () => {
    expect(report.tools.find((t) => t.tool === 'close_widget_session')?.pattern).toBe('lookup');
  });
});

describe('a sample with integer keys', () => {
  it('keys the records by their numbers and creates the next one', async () => {
    const int = { type: 'integer' } as const;
    const doc: ToolDoc = {
      format: 'openai-chat',
      tools: [
        tool('get_lesson', 'Get a lesson.', { lesson_id: int }),
        tool('create_lesson', 'Create a lesson.', { title: str() }),
        tool('delete_lesson', 'Delete a lesson.', { lesson_id: int }),
      ],
    };
    const sample = { lessons: [{ id: 5, title: 'Knots' }, { id: 9, title: 'Sails' }] };
    const r = synthesizeEnvironment(doc, { seed: 1, sampleState: sample });
    if (!r.ok) throw new Error('synthesis failed');
    expect(r.value.spec.seedState.lessons).toEqual({ '5': { id: 5, title: 'Knots' }, '9': { id: 9, title: 'Sails' } });
    expect((r.value.report.coverage ?? []).filter((c) => !c.works)).toEqual([]);
    const env = await createEnvironment(r.value.spec);
    try {
      const s = env.createSession();
      const call = (name: string, args: JsonObject) => s.stepSync({ id: name, name, arguments: JSON.stringify(args) });
      expect(call('get_lesson', { lesson_id: 9 })).toEqual({ ok: true, output: { id: 9, title: 'Sails' } });
      expect(call('create_lesson', { title: 'Tides' })).toEqual({ ok: true, output: { id: 10, title: 'Tides' } });
      expect(call('delete_lesson', { lesson_id: 5 })).toMatchObject({ ok: true });
      expect(Object.keys(s.state().lessons as JsonObject)).toEqual(['9', '10']);
    } finally {
      env.close();
    }
  });
});
