#!/usr/bin/env node
// The README's test command ends here: build, lint and type-check every package (turbo),
// run every vitest project once from the root config and the Python package's unittest suite,
// then print the totals on one line (`N passed, N failed`) so that CI's record shows how many
// tests ran.
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

// The Python package's unittest suite (python/autoforge-client), with the interpreter that has
// torch when there is one (Debian's python3-torch installs for /usr/bin/python3): its totals join
// the line below. `-v` prints one line per test; the summary line gives the counts.
const pythonTests = join(root, 'python', 'autoforge-client', 'tests');
let pythonCode = 0;
const interpreters = ['/usr/bin/python3', 'python3'].filter((p) => spawnSync(p, ['-c', 'import sys; sys.exit(sys.version_info < (3, 9))']).status === 0);
const withTorch = interpreters.find((p) => spawnSync(p, ['-c', 'import torch']).status === 0);
const python = withTorch ?? interpreters[0];
if (python !== undefined && existsSync(pythonTests)) {
  console.log(`\n$ ${python} -B -m unittest discover -s ${pythonTests} -v`);
  const r = spawnSync(python, ['-B', '-m', 'unittest', 'discover', '-s', pythonTests, '-v'], {
    cwd: root,
    env: { ...env, PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  process.stdout.write(output);
  pythonCode = r.status ?? 1;
  const ran = /^Ran (\d+) tests?/m.exec(output);
  const verdict = /^(OK|FAILED)(?: \((.*)\))?$/m.exec(output);
  const count = (name) => Number(new RegExp(`${name}=(\\d+)`).exec(verdict?.[2] ?? '')?.[1] ?? 0);
  if (ran === null || verdict === null) {
    failed += 1;
  } else {
    const bad = count('failures') + count('errors');
    passed += Number(ran[1]) - bad - count('skipped') - count('expected failures');
    failed += bad + count('unexpected successes');
  }
  if (withTorch === undefined) console.log('python: torch is not installed: the ERPO torch tests were skipped');
} else {
  console.log('\npython: no python3 >= 3.9: the Python package tests did not run');
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(vitestCode !== 0 || failed > 0 || pythonCode !== 0 ? vitestCode || pythonCode || 1 : 0);
