// Preloaded (`node --import`) into a CLI process by startup.mjs: at exit it writes the process's
// own CPU time (user + system, node's boot included), its wall time since the time origin and
// its performance marks to the file named by AUTOFORGE_STARTUP_PROBE.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const out = process.env.AUTOFORGE_STARTUP_PROBE;
if (out) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    const marks = Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]));
    writeFileSync(out, JSON.stringify({ cpuMs: (user + system) / 1000, wallMs: performance.now(), marks }));
  });
}
