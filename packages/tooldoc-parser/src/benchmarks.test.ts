// The real benchmark tool files, read from ../shared/benchmarks (never copied).
import type { JsonValue, ToolDoc } from '@autoforge/core';
import { getAtPointer } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import { parseToolDoc, parseToolDocFile } from './index.js';
import { ACEBENCH_FILES, TOOL_FILES, benchmarkPath, compileReport, createAjv, readBenchmark } from './test-support.js';

async function load(relative: string, options: { sample?: string } = {}): Promise<ToolDoc> {
  const result = await parseToolDocFile(benchmarkPath(relative), options);
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
  return result.value;
}

function tool(doc: ToolDoc, name: string) {
  const found = doc.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Key-order-independent JSON text, written here independently of the parser's own. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

interface AceFunction {
  name: string;
}

/** An independent reading of an ACEBench file: samples, distinct names, names defined differently. */
function aceSummary(relative: string) {
  const samples = readBenchmark(relative)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: string; function: AceFunction[] });
  const first = new Map<string, string>();
  const conflicting = new Set<string>();
  for (const sample of samples) {
    for (const fn of sample.function) {
      const text = stable(fn);
      const seen = first.get(fn.name);
      if (seen === undefined) first.set(fn.name, text);
      else if (seen !== text) conflicting.add(fn.name);
    }
  }
  return { samples, names: [...first.keys()], conflicting };
}

describe('tau-bench, tau2-bench and VitaBench tool files', () => {
  it.each(TOOL_FILES)('%s has %i tools, read as %s, in file order', async (relative, count, format) => {
    const doc = await load(relative);
    const raw = JSON.parse(readBenchmark(relative)) as { function: { name: string } }[];
    expect(doc.format).toBe(format);
    expect(doc.tools).toHaveLength(count);
    expect(doc.tools.map((t) => t.name)).toEqual(raw.map((t) => t.function.name));
  });

  it.each(TOOL_FILES)('%s: every tool compiles with Ajv 2020 and has a located source', async (relative) => {
    const doc = await load(relative);
    expect(compileReport(doc.tools)).toEqual({ errors: [], strictOnly: [] });
    for (const [i, t] of doc.tools.entries()) {
      expect(t.source).toMatchObject({ pointer: `/${i}`, file: benchmarkPath(relative), column: 3 });
      expect(t.source.line).toBeGreaterThan(1);
    }
  });

  it('tau-bench retail get_order_details keeps its parameter schema exactly', async () => {
    const doc = await load('tau-bench/retail/tools.json');
    const t = tool(doc, 'get_order_details');
    expect(t.description).toBe('Get the status and details of an order.');
    expect(t.parameters).toStrictEqual({
      type: 'object',
      properties: {
        order_id: {
          type: 'string',
          description: "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
        },
      },
      required: ['order_id'],
    });
    expect(t.hints).toBeUndefined();
    expect(t.extensions).toBeUndefined();
  });

  it('tau2 airline book_reservation comes out dereferenced: $defs inlined where they were referenced', async () => {
    const doc = await load('tau2-bench/airline/tools.json');
    const t = tool(doc, 'book_reservation');
    expect(getAtPointer(t.parameters, '/properties/flights/items/anyOf/0')).toMatchObject({
      title: 'FlightInfo',
      type: 'object',
      required: ['flight_number', 'date'],
    });
    expect(t.parameters.$defs).toBeUndefined();
    expect(JSON.stringify(t.parameters)).not.toContain('$ref');
    const validate = createAjv().compile(t.parameters);
    const call = {
      user_id: 'sara_doe_496',
      origin: 'SFO',
      destination: 'JFK',
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT001', date: '2024-05-01' }],
      passengers: [{ first_name: 'Sara', last_name: 'Doe', dob: '1990-01-01' }],
      payment_methods: [{ payment_id: 'credit_card_1', amount: 100 }],
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    expect(validate(call)).toBe(true);
    expect(validate({ ...call, total_baggages: 'one' })).toBe(false);
    expect(t.hints).toEqual({ readOnly: false, toolType: 'write' });
    expect(t.extensions).toEqual({ 'x-tau2-tool-type': 'WRITE' });
  });

  it.each(TOOL_FILES)('%s: every schema comes out without $ref, and every tool type is a hint', async (relative) => {
    const doc = await load(relative);
    for (const t of doc.tools) {
      expect(JSON.stringify(t.parameters), t.name).not.toContain('"$ref"');
      expect(JSON.stringify(t.outputSchema ?? {}), t.name).not.toContain('"$ref"');
      const type = t.extensions?.['x-tau2-tool-type'] ?? t.extensions?.['x-vita-tool-type'];
      if (typeof type === 'string') expect(t.hints?.toolType, t.name).toBe(type.toLowerCase());
    }
  });

  it('tau2 tool types become hints: READ and GENERIC → readOnly, WRITE → not readOnly, with the type', async () => {
    const doc = await load('tau2-bench/retail/tools.json');
    expect(tool(doc, 'get_order_details').hints).toEqual({ readOnly: true, toolType: 'read' });
    expect(tool(doc, 'cancel_pending_order').hints).toEqual({ readOnly: false, toolType: 'write' });
    expect(tool(doc, 'calculate').hints).toEqual({ readOnly: true, toolType: 'generic' });
    expect(tool(doc, 'calculate').extensions).toEqual({ 'x-tau2-tool-type': 'GENERIC' });
  });

  it('tau2 telecom user tool set_network_mode_preference resolves its enum through $defs', async () => {
    const doc = await load('tau2-bench/telecom/user_tools.json');
    const validate = createAjv().compile(tool(doc, 'set_network_mode_preference').parameters);
    expect(validate({ mode: '4g_only' })).toBe(true);
    expect(validate({})).toBe(false);
  });

  it('VitaBench create_delivery_order: conditions parsed out of the description, x-vita-* kept', async () => {
    const doc = await load('vitabench/delivery/tools.json');
    const t = tool(doc, 'create_delivery_order');
    expect(t.description).toBe('Create delivery order, only supports single store orders, single store can order multiple food items');
    expect(t.conditions).toEqual({
      preconditions: [
        'In delivery scenario, determine unique store id and one or more food ids, determine user dietary restrictions and reflect in order',
      ],
      postconditions: ['Return order information, ask user to confirm payment'],
    });
    expect(t.hints).toEqual({ readOnly: false, toolType: 'write' });
    expect(t.extensions).toEqual({
      'x-vita-tool-type': 'WRITE',
      'x-vita-arg-doc-mismatch': ['food_cnts', 'food_ids', 'product_cnts', 'product_ids'],
    });
  });

  it('every VitaBench tool has one precondition and one postcondition and no block left in its description', async () => {
    for (const relative of TOOL_FILES.filter(([f]) => f.startsWith('vitabench')).map(([f]) => f)) {
      const doc = await load(relative);
      for (const t of doc.tools) {
        expect(t.conditions?.preconditions, t.name).toHaveLength(1);
        expect(t.conditions?.postconditions, t.name).toHaveLength(1);
        expect(t.description).not.toMatch(/conditions:/i);
        expect(t.description).not.toBe('');
      }
    }
  });

  it('the parsed value gives the same tools as the text, without positions', async () => {
    const text = readBenchmark('tau2-bench/airline/tools.json');
    const fromText = parseToolDoc(text);
    const fromValue = parseToolDoc(JSON.parse(text) as JsonValue);
    if (!fromText.ok || !fromValue.ok) throw new Error('parse failed');
    const strip = (doc: ToolDoc) => doc.tools.map(({ source: _source, ...rest }) => rest);
    expect(strip(fromValue.value)).toEqual(strip(fromText.value));
    expect(fromValue.value.tools[0]?.source).toEqual({ format: 'json-schema-defs', pointer: '/0' });
  });
});

describe('ACEBench data_en (JSON Lines of samples)', () => {
  it.each(ACEBENCH_FILES)('%s: the distinct tools by name, one group per sample', async (relative) => {
    const { samples, names, conflicting } = aceSummary(relative);
    const result = await parseToolDocFile(benchmarkPath(relative));
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('\n'));
    const doc = result.value;
    expect(doc.format).toBe('bfcl');
    expect(doc.tools.map((t) => t.name)).toEqual(names);
    expect(doc.groups?.map((g) => g.id)).toEqual(samples.map((s) => s.id));
    expect(doc.groups?.map((g) => g.tools)).toEqual(samples.map((s) => [...new Set(s.function.map((f) => f.name))]));
    const warned = (result.warnings ?? []).filter((w) => w.code === 'W_CONFLICTING_TOOL').map((w) => /tool "([^"]+)"/.exec(w.message)?.[1]);
    expect(new Set(warned)).toEqual(conflicting);
    // Names over 64 characters (one ACEBench tool has 68) load with W_LONG_NAME.
    expect((result.warnings ?? []).every((w) => w.code === 'W_CONFLICTING_TOOL' || w.code === 'W_PATTERN_REWRITTEN' || w.code === 'W_LONG_NAME')).toBe(true);
  });

  it('hard-coded counts: distinct tools over samples', async () => {
    const counts: Record<string, [number, number]> = {
      'data_agent_multi_step.json': [15, 20],
      'data_agent_multi_turn.json': [22, 30],
      'data_normal_atom_bool.json': [194, 50],
      'data_normal_preference.json': [44, 50],
      'data_normal_single_turn_single_function.json': [263, 100],
      'data_normal_multi_turn_user_adjust.json': [142, 123],
    };
    for (const [name, [tools, samples]] of Object.entries(counts)) {
      const doc = await load(`acebench/data_en/${name}`);
      expect([doc.tools.length, doc.groups?.length], name).toEqual([tools, samples]);
    }
  });

  it('every tool of every ACEBench file compiles with Ajv 2020; in strict mode only four tools whose data is sloppy fail', async () => {
    const strictFailures: string[] = [];
    for (const relative of ACEBENCH_FILES) {
      const doc = await load(relative);
      const report = compileReport(doc.tools);
      expect(report.errors, relative).toEqual([]);
      strictFailures.push(...report.strictOnly);
    }
    // Their schemas list required properties they do not define, use the keyword "units", or a
    // pattern on an untyped value: Ajv's strict mode refuses that; the JSON Schema spec does not.
    expect(strictFailures.sort()).toEqual([
      'GeoLocationProximityAnalyzer.analyzeLocationDistance outputSchema',
      'RetailInnovation_optimizeInventory parameters',
      'SmartHomeComfortControl parameters',
      'reserve_flight parameters',
    ]);
  });

  it('converts BFCL types: dict → object, list → array, float → number, recursively', async () => {
    const doc = await load('acebench/data_en/data_agent_multi_step.json');
    const text = JSON.stringify(doc.tools.map((t) => t.parameters));
    expect(text).not.toMatch(/"type":"(dict|list|float|tuple|any)"/);
    const raw = readBenchmark('acebench/data_en/data_agent_multi_step.json');
    expect(raw).toMatch(/"type": "dict"/);
    expect(raw).toMatch(/"type": "list"/);
  });

  it('reads the `arguments` and `results` of ACEBench normal functions as parameters and output schema', async () => {
    const doc = await load('acebench/data_en/data_normal_atom_bool.json');
    const t = tool(doc, 'ai.assistantModelSelector');
    expect(Object.keys(t.parameters.properties ?? {})).toEqual(['data', 'modelCriteria']);
    expect(t.outputSchema).toMatchObject({ type: 'object', properties: { recommendedModel: { type: 'string' } } });
    expect(t.extensions).toEqual({ 'x-bfcl-tags': ['人工智能-助手推荐-Machine Learning Models'] });
  });

  it('rewrites legacy-only patterns to equivalent ones Ajv compiles, with a warning', async () => {
    const result = await parseToolDocFile(benchmarkPath('acebench/data_en/data_special_error_param.json'));
    if (!result.ok) throw new Error('parse failed');
    const rewritten = (result.warnings ?? []).filter((w) => w.code === 'W_PATTERN_REWRITTEN');
    expect(rewritten).toHaveLength(3);
    expect(rewritten[0]).toMatchObject({ pointer: '/15/function/2/parameters/properties/email_address/pattern', line: 16 });
    const t = result.value.tools.find((x) => x.source.pointer === '/15/function/2');
    const pattern = getAtPointer(t?.parameters, '/properties/email_address/pattern') as string;
    expect(pattern).toBe('^[\\w\\-\\.]+@([\\w\\-]+\\.)+[\\w\\-]{2,4}$');
    for (const email of ['a.b-c@example.com', 'bad@', 'x@y.z', 'first_last@sub.example.org']) {
      expect(new RegExp(pattern, 'u').test(email), email).toBe(new RegExp('^[\\w-\\.]+@([\\w-]+\\.)+[\\w-]{2,4}$').test(email));
    }
  });

  it('sample selects one sample and reads its own definitions', async () => {
    const doc = await load('acebench/data_en/data_normal_preference.json', { sample: 'normal_preference_26' });
    const raw = aceSummary('acebench/data_en/data_normal_preference.json').samples.find((s) => s.id === 'normal_preference_26');
    expect(doc.tools.map((t) => t.name)).toEqual(raw?.function.map((f) => f.name));
    expect(doc.groups).toHaveLength(1);
    expect(doc.tools[0]?.source.pointer).toBe('/26/function/0');
    const all = await load('acebench/data_en/data_normal_preference.json');
    // registerUser is defined differently in sample 26 than in the first sample that has it.
    expect(tool(doc, 'registerUser')).not.toEqual(tool(all, 'registerUser'));
  });
});
