import type { Environment } from '@autoforge/env-runtime';
import { createEnvironment } from '@autoforge/env-runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRegistry } from './sessions.js';
import { NOTES_SPEC } from './test-fixture.js';

let env: Environment;
beforeAll(async () => {
  env = await createEnvironment(NOTES_SPEC);
});
afterAll(() => env.close());

// Timers far beyond the test: deadlines are driven by the fake clock alone.
const LONG = 1_000_000;

function registry(options: { maxSessions?: number; idleTimeoutMs?: number; episodeTimeoutMs?: number; maxTombstones?: number } = {}) {
  const clock = { t: 0 };
  const sessions = new SessionRegistry({
    maxSessions: options.maxSessions ?? 10,
    idleTimeoutMs: options.idleTimeoutMs ?? LONG,
    episodeTimeoutMs: options.episodeTimeoutMs ?? LONG,
    ...(options.maxTombstones !== undefined ? { maxTombstones: options.maxTombstones } : {}),
    now: () => clock.t,
  });
  const open = () => {
    const result = sessions.open(env, undefined, () => env.createSession());
    if (!result.ok) throw new Error(result.issues[0]!.message);
    return result.value;
  };
  return { clock, sessions, open };
}

const codeOf = (result: { ok: boolean; issues?: { code: string }[] }) => (result.ok ? 'ok' : result.issues![0]!.code);

describe('SessionRegistry', () => {
  it('opens sessions up to maxSessions, then answers session_cap without calling start', () => {
    const { sessions, open } = registry({ maxSessions: 2 });
    open();
    open();
    let started = false;
    const third = sessions.open(env, undefined, () => {
      started = true;
      return env.createSession();
    });
    expect(codeOf(third)).toBe('session_cap');
    expect(started).toBe(false);
    expect(sessions.size).toBe(2);
  });

  it('gives each session a distinct unguessable id', () => {
    const { open } = registry();
    const ids = new Set(Array.from({ length: 10 }, () => open().id));
    expect(ids.size).toBe(10);
    for (const id of ids) expect(id).toMatch(/^s_[0-9a-f]{32}$/);
  });

  it('closes a session idle for idleTimeoutMs on its next use (session_expired), and use keeps it alive', () => {
    const { clock, sessions, open } = registry({ idleTimeoutMs: 100 });
    const a = open();
    const b = open();
    for (let t = 90; t <= 450; t += 90) {
      clock.t = t;
      expect(codeOf(sessions.get(a.id))).toBe('ok');
    }
    expect(codeOf(sessions.get(b.id))).toBe('session_expired');
    expect(b.session.closed).toBe(true);
    expect(sessions.size).toBe(1);
  });

  it('closes an episode older than episodeTimeoutMs however busy (episode_timeout); a restart gives it a new deadline', () => {
    const { clock, sessions, open } = registry({ episodeTimeoutMs: 100 });
    const a = open();
    const b = open();
    clock.t = 60;
    sessions.restartEpisode(b, env.createSession());
    clock.t = 100;
    expect(codeOf(sessions.get(a.id))).toBe('episode_timeout');
    expect(codeOf(sessions.get(b.id))).toBe('ok');
    clock.t = 160;
    expect(codeOf(sessions.get(b.id))).toBe('episode_timeout');
  });

  it('restartEpisode swaps in the fresh session, closes the old one and starts the next episode with no messages', () => {
    const { sessions, open } = registry();
    const a = open();
    const old = a.session;
    a.episode.messages.push({ role: 'assistant', content: 'hi' });
    const fresh = env.createSession();
    sessions.restartEpisode(a, fresh);
    expect(a.session).toBe(fresh);
    expect(old.closed).toBe(true);
    expect(a.episode.messages).toEqual([]);
    expect(a.episode.index).toBe(1);
  });

  it('close answers session_closed afterwards; unknown ids answer unknown_session', () => {
    const { sessions, open } = registry();
    const a = open();
    expect(codeOf(sessions.close(a.id))).toBe('ok');
    expect(codeOf(sessions.get(a.id))).toBe('session_closed');
    expect(codeOf(sessions.close(a.id))).toBe('session_closed');
    expect(codeOf(sessions.get('s_missing'))).toBe('unknown_session');
  });

  it('reaps by timer without any request', async () => {
    const sessions = new SessionRegistry({ maxSessions: 4, idleTimeoutMs: 10, episodeTimeoutMs: LONG });
    const opened = sessions.open(env, undefined, () => env.createSession());
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(sessions.size).toBe(0);
    expect(opened.ok && opened.value.session.closed).toBe(true);
  });

  it('closeAll closes every session', () => {
    const { sessions, open } = registry();
    const all = [open(), open(), open()];
    sessions.closeAll();
    expect(sessions.size).toBe(0);
    expect(all.every((s) => s.session.closed)).toBe(true);
  });

  it('invariant: remembered closed ids never exceed maxTombstones, and the most recent are kept', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 20 }), (maxTombstones, count) => {
        const { sessions, open } = registry({ maxTombstones, maxSessions: 100 });
        const ids = Array.from({ length: count }, () => open().id);
        for (const id of ids) sessions.close(id);
        const codes = ids.map((id) => codeOf(sessions.get(id)));
        const kept = Math.min(count, maxTombstones);
        expect(codes.filter((c) => c === 'session_closed')).toHaveLength(kept);
        expect(codes.slice(count - kept).every((c) => c === 'session_closed')).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
