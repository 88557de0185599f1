import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from './workspace.js';

/** One entry point of a package: its import specifier and the source file it is built from. */
export interface EntryPoint {
  /** `@autoforge/erpo` or `@autoforge/erpo/tfjs`. */
  specifier: string;
  /** The `exports` key: `.` or `./tfjs`. */
  subpath: string;
  /** The source file tsup builds it from: `src/index.ts` or `src/tfjs/index.ts` (absolute). */
  source: string;
  /** The names `source` exports as values (not `export type`). */
  values: string[];
}

/**
 * The names a source file exports as values: `export { a, b as c } from …` and
 * `export function/const/class …`, without `export type { … }` and `type` members.
 */
export function valueExports(sourceText: string): string[] {
  const text = sourceText.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const names: string[] = [];
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    if (match[1]) continue;
    for (const part of (match[2] ?? '').split(',')) {
      const item = part.trim();
      if (!item || /^type\s/.test(item)) continue;
      names.push((item.split(/\s+as\s+/).pop() ?? item).trim());
    }
  }
  for (const match of text.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|enum)\s+([A-Za-z_$][\w$]*)/g)) {
    names.push(match[1] as string);
  }
  return [...new Set(names)];
}

/**
 * Every entry point of a package's `exports` but `./package.json`, with the source file it is
 * built from (`./dist/x.js` ← `src/x.ts` or `src/x/index.ts`).
 *
 * @throws Error when an entry point's source file cannot be found.
 */
export function entryPoints(dir: string, manifest: Manifest): EntryPoint[] {
  const entries: EntryPoint[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === './package.json') continue;
    const file = typeof target === 'string' ? target : target.default;
    if (!file) throw new Error(`package-checks: ${manifest.name}: exports["${subpath}"] has no default`);
    const base = file.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
    const source = [join(dir, 'src', `${base}.ts`), join(dir, 'src', base, 'index.ts')].find((path) => existsSync(path));
    if (!source) throw new Error(`package-checks: ${manifest.name}: no source for exports["${subpath}"] (${file})`);
    entries.push({
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`,
      subpath,
      source,
      values: valueExports(readFileSync(source, 'utf8')),
    });
  }
  return entries;
}
