// Runs inside the scratch project (copied there), so that every bare import resolves from its
// node_modules as it would for a user. Argument: a JSON file of [{ specifier, values }].
// Prints one JSON object: { entries: { [specifier]: { missing, count } | { error } }, checks: { [name]: { ok, value } | { ok: false, error } } }.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const entries = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = { entries: {}, checks: {} };
const describe = (error) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

for (const { specifier, values } of entries) {
  try {
    const namespace = await import(specifier);
    out.entries[specifier] = { missing: values.filter((name) => !(name in namespace)), count: Object.keys(namespace).length };
  } catch (error) {
    out.entries[specifier] = { error: describe(error) };
  }
}

async function check(name, fn) {
  try {
    out.checks[name] = { ok: true, value: await fn() };
  } catch (error) {
    out.checks[name] = { ok: false, error: describe(error) };
  }
}

await check('core digest', async () => {
  const { digest } = await import('@autoforge/core');
  return digest({ a: 1 });
});

await check('tooldoc-parser parseToolDoc', async () => {
  const { parseToolDoc } = await import('@autoforge/tooldoc-parser');
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_order',
        description: 'Get an order by id.',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      },
    },
  ];
  const result = parseToolDoc(JSON.stringify(tools));
  return result.ok ? { format: result.value.format, tools: result.value.tools.map((tool) => tool.name) } : { issues: result.issues };
});

await check('erpo computeAdvantages', async () => {
  const { computeAdvantages } = await import('@autoforge/erpo');
  const samples = [1, 0, 1, 1].map((reward, i) => ({ envId: 'shop', taskId: i < 2 ? 'cancel' : 'refund', reward }));
  return Array.from(computeAdvantages(samples).advantages, (a) => Math.round(a * 1000) / 1000);
});

await check('env-runtime sandboxed step', async () => {
  const { createEnvironment } = await import('@autoforge/env-runtime');
  const environment = await createEnvironment({
    specVersion: 1,
    id: 'tiny-shop',
    name: 'Tiny shop',
    stateSchema: { type: 'object', required: ['orders'] },
    seedState: { orders: { o1: { status: 'pending', total: 20 } } },
    tools: [
      {
        name: 'get_order',
        description: 'Get an order by id.',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        outputSchema: { type: 'object' },
        implementation: { kind: 'js', source: 'function run(args, ctx) { return ctx.db.get("orders", args.order_id); }' },
        source: { format: 'openai-chat', pointer: '/0' },
      },
    ],
  });
  try {
    return environment.createSession().stepSync({ id: 'c1', name: 'get_order', arguments: '{"order_id":"o1"}' });
  } finally {
    environment.close();
  }
});

await check('llm completeJson against the scripted server', async () => {
  const { completeJson, createOpenAIChatModel } = await import('@autoforge/llm');
  const { createScriptedChatServer } = await import('@autoforge/llm/testing');
  const server = await createScriptedChatServer({ script: ['{"city": "Paris"}'] });
  try {
    const model = createOpenAIChatModel({ baseURL: server.baseURL, model: 'scripted-model', maxRetries: 0 });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    return await completeJson(model, [{ role: 'user', content: 'The capital of France, as {"city": string}?' }], schema);
  } finally {
    await server.close();
  }
});

await check('erpo/tfjs wasm backend', async () => {
  const { selectBackend } = await import('@autoforge/erpo/tfjs');
  return (await selectBackend({ prefer: 'wasm' })).name;
});

process.stdout.write(`${JSON.stringify(out)}\n`);
// tfjs and the sandbox may keep handles open; the answer is out.
process.exit(0);
