import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { integrityOf, packageKey, scratchProject, snapshotKey, type Lockfile } from './scratch-lockfile.js';

describe('snapshotKey', () => {
  it('prefixes plain and peer-suffixed versions with the name, keeps aliases and skips links', () => {
    expect(snapshotKey('ajv', '8.17.1')).toBe('ajv@8.17.1');
    expect(snapshotKey('@tensorflow/tfjs', '4.22.0(seedrandom@3.0.5)')).toBe('@tensorflow/tfjs@4.22.0(seedrandom@3.0.5)');
    expect(snapshotKey('string-width-cjs', 'string-width@4.2.3')).toBe('string-width@4.2.3');
    expect(snapshotKey('alias', '@scope/real@1.0.0')).toBe('@scope/real@1.0.0');
    expect(snapshotKey('@autoforge/core', 'file:../core.tgz')).toBe('@autoforge/core@file:../core.tgz');
    expect(snapshotKey('@autoforge/core', 'link:../core')).toBeUndefined();
  });
});

describe('packageKey', () => {
  it('drops nested peer suffixes', () => {
    expect(packageKey('vitest@4.1.12(@types/node@20.19.43)(vite@8.4.0(@types/node@20.19.43))')).toBe('vitest@4.1.12');
    expect(packageKey('ajv@8.17.1')).toBe('ajv@8.17.1');
  });
});

describe('scratchProject', () => {
  const dir = mkdtempSync(join(tmpdir(), 'autoforge-lockfile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const workspace: Lockfile = {
    lockfileVersion: '9.0',
    importers: {
      'packages/a': {
        dependencies: {
          b: { specifier: '^1.0.0', version: '1.0.0(p@2.0.0)' },
          '@autoforge/core': { specifier: 'workspace:^', version: 'link:../core' },
        },
        devDependencies: { vitest: { specifier: '~4.1.12', version: '4.1.12' } },
      },
      'packages/core': {},
    },
    packages: { 'b@1.0.0': { resolution: { integrity: 'sha512-b' } }, 'c@3.0.0': { resolution: { integrity: 'sha512-c' } }, 'p@2.0.0': {}, 'unused@1.0.0': {} },
    snapshots: { 'b@1.0.0(p@2.0.0)': { dependencies: { c: '3.0.0', p: '2.0.0' } }, 'c@3.0.0': {}, 'p@2.0.0': {}, 'unused@1.0.0': {} },
  };
  const scratchDir = join(dir, 'scratch');
  writeFileSync(join(dir, 'a.tgz'), 'a');
  writeFileSync(join(dir, 'core.tgz'), 'core');
  const packed = [
    { importer: 'packages/a', tarball: join(dir, 'a.tgz'), manifest: { name: '@autoforge/a', version: '0.1.0', dependencies: { b: '^1.0.0', '@autoforge/core': '^0.1.0' } } },
    { importer: 'packages/core', tarball: join(dir, 'core.tgz'), manifest: { name: '@autoforge/core', version: '0.1.0' } },
  ];

  it('pins third-party packages to the workspace resolution, takes only what they pull in, and links packed packages to their tarballs', () => {
    const { dependencies, lockfile } = scratchProject(workspace, packed, scratchDir);
    expect(dependencies).toEqual({ '@autoforge/a': 'file:../a.tgz', '@autoforge/core': 'file:../core.tgz' });
    expect(lockfile.overrides).toEqual(dependencies);
    expect(lockfile.snapshots?.['@autoforge/a@file:../a.tgz']).toEqual({ dependencies: { b: '1.0.0(p@2.0.0)', '@autoforge/core': 'file:../core.tgz' } });
    expect(Object.keys(lockfile.packages ?? {})).toEqual(['@autoforge/a@file:../a.tgz', '@autoforge/core@file:../core.tgz', 'b@1.0.0', 'c@3.0.0', 'p@2.0.0']);
    expect(lockfile.packages?.['@autoforge/core@file:../core.tgz']).toMatchObject({ resolution: { integrity: integrityOf(join(dir, 'core.tgz')), tarball: 'file:../core.tgz' }, version: '0.1.0' });
  });

  it('leaves out what the packed manifest does not declare, even where the workspace has it', () => {
    const { lockfile } = scratchProject(workspace, packed, scratchDir);
    expect(Object.keys(lockfile.snapshots ?? {})).not.toContain('vitest@4.1.12');
  });

  it('throws, naming the package, when a declared dependency is not in the workspace lockfile', () => {
    const stale = [{ ...packed[0], manifest: { ...packed[0]!.manifest, dependencies: { missing: '^1.0.0' } } }] as typeof packed;
    expect(() => scratchProject(workspace, stale, scratchDir)).toThrow(/@autoforge\/a depends on missing.*run pnpm install/);
  });
});
