import { describe, expect, it } from 'vitest';
import { fromOpenAICompletion, toOpenAIMessages } from './openai-format.js';
import { createStreamAccumulator } from './stream-accumulator.js';

describe('toOpenAIMessages', () => {
  it('sends an assistant message without tool calls with text content', () => {
    expect(toOpenAIMessages([{ role: 'assistant', content: null, toolCalls: [] }])).toEqual([
      { role: 'assistant', content: '' },
    ]);
  });
});

describe('fromOpenAICompletion', () => {
  it('numbers tool calls without ids and maps function_call to tool_calls', () => {
    const reply = fromOpenAICompletion({
      choices: [
        {
          message: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] },
          finish_reason: 'function_call',
        },
      ],
    });
    expect(reply).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_0', name: 'f', arguments: '{}' }],
      finishReason: 'tool_calls',
    });
  });

  it.each([null, 'text', {}, { choices: [] }, { choices: [{ finish_reason: 'stop' }] }])(
    'returns undefined for %j',
    (value) => {
      expect(fromOpenAICompletion(value)).toBeUndefined();
    },
  );
});

describe('createStreamAccumulator', () => {
  it('assembles deltas from servers that omit the tool call index', () => {
    const acc = createStreamAccumulator();
    acc.add({ choices: [{ delta: { role: 'assistant', content: '' } }] });
    acc.add({ choices: [{ delta: { tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] } }] });
    acc.add({ choices: [{ delta: { tool_calls: [{ id: 'b', function: { name: 'g', arguments: '[]' } }] } }] });
    expect(acc.finished).toBe(false);
    acc.add({ choices: [{ delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 4 } });
    expect(acc.finished).toBe(true);
    expect(acc.reply()).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'a', name: 'f', arguments: '{}' },
        { id: 'b', name: 'g', arguments: '[]' },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
  });
});
