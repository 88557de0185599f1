import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, resolvePnpm, workspacePnpmVersion } from './pnpm.js';

describe('resolvePnpm', () => {
  it('runs the pnpm that started the tests: a .cjs entry through node, a binary directly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'autoforge-pnpm-'));
    try {
      for (const name of ['pnpm.cjs', 'pnpm']) writeFileSync(join(dir, name), '');
      expect(resolvePnpm({ npm_execpath: join(dir, 'pnpm.cjs') })).toEqual({ file: process.execPath, args: [join(dir, 'pnpm.cjs')] });
      expect(resolvePnpm({ npm_execpath: join(dir, 'pnpm') })).toEqual({ file: join(dir, 'pnpm'), args: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores npm_execpath when npm or npx set it, and falls back to pnpm on the PATH or npx', () => {
    const chosen = resolvePnpm({ npm_execpath: '/usr/lib/node_modules/npm/bin/npx-cli.js' });
    expect([chosen.file === 'pnpm' && chosen.args.length === 0, chosen.file === 'npx' && chosen.args[1] === `pnpm@${workspacePnpmVersion()}`]).toContain(true);
  });
});

describe('workspacePnpmVersion', () => {
  it("reads the root packageManager's pnpm version", () => {
    expect(workspacePnpmVersion()).toMatch(/^10\.\d+\.\d+$/);
  });
});

describe('childEnv', () => {
  it('drops the npm_* variables a parent script sets and keeps the rest', () => {
    const env = childEnv({ PATH: '/bin', HOME: '/root', npm_config_frozen_lockfile: 'false', NPM_CONFIG_STORE_DIR: '/x', npm_execpath: '/p' });
    expect(env.PATH).toBe('/bin');
    expect(env.HOME).toBe('/root');
    expect(Object.keys(env).filter((k) => /^npm_/i.test(k))).toEqual([]);
  });
});
