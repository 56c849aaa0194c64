// Comparing secrets (the link id, the API key, the admin token) and reading the bearer token. A
// plain `!==` returns at the first differing character, so its timing tells an attacker how much
// of a guess was right; both sides are hashed to equal-length digests and compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `given` is `secret`, in a time that does not depend on where they differ. */
export function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}

/** The token of an `Authorization: Bearer <token>` header; undefined when missing or of another scheme. */
export function bearer(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1] : undefined;
}

/** A fresh admin token: 32 random bytes, base64url. */
export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}
