import type { Message, ToolSpec } from '@autoforge/core';
import { toolAccess } from '@autoforge/core';
import type { CandidateAction } from './candidates.js';
import { actionKey, renderCandidate } from './candidates.js';
import { userStatements } from './seen-values.js';

/** Buckets of the hashed tool-name one-hot. */
const TOOL_BUCKETS = 32;
/** Buckets of the hashed asked-fact one-hot. */
const ASK_BUCKETS = 16;
const BASE = 24;

/** Length of a candidate's feature vector. */
export const FEATURE_SIZE = BASE + TOOL_BUCKETS + ASK_BUCKETS;

/**
 * Whether a tool changes state: core's `toolAccess` (declared hints, then the name's verb, then
 * the description's), the one rule every package uses. When nothing says, not a write (the
 * dependency graph's default too).
 */
export function isWriteTool(tool: ToolSpec): boolean {
  return toolAccess(tool).access === 'write';
}

/** FNV-1a 32-bit hash, for stable feature buckets. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** What the features need to know about the episode so far, computed once per turn. */
export interface TurnSummary {
  turn: number;
  toolCalls: number;
  lastRole: Message['role'] | undefined;
  lastToolError: boolean;
  calledKeys: Set<string>;
  calledTools: Set<string>;
  failedTools: Set<string>;
  said: Set<string>;
  asks: number;
  writeSucceeded: boolean;
  anySucceeded: boolean;
  lastUserStatedFact: boolean;
  lastIndex: number;
}

/** Summarizes the episode so far for `candidateFeatures`. */
export function summarizeTurn(messages: readonly Message[], tools: readonly ToolSpec[]): TurnSummary {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const callName = new Map<string, string>();
  const s: TurnSummary = {
    turn: 0,
    toolCalls: 0,
    lastRole: messages[messages.length - 1]?.role,
    lastToolError: false,
    calledKeys: new Set(),
    calledTools: new Set(),
    failedTools: new Set(),
    said: new Set(),
    asks: 0,
    writeSucceeded: false,
    anySucceeded: false,
    lastUserStatedFact: false,
    lastIndex: messages.length - 1,
  };
  const stated = userStatements(messages, tools);
  messages.forEach((m, index) => {
    if (m.role === 'assistant') {
      s.turn += 1;
      const calls = m.toolCalls ?? [];
      if (calls.length > 0) {
        s.calledKeys.add(actionKey(m));
        for (const c of calls) {
          s.toolCalls += 1;
          s.calledTools.add(c.name);
          callName.set(c.id, c.name);
        }
      } else if (m.content !== null) {
        s.said.add(m.content);
        if (m.content.startsWith('Could you tell me')) s.asks += 1;
      }
    } else if (m.role === 'tool') {
      const name = callName.get(m.toolCallId) ?? '';
      s.lastToolError = m.isError === true;
      if (m.isError === true) s.failedTools.add(name);
      else {
        s.anySucceeded = true;
        const tool = byName.get(name);
        if (tool !== undefined && isWriteTool(tool)) s.writeSucceeded = true;
      }
    } else if (m.role === 'user') {
      s.lastUserStatedFact = (stated[index] ?? []).length > 0;
    }
  });
  return s;
}

/**
 * Writes a candidate's features into `out` at `offset` (FEATURE_SIZE floats): kind, episode
 * progress, repetition, read/write, argument provenance, and hashed tool / fact identity.
 */
export function candidateFeatures(
  candidate: CandidateAction,
  messages: readonly Message[],
  summary: TurnSummary,
  out: Float32Array,
  offset: number,
): void {
  const f = (i: number, v: number): void => {
    out[offset + i] = v;
  };
  out.fill(0, offset, offset + FEATURE_SIZE);
  f(0, 1);
  f(4, Math.min(summary.turn, 20) / 10);
  f(5, Math.min(summary.toolCalls, 20) / 10);
  f(6, summary.lastRole === 'user' ? 1 : 0);
  f(7, summary.lastRole === 'tool' ? 1 : 0);
  f(8, summary.lastToolError ? 1 : 0);
  switch (candidate.kind) {
    case 'call': {
      f(1, 1);
      const key = actionKey(renderCandidate(candidate, messages));
      const write = isWriteTool(candidate.tool);
      f(9, summary.calledKeys.has(key) ? 1 : 0);
      f(10, summary.calledTools.has(candidate.tool.name) ? 1 : 0);
      f(11, write ? 1 : 0);
      const n = candidate.sources.length;
      if (n > 0) {
        f(12, candidate.sources.filter((x) => x.origin === 'user').length / n);
        f(13, candidate.sources.filter((x) => x.origin === 'tool').length / n);
        f(14, candidate.sources.some((x) => x.messageIndex >= summary.lastIndex - 1) ? 1 : 0);
      }
      f(15, Math.min(n, 8) / 4);
      f(16, n === 0 ? 1 : 0);
      f(21, summary.failedTools.has(candidate.tool.name) ? 1 : 0);
      f(22, write && summary.writeSucceeded ? 1 : 0);
      f(BASE + (fnv1a(candidate.tool.name) % TOOL_BUCKETS), 1);
      break;
    }
    case 'ask': {
      f(2, 1);
      f(17, summary.said.has(renderCandidate(candidate, messages).content ?? '') ? 1 : 0);
      f(18, summary.lastUserStatedFact ? 1 : 0);
      f(23, Math.min(summary.asks, 8) / 4);
      f(BASE + TOOL_BUCKETS + (fnv1a(candidate.key) % ASK_BUCKETS), 1);
      break;
    }
    case 'finish':
      f(3, 1);
      f(19, summary.writeSucceeded ? 1 : 0);
      f(20, summary.anySucceeded ? 1 : 0);
      break;
  }
}
