import { describe, expect, it } from 'vitest';
import { detectFormat } from './index.js';

const chat = (description = 'd', parameters: unknown = { type: 'object' }) => ({ type: 'function', function: { name: 'f', description, parameters } });

describe('detectFormat', () => {
  it.each([
    ['OpenAI chat tools', [chat()], 'openai-chat'],
    ['OpenAI chat tools under tools', { tools: [chat()] }, 'openai-chat'],
    ['a single chat tool', chat(), 'openai-chat'],
    ['tau2 tools with $defs', [chat(), chat('d', { type: 'object', $defs: { A: {} } })], 'json-schema-defs'],
    ['draft-07 definitions', [chat('d', { type: 'object', definitions: { A: {} } })], 'json-schema-defs'],
    ['VitaBench condition blocks', [chat(), chat('Do.\nPostconditions:\n - done')], 'vitabench'],
    ['Responses API tools', [{ type: 'function', name: 'f', parameters: {} }], 'openai-responses'],
    ['OpenAPI 3.0', { openapi: '3.0.3', paths: {} }, 'openapi'],
    ['OpenAPI 3.1', { openapi: '3.1.0' }, 'openapi'],
    ['MCP tools/list', { tools: [{ name: 'f', inputSchema: { type: 'object' } }] }, 'mcp'],
    ['MCP JSON-RPC response', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'f', inputSchema: {} }] } }, 'mcp'],
    ['a BFCL function', { name: 'f', parameters: { type: 'dict' } }, 'bfcl'],
    ['BFCL functions', [{ name: 'f', parameters: { type: 'dict' } }], 'bfcl'],
    ['ACEBench-style arguments', [{ name: 'f', arguments: { type: 'object' } }], 'bfcl'],
    ['an ACEBench sample', { id: 's', function: [] }, 'bfcl'],
    ['ACEBench samples', [{ id: 's', function: [{ name: 'f', parameters: {} }] }], 'bfcl'],
    ['the first recognizable item decides', [1, 'x', { name: 'f', inputSchema: {} }], 'mcp'],
  ])('%s → %s', (_name, input, format) => {
    expect(detectFormat(input)).toBe(format);
  });

  it.each([
    ['null', null],
    ['a string', 'tools'],
    ['an empty list', []],
    ['Swagger 2.0', { swagger: '2.0', paths: {} }],
    ['an object without tools', { name: 'f' }],
    ['items that are no tools', [{ a: 1 }, 2]],
  ])('%s → undefined', (_name, input) => {
    expect(detectFormat(input)).toBeUndefined();
  });
});
