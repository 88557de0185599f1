import { readText } from './benchmark-files.js';
import { BenchAdapterError } from './error.js';

/**
 * One language's text of a VitaBench prompt file (`prompts/*.yaml`: `name`, and `chinese` /
 * `english` as YAML block scalars `|-`). Reads the block scalar without a YAML library: its lines
 * at the first line's indentation (blank lines kept), trailing newlines dropped (`|-`).
 */
export function readVitaPrompt(path: string, language: 'english' | 'chinese' = 'english'): string {
  const lines = readText(path).split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^${language}:\\s*\\|-?\\s*$`).test(l));
  if (start < 0) throw new BenchAdapterError('E_DATA', `${path}: no "${language}: |-" block`, { location: { file: path } });
  const body: string[] = [];
  let indent: number | undefined;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') {
      body.push('');
      continue;
    }
    const own = line.length - line.trimStart().length;
    indent ??= own;
    if (own < indent) break;
    body.push(line.slice(indent));
  }
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  return body.join('\n');
}

/** Python's `str.format` with named fields: `{name}` replaced, `{{` and `}}` unescaped. Unknown fields throw `E_DATA`. */
export function pyFormat(template: string, fields: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = name === undefined ? undefined : fields[name];
    if (value === undefined) throw new BenchAdapterError('E_DATA', `prompt template: no value for {${String(name)}}`);
    return value;
  });
}
