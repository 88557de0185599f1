import { describe, expect, it } from 'vitest';
import { parseRedisUrl } from './connection.js';

describe('parseRedisUrl', () => {
  it('reads host, port, db, user and password, and hides the password in `shown`', () => {
    const r = parseRedisUrl('redis://me:s%40cret@redis.internal:6380/2');
    expect(r).toEqual({ ok: true, value: { host: 'redis.internal', port: 6380, db: 2, username: 'me', password: 's@cret', shown: 'redis://me:***@redis.internal:6380/2' } });
  });

  it('defaults to port 6379 and db 0, and turns TLS on for rediss://', () => {
    expect(parseRedisUrl('redis://127.0.0.1')).toMatchObject({ ok: true, value: { host: '127.0.0.1', port: 6379, db: 0 } });
    expect(parseRedisUrl('rediss://cache.example.com')).toMatchObject({ ok: true, value: { tls: {} } });
    expect(parseRedisUrl('redis://[::1]:7000')).toMatchObject({ ok: true, value: { host: '::1', port: 7000 } });
  });

  it.each([
    ['localhost:6379', /scheme "localhost" is not redis/],
    ['http://localhost', /scheme "http" is not redis or rediss/],
    ['not a url', /not a URL/],
    ['redis://host:99999', /not a URL|out of range/],
    ['redis://host/abc', /database "abc" is not a number/],
    ['redis://host?db=1', /query strings/],
  ])('refuses %s with a located issue', (url, message) => {
    const r = parseRedisUrl(url);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues[0]?.code).toBe('E_REDIS_URL');
      expect(r.issues[0]?.message).toContain(`redis URL "${url}"`);
      expect(r.issues[0]?.message).toMatch(message);
    }
  });
});
