import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as testing from './testing.js';

describe('README.md', () => {
  it('documents every exported value, of the main entry and of /testing', async () => {
    const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const names = [...Object.keys(api), ...Object.keys(testing)];
    expect(names.length).toBeGreaterThan(15);
    const missing = names.filter((name) => !readme.includes(`\`${name}\``) && !readme.includes(`\`${name}(`));
    expect(missing).toEqual([]);
  });
});
