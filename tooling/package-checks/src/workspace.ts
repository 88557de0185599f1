import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The monorepo root. */
export const root = resolve(import.meta.dirname, '../../..');

/** The fields of a package.json these checks read. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, string | { types?: string; default?: string }>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
  engines?: Record<string, string>;
  [field: string]: unknown;
}

/** A workspace package: its folder relative to the root (`packages/core`), folder path and manifest. */
export interface WorkspacePackage {
  id: string;
  dir: string;
  manifest: Manifest;
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The packages of one workspace group (`packages`, `apps`, `tooling`) under `base` (default: the root). */
export function workspacePackages(group: 'packages' | 'apps' | 'tooling', base = root): WorkspacePackage[] {
  const groupDir = join(base, group);
  if (!existsSync(groupDir)) return [];
  return readdirSync(groupDir)
    .sort()
    .map((folder) => ({ id: `${group}/${folder}`, dir: join(groupDir, folder) }))
    .filter(({ dir }) => existsSync(join(dir, 'package.json')))
    .map(({ id, dir }) => ({ id, dir, manifest: readJson<Manifest>(join(dir, 'package.json')) }));
}

/** The published packages: every `packages/*` folder. */
export function publishedPackages(base = root): WorkspacePackage[] {
  return workspacePackages('packages', base);
}

/** Every workspace package: `packages/*`, `apps/*` and `tooling/*`. */
export function allPackages(base = root): WorkspacePackage[] {
  return [...workspacePackages('packages', base), ...workspacePackages('apps', base), ...workspacePackages('tooling', base)];
}
