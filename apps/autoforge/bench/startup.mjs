// Start-up of the CLI (run by `pnpm bench` after a build): the CPU time (user + system) of
// `autoforge --version` and `autoforge --help` against `node -e 0` on the same machine, and
// where a `bench replay tau-bench/retail` spends its time in process: start-up (node's boot, the
// modules the command loads, argument parsing: the time origin to the command's first line),
// the adapter and its tasks (reading the data, the environment, one gold replay of every
// task), the output loop. Medians of interleaved runs; each run is a fresh process, measured
// from inside by a preloaded probe (bench/startup-probe.mjs).
//
//   node bench/startup.mjs
//   STARTUP_RUNS=21 node bench/startup.mjs
//   STARTUP_CLIS=before=/path/to/old/dist/cli.js,after=dist/cli.js node bench/startup.mjs   # compare builds
//   STARTUP_PNPM_RUNS=0 node bench/startup.mjs        # without the runs through pnpm (3 by default)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const here = import.meta.dirname;
const PROBE = join(here, 'startup-probe.mjs');
const BENCHMARKS = resolve(here, '../../../../shared/benchmarks');
const RUNS = Number(process.env.STARTUP_RUNS ?? '11');
const REPLAY_RUNS = Number(process.env.STARTUP_REPLAY_RUNS ?? '5');
const PNPM_RUNS = Number(process.env.STARTUP_PNPM_RUNS ?? '3');
const CLIS = (process.env.STARTUP_CLIS ?? `current=${join(here, '..', 'dist', 'cli.js')}`)
  .split(',')
  .map((entry) => {
    const [name, file] = entry.includes('=') ? entry.split('=') : ['current', entry];
    return { name, file: resolve(file) };
  });

const tmp = mkdtempSync(join(tmpdir(), 'autoforge-startup-'));
const probeFile = join(tmp, 'probe.json');

/** One fresh process; its own CPU and wall time and marks, and the wall time seen from outside. */
function run(args) {
  const t0 = performance.now();
  const child = spawnSync(process.execPath, ['--import', PROBE, ...args], {
    env: { ...process.env, AUTOFORGE_STARTUP_PROBE: probeFile, AUTOFORGE_BENCH_DATA: BENCHMARKS },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const outsideMs = performance.now() - t0;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ...JSON.parse(readFileSync(probeFile, 'utf8')), outsideMs, stdout: child.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)}` : '—');

const load = loadavg()[0];
try {
  const cases = [{ name: 'node -e 0', args: ['-e', '0'] }];
  for (const cli of CLIS) {
    cases.push({ name: `${cli.name}: --version`, args: [cli.file, '--version'] });
    cases.push({ name: `${cli.name}: --help`, args: [cli.file, '--help'] });
  }
  const samples = new Map(cases.map((c) => [c.name, []]));
  run(['-e', '0']); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const c of cases) samples.get(c.name).push(run(c.args));

  const replays = new Map(CLIS.map((cli) => [cli.name, []]));
  for (let i = 0; i < REPLAY_RUNS; i++) {
    for (const cli of CLIS) replays.get(cli.name).push(run([cli.file, 'bench', 'replay', 'tau-bench/retail']));
  }
  // As the issue measures it: through pnpm from the repository root (`pnpm -s autoforge …`), whose
  // own start-up is timed alone (`pnpm --version`) for comparison. Outside wall time only.
  const pnpmRuns = { replay: [], version: [] };
  if (PNPM_RUNS > 0) {
    const root = resolve(here, '..', '..', '..');
    const outside = (args) => {
      const t0 = performance.now();
      const child = spawnSync('pnpm', args, { cwd: root, env: { ...process.env, AUTOFORGE_BENCH_DATA: BENCHMARKS }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
      if (child.status !== 0) throw new Error(`pnpm ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < PNPM_RUNS; i++) {
      pnpmRuns.version.push(outside(['--version']));
      pnpmRuns.replay.push(outside(['-s', 'autoforge', 'bench', 'replay', 'tau-bench/retail']));
    }
  }
  const loadAfter = loadavg()[0];

  console.log(`autoforge start-up (${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} cores, Node ${process.version}, ` +
    `load average ${load.toFixed(2)} before, ${loadAfter.toFixed(2)} after; medians of ${RUNS} runs, ${REPLAY_RUNS} for the replay)`);
  console.log('');
  console.log('| command | CPU ms (user+sys) | wall ms |');
  console.log('|---|---:|---:|');
  for (const c of cases) {
    const s = samples.get(c.name);
    console.log(`| ${c.name} | ${ms(median(s.map((r) => r.cpuMs)))} | ${ms(median(s.map((r) => r.outsideMs)))} |`);
  }
  console.log('');
  console.log('`bench replay tau-bench/retail` (115 tasks, 582 gold calls), in process, ms since the time origin:');
  console.log('');
  console.log('| build | start-up (to the command) | to the output loop | in process | whole process (wall) | CPU ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const outputs = new Set();
  for (const cli of CLIS) {
    const r = replays.get(cli.name);
    for (const x of r) outputs.add(x.stdout.toString('utf8'));
    const mark = (name) => median(r.map((x) => x.marks[name] ?? Number.NaN));
    console.log(`| ${cli.name} | ${ms(mark('autoforge:command'))} | ${ms(mark('autoforge:bench-replay:loop'))} | ${ms(median(r.map((x) => x.wallMs)))} | ${ms(median(r.map((x) => x.outsideMs)))} | ${ms(median(r.map((x) => x.cpuMs)))} |`);
  }
  if (PNPM_RUNS > 0) {
    console.log('');
    console.log(`Through pnpm from the repository root (the build above; wall ms, medians of ${PNPM_RUNS}): \`pnpm -s autoforge bench replay tau-bench/retail\` ${ms(median(pnpmRuns.replay))}; \`pnpm --version\` alone ${ms(median(pnpmRuns.version))}.`);
  }
  console.log('');
  console.log(outputs.size === 1 ? 'Every replay printed the same bytes.' : `The replays printed ${outputs.size} different outputs.`);
  if (outputs.size !== 1) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
