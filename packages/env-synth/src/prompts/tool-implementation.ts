// Prompts that ask a model for one tool's sandboxed implementation. Text only: the logic that
// fills them in lives in llm-tool-writer.ts.

/** The system message of every implementation request: the sandbox contract and examples. */
export const TOOL_IMPLEMENTATION_SYSTEM_PROMPT = `You implement one tool of a simulated, stateful environment in which AI agents are trained to use tools. Your implementation must behave like the real service the tool documentation describes, on the environment's state.

## The source contract

Write JavaScript (ECMAScript 2023, strict mode) that defines \`function run(args, ctx) { ... }\`. It runs in a WebAssembly sandbox with no host access: no require, no import, no process, no fetch, no timers, no eval or Function constructor, no async code. Define any helper functions you need next to run. Module-level variables start fresh on every call.

- \`args\` is the parsed arguments object; it already matches the tool's parameter schema, but optional parameters may be missing.
- \`run\` returns the output: a JSON value (use null for "nothing"; never undefined).
- For an expected failure (a record not found, a wrong status, a policy violation) \`throw new Error('a clear message')\`: the message becomes the agent's observation and every write of the call is undone. Any other exception (TypeError, ReferenceError, RangeError), a time-out or a non-JSON result counts as a defect of your code.
- The state is a JSON document: collections (objects of records keyed by id) and plain top-level values. Reach it only through \`ctx\`:

\`\`\`
ctx.db.collections(): string[]              collection names
ctx.db.get(col, id): record | undefined     a copy of the record
ctx.db.has(col, id): boolean
ctx.db.ids(col): string[]                   ids in order
ctx.db.all(col): record[]                   all records, in ids() order
ctx.db.find(col, where): record[]           records whose fields equal every entry of where (keys may be dot paths: 'address.zip')
ctx.db.put(col, id, record): void           insert or replace a record (a JSON object)
ctx.db.update(col, id, patch): record       shallow merge { ...record, ...patch }; throws if the record is missing
ctx.db.delete(col, id): boolean
ctx.db.read(key): value | undefined         a plain top-level value (not a collection)
ctx.db.write(key, value): void              set a plain top-level value
ctx.ids.next(prefix): string                a new unique id: prefix + 7 characters
ctx.clock.now(): string                     the environment's current time, ISO 8601
ctx.rng.float(): number                     seeded random number in [0, 1)
ctx.rng.int(min, max): number               seeded random integer in [min, max]
\`\`\`

Records you read are copies: change them and put them back. Naming a collection the state does not have throws. Math.random() and Date are deterministic inside the sandbox.

## Rules

- Check every argument that names a record, and every precondition the documentation states, and throw an Error with a clear message when one fails.
- Never let a TypeError escape: check that records, nested objects and arrays exist before you use them.
- Keep the state valid against the state schema: write only the fields it declares, with the declared types and enum values, and keep every required field.
- Return exactly what the output schema describes.
- New records: generate ids in the collection's id format with ctx.rng (check with ctx.db.has that the id is new) or with ctx.ids.next(prefix); set timestamps with ctx.clock.now().
- Keep it simple and fast: at most a few thousand records are scanned.

## Example

A tool void_purchase(order_id, reason) on a state whose "orders" collection holds records { order_id, user_id, status: "pending" | "delivered" | "cancelled", cancel_reason? }:

\`\`\`js
function run(args, ctx) {
  var order = ctx.db.get('orders', args.order_id);
  if (!order) throw new Error('order ' + args.order_id + ' not found');
  if (order.status !== 'pending') throw new Error('order status is "' + order.status + '"; only pending orders can be cancelled');
  return ctx.db.update('orders', args.order_id, { status: 'cancelled', cancel_reason: args.reason });
}
\`\`\`

A tool create_order(user_id, item_ids) that creates a record with an id like "ord_123456":

\`\`\`js
function run(args, ctx) {
  if (!ctx.db.has('users', args.user_id)) throw new Error('user ' + args.user_id + ' not found');
  var id;
  do { id = 'ord_' + String(ctx.rng.int(0, 999999)).padStart(6, '0'); } while (ctx.db.has('orders', id));
  var order = { order_id: id, user_id: args.user_id, item_ids: (args.item_ids || []).slice(), status: 'pending', created_at: ctx.clock.now() };
  ctx.db.put('orders', id, order);
  return order;
}
\`\`\`

## Answer

Answer with one JSON object and nothing else: {"source": "<the JavaScript source>"}, adding "outputSchema" (a JSON Schema, draft 2020-12, of what run returns) when the request asks for one.`;

/** What {@link toolImplementationPrompt} needs to know about the state. */
export interface StateDescription {
  /** The state schema, as JSON text. */
  stateSchema: string;
  /** One line per collection: name, key field, id format. */
  collections: readonly string[];
  /** One line per relation (`orders.user_id → users`). */
  relations: readonly string[];
  /** An example record per collection, as JSON text (shortened). */
  examples: readonly string[];
  /** Plain top-level values, one line each. */
  values: readonly string[];
}

/** The user message of an implementation request. The first line names the tool. */
export function toolImplementationPrompt(tool: string, documentation: string, state: StateDescription, outputSchema: string | undefined): string {
  const lines = [
    `# Tool: ${tool}`,
    '',
    'Implement this tool:',
    '',
    documentation,
    '',
    '## The state',
    '',
    'Collections:',
    ...state.collections.map((c) => `- ${c}`),
  ];
  if (state.values.length > 0) lines.push('', 'Plain values:', ...state.values.map((v) => `- ${v}`));
  if (state.relations.length > 0) lines.push('', 'References between records:', ...state.relations.map((r) => `- ${r}`));
  lines.push('', 'JSON Schema of the whole state (keep it valid):', '', state.stateSchema);
  if (state.examples.length > 0) lines.push('', 'Example records:', '', ...state.examples);
  lines.push('');
  if (outputSchema !== undefined) {
    lines.push('The output must match this JSON Schema (do not answer an outputSchema):', '', outputSchema);
  } else {
    lines.push('The documentation gives no output schema: answer one in "outputSchema", describing exactly what run returns.');
  }
  lines.push('', 'Answer with the JSON object only.');
  return lines.join('\n');
}
