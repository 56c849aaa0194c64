import { describe, expect, it } from 'vitest';
import { MediaSigner, storedUrl, unsignMarkdown } from './mediaUrls.js';

const now = Date.parse('2026-09-05T10:00:00Z');

describe('signed media URLs', () => {
  it('every signature of one asset is different, and each verifies until it expires', () => {
    const s = new MediaSigner(Buffer.alloc(32, 1));
    const a = s.sign('http://h:1', 'A1', now);
    const b = s.sign('http://h:1', 'A1', now);
    expect(a).not.toBe(b);
    const q = Object.fromEntries(new URL(a).searchParams) as Record<string, string>;
    expect(s.verify('A1', q, now)).toBe(true);
    expect(s.verify('A2', q, now)).toBe(false);
    expect(s.verify('A1', { ...q, sig: q.sig!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }, now)).toBe(false);
    expect(s.verify('A1', q, now + 2 * 3600_000)).toBe(false);
  });

  it('a signed URL goes back to the asset it names; other URLs stay as given', () => {
    const s = new MediaSigner();
    const url = s.sign('http://127.0.0.1:8787', 'ABC-1', now);
    expect(storedUrl(url)).toBe('asset:ABC-1');
    expect(storedUrl('https://example.com/a.png?x=1')).toBe('https://example.com/a.png?x=1');
    expect(unsignMarkdown(`![Image](${url}) and [f](${s.sign('http://h', 'Z', now)})`)).toBe('![Image](asset:ABC-1) and [f](asset:Z)');
  });

  it('signAll signs every asset reference in a text', () => {
    const s = new MediaSigner();
    const out = s.signAll('![Image](asset:A1)', 'http://h', now);
    expect(out).toMatch(/^!\[Image\]\(http:\/\/h\/assets\/A1\?expires=\d+&nonce=[0-9a-f]+&sig=[0-9a-f]+\)$/);
    expect(s.signAll('no media', 'http://h', now)).toBe('no media');
  });
});
