import { describe, expect, it } from 'vitest';
import { IssueList } from './issue.js';
import { parseText } from './source-text.js';

const options = { maxBytes: 1_000_000, maxAliasCount: 100 };

function parse(text: string) {
  const issues = new IssueList();
  const parsed = parseText(text, options, issues);
  return { parsed, issues: issues.items };
}

describe('parseText', () => {
  it('maps pointers in JSON to the key or item that starts them', () => {
    const { parsed } = parse('{\n  "a": [\n    1,\n    {"b/c": true}\n  ]\n}');
    expect(parsed?.syntax).toBe('json');
    expect(parsed?.locate('')).toEqual({ line: 1, column: 1 });
    expect(parsed?.locate('/a')).toEqual({ line: 2, column: 3 });
    expect(parsed?.locate('/a/1')).toEqual({ line: 4, column: 5 });
    expect(parsed?.locate('/a/1/b~1c')).toEqual({ line: 4, column: 6 });
    // A pointer that goes further than the document stops at the deepest node that exists.
    expect(parsed?.locate('/a/1/missing/x')).toEqual({ line: 4, column: 5 });
  });

  it('maps pointers in YAML, through aliases, to keys and items', () => {
    const text = ['base: &base', '  type: object', 'tools:', '  - name: a', '    schema: *base', '  - name: b'].join('\n');
    const { parsed } = parse(text);
    expect(parsed?.syntax).toBe('yaml');
    expect(parsed?.value).toEqual({ base: { type: 'object' }, tools: [{ name: 'a', schema: { type: 'object' } }, { name: 'b' }] });
    expect(parsed?.locate('/tools/1')).toEqual({ line: 6, column: 5 });
    expect(parsed?.locate('/tools/0/schema')).toEqual({ line: 5, column: 5 });
    expect(parsed?.locate('/tools/0/schema/type')).toEqual({ line: 2, column: 3 });
  });

  it('reads JSON Lines as an array of records and locates inside each line', () => {
    const { parsed } = parse('{"id": 1}\n\n{"id": 2, "f": [{"n": 1}]}\n');
    expect(parsed?.syntax).toBe('jsonl');
    expect(parsed?.value).toEqual([{ id: 1 }, { id: 2, f: [{ n: 1 }] }]);
    expect(parsed?.locate('/1')).toEqual({ line: 3, column: 1 });
    expect(parsed?.locate('/1/f/0')).toEqual({ line: 3, column: 17 });
  });

  it('reports a broken JSON Lines record on its own line', () => {
    const { parsed, issues } = parse('{"id": 1}\n{"id": 2}\n{"id": 3, "f": [');
    expect(parsed).toBeUndefined();
    expect(issues).toEqual([{ code: 'E_SYNTAX', pointer: '/2', detail: expect.stringMatching(/truncated/), line: 3, column: 17 }]);
  });

  it('reports YAML errors with their position, duplicate keys included', () => {
    const { issues } = parse('a: 1\nb: [1, 2\nc: 3\n');
    expect(issues[0]).toMatchObject({ code: 'E_SYNTAX', line: expect.any(Number) });
    const duplicate = parse('a: 1\na: 2\n');
    expect(duplicate.issues.map((i) => [i.code, i.line])).toEqual([['E_SYNTAX', 2]]);
  });

  it('reports JSON that is not valid at the failing character', () => {
    const { issues } = parse('{"a": 1,}');
    expect(issues).toEqual([{ code: 'E_SYNTAX', pointer: '', detail: 'invalid JSON: property name expected', line: 1, column: 9 }]);
  });
});
