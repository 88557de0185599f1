import { describe, expect, it } from 'vitest';
import type { MetricsRow } from './load-run.js';
import { trainingCurves } from './training-curves.js';

const titles = (charts: string[]): string[] => charts.map((c) => /<title>([^<]*)<\/title>/.exec(c)![1]!);

describe('trainingCurves', () => {
  it('draws success rate, mean reward and masked share, one series per algorithm', () => {
    const metrics: MetricsRow[] = [0, 1, 2].flatMap((i) => [
      { iteration: i, algo: 'erpo', successRate: 0.2 + i / 10, meanReward: 0.1 * i, maskedShare: 0.1, episodes: 8 },
      { iteration: i, algo: 'grpo', successRate: 0.1 + i / 10, meanReward: 0.05 * i, maskedShare: 0, episodes: 8 },
    ]);
    const charts = trainingCurves(metrics);
    expect(titles(charts)).toEqual(['Training success rate', 'Mean reward', 'Filtered (masked) trajectory share']);
    for (const c of charts) expect(c.match(/class="series-line"/g)).toHaveLength(2);
    expect(charts[0]).toContain('>erpo</text>');
    expect(charts[2]).toContain('>erpo: masked by the judge</text>');
  });

  it('names runs by algorithm and judge, and draws the injected-error share beside the masked share', () => {
    const charts = trainingCurves([0, 1].flatMap((i) => [
      { iteration: i, algo: 'erpo', judge: true, successRate: 0.5, maskedShare: 0.1, injectedShare: 0.12 },
      { iteration: i, algo: 'erpo', judge: false, successRate: 0.4, maskedShare: 0, injectedShare: 0.12 },
    ]));
    expect(charts[0]).toContain('>erpo + judge</text>');
    expect(charts[0]).toContain('>erpo, no judge</text>');
    expect(charts[2]!.match(/class="series-line"/g)).toHaveLength(4);
    expect(charts[2]).toContain('>erpo + judge: injected user errors</text>');
  });

  it('adds held-out success, loss and KL only when some line has them', () => {
    const charts = trainingCurves([
      { iteration: 0, algo: 'erpo', successRate: 0.2, meanReward: 0.2, maskedShare: 0.1, heldOutSuccess: 0.15, kl: 0 },
      { iteration: 1, algo: 'erpo', successRate: 0.3, meanReward: 0.3, maskedShare: 0.1, kl: 0.01 },
    ]);
    expect(titles(charts)).toEqual(['Training success rate', 'Mean reward', 'Filtered (masked) trajectory share', 'Held-out success rate', 'KL to the reference policy']);
  });

  it('orders points by iteration and draws nothing without metrics', () => {
    const [chart] = trainingCurves([
      { iteration: 2, algo: 'a', successRate: 1 },
      { iteration: 0, algo: 'a', successRate: 0 },
    ]);
    const xs = [...chart!.matchAll(/class="series-point" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs[0]).toBeLessThan(xs[1]!);
    expect(trainingCurves([])).toEqual([]);
  });
});
