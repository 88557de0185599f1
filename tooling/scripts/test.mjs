#!/usr/bin/env node
// The README's test command ends here: build, lint and type-check every package (turbo),
// run every vitest project once from the root config, then print the totals on one line
// (`N passed, N failed`) so that CI's record shows how many tests ran.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, FORCE_COLOR: '0' };
const resultsFile = join(root, '.vitest-results.json');

function run(cmd, args) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  return r.status ?? 1;
}

const stages = [['turbo', ['run', 'build', 'typecheck', 'lint', '--output-logs=errors-only']]];
for (const [cmd, args] of stages) {
  const code = run(cmd, args);
  if (code !== 0) {
    console.log('\n0 passed, 1 failed');
    console.error(`test: "${cmd} ${args.join(' ')}" failed with exit code ${code}`);
    process.exit(code);
  }
}

rmSync(resultsFile, { force: true });
const vitestCode = run('vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${resultsFile}`,
  ...process.argv.slice(2),
]);

let passed = 0;
let failed = 0;
if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = results.numPassedTests ?? 0;
  failed = results.numFailedTests ?? 0;
  // A suite that fails to load has no tests in numFailedTests: count it as one failure.
  for (const file of results.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
  }
} else {
  failed = 1;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(vitestCode !== 0 || failed > 0 ? vitestCode || 1 : 0);
