import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The main entry is framework-free: nothing it reaches may import tfjs (that is the ./tfjs subpath).
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
    const spec = m[1] as string;
    if (spec.startsWith('.')) reachable(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(`pkg:${spec}`);
  }
  return seen;
}

describe('@autoforge/erpo main entry', () => {
  it('reaches no tfjs module', () => {
    const all = [...reachable(join(import.meta.dirname, 'index.ts'))];
    expect(all.some((f) => f.endsWith('advantages.ts'))).toBe(true);
    expect(all.filter((f) => f.includes('tensorflow') || f.includes('/tfjs/'))).toEqual([]);
  });
});
