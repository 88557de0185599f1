import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AceBenchSample } from './acebench-data.js';
import { ACEBENCH_CATEGORIES, loadAceBenchCategory } from './acebench-data.js';
import type { AceBenchCall } from './acebench-checker.js';
import { aceBenchStandardize, scoreAceBenchCall, scoreAceBenchSpecial } from './acebench-checker.js';
import type { PyValue } from './python-value.js';
import { PyFloat, isPyDict, pyTypeName } from './python-value.js';
import { BENCHMARKS } from './test-support.js';

type Dict = { [key: string]: PyValue };
const NORMAL = ACEBENCH_CATEGORIES.filter((c) => c.startsWith('normal'));
const SPECIAL = ACEBENCH_CATEGORIES.filter((c) => c.startsWith('special'));
const normal = NORMAL.flatMap((category) => loadAceBenchCategory(BENCHMARKS, category).map((s) => ({ category, ...s })));

// The gold answer of this sample fails ACEBench's own checker: `UserDietaryPreferences` is an
// "array" without `items`, which the checker takes for a list of dicts, and the answer is ['None'].
const CHECKER_REJECTS_GOLD = ['normal_preference_40'];

const firstAnswer = (s: AceBenchSample): Dict => (Array.isArray(s.answer.ground_truth) ? s.answer.ground_truth[0] : s.answer.ground_truth) as Dict;
const goldCalls = (answer: Dict): AceBenchCall[] => Object.entries(answer).map(([key, args]) => ({ name: key.replace(/_\d+$/, ''), arguments: (isPyDict(args) ? args : {}) as Dict }));
const score = (s: (typeof normal)[number], calls: readonly AceBenchCall[] | string) =>
  scoreAceBenchCall(calls, s.answer.ground_truth as PyValue, { functions: s.sample.function as PyValue[], category: s.category });

function schemaOf(s: AceBenchSample, name: string): Dict {
  const fn = (s.sample.function as Dict[]).find((f) => name.includes(String(f.name)));
  return (fn?.parameters ?? {}) as Dict;
}

describe('scoreAceBenchCall', () => {
  it(`accepts the gold answer of every normal sample (${normal.length} in 12 categories), except the one ACEBench's own checker rejects`, () => {
    expect(normal.length).toBe(823);
    const rejected = normal.filter((s) => !score(s, goldCalls(firstAnswer(s))).valid).map((s) => s.id);
    expect(rejected).toEqual(CHECKER_REJECTS_GOLD);
  });

  // Where an answer calls one function twice, ACEBench matches each answer entry against every
  // call of that name (not one to one), so a perturbed first call can pass on the second.
  const single = normal.filter((s) => new Set(Object.keys(firstAnswer(s)).map((k) => k.replace(/_\d+$/, ''))).size === Object.keys(firstAnswer(s)).length);

  it('rejects every gold answer with a wrong function name, an extra parameter, or one call too many', () => {
    const accepted: string[] = [];
    for (const s of normal) {
      const calls = goldCalls(firstAnswer(s));
      const renamed = calls.map((c, i) => (i === 0 ? { ...c, name: `${c.name}X` } : c));
      const extra = calls.map((c, i) => (i === 0 ? { ...c, arguments: { ...(c.arguments as Dict), zz_extra: 'x' } } : c));
      const doubled = [...calls, calls[0] as AceBenchCall];
      for (const [kind, bad] of [['renamed', renamed], ['extra', extra], ['doubled', doubled]] as const) {
        if (kind === 'extra' && !single.includes(s)) continue;
        if (score(s, bad).valid) accepted.push(`${s.id} ${kind}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('rejects a gold answer whose checked string value, required parameter or typed value is perturbed', () => {
    let perturbed = 0;
    const accepted: string[] = [];
    for (const s of single.filter((x) => !CHECKER_REJECTS_GOLD.includes(x.id))) {
      const answer = firstAnswer(s);
      const calls = goldCalls(answer);
      const [key, args] = Object.entries(answer)[0] as [string, Dict];
      const schema = schemaOf(s, key);
      const properties = (schema.properties ?? {}) as Dict;
      const required = (schema.required ?? []) as string[];
      const change = (param: string, value: PyValue | undefined, kind: string): void => {
        const next = { ...args };
        if (value === undefined) delete next[param];
        else next[param] = value;
        perturbed += 1;
        if (score(s, [{ ...(calls[0] as AceBenchCall), arguments: next }, ...calls.slice(1)]).valid) accepted.push(`${s.id} ${kind} ${param}`);
      };
      for (const [param, value] of Object.entries(args)) {
        const type = String((properties[param] as Dict | undefined)?.type);
        if (type === 'string' && typeof value === 'string' && aceBenchStandardize(value) !== '') change(param, 'zq perturbed zq', 'value');
        if (type === 'integer' && pyTypeName(value) === 'int') change(param, String(value), 'type');
        if (required.includes(param)) change(param, undefined, 'missing');
      }
    }
    expect(perturbed).toBeGreaterThan(1500);
    expect(accepted).toEqual([]);
  });

  it('checks int, float and bool values by type only (a float equal to the int answer passes), as ACEBench does', () => {
    const s = normal.find((x) => x.id === 'normal_similar_api_0') as (typeof normal)[number];
    const args = firstAnswer(s).vr_explore as Dict;
    const withLevel = (level: PyValue) => score(s, [{ name: 'vr_explore', arguments: { ...args, detail_level: level } }]);
    expect(withLevel(4).valid).toBe(true);
    expect(withLevel(new PyFloat(5)).valid).toBe(true);
    expect(withLevel(5.5)).toMatchObject({ valid: false, errorType: 'type_error' });
    expect(withLevel('5')).toMatchObject({ valid: false, errorType: 'type_error' });
    expect(score(s, [{ name: 'vr_explore', arguments: '{"application_area": "education", "detail_level": 5.5, "include_examples": true}' }]).valid).toBe(false);
    expect(score(s, [{ name: 'vr_explore', arguments: { ...args, include_examples: false } }]).valid).toBe(true);
  });

  it('matches each answer entry against every call of that name, not one to one (ACEBench)', () => {
    const s = normal.find((x) => x.id === 'normal_atom_object_deep_39') as (typeof normal)[number];
    const calls = goldCalls(firstAnswer(s));
    expect(calls.map((c) => c.name)).toEqual([calls[0]?.name, calls[0]?.name]);
    expect(score(s, [calls[1] as AceBenchCall, calls[1] as AceBenchCall]).valid).toBe(true);
  });

  it('reads a model text `[f(a=…)]`, whitespace removed as ACEBench does, and matches strings after standardize_string', () => {
    const s = normal.find((x) => x.id === 'normal_similar_api_0') as (typeof normal)[number];
    expect(score(s, "[vr_explore(application_area='EDUCATION ', detail_level=5, include_examples=True)]").valid).toBe(true);
    expect(score(s, '[vr_explore(application_area=')).toMatchObject({ valid: false, errorType: 'wrong_output_format' });
  });

  it('grades the README example: a text call against a one-function answer', () => {
    const functions = [{ name: 'vr_explore', parameters: { type: 'object', required: ['application_area'], properties: { application_area: { type: 'string' }, detail_level: { type: 'integer' } } } }];
    const answer = { vr_explore: { application_area: 'education', detail_level: 5 } };
    expect(scoreAceBenchCall("[vr_explore(application_area='Education', detail_level=5)]", answer, { functions }).valid).toBe(true);
    expect(scoreAceBenchCall("[vr_explore(application_area='Science', detail_level=5)]", answer, { functions })).toMatchObject({ valid: false, errorType: 'value_error:string' });
  });

  it('invariant: a string parameter passes when the model value contains the standardized answer (substring rule)', () => {
    const s = normal.find((x) => x.id === 'normal_similar_api_0') as (typeof normal)[number];
    const args = firstAnswer(s).vr_explore as Dict;
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (before, after) => {
        const value = `${before}education${after}`;
        return score(s, [{ name: 'vr_explore', arguments: { ...args, application_area: value } }]).valid === aceBenchStandardize(value).includes('education');
      }),
      { numRuns: 200 },
    );
  });
});

describe('scoreAceBenchSpecial', () => {
  const special = SPECIAL.flatMap((category) => loadAceBenchCategory(BENCHMARKS, category).map((s) => ({ category, ...s })));

  function goldText(category: string, answer: PyValue): string {
    if (category.includes('irrelevant')) return '["Due to the limitations of the function, I cannot solve this problem."]';
    const entries = Object.entries(answer as Dict) as [string, PyValue[]][];
    if (category.includes('incomplete')) return entries.map(([name, values]) => `["Missing necessary parameters (${values.join(', ')}) for the api (${name})"]`).join('\n');
    const values = entries.flatMap(([, v]) => v).join(', ');
    return `["There is incorrect value (${values}) for the parameters (${entries.map(([n]) => n).join(', ')}) in the conversation history."]`;
  }

  it('accepts the gold reply of every special sample (150) and rejects a plain function call', () => {
    expect(special).toHaveLength(150);
    const rejected = special.filter((s) => !scoreAceBenchSpecial(goldText(s.category, s.answer.ground_truth as PyValue), s.answer.ground_truth as PyValue, s.category).valid);
    expect(rejected.map((s) => s.id)).toEqual([]);
    const accepted = special.filter((s) => scoreAceBenchSpecial('[some_function(a=1)]', s.answer.ground_truth as PyValue, s.category).valid);
    expect(accepted.map((s) => s.id)).toEqual([]);
  });

  it('needs every missing parameter named (error_correction) once the problem is detected', () => {
    const s = special.find((x) => x.category === 'special_incomplete') as (typeof special)[number];
    const [name, values] = Object.entries(s.answer.ground_truth as Dict)[0] as [string, string[]];
    const partial = `["Missing necessary parameters (${values.slice(1).join(', ')}) for the api (${name})"]`;
    expect(scoreAceBenchSpecial(partial, s.answer.ground_truth as PyValue, s.category)).toMatchObject({ valid: false, errorType: 'error_correction' });
  });
});
