import type { EntryPoint } from './entry-points.js';

/** What a package README must document: the package name and its entry points. */
export interface ReadmeSubject {
  name: string;
  entries: readonly EntryPoint[];
}

const FENCE = /^(```|~~~)/;

/** The README's lines outside fenced code blocks, and its fenced blocks with their info strings. */
function split(readme: string): { prose: string[]; blocks: { lang: string; code: string }[] } {
  const prose: string[] = [];
  const blocks: { lang: string; code: string }[] = [];
  let block: { lang: string; lines: string[] } | undefined;
  for (const line of readme.split('\n')) {
    if (block) {
      if (FENCE.test(line.trim())) {
        blocks.push({ lang: block.lang, code: block.lines.join('\n') });
        block = undefined;
      } else block.lines.push(line);
    } else if (FENCE.test(line.trim())) block = { lang: line.trim().slice(3).trim().toLowerCase(), lines: [] };
    else prose.push(line);
  }
  return { prose, blocks };
}

/** The level-2 sections: heading text → the lines under it (code blocks included). */
function sections(readme: string): Map<string, string> {
  const result = new Map<string, string>();
  let inFence = false;
  let current: string | undefined;
  for (const line of readme.split('\n')) {
    if (FENCE.test(line.trim())) inFence = !inFence;
    const heading = !inFence ? /^##\s+(.*)$/.exec(line) : null;
    if (heading) {
      current = (heading[1] ?? '').trim();
      result.set(current, '');
    } else if (current !== undefined) result.set(current, `${result.get(current) ?? ''}${line}\n`);
  }
  return result;
}

/** Headings, table rows and list items (a list item with its indented continuation lines). */
function entries(prose: readonly string[]): string[] {
  const out: string[] = [];
  let item: string | undefined;
  for (const line of prose) {
    if (item !== undefined && /^\s{2,}\S/.test(line) && !/^\s*([-*+]|\d+\.)\s/.test(line)) {
      item += ` ${line.trim()}`;
      continue;
    }
    if (item !== undefined) out.push(item);
    item = undefined;
    if (/^\s*([-*+]|\d+\.)\s/.test(line)) item = line;
    else if (/^#{1,6}\s/.test(line) || /^\s*\|/.test(line)) out.push(line);
  }
  if (item !== undefined) out.push(item);
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * What a package README lacks, per STYLE.md: a `# <name>` title, a short purpose paragraph
 * under it, an `## Install` section with `npm install <name>` (or `pnpm add`), an example
 * (`## Example` with a TypeScript or JavaScript block importing the package), a heading naming
 * each subpath entry point, and an entry for every value export of every entry point: its name
 * in backticks in a heading, a table row or a list item (with its indented continuation lines;
 * outside code blocks — a mention in running text does not count). Empty when it lacks nothing.
 */
export function readmeProblems(readme: string, subject: ReadmeSubject): string[] {
  const problems: string[] = [];
  const lines = readme.split('\n');
  const { prose, blocks } = split(readme);
  const bySection = sections(readme);

  if (lines[0] !== `# ${subject.name}`) problems.push(`the first line is not "# ${subject.name}"`);

  const firstBlock = readme.split('\n').slice(1).join('\n').trim().split(/\n\s*\n/)[0] ?? '';
  if (firstBlock === '' || /^(#|```|~~~|\||[-*+] |>|<)/.test(firstBlock)) {
    problems.push('no purpose paragraph right under the title');
  } else {
    const sentence = firstBlock.replace(/\s+/g, ' ').split(/(?<=[.!?])\s/)[0] ?? '';
    if (sentence.length > 400) problems.push(`the purpose sentence is ${sentence.length} characters (at most 400)`);
  }

  const install = bySection.get('Install');
  if (install === undefined) problems.push('no "## Install" section');
  else if (!new RegExp(`(npm install|npm i|pnpm add|yarn add) (-[-\\w]+ )*${escape(subject.name)}(\\s|$)`).test(install)) {
    problems.push(`the Install section does not show "npm install ${subject.name}"`);
  }

  const example = [...bySection].find(([heading]) => /^(Example|Examples|Usage|Quick start)\b/i.test(heading))?.[1];
  const importsPackage = new RegExp(`from ['"]${escape(subject.name)}(/[\\w./-]+)?['"]`);
  if (example === undefined) problems.push('no "## Example" section');
  else if (!split(example).blocks.some((b) => /^(ts|typescript|js|javascript|mjs|mts)\b/.test(b.lang) && importsPackage.test(b.code))) {
    problems.push(`the Example section has no TypeScript/JavaScript block importing ${subject.name}`);
  }
  if (blocks.length === 0) problems.push('no code block at all');

  const entryLines = entries(prose);
  const headings = prose.filter((line) => /^#{1,6}\s/.test(line));
  for (const entry of subject.entries) {
    if (entry.subpath !== '.' && !headings.some((h) => h.includes(entry.specifier))) {
      problems.push(`no heading names the entry point ${entry.specifier}`);
    }
    for (const name of entry.values) {
      const named = new RegExp(`\`(new\\s+)?${escape(name)}(?![\\w$])`);
      if (!entryLines.some((line) => named.test(line))) {
        problems.push(`${entry.specifier}: \`${name}\` has no heading, table row or list item`);
      }
    }
  }
  return problems;
}
