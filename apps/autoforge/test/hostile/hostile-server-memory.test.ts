// A state that keeps growing through `autoforge serve`, across many sessions: the global memory
// guard refuses new work with 503 before the process runs out of memory; reads, closes and
// /health answer meanwhile, and the server's resident memory stays under its budget + 100 MiB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedProcess } from './support-server.js';
import { openSession, request, startServe, writeNotesRun } from './support-server.js';

const BUDGET = 384 * 1024 * 1024;
let served: ServedProcess;
beforeAll(async () => {
  served = await startServe(writeNotesRun(), ['--max-rss-bytes', String(BUDGET)]);
}, 60_000);
afterAll(async () => {
  await served?.stop();
});

describe('hostile server: a growing state', () => {
  it('sessions that each grow their state by 512 KiB a step meet 503 overloaded; the server survives under its budget + 100 MiB', async () => {
    const { url } = served;
    const text = 'z'.repeat(512 * 1024);
    const sessions: string[] = [];
    let overloaded: { status: number; body: Record<string, unknown> } | undefined;
    // At most 2 GiB of writes, 16 steps (8 MiB, under the episode budget) per session: far past
    // the memory budget, so only the guard can stop the loop early.
    for (let i = 0; i < 4096 && overloaded === undefined; i++) {
      if (i % 16 === 0) {
        const opened = await request(url, 'POST', '/sessions', { envId: 'notes' });
        if (opened.status === 503) {
          overloaded = opened;
          break;
        }
        sessions.push(String(opened.body.sessionId));
      }
      const step = await request(url, 'POST', `/sessions/${sessions.at(-1) as string}/step`, { name: 'add_note', arguments: { text } });
      if (step.status === 503) overloaded = step;
      else expect(step.status).toBe(200);
    }
    expect(overloaded?.status).toBe(503);
    expect((overloaded?.body.error as { code?: string } | undefined)?.code).toBe('overloaded');
    expect((await request(url, 'GET', '/health')).status).toBe(200);
    expect((await request(url, 'GET', `/sessions/${sessions[0] as string}/state`)).status).toBe(200);
    expect((await request(url, 'DELETE', `/sessions/${sessions[0] as string}`)).status).toBe(200);
    const peak = served.peakRss();
    if (peak !== undefined) expect(peak).toBeLessThan(BUDGET + 100 * 1024 * 1024);
    expect(served.child.exitCode).toBeNull();
  });
});
