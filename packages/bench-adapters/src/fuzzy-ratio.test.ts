import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzDefaultProcess, fuzzExtract, fuzzPartialRatio, fuzzRatio, fuzzRerank, lcsLength } from './fuzzy-ratio.js';

function naiveLcs(a: string, b: string): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return dp[a.length]![b.length]!;
}

describe('lcsLength', () => {
  it('invariant: the bit-parallel LCS equals the dynamic-programming LCS (across word boundaries too)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 90, unit: fc.constantFrom('a', 'b', 'c', 'd') }), fc.string({ maxLength: 90, unit: fc.constantFrom('a', 'b', 'c', 'd') }), (a, b) => {
        return lcsLength([...a], [...b]) === naiveLcs(a, b);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fuzzRatio and fuzzPartialRatio', () => {
  it('give the scores rapidfuzz 3.14.6 gives (rounded as thefuzz rounds), float rounding included', () => {
    const cases: [string, string, number, number][] = [
      ['Yunnan University Affiliated Hospital', 'Yunnan University Affiliated Hospital, 160 meters southeast of the intersection of Xinmin Lane and Pingzheng Street, Wuhua District, Kunming, Yunnan Province', 100, 38],
      ['ricenoodles', 'Jintugo Bean Sprout Crossing Bridge Rice NoodlesDine-in available,Quick service', 82, 22],
      ['Kunming', 'Kunming City', 100, 74],
      ['Taiyuan Xiaodian District home', 'Room 502, Unit 1, Building 3, Longcheng Shangdu, 136 Qinxian North Street, Xiaodian District, Taiyuan City', 63, 34],
      [' db', 'baaccgeeb fbhghced hbabdhhg efeeadbchfa chfcgcbdaccg e eadfddbhdcdhaehb ccacc', 67, 7], // ratio 7.499999999999996
      ['heh  gcdfdbbcaabghbc hhccfbgbag fc', 'cdf dhhbegdgceacdghdaf ghfddbacgdgefbhbb cdfef', 46, 43], // ratio 42.50000000000001
    ];
    for (const [a, b, partial, ratio] of cases) expect([fuzzPartialRatio(a, b), fuzzRatio(a, b)], a).toEqual([partial, ratio]);
  });

  it('give thefuzz\'s documented scores', () => {
    expect(fuzzRatio('this is a test', 'this is a test!')).toBe(97);
    expect(fuzzPartialRatio('this is a test', 'this is a test!')).toBe(100);
    expect(fuzzRatio('fuzzy wuzzy was a bear', 'wuzzy fuzzy was a bear')).toBe(91);
    expect(fuzzPartialRatio('', 'abc')).toBe(0);
    expect(fuzzRatio('', '')).toBe(100);
    expect(fuzzPartialRatio('', '')).toBe(100);
  });

  it('invariant: a non-empty substring scores 100; scores are symmetric and within 0..100', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ minLength: 1, maxLength: 20 }), fc.string({ maxLength: 30 }), (pre, mid, post) => {
        const long = `${pre}${mid}${post}`;
        const p = fuzzPartialRatio(mid, long);
        const r = fuzzRatio(mid, long);
        return p === 100 && r === fuzzRatio(long, mid) && r >= 0 && r <= 100 && fuzzPartialRatio(long, mid) === 100;
      }),
      { numRuns: 200 },
    );
  });
});

describe('fuzzExtract and fuzzRerank', () => {
  it('rank by partial ratio after default processing, ties in the choices\' order, ids from the last equal text', () => {
    expect(fuzzDefaultProcess('  Mid-Autumn, Festival! ')).toBe('mid autumn  festival');
    expect(fuzzExtract('mid autumn', ['Qixi Festival', 'Mid-Autumn Festival', 'Autumn'])).toEqual([
      ['Mid-Autumn Festival', 100],
      ['Autumn', 100],
      ['Qixi Festival', 32],
    ]);
    expect(fuzzExtract('gym swimming', ['Quanli Fitness Swimming Club,Gym,Swimming Pool', 'Kangti Swimming Fitness Club,Gym', 'Hair Studio,Salon']).map(([, s]) => s)).toEqual([100, 83, 33]);
    const ranked = fuzzRerank('noodles', new Map([['s1', 'Rice Noodles'], ['s2', 'Pizza'], ['s3', 'Rice Noodles']]));
    expect(ranked.map(([id, , score]) => [id, score])).toEqual([
      ['s3', 100],
      ['s3', 100],
      ['s2', 0],
    ]);
  });
});
