import type { JsonValue, ToolGroup, ToolSpec } from '@autoforge/core';
import { canonicalJson } from '@autoforge/core';
import { isSample, toolEntries } from './detect-format.js';
import type { IssueList } from './issue.js';
import { cloneJson, describeType, isObject, own } from './json-value.js';
import type { ReadContext, ReadOutput } from './reader.js';
import { buildTool, collectExtensions } from './tool-builder.js';

function buildFunction(fn: unknown, pointer: string, ctx: ReadContext): ToolSpec | undefined {
  if (!isObject(fn)) {
    ctx.issues.add('E_INVALID_TOOL', pointer, `a function must be an object, not ${describeType(fn)}`);
    return undefined;
  }
  // ACEBench writes some parameter schemas under `arguments` and an output schema under `results`.
  const parametersKey = own(fn, 'parameters') === undefined && own(fn, 'arguments') !== undefined ? 'arguments' : 'parameters';
  // BFCL writes the output schema under `response`, ACEBench under `results`.
  const outputKey = own(fn, 'results') === undefined && own(fn, 'response') !== undefined ? 'response' : 'results';
  const extensions = collectExtensions(fn);
  const tags = own(fn, 'tags');
  if (tags !== undefined) extensions['x-bfcl-tags'] = cloneJson(tags);
  return buildTool(
    {
      pointer,
      holder: pointer,
      name: own(fn, 'name'),
      description: own(fn, 'description'),
      parameters: own(fn, parametersKey),
      parametersKey,
      outputSchema: own(fn, outputKey),
      outputKey,
      dialect: { bfcl: true },
      extensions,
    },
    ctx.format,
    ctx.issues,
  );
}

function canonical(value: unknown): string {
  try {
    return canonicalJson(value as JsonValue);
  } catch {
    return JSON.stringify(value) ?? '';
  }
}

function sampleId(sample: unknown, index: number): string {
  const id = own(sample, 'id');
  return typeof id === 'string' || typeof id === 'number' ? String(id) : String(index);
}

interface Seen {
  canonical: string;
  pointer: string;
  conflicts: string[];
}

/** Reads one sample's function list; names already seen in this sample must be identical. */
function readSampleFunctions(
  sample: unknown,
  pointer: string,
  ctx: ReadContext,
  onFunction: (fn: unknown, name: string, canonicalText: string, pointer: string) => void,
): string[] | undefined {
  const list = own(sample, 'function');
  if (!Array.isArray(list)) {
    ctx.issues.add('E_INVALID_TOOL', pointer, `a sample must be an object with a "function" array, not ${describeType(sample)}`);
    return undefined;
  }
  const names: string[] = [];
  const local = new Map<string, string>();
  list.forEach((fn, j) => {
    const at = `${pointer}/function/${j}`;
    const name = own(fn, 'name');
    if (typeof name !== 'string' || name.trim() === '') {
      buildFunction(fn, at, ctx); // reports the problem
      return;
    }
    const text = canonical(fn);
    const previous = local.get(name);
    if (previous !== undefined) {
      if (previous !== text) ctx.issues.add('E_DUPLICATE_TOOL', at, `the sample defines tool "${name}" twice, differently`);
      return;
    }
    local.set(name, text);
    names.push(name);
    onFunction(fn, name, text, at);
  });
  return names;
}

function reportConflicts(seen: Map<string, Seen>, issues: IssueList, describe: (pointer: string) => string): void {
  for (const [name, entry] of seen) {
    if (entry.conflicts.length === 0) continue;
    const others = entry.conflicts.map(describe).join(', ');
    issues.add(
      'W_CONFLICTING_TOOL',
      entry.conflicts[0] as string,
      `tool "${name}" is defined differently at ${others}; kept the first definition (${describe(entry.pointer)})`,
    );
  }
}

/**
 * Reads BFCL / ACEBench functions (`{ name, description, parameters: { type: "dict", … } }`):
 * a single function, an array of them, or samples with their own `function` lists (ACEBench
 * JSON Lines). For samples the tools are the distinct ones by name and each sample is a group.
 */
export function readBfcl(value: unknown, ctx: ReadContext): ReadOutput {
  const samples = Array.isArray(value) && value.some(isSample) ? value : isSample(value) ? [value] : undefined;
  if (samples === undefined) {
    const found = toolEntries(value);
    if (!found) {
      ctx.issues.add('E_UNKNOWN_FORMAT', '', `expected BFCL functions or samples with a "function" list, not ${describeType(value)}`);
      return { tools: [] };
    }
    const tools: ToolSpec[] = [];
    for (const { value: fn, pointer } of found.entries) {
      const tool = buildFunction(fn, pointer, ctx);
      if (tool) tools.push(tool);
    }
    return { tools };
  }
  const prefix = Array.isArray(value) ? (i: number) => `/${i}` : () => '';
  const tools: ToolSpec[] = [];
  const groups: ToolGroup[] = [];
  if (ctx.sample !== undefined) {
    const index = samples.findIndex((s, i) => sampleId(s, i) === ctx.sample);
    if (index === -1) {
      ctx.issues.add('E_SAMPLE_NOT_FOUND', '', `no sample has the id ${JSON.stringify(ctx.sample)}`);
      return { tools, sampleApplied: true };
    }
    const pointer = prefix(index);
    const names = readSampleFunctions(samples[index], pointer, ctx, (fn, _name, _text, at) => {
      const tool = buildFunction(fn, at, ctx);
      if (tool) tools.push(tool);
    });
    if (names) groups.push({ id: ctx.sample, tools: names, source: { format: ctx.format, pointer } });
    return { tools, groups, sampleApplied: true };
  }
  const seen = new Map<string, Seen>();
  samples.forEach((sample, i) => {
    const pointer = prefix(i);
    const names = readSampleFunctions(sample, pointer, ctx, (fn, name, text, at) => {
      const entry = seen.get(name);
      if (entry === undefined) {
        seen.set(name, { canonical: text, pointer: at, conflicts: [] });
        const tool = buildFunction(fn, at, ctx);
        if (tool) tools.push(tool);
      } else if (entry.canonical !== text) {
        entry.conflicts.push(at);
      }
    });
    if (names) groups.push({ id: sampleId(sample, i), tools: names, source: { format: ctx.format, pointer } });
  });
  reportConflicts(seen, ctx.issues, ctx.describe);
  return { tools, groups };
}
