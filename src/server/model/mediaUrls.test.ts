import { describe, expect, it } from 'vitest';
import { FIXTURE_URLS, MediaSigner } from './mediaUrls.js';

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

  it('a signed URL goes back to the asset it names, expired or not; other URLs stay as given', () => {
    const s = new MediaSigner();
    const url = s.sign('http://127.0.0.1:8787', 'ABC-1', now);
    expect(s.stored(url)).toBe('asset:ABC-1');
    expect(s.stored(s.sign('http://h', 'ABC-1', now - 5 * 3600_000))).toBe('asset:ABC-1');
    expect(s.stored('https://example.com/a.png?x=1')).toBe('https://example.com/a.png?x=1');
    expect(s.unsign(`![Image](${url}) and [f](${s.sign('http://h', 'Z', now)})`)).toBe('![Image](asset:ABC-1) and [f](asset:Z)');
  });

  it('a URL another space signed is no asset of this one: kept as given (a mirror restored into another space)', () => {
    const here = new MediaSigner();
    const there = new MediaSigner();
    const foreign = there.sign('http://127.0.0.1:8788', 'ABC-1', now);
    expect(here.stored(foreign)).toBe(foreign);
    expect(here.unsign(`![Image](${foreign})`)).toBe(`![Image](${foreign})`);
    // A fixture is written for the space it seeds: any signed URL in it is that space's asset.
    expect(FIXTURE_URLS.stored(foreign)).toBe('asset:ABC-1');
  });

  it('signAll signs every asset reference in a text', () => {
    const s = new MediaSigner();
    const out = s.signAll('![Image](asset:A1)', 'http://h', now);
    expect(out).toMatch(/^!\[Image\]\(http:\/\/h\/assets\/A1\?expires=\d+&nonce=[0-9a-f]+&sig=[0-9a-f]+\)$/);
    expect(s.signAll('no media', 'http://h', now)).toBe('no media');
  });
});
