// Just enough semver (https://semver.org) for checking release plans: versions, ordering and
// the range forms package.json files here use (^, ~, comparators, x-ranges, ||).

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/;

/** The version, or undefined when `text` is not a valid semantic version. */
export function parseVersion(text: string): Version | undefined {
  const match = VERSION.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease: match[4] ? match[4].split('.') : [] };
}

function parseOrThrow(text: string): Version {
  const version = parseVersion(text);
  if (!version) throw new Error(`semver: "${text}" is not a version`);
  return version;
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Math.sign(Number(a) - Number(b));
  if (numeric.test(a)) return -1;
  if (numeric.test(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative, zero or positive as `a` precedes, equals or follows `b` (build metadata ignored). */
export function compareVersions(a: string, b: string): number {
  const x = parseOrThrow(a);
  const y = parseOrThrow(b);
  const core = Math.sign(x.major - y.major) || Math.sign(x.minor - y.minor) || Math.sign(x.patch - y.patch);
  if (core !== 0) return core;
  if (x.prerelease.length === 0 || y.prerelease.length === 0) return Math.sign(y.prerelease.length - x.prerelease.length);
  for (let i = 0; i < Math.max(x.prerelease.length, y.prerelease.length); i++) {
    const p = x.prerelease[i];
    const q = y.prerelease[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const order = compareIdentifiers(p, q);
    if (order !== 0) return order;
  }
  return 0;
}

type Comparator = (version: string) => boolean;

/** `1`, `1.2`, `1.x`, `1.2.*` → the missing parts as undefined. */
function partial(text: string): { parts: (number | undefined)[]; rest: string } {
  const [main = '', ...rest] = text.split('-');
  const parts = main.split('.').map((part) => (part === '' || /^[xX*]$/.test(part) ? undefined : Number(part)));
  while (parts.length < 3) parts.push(undefined);
  return { parts, rest: rest.length > 0 ? `-${rest.join('-')}` : '' };
}

function comparator(token: string): Comparator[] {
  const match = /^(\^|~|>=|<=|>|<|=)?v?(.*)$/.exec(token);
  const op = match?.[1] ?? '';
  const { parts, rest } = partial(match?.[2] ?? '');
  const [major, minor, patch] = parts;
  const ge = (v: string) => (x: string) => compareVersions(x, v) >= 0;
  const lt = (v: string) => (x: string) => compareVersions(x, v) < 0;
  if (major === undefined) return op === '<' || op === '>' ? [() => false] : [() => true];
  const lower = `${major}.${minor ?? 0}.${patch ?? 0}${rest}`;
  if (op === '^') {
    const upper = major > 0 || minor === undefined ? `${major + 1}.0.0-0` : minor > 0 || patch === undefined ? `0.${minor + 1}.0-0` : `0.0.${patch + 1}-0`;
    return [ge(lower), lt(upper)];
  }
  if (op === '~' || ((op === '' || op === '=') && (minor === undefined || patch === undefined))) {
    const upper = minor === undefined ? `${major + 1}.0.0-0` : `${major}.${minor + 1}.0-0`;
    if (op === '~' || patch === undefined) return [ge(lower), lt(upper)];
  }
  if (op === '>=') return [ge(lower)];
  if (op === '<') return [lt(lower)];
  if (op === '>') return [(x) => compareVersions(x, lower) > 0];
  if (op === '<=') return [(x) => compareVersions(x, lower) <= 0];
  return [(x) => compareVersions(x, lower) === 0];
}

/** Whether `version` satisfies `range` (`^0.2.0`, `~4.1.12`, `>=0.1.0 <1.0.0`, `1.x || 2.x`, `*`). */
export function satisfies(version: string, range: string): boolean {
  if (!parseVersion(version)) return false;
  return range.split('||').some((alternative) => {
    const tokens = alternative
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .filter((t) => t !== '');
    // A hyphen range `1.0.0 - 2.0.0`.
    if (tokens.length === 3 && tokens[1] === '-') return satisfies(version, `>=${tokens[0]} <=${tokens[2]}`);
    return tokens.flatMap(comparator).every((test) => test(version));
  });
}
