import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolDoc } from '@autoforge/core';
import { isAutoForgeError } from '@autoforge/core';
import { describe, expect, it } from 'vitest';
import type { ToolDocIssue, ToolDocResult } from './index.js';
import { ToolDocParserError, formatIssue, parseToolDoc, parseToolDocFile } from './index.js';

function value(result: ToolDocResult): ToolDoc {
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join('\n'));
  return result.value;
}

function issues(result: ToolDocResult): ToolDocIssue[] {
  if (result.ok) throw new Error('expected a failure');
  return result.issues;
}

const chatTool = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'function',
  function: { name, description: `${name} things`, parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
  ...extra,
});

describe('parseToolDoc: OpenAI tools', () => {
  it('reads Chat Completions tools as an array or { tools }, keeping x-* and strict in extensions', () => {
    const tools = [chatTool('a', { 'x-tau2-tool-type': 'READ' }), { type: 'function', function: { name: 'b', strict: true, parameters: { type: 'object', properties: {}, additionalProperties: false } } }];
    const fromArray = value(parseToolDoc(tools));
    const fromObject = value(parseToolDoc({ tools }));
    expect(fromArray.format).toBe('openai-chat');
    expect(fromArray.tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(fromArray.tools[0]).toEqual({
      name: 'a',
      description: 'a things',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      hints: { readOnly: true, toolType: 'read' },
      extensions: { 'x-tau2-tool-type': 'READ' },
      source: { format: 'openai-chat', pointer: '/0' },
    });
    expect(fromArray.tools[1]?.extensions).toEqual({ 'x-openai-strict': true });
    expect(fromObject.tools[1]?.source.pointer).toBe('/tools/1');
  });

  it('reads Responses API tools (flat) and skips built-in tools with a warning', () => {
    const result = parseToolDoc({ tools: [{ type: 'function', name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }, { type: 'web_search' }] });
    const doc = value(result);
    expect(doc.format).toBe('openai-responses');
    expect(doc.tools).toEqual([
      {
        name: 'lookup',
        description: 'Look up',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        extensions: { 'x-openai-strict': false },
        source: { format: 'openai-responses', pointer: '/tools/0' },
      },
    ]);
    expect(result.ok && result.warnings?.map((w) => [w.code, w.pointer])).toEqual([['W_SKIPPED_TOOL', '/tools/1']]);
  });

  it('gives a tool without parameters (or with null) an empty object schema', () => {
    expect(value(parseToolDoc([{ type: 'function', function: { name: 'now' } }])).tools[0]?.parameters).toEqual({ type: 'object', properties: {} });
    expect(value(parseToolDoc([{ type: 'function', function: { name: 'now', parameters: null } }])).tools[0]?.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('reads a single tool object', () => {
    expect(value(parseToolDoc(chatTool('solo'))).tools.map((t) => [t.name, t.source.pointer])).toEqual([['solo', '']]);
  });
});

describe('parseToolDoc: MCP tools/list', () => {
  const list = {
    tools: [
      {
        name: 'get_weather',
        title: 'Weather',
        description: 'Current weather',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], $schema: 'http://json-schema.org/draft-07/schema#', definitions: { Unit: { enum: ['C', 'F'] } } },
        outputSchema: { type: 'object', properties: { temperature: { type: 'number' } } },
        annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true, destructiveHint: false },
        _meta: { owner: 'me' },
      },
    ],
  };

  it('reads inputSchema, outputSchema, annotations as hints and the title; drafts become 2020-12; unused definitions go', () => {
    const doc = value(parseToolDoc(list));
    expect(doc.format).toBe('mcp');
    expect(doc.tools[0]).toEqual({
      name: 'get_weather',
      title: 'Weather',
      description: 'Current weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: { type: 'object', properties: { temperature: { type: 'number' } } },
      hints: { readOnly: true, openWorld: true, idempotent: true, destructive: false },
      extensions: { 'x-mcp-meta': { owner: 'me' } },
      source: { format: 'mcp', pointer: '/tools/0' },
    });
  });

  it('reads the JSON-RPC response around the result', () => {
    const doc = value(parseToolDoc({ jsonrpc: '2.0', id: 1, result: { ...list, nextCursor: 'x' } }));
    expect(doc.tools[0]?.source.pointer).toBe('/result/tools/0');
  });

  it('requires inputSchema', () => {
    expect(issues(parseToolDoc({ tools: [{ name: 'x', inputSchema: {} }, { name: 'y', inputSchema: null }] }, { format: 'mcp' })).map((i) => [i.code, i.pointer])).toEqual([
      ['E_INVALID_TOOL', '/tools/1'],
    ]);
  });

  it('takes the title from annotations when the tool has none', () => {
    const doc = value(parseToolDoc({ tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: { title: 'X tool' } }] }));
    expect(doc.tools[0]?.title).toBe('X tool');
  });
});

describe('parseToolDoc: BFCL functions', () => {
  it('reads a single function and converts dict/float/tuple/any/list/bool/int', () => {
    const fn = {
      name: 'f',
      description: 'F',
      parameters: {
        type: 'dict',
        properties: {
          a: { type: 'float' },
          b: { type: 'tuple', items: { type: 'int' } },
          c: { type: 'any' },
          d: { type: 'list', items: { type: 'dict', properties: { e: { type: 'bool' } } } },
          f: { type: ['string', 'any'] },
        },
        required: ['a'],
      },
    };
    const doc = value(parseToolDoc(fn));
    expect(doc.format).toBe('bfcl');
    expect(doc.tools[0]?.parameters).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'array', items: { type: 'integer' } },
        c: {},
        d: { type: 'array', items: { type: 'object', properties: { e: { type: 'boolean' } } } },
        f: {},
      },
      required: ['a'],
    });
    expect(value(parseToolDoc([fn, { ...fn, name: 'g' }])).tools.map((t) => t.name)).toEqual(['f', 'g']);
  });

  it('merges identical definitions across samples, warns about different ones, errs on differing ones within a sample', () => {
    const a = { name: 'a', parameters: { type: 'dict', properties: {} } };
    const a2 = { name: 'a', description: 'other', parameters: { type: 'dict', properties: {} } };
    const text = [
      JSON.stringify({ id: 's1', function: [a] }),
      JSON.stringify({ id: 's2', function: [a, { name: 'b', parameters: { type: 'dict', properties: {} } }] }),
      JSON.stringify({ id: 's3', function: [a2] }),
    ].join('\n');
    const result = parseToolDoc(text, { file: 'samples.jsonl' });
    const doc = value(result);
    expect(doc.tools.map((t) => [t.name, t.source.pointer, t.source.line])).toEqual([
      ['a', '/0/function/0', 1],
      ['b', '/1/function/1', 2],
    ]);
    expect(doc.groups?.map((g) => [g.id, g.tools, g.source.line])).toEqual([
      ['s1', ['a'], 1],
      ['s2', ['a', 'b'], 2],
      ['s3', ['a'], 3],
    ]);
    expect(result.ok && result.warnings?.map((w) => w.message)).toEqual([
      'tooldoc-parser: samples.jsonl:3:24 /2/function/0: tool "a" is defined differently at /2/function/0 (line 3); kept the first definition (/0/function/0 (line 1))',
    ]);
    const inSample = parseToolDoc({ id: 'x', function: [a, a2] });
    expect(issues(inSample).map((i) => [i.code, i.pointer])).toEqual([['E_DUPLICATE_TOOL', '/function/1']]);
  });

  it('sample selects one sample; an unknown sample is an issue', () => {
    const text = [JSON.stringify({ id: 's1', function: [{ name: 'a', parameters: {} }] }), JSON.stringify({ id: 's2', function: [{ name: 'b', parameters: {} }] })].join('\n');
    expect(value(parseToolDoc(text, { sample: 's2' })).tools.map((t) => t.name)).toEqual(['b']);
    expect(issues(parseToolDoc(text, { sample: 'nope' })).map((i) => i.code)).toEqual(['E_SAMPLE_NOT_FOUND']);
  });
});

describe('parseToolDoc: VitaBench and tau2 formats', () => {
  it('detects condition blocks and parses them', () => {
    const doc = value(parseToolDoc([chatTool('a'), { type: 'function', function: { name: 'b', description: 'Do b.\n\nPreconditions:\n  - one\n  - two\nPostconditions:\n  - three' } }]));
    expect(doc.format).toBe('vitabench');
    expect(doc.tools[1]).toMatchObject({ description: 'Do b.', conditions: { preconditions: ['one', 'two'], postconditions: ['three'] } });
    expect(doc.tools[0]?.conditions).toBeUndefined();
  });

  it('can be forced: format "openai-chat" leaves conditions in the description', () => {
    const tools = [{ type: 'function', function: { name: 'b', description: 'Do b.\nPreconditions:\n  - one' } }];
    const doc = value(parseToolDoc(tools, { format: 'openai-chat' }));
    expect(doc.format).toBe('openai-chat');
    expect(doc.tools[0]?.description).toBe('Do b.\nPreconditions:\n  - one');
  });

  it('reports a $defs ref that does not resolve inside the parameter schema', () => {
    const tools = [{ type: 'function', function: { name: 'x', parameters: { type: 'object', $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/B' } } } } }];
    expect(issues(parseToolDoc(tools)).map((i) => [i.code, i.pointer, i.message])).toEqual([
      ['E_REF_NOT_FOUND', '/0/function/parameters/properties/b', 'tooldoc-parser: /0/function/parameters/properties/b: $ref "#/$defs/B" not found'],
    ]);
  });
});

describe('parseToolDoc: bad input gives located issues, never exceptions', () => {
  const cases: [string, unknown, string, string | undefined][] = [
    ['duplicate tool names', [chatTool('a'), chatTool('a')], 'E_DUPLICATE_TOOL', '/1'],
    ['an empty name', [chatTool(' ')], 'E_EMPTY_NAME', '/0/function/name'],
    ['a name that is not a string', [{ type: 'function', function: { name: 5 } }], 'E_INVALID_TOOL', '/0/function/name'],
    ['a misspelled type', [{ type: 'function', function: { name: 'a', parameters: { type: 'object', properties: { x: { type: 'strnig' } } } } }], 'E_INVALID_SCHEMA', '/0/function/parameters/properties/x/type'],
    ['a parameter schema that is not an object schema', [{ type: 'function', function: { name: 'a', parameters: { type: 'string' } } }], 'E_INVALID_SCHEMA', '/0/function/parameters'],
    ['a schema keyword of the wrong type', [{ type: 'function', function: { name: 'a', parameters: { type: 'object', properties: { x: { minimum: '3' } } } } }], 'E_INVALID_SCHEMA', '/0/function/parameters/properties/x/minimum'],
    ['an external $ref', [{ type: 'function', function: { name: 'a', parameters: { type: 'object', properties: { x: { $ref: 'http://example.com/s.json' } } } } }], 'E_REF_EXTERNAL', '/0/function/parameters/properties/x'],
    ['a non-object tool', [chatTool('a'), 'not a tool'], 'E_INVALID_TOOL', '/1'],
    ['a list of non-tools', [1, 2, 3], 'E_UNKNOWN_FORMAT', '/0'],
    ['an empty list', [], 'E_NO_TOOLS', ''],
    ['an empty tools member', { tools: [] }, 'E_NO_TOOLS', '/tools'],
    ['an unrelated object', { hello: 'world' }, 'E_UNKNOWN_FORMAT', ''],
    ['null', null, 'E_EMPTY_DOCUMENT', ''],
    ['a number', 42, 'E_UNKNOWN_FORMAT', ''],
    ['undefined', undefined, 'E_NOT_JSON', ''],
    ['a function inside', [{ type: 'function', function: { name: 'a', parameters: { type: 'object', default: () => 1 } } }], 'E_NOT_JSON', '/0/function/parameters/default'],
    ['NaN inside', { tools: [{ name: 'a', inputSchema: { maximum: Number.NaN } }] }, 'E_NOT_JSON', '/tools/0/inputSchema/maximum'],
    ['a Date inside', [{ name: 'a', parameters: { default: new Date(0) } }], 'E_NOT_JSON', '/0/parameters/default'],
    ['plain prose', 'This API lets you order pizza and check the weather.', 'E_UNKNOWN_FORMAT', ''],
    ['prose with a colon', 'Note: this file lists no tools at all.', 'E_UNKNOWN_FORMAT', ''],
    ['an empty document', '', 'E_EMPTY_DOCUMENT', ''],
    ['a blank document', ' \n\t\n', 'E_EMPTY_DOCUMENT', ''],
    ['a YAML document with only comments', '# nothing\n', 'E_EMPTY_DOCUMENT', ''],
    ['truncated JSON', '[{"type": "function", "function": {"name": "a", "param', 'E_SYNTAX', ''],
    ['bad YAML', 'openapi: 3.0.0\npaths: [a\n  b: c', 'E_SYNTAX', ''],
    ['two YAML documents', 'a: 1\n---\nb: 2\n', 'E_SYNTAX', ''],
  ];

  it.each(cases)('%s', (_name, input, code, pointer) => {
    const found = issues(parseToolDoc(input));
    expect(found.map((i) => i.code)).toContain(code);
    const issue = found.find((i) => i.code === code) as ToolDocIssue;
    expect(issue.pointer).toBe(pointer);
    expect(issue.severity).toBe('error');
    expect(issue.message).toMatch(/^tooldoc-parser: /);
    if (typeof input === 'string') expect(issue.line).toBeGreaterThanOrEqual(1);
  });

  it('names the suggested type for a misspelled one', () => {
    const [issue] = issues(parseToolDoc('[{"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"strnig"}}}}}]', { file: 'tools.json' }));
    expect(issue?.message).toBe('tooldoc-parser: tools.json:1:93 /0/function/parameters/properties/x/type: "type": "strnig" is not a JSON Schema type (did you mean "string"?)');
  });

  it('locates a truncated JSON file at its end and says it ends early', () => {
    const text = '[\n  {"type": "function",\n   "function": {"name": "a"';
    const [issue] = issues(parseToolDoc(text));
    expect(issue).toMatchObject({ code: 'E_SYNTAX', line: 3, column: 28 });
    expect(issue?.message).toMatch(/truncated/);
  });

  it('stops a YAML alias bomb (billion laughs) with E_YAML_ALIAS_LIMIT', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const found = issues(parseToolDoc(lines.join('\n')));
    expect(found.map((i) => i.code)).toEqual(['E_YAML_ALIAS_LIMIT']);
    expect(issues(parseToolDoc('a: &x 1\nb: *x\n', { maxAliasCount: 0 })).map((i) => i.code)).toEqual(['E_YAML_ALIAS_LIMIT']);
  });

  it('refuses a recursive YAML alias and a cyclic value as not JSON', () => {
    expect(issues(parseToolDoc('&a [*a]')).map((i) => i.code)).toEqual(['E_NOT_JSON']);
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.parameters = cyclic;
    expect(issues(parseToolDoc(cyclic)).map((i) => [i.code, i.pointer])).toEqual([['E_NOT_JSON', '/parameters']]);
  });

  it('refuses text over maxBytes and nesting over maxDepth', () => {
    expect(issues(parseToolDoc('[1, 2, 3]', { maxBytes: 4 })).map((i) => i.code)).toEqual(['E_TOO_LARGE']);
    expect(issues(parseToolDoc('é'.repeat(3), { maxBytes: 5 })).map((i) => i.code)).toEqual(['E_TOO_LARGE']);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(issues(parseToolDoc(deep)).map((i) => [i.code, i.line, i.column])).toEqual([['E_TOO_DEEP', 1, 257]]);
    expect(issues(parseToolDoc(`[\n${'{"a":'.repeat(300)}1${'}'.repeat(300)}]`)).map((i) => [i.code, i.line, i.column])).toEqual([['E_TOO_DEEP', 2, 1276]]);
    expect(issues(parseToolDoc(`${'- '.repeat(20_000)}x`)).map((i) => [i.code, i.line])).toEqual([['E_TOO_DEEP', 1]]);
    expect(issues(parseToolDoc([[[[]]]], { maxDepth: 3 })).map((i) => i.code)).toEqual(['E_TOO_DEEP']);
  });

  it('treats keys like __proto__ and constructor as plain data', () => {
    const text = '[{"type":"function","function":{"name":"constructor","parameters":{"type":"object","properties":{"__proto__":{"type":"string"},"toString":{"type":"number"}}}}}]';
    const doc = value(parseToolDoc(text));
    expect(doc.tools[0]?.name).toBe('constructor');
    expect(Object.keys(doc.tools[0]?.parameters.properties ?? {})).toEqual(['__proto__', 'toString']);
    expect(Object.getPrototypeOf(doc.tools[0]?.parameters.properties)).toBe(Object.prototype);
  });

  it('strips a byte order mark', () => {
    expect(value(parseToolDoc(`\uFEFF${JSON.stringify([chatTool('a')])}`)).tools).toHaveLength(1);
  });

  it('does not change the value it is given', () => {
    const input = [{ type: 'function', function: { name: 'a', parameters: { type: 'dict', properties: {} } } }];
    const copy = structuredClone(input);
    parseToolDoc(input);
    expect(input).toEqual(copy);
  });
});

describe('parseToolDoc: options', () => {
  it('throws ToolDocParserError E_INVALID_OPTIONS for options that break the contract', () => {
    const bad: unknown[] = [{ format: 'swagger' }, { maxBytes: -1 }, { maxAliasCount: 1.5 }, { maxDepth: 0 }, { sample: 3 }, { file: 1 }, 'json'];
    for (const options of bad) {
      let thrown: unknown;
      try {
        parseToolDoc('[]', options as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(options)).toBeInstanceOf(ToolDocParserError);
      expect(isAutoForgeError(thrown)).toBe(true);
      expect((thrown as ToolDocParserError).code).toBe('E_INVALID_OPTIONS');
    }
  });

  it('a forced format that does not fit gives issues, not exceptions', () => {
    expect(issues(parseToolDoc([chatTool('a')], { format: 'mcp' })).map((i) => i.code)).toEqual(['E_INVALID_TOOL']);
    expect(issues(parseToolDoc([chatTool('a')], { format: 'openapi' })).map((i) => i.code)).toEqual(['E_UNKNOWN_FORMAT']);
    expect(issues(parseToolDoc({ openapi: '3.0.0' }, { format: 'bfcl' })).map((i) => i.code)).toEqual(['E_UNKNOWN_FORMAT']);
  });

  it('sample picks an OpenAPI tag group too', () => {
    const doc = value(
      parseToolDoc({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { operationId: 'a', tags: ['x'], responses: {} } }, '/b': { get: { operationId: 'b', tags: ['y'], responses: {} } } } }, { sample: 'y' }),
    );
    expect(doc.tools.map((t) => t.name)).toEqual(['b']);
    expect(doc.groups?.map((g) => g.id)).toEqual(['y']);
  });
});

describe('parseToolDocFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tooldoc-parser-'));

  it('reads a file and sets `file` on the document, the sources and the issues', async () => {
    const path = join(dir, 'tools.json');
    writeFileSync(path, JSON.stringify([chatTool('a')], null, 2));
    const doc = value(await parseToolDocFile(path));
    expect(doc.file).toBe(path);
    expect(doc.tools[0]?.source).toEqual({ format: 'openai-chat', pointer: '/0', file: path, line: 2, column: 3 });
    expect(value(await parseToolDocFile(pathToFileURL(path))).file).toBe(path);
    expect(value(await parseToolDocFile(path, { file: 'shown.json' })).file).toBe('shown.json');
  });

  it('turns read errors into E_READ issues', async () => {
    const missing = join(dir, 'missing.json');
    const [issue] = issues(await parseToolDocFile(missing));
    expect(issue).toMatchObject({ code: 'E_READ', file: missing, pointer: '' });
    expect(issue?.message).toMatch(/ENOENT/);
    expect(issues(await parseToolDocFile(dir)).map((i) => i.code)).toEqual(['E_READ']);
  });

  it('refuses a file over maxBytes before reading it', async () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, JSON.stringify([chatTool('a')]));
    expect(issues(await parseToolDocFile(path, { maxBytes: 10 })).map((i) => i.code)).toEqual(['E_TOO_LARGE']);
  });

  it('throws for a path that is not a string or URL', async () => {
    await expect(parseToolDocFile(42 as never)).rejects.toBeInstanceOf(ToolDocParserError);
  });
});

describe('formatIssue', () => {
  it('renders one line: the message and the code', () => {
    const [issue] = issues(parseToolDoc([chatTool('')], { file: 'tools.json' }));
    expect(formatIssue(issue as ToolDocIssue)).toBe('tooldoc-parser: tools.json /0/function/name: the tool name ("name") is empty [E_EMPTY_NAME]');
  });

  it('marks warnings, folds newlines and puts the location of foreign issues in front', () => {
    expect(formatIssue({ code: 'W_X', message: 'a\n  b', severity: 'warning' })).toBe('a b [warning W_X]');
    expect(formatIssue({ code: 'E_X', message: 'bad', file: 'f.yaml', line: 3, column: 1, pointer: '/a' })).toBe('f.yaml:3:1 /a: bad [E_X]');
  });
});

describe('input hygiene: encoding, duplicate keys, tool names', () => {
  const tool = (name: string) => ({ type: 'function', function: { name, description: 'd', parameters: { type: 'object', properties: {} } } });

  it('refuses a file that is not valid UTF-8, located at the first bad byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldoc-utf8-'));
    const path = join(dir, 'bad.json');
    const good = Buffer.from(`[\n  ${JSON.stringify(tool('ok_tool'))},\n  {"x": "`, 'utf8');
    writeFileSync(path, Buffer.concat([good, Buffer.from([0xc3, 0x28]), Buffer.from('"}\n]', 'utf8')]));
    const r = await parseToolDocFile(path);
    expect(r.ok).toBe(false);
    const issue = (r as { issues: ToolDocIssue[] }).issues[0] as ToolDocIssue;
    expect(issue).toMatchObject({ code: 'E_ENCODING', line: 3, file: path });
    expect(issue.message).toMatch(/not valid UTF-8/);
  });

  it('warns, located, about a key repeated in one object (the last one is kept)', () => {
    const text = `[{"type":"function","function":{"name":"a_tool","description":"first","description":"second","parameters":{"type":"object"}}}]`;
    const r = parseToolDoc(text);
    expect(r.ok).toBe(true);
    const warnings = (r as { warnings?: ToolDocIssue[] }).warnings ?? [];
    expect(warnings).toEqual([expect.objectContaining({ code: 'W_DUPLICATE_KEY', line: 1 })]);
    expect((r as { value: ToolDoc }).value.tools[0]?.description).toBe('second');
  });

  it('refuses tool names no tool-calling API accepts, showing them escaped', () => {
    for (const name of ['bad\u001b[31mname', 'two words', 'slash/name', 'line\nbreak', 'nul\u0000x']) {
      const r = parseToolDoc(JSON.stringify([tool(name)]));
      expect(r.ok, name).toBe(false);
      const issue = (r as { issues: ToolDocIssue[] }).issues.find((i) => i.code === 'E_INVALID_NAME') as ToolDocIssue;
      expect(issue.pointer).toBe('/0/function/name');
      expect([...issue.message].some((ch) => ch.charCodeAt(0) < 0x20)).toBe(false);
    }
    expect(parseToolDoc(JSON.stringify([tool('math.add-2_x')])).ok).toBe(true);
    const long = parseToolDoc(JSON.stringify([tool('a'.repeat(65))]));
    expect(long.ok).toBe(true);
    expect((long as { warnings?: ToolDocIssue[] }).warnings?.map((w) => w.code)).toEqual(['W_LONG_NAME']);
  });
});
