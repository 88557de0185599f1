import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetailFixture } from './test-support.js';
import { loadRetail } from './test-support.js';
import { cachedStep } from '../src/read-cache.js';

let retail: RetailFixture;
beforeAll(async () => {
  retail = await loadRetail();
});
afterAll(() => retail.environment.close());

const user = (): string => Object.keys(retail.spec.seedState.users as object)[3] as string;

describe('cachedStep', () => {
  it('answers a repeated read on the untouched state from the cache, leaving the session where a real call would', () => {
    const env = retail.environment;
    const a = env.createSession();
    const args = JSON.stringify({ user_id: user() });
    const first = cachedStep(env, a, true, 'get_user_details', args);
    const b = env.createSession();
    const second = cachedStep(env, b, true, 'get_user_details', args);
    expect(second).toEqual(first);
    expect(second.pristine).toBe(true);
    expect(b.stepCount).toBe(a.stepCount);
    expect(b.digest()).toBe(a.digest());
    a.close();
    b.close();
  });

  it('keys answers by step: the same call later in a session is not taken from an earlier step', () => {
    const env = retail.environment;
    const s = env.createSession();
    cachedStep(env, s, true, 'list_all_product_types', '{}');
    const again = cachedStep(env, s, true, 'list_all_product_types', '{}');
    expect(again.result.ok).toBe(true);
    expect(s.stepCount).toBe(2);
    s.close();
  });

  it('stops caching once a call changes the state', () => {
    const env = retail.environment;
    const s = env.createSession();
    const [id, u] = Object.entries(retail.spec.seedState.users as Record<string, { address: Record<string, string> }>)[5] as [string, { address: Record<string, string> }];
    const write = cachedStep(env, s, true, 'modify_user_address', JSON.stringify({ ...u.address, user_id: id, city: `${u.address.city}x` }));
    expect(write.result.ok).toBe(true);
    expect(write.pristine).toBe(false);
    expect(write.changed).toBe(true);
    const read = cachedStep(env, s, write.pristine, 'get_user_details', JSON.stringify({ user_id: id }));
    expect(read.pristine).toBe(false);
    expect(read.result.ok && (read.result.output as { address: { city: string } }).address.city).toBe(`${u.address.city}x`);
    s.close();
  });

  it('tells a write that leaves every record as it was from one that changes it, from the write set, as the digest would', () => {
    const env = retail.environment;
    const s = env.createSession();
    const initial = s.digest();
    const [id, u] = Object.entries(retail.spec.seedState.users as Record<string, { address: Record<string, string> }>)[6] as [string, { address: Record<string, string> }];
    const same = cachedStep(env, s, true, 'modify_user_address', JSON.stringify({ ...u.address, user_id: id }));
    expect(same.result.ok).toBe(true);
    expect(same.changed).toBe(false);
    expect(same.pristine).toBe(true);
    expect(s.digest()).toBe(initial);
    const moved = cachedStep(env, s, same.pristine, 'modify_user_address', JSON.stringify({ ...u.address, user_id: id, zip: `${u.address.zip}9` }));
    expect(moved.changed).toBe(true);
    expect(s.digest()).not.toBe(initial);
    s.close();
  });
});
