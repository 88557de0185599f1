import type { JsonSchema, JsonValue, Message, StatedField, ToolCall, ToolSpec } from '@autoforge/core';
import { canonicalJson, isJsonObject, normalizeName, readStatedValues, singularize, splitWords } from '@autoforge/core';

/** A value the agent has seen: stated by the user or returned by a tool. */
export interface SeenValue {
  /** Normalized name (`email`, `zip_code`, `order_id`). */
  name: string;
  value: JsonValue;
  origin: 'user' | 'tool';
  /** Index of the message it came from (the latest one when seen several times). */
  messageIndex: number;
}

// Bounds the work per tool output (tau-bench user records list dozens of fields).
const MAX_VALUES_PER_MESSAGE = 400;
const LOOKUP_VERB = /^(get|find|lookup|look_up|search|fetch|resolve|query)_/;


function entityIdName(key: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z_ ]*$/.test(key)) return undefined;
  const name = normalizeName(key);
  if (name.endsWith('_ids')) return name.slice(0, -1);
  if (name.endsWith('_id') || name === 'id') return undefined;
  return `${singularize(name)}_id`;
}

/** The id a lookup tool's bare output is, from its name: `find_user_id_by_email` → `user_id`. */
export function idNameOfTool(tool: string): string | undefined {
  const name = normalizeName(tool).split('_by_')[0] as string;
  if (!name.endsWith('_id')) return undefined;
  const id = name.replace(LOOKUP_VERB, '');
  return id === 'id' ? undefined : id;
}

function isScalar(value: JsonValue): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

class Collector {
  readonly values = new Map<string, SeenValue>();
  private budget = 0;

  start(): void {
    this.budget = MAX_VALUES_PER_MESSAGE;
  }

  add(name: string, value: JsonValue, origin: SeenValue['origin'], messageIndex: number): void {
    if (this.budget <= 0 || name === '') return;
    this.budget -= 1;
    const key = `${name}\u0000${canonicalJson(value)}`;
    // Re-inserting moves the value to the end: iteration order is recency.
    this.values.delete(key);
    this.values.set(key, { name, value, origin, messageIndex });
  }

  // Walks a tool output: scalar fields by their key, list elements by the list's key and its
  // singular (`orders[]` → `order`, `order_id`), `id` fields by the nearest entity key.
  walk(value: JsonValue, keys: string[], messageIndex: number): void {
    if (this.budget <= 0) return;
    const key = keys[keys.length - 1];
    if (isScalar(value)) {
      if (key === undefined) return;
      const name = normalizeName(key);
      if (name === 'id') {
        for (let i = keys.length - 2; i >= 0; i--) {
          const id = entityIdName(keys[i] as string);
          if (id !== undefined) {
            this.add(id, value, 'tool', messageIndex);
            break;
          }
        }
        return;
      }
      this.add(name, value, 'tool', messageIndex);
      return;
    }
    if (Array.isArray(value)) {
      if (key !== undefined && value.length > 0 && value.every(isScalar)) this.add(normalizeName(key), value, 'tool', messageIndex);
      for (const item of value) {
        if (isScalar(item) && key !== undefined) {
          const name = normalizeName(key);
          const one = name.endsWith('_ids') ? name.slice(0, -1) : singularize(name);
          this.add(one, item, 'tool', messageIndex);
          const id = entityIdName(key);
          if (id !== undefined && id !== one && typeof item === 'string') this.add(id, item, 'tool', messageIndex);
        } else {
          this.walk(item, keys, messageIndex);
        }
      }
      return;
    }
    if (value !== null && isJsonObject(value)) {
      for (const [k, v] of Object.entries(value)) this.walk(v, [...keys, k], messageIndex);
    }
  }
}

/** The policy's question for a parameter: "Could you tell me your zip code?" */
export function askText(key: string): string {
  return `Could you tell me your ${splitWords(key).join(' ')}?`;
}

const ASK = /Could you tell me your ([^?]+)\?/g;

/** The fields a user may state values for: every top-level parameter of the tools, and what the policy asked for. */
function statedFields(messages: readonly Message[], tools: readonly ToolSpec[]): StatedField[] {
  const out = new Map<string, StatedField>();
  for (const tool of tools) {
    const schema = tool.parameters as { properties?: Record<string, JsonSchema> };
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const key = normalizeName(name);
      if (key !== '' && !out.has(key)) out.set(key, { key, schema: sub });
    }
  }
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content !== 'string') continue;
    for (const a of m.content.matchAll(ASK)) {
      const key = normalizeName(a[1] as string);
      if (key !== '' && !out.has(key)) out.set(key, { key });
    }
  }
  return [...out.values()];
}

/**
 * What each user message states, however it is phrased (core `readStatedValues` over the tools'
 * parameters and what the policy asked for; an answer to our question may leave out the name).
 * Keys are normalized names (`zip_code`); the array has one entry per message (empty for others).
 */
export function userStatements(messages: readonly Message[], tools: readonly ToolSpec[] = []): { key: string; value: JsonValue }[][] {
  const fields = statedFields(messages, tools);
  let asked: string[] = [];
  return messages.map((m) => {
    if (m.role === 'assistant' && typeof m.content === 'string' && m.content !== '') {
      asked = [...m.content.matchAll(ASK)].map((a) => normalizeName(a[1] as string));
      return [];
    }
    if (m.role !== 'user') return [];
    const said = readStatedValues(m.content, fields, { asked });
    asked = [];
    return said.map((v) => ({ key: v.key, value: v.value }));
  });
}

/**
 * Every value seen so far, most recent last: what the user stated ({@link userStatements}) and
 * the fields of successful tool outputs (JSON, or a bare value named after the tool:
 * `find_user_id_by_email` → `user_id`).
 */
export function seenValues(messages: readonly Message[], tools: readonly ToolSpec[] = []): SeenValue[] {
  const collector = new Collector();
  const calls = new Map<string, ToolCall>();
  const stated = userStatements(messages, tools);
  messages.forEach((message, index) => {
    collector.start();
    if (message.role === 'user') {
      for (const s of stated[index] ?? []) collector.add(s.key, s.value, 'user', index);
    } else if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    } else if (message.role === 'tool' && message.isError !== true) {
      const tool = calls.get(message.toolCallId)?.name ?? '';
      let output: JsonValue;
      try {
        output = JSON.parse(message.content) as JsonValue;
      } catch {
        output = message.content;
      }
      if (isScalar(output)) {
        const name = idNameOfTool(tool);
        if (name !== undefined) collector.add(name, output, 'tool', index);
        return;
      }
      const root = isJsonObject(output) ? entityIdName(normalizeName(tool).replace(/^(get|find|fetch|read|lookup)_|_(details|info)$/g, '')) : undefined;
      collector.walk(output, root !== undefined ? [root.slice(0, -3)] : [], index);
    }
  });
  return [...collector.values.values()];
}
