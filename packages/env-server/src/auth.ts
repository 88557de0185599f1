import { createHash, timingSafeEqual } from 'node:crypto';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * A checker of `Authorization: Bearer <token>` headers against a configured token. The
 * comparison is constant-time: both sides are hashed to 32 bytes first, so neither the
 * content nor the length of the token leaks through timing.
 */
export function createBearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = sha256(token);
  return (authorization) => {
    if (authorization === undefined) return false;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match === null) return false;
    return timingSafeEqual(sha256(match[1] as string), expected);
  };
}
