// The judge reads dialogues in its own way: its runtime code imports none of the simulated
// user's conventions (the "dialect" once shared through core) and nothing from the user
// simulator's package. Tests may still use the simulator to produce episodes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname);
const DIALECT = [
  'factStatement',
  'askForFacts',
  'parseFactStatements',
  'statementsAbout',
  'asksFor',
  'factSubject',
  'sayValue',
  'readRequests',
  'asksAnything',
  'isRequestSentence',
  'isConfirmationRequest',
  'contentWords',
  'taskVocabulary',
  'FactStatement',
  'FactRef',
  'AgentRequests',
];

/** The names a source file imports, by module. */
function imports(text: string): { module: string; names: string[] }[] {
  const out: { module: string; names: string[] }[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?([^'"]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    const names = (m[2] as string).replace(/[{}*]/g, ' ').split(/[\s,]+/).filter((n) => n !== '' && n !== 'as' && n !== 'type');
    out.push({ module: m[3] as string, names });
  }
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ module: m[1] as string, names: [] });
  return out;
}

const runtime = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.bench.ts') && f !== 'test-support.ts',
);

describe('the judge depends on no simulated-user dialect', () => {
  it('reads its runtime sources', () => {
    expect(runtime).toContain('rule-judge.ts');
    expect(runtime).toContain('statements.ts');
    expect(imports("import { a, b as c } from 'x';\nimport type { T } from \"y\";")).toEqual([
      { module: 'x', names: ['a', 'b', 'c'] },
      { module: 'y', names: ['T'] },
    ]);
  });

  it('imports none of the dialect and nothing from the user simulator', () => {
    for (const file of runtime) {
      const found = imports(readFileSync(join(SRC, file), 'utf8'));
      for (const { module, names } of found) {
        expect(module, file).not.toMatch(/user-sim/);
        if (module === '@autoforge/core') expect(names.filter((n) => DIALECT.includes(n)), `${file} imports from core`).toEqual([]);
      }
    }
  });

  it('does not depend on the user simulator at run time', () => {
    const pkg = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter((d) => /user-sim/.test(d))).toEqual([]);
  });
});
