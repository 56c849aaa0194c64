import { describe, expect, it } from 'vitest';
import { describeLink, normalizeLink, redactText, redactValue } from './redact.js';

describe('redact', () => {
  it('shows a link as host and the first four characters of its id', () => {
    expect(describeLink('https://h.example/links/Zq81-secret-id/api/v1')).toBe('https://h.example/links/Zq81…/api/v1');
  });
  it('masks bearer tokens and named secrets', () => {
    expect(redactText('Authorization: Bearer abc.def', [])).toBe('Authorization: Bearer [redacted]');
    expect(redactText('key=hunter22 again hunter22', ['hunter22'])).toBe('key=[redacted] again [redacted]');
  });
  it('copies nested values deeply, keeps errors as errors, survives cycles', () => {
    const o: Record<string, unknown> = { a: ['x /links/SECRET123/api/v1'] };
    o.self = o;
    const e = new Error('at /links/SECRET123/api/v1/blocks');
    const r = redactValue({ o, e }) as { o: { a: string[]; self: unknown }; e: Error };
    expect(r.o.a[0]).toBe('x /links/SECR…/api/v1');
    expect(r.o.self).toBe('[circular]');
    expect(r.e).toBeInstanceOf(Error);
    expect(r.e.message).not.toContain('SECRET123');
  });
  it('shows a malformed link as its scheme and host only, a bare id as four characters', () => {
    expect(describeLink('http://h:8788/link/keyedLinkId1234/api/v1')).toBe('http://h:8788/… (28 characters hidden)');
    expect(describeLink('https://h.example/links/Zq81-secret-id/api/v1?x=1')).not.toContain('secret');
    expect(describeLink('keyedLinkId1234')).toBe('keye… (15 characters)');
    expect(describeLink('abc')).toBe('…');
  });
  it('normalises a link to one spelling: trimmed, no trailing slash', () => {
    expect(normalizeLink(' https://h/links/X/api/v1/ ')).toBe('https://h/links/X/api/v1');
  });
});
