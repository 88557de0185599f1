import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBearerCheck } from './auth.js';

describe('createBearerCheck', () => {
  const check = createBearerCheck('s3cret-token');

  it('accepts "Bearer <token>" (scheme case-insensitive, extra blanks allowed)', () => {
    expect(check('Bearer s3cret-token')).toBe(true);
    expect(check('bearer s3cret-token')).toBe(true);
    expect(check('BEARER   s3cret-token  ')).toBe(true);
  });

  it('rejects a missing header, another scheme, a bare token, a prefix or an extension of the token', () => {
    for (const header of [undefined, '', 'Basic s3cret-token', 's3cret-token', 'Bearer', 'Bearer s3cret', 'Bearer s3cret-token2', 'Bearer s3cret-token x']) {
      expect(check(header), String(header)).toBe(false);
    }
  });

  it('invariant: a header passes iff its token equals the configured one', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[!-~]{1,40}$/), fc.stringMatching(/^[!-~]{1,40}$/), (token, sent) => {
        expect(createBearerCheck(token)(`Bearer ${sent}`)).toBe(sent === token);
        expect(createBearerCheck(token)(`Bearer ${token}`)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
