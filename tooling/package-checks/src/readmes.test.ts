import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPoints, valueExports, type EntryPoint } from './entry-points.js';
import { readmeProblems } from './readme-check.js';
import { publishedPackages } from './workspace.js';

describe.each(publishedPackages().map((p) => [p.manifest.name, p]))('README of %s', (_name, pkg) => {
  it('has a title, a purpose, Install, an example and an entry for every value export (STYLE.md)', () => {
    const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8');
    expect(readmeProblems(readme, { name: pkg.manifest.name, entries: entryPoints(pkg.dir, pkg.manifest) })).toEqual([]);
  });
});

describe('valueExports', () => {
  it('lists value exports and leaves out type-only ones', () => {
    const source = [
      "export type { A, B } from './a.js';",
      "export { c, type D, e as f } from './c.js';",
      '// export { commented } from "./x.js";',
      'export const g = 1;',
      'export function h() {}',
      'export class I {}',
    ].join('\n');
    expect(valueExports(source)).toEqual(['c', 'f', 'g', 'h', 'I']);
  });
});

describe('readmeProblems', () => {
  const entries: EntryPoint[] = [
    { specifier: '@autoforge/x', subpath: '.', source: 'src/index.ts', values: ['makeThing', 'THINGS'] },
    { specifier: '@autoforge/x/extra', subpath: './extra', source: 'src/extra/index.ts', values: ['extraThing'] },
  ];
  const good = [
    '# @autoforge/x',
    '',
    'Makes things for AutoForge.',
    '',
    '## Install',
    '',
    '```sh',
    'npm install @autoforge/x',
    '```',
    '',
    '## Example',
    '',
    '```ts',
    "import { makeThing } from '@autoforge/x';",
    '```',
    '',
    '## `makeThing(options?)`',
    '',
    '| option | default |',
    '|---|---|',
    '',
    '- `THINGS` — every thing.',
    '',
    '## `@autoforge/x/extra`',
    '',
    '| `extraThing(x)` | an extra thing |',
  ].join('\n');

  it('finds nothing to report in a README with every part', () => {
    expect(readmeProblems(good, { name: '@autoforge/x', entries })).toEqual([]);
  });

  it('reports an export named only in running text or in a code block', () => {
    const readme = good.replace('- `THINGS` — every thing.', 'Also `THINGS`.\n\n```ts\nTHINGS;\n```');
    expect(readmeProblems(readme, { name: '@autoforge/x', entries })).toEqual(['@autoforge/x: `THINGS` has no heading, table row or list item']);
  });

  it('reports a wrong title, a missing install command and an example that does not import the package', () => {
    const readme = good.replace('# @autoforge/x', '# x').replace('npm install @autoforge/x', 'npm install x').replace("from '@autoforge/x'", "from 'x'");
    expect(readmeProblems(readme, { name: '@autoforge/x', entries })).toEqual([
      'the first line is not "# @autoforge/x"',
      'the Install section does not show "npm install @autoforge/x"',
      'the Example section has no TypeScript/JavaScript block importing @autoforge/x',
    ]);
  });

  it('reports a README that starts with a section instead of a purpose, and an unnamed subpath', () => {
    const readme = good.replace('Makes things for AutoForge.\n\n', '').replace('## `@autoforge/x/extra`', '## Extras');
    expect(readmeProblems(readme, { name: '@autoforge/x', entries })).toEqual([
      'no purpose paragraph right under the title',
      'no heading names the entry point @autoforge/x/extra',
    ]);
  });

  it('counts a list item with its continuation lines, but not the paragraph after it', () => {
    const continued = good.replace('- `THINGS` — every thing.', '- `makeThing` and, wrapped onto the next line,\n  `THINGS` — every thing.');
    expect(readmeProblems(continued, { name: '@autoforge/x', entries })).toEqual([]);
    const after = good.replace('- `THINGS` — every thing.', '- `makeThing` — one thing.\n\n  `THINGS` is a paragraph after a blank line.');
    expect(readmeProblems(after, { name: '@autoforge/x', entries })).toEqual(['@autoforge/x: `THINGS` has no heading, table row or list item']);
  });

  it('does not take a longer name for the export (`makeThings` is not `makeThing`)', () => {
    const readme = good.replace('## `makeThing(options?)`', '## `makeThings(options?)`');
    expect(readmeProblems(readme, { name: '@autoforge/x', entries })).toEqual(['@autoforge/x: `makeThing` has no heading, table row or list item']);
  });
});
