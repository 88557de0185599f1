import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Manifest } from './workspace.js';

/** The parts of a pnpm v9 lockfile (`pnpm-lock.yaml`) this module reads and writes. */
export interface Lockfile {
  lockfileVersion: string;
  settings?: Record<string, unknown>;
  overrides?: Record<string, string>;
  importers: Record<string, Importer>;
  packages?: Record<string, Record<string, unknown>>;
  snapshots?: Record<string, Snapshot>;
}

export interface Importer {
  dependencies?: Record<string, { specifier: string; version: string }>;
  devDependencies?: Record<string, { specifier: string; version: string }>;
  optionalDependencies?: Record<string, { specifier: string; version: string }>;
}

export interface Snapshot {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** A package packed with `pnpm pack`: its workspace folder (`packages/core`), tarball and packed manifest. */
export interface PackedPackage {
  importer: string;
  tarball: string;
  manifest: Manifest;
}

/** What a scratch project needs: its `dependencies` (and `pnpm.overrides`) and its lockfile. */
export interface ScratchProject {
  dependencies: Record<string, string>;
  lockfile: Lockfile;
}

/**
 * The key of a package's snapshot in a lockfile, from the reference a dependency entry holds:
 * `4.22.0(@tensorflow/tfjs-core@4.22.0)` → `name@4.22.0(…)`; an alias (`string-width@4.2.3`) or a
 * scoped reference is a key itself; `link:` references point into the workspace (undefined).
 */
export function snapshotKey(name: string, reference: string): string | undefined {
  if (reference.startsWith('link:')) return undefined;
  if (reference.startsWith('@')) return reference;
  const at = reference.indexOf('@');
  if (at === -1) return `${name}@${reference}`;
  const colon = reference.indexOf(':');
  const paren = reference.indexOf('(');
  if ((colon === -1 || at < colon) && (paren === -1 || at < paren)) return reference;
  return `${name}@${reference}`;
}

/** The `packages` key for a snapshot key: the key without its peer suffix `(…)(…)`. */
export function packageKey(key: string): string {
  const paren = key.indexOf('(');
  return paren === -1 ? key : key.slice(0, paren);
}

/** `sha512-…` (base64) of a file, as lockfiles record tarball integrity. */
export function integrityOf(path: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

/**
 * A complete lockfile for a project in `scratchDir` that depends on every packed tarball, built
 * from the workspace lockfile: every third-party package resolves to exactly the version the
 * workspace installed, so `pnpm install --offline --frozen-lockfile` needs no registry metadata
 * (a fresh CI machine's frozen install never fetched any) and finds every tarball in the store.
 * Dependencies come from the packed manifests, so one a package forgot to declare is missing
 * in the scratch project as it would be for a user.
 *
 * @throws Error when a packed dependency has no entry in the workspace lockfile (stale install).
 */
export function scratchProject(workspace: Lockfile, packed: readonly PackedPackage[], scratchDir: string): ScratchProject {
  const fileRef = (tarball: string) => `file:${relative(scratchDir, tarball).split('\\').join('/')}`;
  const tarballRefs = new Map(packed.map((p) => [p.manifest.name, fileRef(p.tarball)]));
  const packages: Record<string, Record<string, unknown>> = {};
  const snapshots: Record<string, Snapshot> = {};
  const pending: string[] = [];

  for (const { importer, tarball, manifest } of packed) {
    const own = workspace.importers[importer];
    if (!own) throw new Error(`package-checks: the workspace lockfile has no importer "${importer}" (run pnpm install)`);
    const resolved = (name: string): string => {
      const tarballRef = tarballRefs.get(name);
      if (tarballRef) return tarballRef;
      const entry = own.dependencies?.[name] ?? own.optionalDependencies?.[name] ?? own.devDependencies?.[name];
      if (!entry) {
        throw new Error(`package-checks: ${manifest.name} depends on ${name}, which the workspace lockfile's importer "${importer}" does not list (run pnpm install)`);
      }
      const key = snapshotKey(name, entry.version);
      if (key === undefined) throw new Error(`package-checks: ${manifest.name} depends on ${name}, a workspace link that was not packed`);
      pending.push(key);
      return entry.version;
    };
    const dependencies: Record<string, string> = {};
    const optionalDependencies: Record<string, string> = {};
    for (const name of Object.keys(manifest.dependencies ?? {})) dependencies[name] = resolved(name);
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) optionalDependencies[name] = resolved(name);
    for (const name of Object.keys(manifest.peerDependencies ?? {})) {
      const optional = manifest.peerDependenciesMeta?.[name]?.optional === true;
      // An optional peer is installed only where the user installs it: here, when it is one of ours.
      if (optional && !tarballRefs.has(name)) continue;
      (optional ? optionalDependencies : dependencies)[name] = resolved(name);
    }
    const ref = fileRef(tarball);
    const key = `${manifest.name}@${ref}`;
    packages[key] = {
      resolution: { integrity: integrityOf(tarball), tarball: ref },
      version: manifest.version,
      ...(manifest.engines ? { engines: manifest.engines } : {}),
      ...(manifest.peerDependencies ? { peerDependencies: manifest.peerDependencies } : {}),
      ...(manifest.peerDependenciesMeta ? { peerDependenciesMeta: manifest.peerDependenciesMeta } : {}),
    };
    snapshots[key] = {
      ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
      ...(Object.keys(optionalDependencies).length > 0 ? { optionalDependencies } : {}),
    };
  }

  // Everything the third-party dependencies pull in, exactly as the workspace resolved it.
  while (pending.length > 0) {
    const key = pending.pop() as string;
    if (snapshots[key]) continue;
    const snapshot = workspace.snapshots?.[key];
    const pkg = workspace.packages?.[packageKey(key)];
    if (!snapshot || !pkg) throw new Error(`package-checks: the workspace lockfile has no package "${key}"`);
    snapshots[key] = snapshot;
    packages[packageKey(key)] = pkg;
    for (const deps of [snapshot.dependencies, snapshot.optionalDependencies]) {
      for (const [name, reference] of Object.entries(deps ?? {})) {
        const next = snapshotKey(name, reference);
        if (next !== undefined) pending.push(next);
      }
    }
  }

  const dependencies = Object.fromEntries(packed.map((p) => [p.manifest.name, fileRef(p.tarball)]));
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    dependencies,
    lockfile: {
      lockfileVersion: workspace.lockfileVersion,
      settings: { autoInstallPeers: false, excludeLinksFromLockfile: false },
      overrides: dependencies,
      importers: {
        '.': {
          dependencies: Object.fromEntries(Object.entries(dependencies).map(([name, ref]) => [name, { specifier: ref, version: ref }])),
        },
      },
      packages: sorted(packages),
      snapshots: sorted(snapshots),
    },
  };
}
