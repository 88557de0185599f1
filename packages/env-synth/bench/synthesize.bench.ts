// Offline synthesis time per document (parse excluded): the real-world documents, the BFCL
// multi-turn function docs, the three example docs, and a generated 50-tool document (the
// issue's bar: under 2 s on the project's 2-core machine). `pnpm --filter @autoforge/env-synth bench`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDoc, ToolSpec } from '@autoforge/core';
import { parseToolDocFile } from '@autoforge/tooldoc-parser';
import { bench, describe } from 'vitest';
import { synthesizeEnvironment } from '../src/synthesize-environment.js';

const REPO = join(import.meta.dirname, '../../..');
const SHARED = join(REPO, '../shared');
const BFCL = join(SHARED, 'benchmarks/bfcl/data/multi_turn_func_doc');
const BFCL_CLASSES = ['gorilla_file_system', 'math_api', 'message_api', 'posting_api', 'ticket_api', 'trading_bot', 'travel_booking', 'vehicle_control'];

const files = [
  ...readdirSync(join(SHARED, 'realworld'))
    .filter((f) => /\.(json|ya?ml)$/.test(f))
    .map((f) => join(SHARED, 'realworld', f)),
  ...BFCL_CLASSES.map((c) => join(BFCL, `${c}.json`)),
  ...['library.tools.json', 'clinic.openapi.yaml', 'hotel.mcp.json'].map((f) => join(REPO, 'apps/autoforge/examples', f)),
];

async function load(file: string): Promise<ToolDoc> {
  const r = await parseToolDocFile(file);
  if (!r.ok) throw new Error(`cannot parse ${file}`);
  return r.value;
}

const docs = await Promise.all(files.map(async (f) => ({ name: f.slice(f.lastIndexOf('/') + 1), doc: await load(f) })));

/** 50 tools over five entities: get/list/find/create/update/cancel/delete/… per entity. */
function fiftyTools(): ToolDoc {
  const entities = ['customer', 'invoice', 'shipment', 'warehouse', 'supplier'];
  const tools: ToolSpec[] = [];
  for (const e of entities) {
    const id = { type: 'string', description: `The ${e} id.` };
    const fields = { name: { type: 'string' }, status: { type: 'string', enum: ['open', 'active', 'closed'] }, amount: { type: 'number', minimum: 0 }, email: { type: 'string', format: 'email' } };
    const t = (name: string, description: string, properties: Record<string, object>, required: string[]): void => {
      tools.push({ name, description, parameters: { type: 'object', properties, required }, source: { format: 'openai-chat', pointer: `/tools/${tools.length}` } } as ToolSpec);
    };
    t(`get_${e}`, `Get a ${e} by id.`, { [`${e}_id`]: id }, [`${e}_id`]);
    t(`list_${e}s`, `List ${e}s, optionally by status.`, { status: fields.status, limit: { type: 'integer', minimum: 1 } }, []);
    t(`find_${e}_by_email`, `Find a ${e} id by email.`, { email: fields.email }, ['email']);
    t(`create_${e}`, `Create a ${e}.`, fields, ['name', 'email']);
    t(`update_${e}_name`, `Rename a ${e}.`, { [`${e}_id`]: id, name: fields.name }, [`${e}_id`, 'name']);
    t(`update_${e}_amount`, `Change a ${e}'s amount.`, { [`${e}_id`]: id, amount: fields.amount }, [`${e}_id`, 'amount']);
    t(`close_${e}`, `Close an open ${e}.`, { [`${e}_id`]: id }, [`${e}_id`]);
    t(`cancel_${e}`, `Cancel an active ${e}.`, { [`${e}_id`]: id, reason: { type: 'string' } }, [`${e}_id`, 'reason']);
    t(`delete_${e}`, `Delete a ${e}.`, { [`${e}_id`]: id }, [`${e}_id`]);
    t(`search_${e}s`, `Search ${e}s by name.`, { query: { type: 'string' } }, ['query']);
  }
  return { format: 'openai-chat', tools } as unknown as ToolDoc;
}

describe('synthesizeEnvironment (offline), per document', () => {
  for (const { name, doc } of docs) {
    bench(`${name} (${doc.tools.length} tools)`, () => {
      const r = synthesizeEnvironment(doc, { seed: 0 });
      if (!r.ok) throw new Error(name);
    });
  }
  const fifty = fiftyTools();
  bench('generated document (50 tools)', () => {
    const r = synthesizeEnvironment(fifty, { seed: 0 });
    if (!r.ok) throw new Error('50 tools');
  });
});
