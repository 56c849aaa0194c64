import { describe, expect, it } from 'vitest';
import { bearer, newAdminToken, sameSecret } from './credentials.js';

describe('sameSecret', () => {
  it('is true for the same string only: not a prefix, an extension, a near miss or another case', () => {
    const secret = 'k3y-Ω-0123456789abcdef';
    expect(sameSecret(secret, secret)).toBe(true);
    expect(sameSecret(`${secret}`.slice(0), secret)).toBe(true);
    for (const other of ['', secret.slice(0, -1), `${secret}x`, `x${secret}`, secret.replace('Ω', 'O'), secret.toUpperCase(), secret.replace(/f$/, 'e')]) {
      expect(sameSecret(other, secret), other).toBe(false);
    }
  });
});

describe('bearer', () => {
  it('reads the token of a bearer header, any case of the scheme, and nothing else', () => {
    expect(bearer('Bearer abc')).toBe('abc');
    expect(bearer('bearer \tabc ')).toBe('abc');
    expect(bearer('Basic abc')).toBeUndefined();
    expect(bearer('Bearer a b')).toBeUndefined();
    expect(bearer(undefined)).toBeUndefined();
  });
});

describe('newAdminToken', () => {
  it('is 256 random bits, different each time', () => {
    const a = newAdminToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newAdminToken()).not.toBe(a);
  });
});
