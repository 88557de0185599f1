// Slow bodies and slow headers through `autoforge serve`: connections that trickle a request in
// forever are answered 408 and dropped by the server (never held open), while other clients
// are answered throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedProcess } from './support-server.js';
import { openSession, request, startServe, trickleRequest, writeNotesRun } from './support-server.js';

let served: ServedProcess;
beforeAll(async () => {
  served = await startServe(writeNotesRun(), ['--headers-timeout-ms', '500', '--request-timeout-ms', '1000']);
}, 60_000);
afterAll(async () => {
  await served?.stop();
});

describe('hostile server: slow bodies', () => {
  it('twenty connections trickling a body one byte at a time are each answered 408 and dropped; another client runs an episode meanwhile', async () => {
    const { url } = served;
    // A body that would take hours at this pace: only the server's time-out can end it.
    const start = `POST /sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"envId":`;
    const slow = Array.from({ length: 20 }, () => trickleRequest(url, start, () => ' ', 50));
    const session = await openSession(url);
    const step = await request(url, 'POST', `/sessions/${session}/step`, { name: 'add_note', arguments: { text: 'while they trickle' } });
    expect(step.status).toBe(200);
    expect((await request(url, 'GET', '/health')).status).toBe(200);
    for (const end of await Promise.all(slow)) {
      expect(end.closedByServer).toBe(true);
      expect(end.received).toMatch(/^HTTP\/1\.1 408/);
    }
    const health = await request(url, 'GET', '/health');
    expect(health.body.sessions).toBe(1);
  });

  it('connections whose headers never end are answered 408 and dropped', async () => {
    const ends = await Promise.all(Array.from({ length: 5 }, () => trickleRequest(served.url, 'GET /health HTTP/1.1\r\nHost: x\r\n', () => 'X-Slow: 1\r\n', 50)));
    for (const end of ends) {
      expect(end.closedByServer).toBe(true);
      expect(end.received).toMatch(/^HTTP\/1\.1 408/);
    }
    expect((await request(served.url, 'GET', '/health')).status).toBe(200);
  });
});
