import type { JsonValue, Message, ToolCall } from '@autoforge/core';
import { canonicalJson, isJsonObject, parseFactStatements, singularize, splitWords } from '@autoforge/core';

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

/** snake_case name from any phrasing (`zip code`, `zipCode` → `zip_code`). */
export function normalizeName(text: string): string {
  return splitWords(text).join('_');
}

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

/**
 * Every value seen so far, most recent last: the user's fact statements ("My email is
 * "a@b.c".") and the fields of successful tool outputs (JSON, or a bare value named after
 * the tool: `find_user_id_by_email` → `user_id`).
 */
export function seenValues(messages: readonly Message[]): SeenValue[] {
  const collector = new Collector();
  const calls = new Map<string, ToolCall>();
  messages.forEach((message, index) => {
    collector.start();
    if (message.role === 'user') {
      for (const s of parseFactStatements(message.content)) collector.add(normalizeName(s.subject), s.value, 'user', index);
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
