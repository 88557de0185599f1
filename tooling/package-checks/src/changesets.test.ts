import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type RunResult } from './pnpm.js';
import { compareVersions, parseVersion, satisfies } from './semver.js';
import { allPackages, readJson, root, type Manifest, type WorkspacePackage } from './workspace.js';

// `changeset status` on the repository, and `changeset version` on a copy of it (never on the
// repository itself): the versions and changelogs a release would produce.

interface ReleasePlan {
  changesets: { id: string; summary: string; releases: { name: string; type: string }[] }[];
  releases: { name: string; type: 'major' | 'minor' | 'patch' | 'none'; oldVersion: string; newVersion: string; changesets: string[] }[];
}

interface ChangesetConfig {
  access: string;
  baseBranch: string;
  privatePackages?: { version?: boolean; tag?: boolean };
}

/**
 * Major bumps that no changeset asks for, which changesets forces today. `@autoforge/llm` is an
 * optional peer dependency of depgraph and dag-blueprint (`workspace:^`, published as `^0.1.0`);
 * llm's minor bump leaves that range, and changesets then gives every peer dependent a major bump
 * (0.0.0 → 1.0.0). A fix: the peer range `workspace:>=0.1.0 <1.0.0` in both packages plus
 * `___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH: { onlyUpdatePeerDependentsWhenOutOfRange: true }`
 * in .changeset/config.json. Once fixed, empty this list.
 */
const KNOWN_FORCED_MAJORS: readonly string[] = [];

const changesetBin = join(root, 'node_modules', '.bin', 'changeset');
const config = readJson<ChangesetConfig>(join(root, '.changeset', 'config.json'));
const packages = allPackages();
const byName = new Map(packages.map((p) => [p.manifest.name, p]));
const tmp = mkdtempSync(join(tmpdir(), 'autoforge-changesets-'));
const explain = (result: RunResult | undefined) => (result ? `exit ${result.code}\n${result.stdout}\n${result.stderr}` : 'did not run');

/**
 * Copies what changesets reads — the root manifest, the workspace file, `.changeset/` and every
 * workspace package's package.json and CHANGELOG.md — to `dest`.
 */
function copyRepository(dest: string): void {
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(dest, file));
  cpSync(join(root, '.changeset'), join(dest, '.changeset'), { recursive: true });
  for (const { id, dir } of packages) {
    mkdirSync(join(dest, id), { recursive: true });
    for (const file of ['package.json', 'CHANGELOG.md']) if (existsSync(join(dir, file))) cpSync(join(dir, file), join(dest, id, file));
  }
}

/** A range as `pnpm pack` publishes it: `workspace:^` → `^<version>`, `workspace:*` → `<version>`. */
function publishedRange(spec: string, version: string): string {
  if (!spec.startsWith('workspace:')) return spec;
  const range = spec.slice('workspace:'.length);
  if (range === '*') return version;
  return range === '^' || range === '~' ? `${range}${version}` : range;
}

const git = (args: string[], cwd: string) =>
  run('git', ['-c', 'user.name=package-checks', '-c', 'user.email=package-checks@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd });

let status: { result: RunResult; where: string; plan?: ReleasePlan } | undefined;
let version: RunResult | undefined;
const versionedDir = join(tmp, 'versioned');

beforeAll(async () => {
  // status compares with the base branch through git. Where the checkout has no such branch
  // (a detached CI checkout), it runs on a copy committed to a fresh repository instead.
  const output = join(tmp, 'status.json');
  let where = root;
  if ((await git(['rev-parse', '--verify', '--quiet', config.baseBranch], root)).code !== 0) {
    where = join(tmp, 'status-copy');
    mkdirSync(where);
    copyRepository(where);
    for (const args of [['init', '-q', '-b', config.baseBranch], ['add', '-A'], ['commit', '-q', '-m', 'copy']]) {
      const step = await git(args, where);
      if (step.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${explain(step)}`);
    }
  }
  const result = await run(changesetBin, ['status', '--output', output], { cwd: where });
  status = { result, where, ...(result.code === 0 && existsSync(output) ? { plan: readJson<ReleasePlan>(output) } : {}) };

  mkdirSync(versionedDir);
  copyRepository(versionedDir);
  version = await run(changesetBin, ['version'], { cwd: versionedDir });
}, 120_000);

afterAll(() => rm(tmp, { recursive: true, force: true }), 60_000);

const plan = (): ReleasePlan => {
  if (!status?.plan) return expect.fail(`changeset status failed (in ${status?.where}): ${explain(status?.result)}`);
  return status.plan;
};
const releases = () => plan().releases.filter((r) => r.type !== 'none');
const packageOf = (name: string): WorkspacePackage => {
  const pkg = byName.get(name);
  if (!pkg) return expect.fail(`${name} is not a workspace package`);
  return pkg;
};

describe('changeset status', () => {
  it('succeeds and writes a release plan', () => {
    expect(plan().changesets.length).toBeGreaterThan(0);
  });

  it('releases every published package a changeset names, at a valid version above its current one', () => {
    const named = new Set(plan().changesets.flatMap((c) => c.releases.map((r) => r.name)));
    for (const pkg of packages.filter((p) => p.id.startsWith('packages/') && named.has(p.manifest.name))) {
      const release = releases().find((r) => r.name === pkg.manifest.name);
      expect(release, pkg.manifest.name).toBeDefined();
      if (!release) continue;
      expect(release.oldVersion, pkg.manifest.name).toBe(pkg.manifest.version);
      expect(parseVersion(release.newVersion), `${pkg.manifest.name} ${release.newVersion}`).toBeDefined();
      expect(compareVersions(release.newVersion, release.oldVersion), `${pkg.manifest.name} ${release.oldVersion} → ${release.newVersion}`).toBeGreaterThan(0);
    }
  });

  it('gives a major bump only where a changeset asks for one (known exceptions listed)', () => {
    const askedMajor = new Set(plan().changesets.flatMap((c) => c.releases.filter((r) => r.type === 'major').map((r) => r.name)));
    const unrequested = releases()
      .filter((r) => r.type === 'major' && !askedMajor.has(r.name))
      .map((r) => r.name)
      .sort();
    expect(unrequested).toEqual([...KNOWN_FORCED_MAJORS].sort());
  });

  it('releases no private package as a public one: apps stay private, tooling is never versioned', () => {
    expect(config.access).toBe('public');
    // privatePackages.version lets changesets version the private CLI app; tag: false and
    // `private: true` keep `changeset publish` from publishing it.
    expect(config.privatePackages?.tag ?? false).toBe(false);
    for (const release of releases()) {
      const pkg = packageOf(release.name);
      if (pkg.id.startsWith('packages/')) {
        expect(pkg.manifest.private, release.name).toBeUndefined();
        expect(release.name).toBe(`@autoforge/${pkg.id.slice('packages/'.length)}`);
      } else {
        expect(pkg.id.startsWith('apps/'), `${release.name} (${pkg.id}) is released`).toBe(true);
        expect(pkg.manifest.private, `${release.name} must stay private`).toBe(true);
      }
    }
  });
});

describe('changeset version, on a copy of the repository', () => {
  const versioned = (pkg: WorkspacePackage) => readJson<Manifest>(join(versionedDir, pkg.id, 'package.json'));
  const changelog = (pkg: WorkspacePackage) => {
    const path = join(versionedDir, pkg.id, 'CHANGELOG.md');
    return existsSync(path) ? readFileSync(path, 'utf8') : '';
  };
  /** The section of a changelog under its first `## ` heading: [version, text]. */
  const latestEntry = (text: string): [string, string] => {
    const match = /^## (.+)\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
    return [match?.[1]?.trim() ?? '', match?.[2] ?? ''];
  };

  it('succeeds and consumes every changeset', () => {
    expect(version?.code, explain(version)).toBe(0);
    const left = readdirSync(join(versionedDir, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(left).toEqual([]);
  });

  it('sets each released package.json to its planned version and leaves the others alone', () => {
    for (const pkg of packages) {
      const release = releases().find((r) => r.name === pkg.manifest.name);
      expect(versioned(pkg).version, pkg.manifest.name).toBe(release ? release.newVersion : pkg.manifest.version);
    }
  });

  it("writes a CHANGELOG entry under the new version with every changeset's summary", () => {
    for (const release of releases()) {
      const pkg = packageOf(release.name);
      const text = changelog(pkg);
      expect(text.startsWith(`# ${release.name}\n`), `${pkg.id}/CHANGELOG.md title`).toBe(true);
      const [heading, entry] = latestEntry(text);
      expect(heading, `${pkg.id}/CHANGELOG.md`).toBe(release.newVersion);
      for (const id of release.changesets) {
        const firstLine = (plan().changesets.find((c) => c.id === id)?.summary ?? '').split('\n')[0] ?? '';
        expect(firstLine.length, id).toBeGreaterThan(0);
        expect(entry, `${pkg.id}/CHANGELOG.md lacks changeset ${id}`).toContain(firstLine);
      }
    }
  });

  it('lists the new versions of released runtime dependencies in the dependents’ entries', () => {
    const released = new Map(releases().map((r) => [r.name, r.newVersion]));
    for (const release of releases()) {
      const pkg = packageOf(release.name);
      const [, entry] = latestEntry(changelog(pkg));
      for (const dep of Object.keys(versioned(pkg).dependencies ?? {})) {
        const next = released.get(dep);
        if (next) expect(entry, `${pkg.id}/CHANGELOG.md`).toContain(`${dep}@${next}`);
      }
    }
  });

  it('leaves internal dependency ranges that accept the new versions once published', () => {
    const newVersion = new Map(packages.map((p) => [p.manifest.name, versioned(p).version]));
    for (const pkg of packages) {
      const manifest = versioned(pkg);
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const) {
        for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
          const target = newVersion.get(dep);
          if (target === undefined) continue;
          const published = publishedRange(spec, target);
          expect(satisfies(target, published), `${pkg.id} ${field} ${dep}: "${spec}" (${published}) rejects ${target}`).toBe(true);
        }
      }
    }
  });
});
