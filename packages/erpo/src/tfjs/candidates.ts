import type { AssistantMessage, JsonObject, JsonSchema, JsonValue, Message, ToolSpec } from '@autoforge/core';
import { canonicalJson, isJsonObject, normalizeName, splitWords } from '@autoforge/core';
import type { SeenValue } from './seen-values.js';
import { askText, seenValues } from './seen-values.js';

/** Where a bound argument came from. */
export interface ArgumentSource {
  parameter: string;
  origin: SeenValue['origin'];
  messageIndex: number;
}

/** One action the reference policy may take at a turn. */
export type CandidateAction =
  | { kind: 'call'; tool: ToolSpec; arguments: JsonObject; sources: ArgumentSource[] }
  | { kind: 'ask'; key: string }
  | { kind: 'finish' };

/** Bounds of the candidate set. */
export interface CandidateLimits {
  /** Distinct values tried per parameter (most recent first). Default 3. */
  valuesPerParameter?: number;
  /** Argument combinations per tool. Default 8. */
  callsPerTool?: number;
}

function schemaObject(schema: JsonSchema | undefined): Record<string, unknown> | undefined {
  return typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : undefined;
}

function typesOf(schema: Record<string, unknown>): string[] | undefined {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts)) {
      const all = alts.flatMap((a) => {
        const o = schemaObject(a as JsonSchema);
        return o ? (typesOf(o) ?? []) : [];
      });
      if (all.length > 0) return all;
    }
  }
  return undefined;
}

function fitsScalar(value: JsonValue, schema: Record<string, unknown>): boolean {
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => canonicalJson(e as JsonValue) === canonicalJson(value))) return false;
  if (schema.const !== undefined && canonicalJson(schema.const as JsonValue) !== canonicalJson(value)) return false;
  const types = typesOf(schema);
  if (types === undefined) return value !== null && typeof value !== 'object';
  return types.some((t) =>
    t === 'string'
      ? typeof value === 'string'
      : t === 'integer'
        ? Number.isInteger(value)
        : t === 'number'
          ? typeof value === 'number'
          : t === 'boolean'
            ? typeof value === 'boolean'
            : t === 'null'
              ? value === null
              : false,
  );
}

// The value as the parameter takes it: itself, or wrapped in a list for array parameters.
function bindValue(value: JsonValue, schema: JsonSchema | undefined): JsonValue | undefined {
  const s = schemaObject(schema) ?? {};
  const types = typesOf(s);
  if (types?.includes('array')) {
    const items = schemaObject(s.items as JsonSchema) ?? {};
    if (Array.isArray(value)) return value.every((v) => fitsScalar(v, items)) ? value : undefined;
    return fitsScalar(value, items) ? [value] : undefined;
  }
  if (types?.includes('object')) return isJsonObject(value) ? value : undefined;
  return fitsScalar(value, s) ? value : undefined;
}

function sameWords(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

function contains(outer: string[], inner: string[]): boolean {
  return inner.length > 0 && inner.every((w) => outer.includes(w));
}

/**
 * Whether a seen value's name can fill a parameter: equal names (a list parameter also takes
 * its singular: `item_ids` ← `item_id`); a user's fact also when one name's words contain the
 * other's (`zip` ← "zip code").
 */
export function nameFits(value: SeenValue, parameter: string): boolean {
  const p = normalizeName(parameter);
  if (value.name === p) return true;
  if (p.endsWith('_ids') && value.name === p.slice(0, -1)) return true;
  if (p.endsWith('s') && value.name === p.slice(0, -1)) return true;
  if (value.origin !== 'user') return false;
  const pw = splitWords(p);
  const vw = value.name.split('_');
  return sameWords(pw, vw) || contains(vw, pw) || contains(pw, vw);
}

function requiredParameters(tool: ToolSpec): string[] {
  const req = tool.parameters.required;
  return Array.isArray(req) ? req.filter((r): r is string => typeof r === 'string') : [];
}

function parameterSchema(tool: ToolSpec, name: string): JsonSchema | undefined {
  const props = tool.parameters.properties as Record<string, JsonSchema> | undefined;
  return props?.[name];
}

interface Binding {
  value: JsonValue;
  source: SeenValue;
}

function bindingsFor(tool: ToolSpec, parameter: string, seen: readonly SeenValue[], limit: number): Binding[] {
  const out: Binding[] = [];
  const keys = new Set<string>();
  const schema = parameterSchema(tool, parameter);
  for (let i = seen.length - 1; i >= 0 && out.length < limit; i--) {
    const s = seen[i] as SeenValue;
    if (!nameFits(s, parameter)) continue;
    const value = bindValue(s.value, schema);
    if (value === undefined) continue;
    const key = canonicalJson(value);
    if (keys.has(key)) continue;
    keys.add(key);
    out.push({ value, source: s });
  }
  return out;
}

/** The text of the finish action: a short summary with the last tool output's key scalar values. */
export function finishText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.role === 'user') break;
    if (m.role !== 'tool' || m.isError === true) continue;
    let output: JsonValue;
    try {
      output = JSON.parse(m.content) as JsonValue;
    } catch {
      output = m.content;
    }
    if (isJsonObject(output)) {
      const parts = Object.entries(output)
        .filter(([, v]) => v === null || typeof v !== 'object')
        .slice(0, 8)
        .map(([k, v]) => `${splitWords(k).join(' ')}: ${String(v)}`);
      if (parts.length > 0) return `Done. ${parts.join('; ')}.`;
    } else if (output !== null && typeof output !== 'object') {
      return `Done. The result is ${String(output)}.`;
    }
    break;
  }
  return 'Done. Is there anything else I can help you with?';
}

/**
 * The candidate actions at the next agent turn, in a fixed order (calls by tool order and
 * binding recency, then asks, then finish): call a tool whose required parameters can all be
 * bound to type- and name-compatible values seen so far, ask the user for a required
 * parameter that no seen value fills, or finish. Deterministic in `messages` and `tools`.
 */
export function candidateActions(
  messages: readonly Message[],
  tools: readonly ToolSpec[],
  limits: CandidateLimits = {},
): CandidateAction[] {
  const perParameter = limits.valuesPerParameter ?? 3;
  const perTool = limits.callsPerTool ?? 8;
  const seen = seenValues(messages, tools);
  const calls: CandidateAction[] = [];
  const asks: string[] = [];
  for (const tool of tools) {
    const required = requiredParameters(tool);
    const options: Binding[][] = [];
    let bindable = true;
    for (const p of required) {
      const b = bindingsFor(tool, p, seen, perParameter);
      if (b.length === 0) {
        bindable = false;
        if (!asks.includes(p)) asks.push(p);
      }
      options.push(b);
    }
    if (!bindable) continue;
    // Combinations in odometer order (most recent values first), at most `perTool`.
    const index = required.map(() => 0);
    for (let made = 0; made < perTool; made++) {
      const args: JsonObject = {};
      const sources: ArgumentSource[] = [];
      required.forEach((p, k) => {
        const b = (options[k] as Binding[])[index[k] as number] as Binding;
        args[p] = b.value;
        sources.push({ parameter: p, origin: b.source.origin, messageIndex: b.source.messageIndex });
      });
      calls.push({ kind: 'call', tool, arguments: args, sources });
      let k = required.length - 1;
      while (k >= 0) {
        index[k] = (index[k] as number) + 1;
        if ((index[k] as number) < (options[k] as Binding[]).length) break;
        index[k] = 0;
        k--;
      }
      if (k < 0) break;
    }
  }
  return [...calls, ...asks.map((key): CandidateAction => ({ kind: 'ask', key })), { kind: 'finish' }];
}

/** The assistant message that performs a candidate at a turn (`messages` = the episode so far). */
export function renderCandidate(candidate: CandidateAction, messages: readonly Message[]): AssistantMessage {
  switch (candidate.kind) {
    case 'call':
      return {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: `call_${messages.length}`, name: candidate.tool.name, arguments: canonicalJson(candidate.arguments) }],
      };
    case 'ask':
      return { role: 'assistant', content: askText(candidate.key) };
    case 'finish':
      return { role: 'assistant', content: finishText(messages) };
  }
}

/** A key equal for a candidate and the message that performs it (tool name + canonical arguments, or text). */
export function actionKey(message: AssistantMessage): string {
  const calls = message.toolCalls ?? [];
  if (calls.length > 0) {
    return calls
      .map((c) => {
        let args: string;
        try {
          args = canonicalJson(JSON.parse(c.arguments) as JsonValue);
        } catch {
          args = c.arguments;
        }
        return `call:${c.name}:${args}`;
      })
      .join('\n');
  }
  return `say:${message.content ?? ''}`;
}
