import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion, satisfies } from './semver.js';

describe('parseVersion', () => {
  it('reads valid versions and rejects ranges, leading zeros and partial versions', () => {
    expect(parseVersion('1.2.3-beta.1+build.5')).toEqual({ major: 1, minor: 2, patch: 3, prerelease: ['beta', '1'] });
    for (const bad of ['^1.2.3', '01.2.3', '1.2', 'v1.2.3', '1.2.3-', '']) expect(parseVersion(bad), bad).toBeUndefined();
  });
});

describe('compareVersions', () => {
  it('orders by precedence: numbers numerically, a prerelease before its release', () => {
    const sorted = ['0.0.0', '0.1.0', '0.2.0-0', '0.2.0-alpha', '0.2.0-alpha.1', '0.2.0-alpha.beta', '0.2.0', '0.10.0', '1.0.0'];
    for (let i = 0; i + 1 < sorted.length; i++) {
      expect(compareVersions(sorted[i] as string, sorted[i + 1] as string), `${sorted[i]} < ${sorted[i + 1]}`).toBeLessThan(0);
      expect(compareVersions(sorted[i + 1] as string, sorted[i] as string)).toBeGreaterThan(0);
    }
    expect(compareVersions('1.2.3+a', '1.2.3+b')).toBe(0);
  });
});

describe('satisfies', () => {
  it.each([
    ['0.1.5', '^0.1.0', true],
    ['0.2.0', '^0.1.0', false],
    ['1.9.0', '^1.2.3', true],
    ['2.0.0', '^1.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['4.1.99', '~4.1.12', true],
    ['4.2.0', '~4.1.12', false],
    ['0.5.0', '>=0.1.0 <1.0.0', true],
    ['1.0.0', '>=0.1.0 <1.0.0', false],
    ['2.5.0', '1.x || 2.x', true],
    ['3.0.0', '1.x || 2.x', false],
    ['7.7.7', '*', true],
    ['8.5.1', '8.5.1', true],
    ['8.5.2', '8.5.1', false],
    ['1.5.0', '1.0.0 - 2.0.0', true],
    ['not-a-version', '*', false],
  ])('%s against "%s" is %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});
