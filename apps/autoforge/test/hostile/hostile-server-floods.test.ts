// Message floods through `autoforge serve`: one session sent far more (and larger) messages and
// steps than an episode holds. Each ends in a 413 or 422 with a located body, never a 500 or a
// crash, and other clients are answered throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedProcess } from './support-server.js';
import { openSession, request, startServe, writeNotesRun } from './support-server.js';

let served: ServedProcess;
beforeAll(async () => {
  served = await startServe(writeNotesRun(), ['--max-messages', '60', '--max-episode-bytes', String(4 * 1024 * 1024)]);
}, 60_000);
afterAll(async () => {
  await served?.stop();
});

describe('hostile server: message floods', () => {
  it('150 messages of 1 MB on one session: each is refused with 413 at /body/content; another client is answered', async () => {
    const session = await openSession(served.url);
    const big = 'x'.repeat(1024 * 1024 - 100);
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const reply = await request(served.url, 'POST', `/sessions/${session}/messages`, { role: 'assistant', content: big });
      statuses.add(reply.status);
      if (i === 0) expect(reply.body.error).toMatchObject({ code: 'payload_too_large', location: '/body/content' });
    }
    expect([...statuses]).toEqual([413]);
    expect((await request(served.url, 'GET', '/health')).status).toBe(200);
    const other = await openSession(served.url);
    expect((await request(served.url, 'POST', `/sessions/${other}/step`, { name: 'get_note', arguments: { note_id: 'n1' } })).status).toBe(200);
  });

  it('messages under the size cap until the episode is full: 200s, then only 422 message_limit; the session still reads and resets', async () => {
    const session = await openSession(served.url);
    const chunk = 'y'.repeat(200 * 1024);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await request(served.url, 'POST', `/sessions/${session}/messages`, { role: 'assistant', content: chunk })).status);
    const first422 = statuses.indexOf(422);
    expect(first422).toBeGreaterThan(0);
    expect(statuses.slice(0, first422).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(first422).every((s) => s === 422)).toBe(true);
    const refused = await request(served.url, 'POST', `/sessions/${session}/messages`, { role: 'assistant', content: chunk });
    expect(refused.body.error?.code).toBe('message_limit');
    expect(refused.body.error?.message).toContain('maxEpisodeBytes');
    expect((await request(served.url, 'GET', `/sessions/${session}/state`)).status).toBe(200);
    expect((await request(served.url, 'POST', `/sessions/${session}/reset`)).status).toBe(200);
    expect((await request(served.url, 'POST', `/sessions/${session}/messages`, { role: 'assistant', content: 'fresh' })).status).toBe(200);
  });

  it('a flood of steps from ten clients at once: every session ends in 422 message_limit, no 5xx, and /health answers meanwhile', async () => {
    const sessions = await Promise.all(Array.from({ length: 10 }, () => openSession(served.url)));
    const flood = sessions.map(async (session) => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await request(served.url, 'POST', `/sessions/${session}/step`, { name: 'get_note', arguments: { note_id: 'n1' } })).status);
      return statuses;
    });
    const health = await request(served.url, 'GET', '/health');
    expect(health.status).toBe(200);
    for (const statuses of await Promise.all(flood)) {
      // 60 messages hold 30 steps (a call and its result each).
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(statuses.slice(30).every((s) => s === 422)).toBe(true);
    }
    expect(served.child.exitCode).toBeNull();
  });
});
