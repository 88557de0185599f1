import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ablationConfigs, ablationFigure, ablationSvg, meanStd } from './ablation-figure.js';
import type { AblationRow } from '../ablation.js';

const row = (algo: AblationRow['algo'], judge: boolean, seed: number, after: number, curve: number[]): AblationRow => ({
  algo, judge, userErrorRate: 0.2, seed, heldOutBefore: 0.3, heldOutAfter: after, curve, maskedShare: [],
});

describe('meanStd', () => {
  it('is the mean and the sample standard deviation', () => {
    expect(meanStd([1, 3])).toEqual({ mean: 2, std: Math.SQRT2 });
    expect(meanStd([5])).toEqual({ mean: 5, std: 0 });
    expect(meanStd([])).toEqual({ mean: 0, std: 0 });
    expect(meanStd([Number.NaN, 4])).toEqual({ mean: 4, std: 0 });
  });

  it('std is never negative and zero for equal values (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }), (xs) => {
        expect(meanStd(xs).std).toBeGreaterThanOrEqual(0);
        expect(meanStd(xs.map(() => xs[0]!)).std).toBeCloseTo(0, 6);
      }),
    );
  });
});

describe('ablationConfigs', () => {
  it('groups seeds by configuration: algorithm, judge on before off', () => {
    const configs = ablationConfigs({
      iterations: 2,
      rows: [row('grpo', false, 0, 0.5, [0.1]), row('erpo', false, 0, 0.6, [0.1]), row('erpo', true, 1, 0.7, [0.2]), row('erpo', true, 0, 0.8, [0.3])],
    });
    expect(configs.map((c) => [c.label, c.rows.length])).toEqual([['ERPO + judge', 2], ['ERPO, no judge', 1], ['GRPO, no judge', 1]]);
  });

  it('names the user error rate when the rows differ in it', () => {
    const configs = ablationConfigs({ iterations: 1, rows: [row('erpo', true, 0, 0.5, []), { ...row('erpo', true, 0, 0.5, []), userErrorRate: 0.4 }] });
    expect(configs.map((c) => c.label)).toEqual(['ERPO + judge (u=0.2)', 'ERPO + judge (u=0.4)']);
  });
});

describe('ablationFigure', () => {
  it('draws held-out bars with error bars and mean curves with ±std bands', () => {
    const [bars, curves] = ablationFigure({
      iterations: 3,
      rows: [row('erpo', true, 0, 0.7, [0.3, 0.5, 0.7]), row('erpo', true, 1, 0.8, [0.3, 0.6, 0.8]), row('grpo', true, 0, 0.6, [0.3, 0.4, 0.5])],
    });
    expect(bars!.match(/class="bar"/g)).toHaveLength(4);
    // ERPO has two seeds (error bars on both bars: before is equal, so only after has one); GRPO one seed (none)
    expect(bars!.match(/class="error-bar"/g)).toHaveLength(1);
    expect(bars).toContain('mean ± std over 2 seeds');
    expect(curves!.match(/class="series-line"/g)).toHaveLength(2);
    expect(curves!.match(/class="series-band"/g)).toHaveLength(2);
    expect(`${bars}${curves}`).not.toMatch(/NaN|Infinity/);
  });

  it('draws nothing for no rows', () => {
    expect(ablationFigure({ rows: [], iterations: 0 })).toEqual([]);
  });
});

describe('ablationSvg', () => {
  it('puts both charts side by side in one standalone SVG', () => {
    const svg = ablationSvg({ rows: [row('erpo', true, 1, 0.8, [0.1, 0.5, 0.9]), row('grpo', false, 1, 0.4, [0.1, 0.2, 0.3])], iterations: 3 });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 1160 \d+"/);
    expect(svg.match(/<svg x="\d+" y="0" class="chart/g)).toHaveLength(2);
    expect(svg).toContain('<svg x="580" y="0" class="chart line-chart');
    expect(svg).toContain('class="bar"');
    expect(svg.endsWith('</svg></svg>\n')).toBe(true);
  });
  it('says so for an ablation without runs', () => {
    expect(ablationSvg({ rows: [], iterations: 0 })).toContain('No ablation runs.');
  });
});
