import { describe, expect, it } from 'vitest';
import { decodeStrict, firstInvalidUtf8, readableHead } from './readMirrorFile.js';

const bytes = (hex: string) => Buffer.from(hex.replace(/\s+/g, ''), 'hex');

describe('decodeStrict', () => {
  it('decodes UTF-8 and keeps a byte-order mark as U+FEFF, so the bytes come back exactly', () => {
    const b = Buffer.from('\uFEFF---\nid: x\n---\ncafé\n', 'utf8');
    const r = decodeStrict(b);
    expect(r).toEqual({ ok: true, text: '\uFEFF---\nid: x\n---\ncafé\n' });
    if (r.ok) expect(Buffer.from(r.text, 'utf8').equals(b)).toBe(true);
  });

  it('names a UTF-16 byte-order mark (either order) at byte 0', () => {
    expect(decodeStrict(bytes('ff fe 00 c3 28 0a 80 81'))).toMatchObject({ ok: false, offset: 0, reason: expect.stringContaining('UTF-16') });
    expect(decodeStrict(bytes('fe ff 00 41'))).toMatchObject({ ok: false, offset: 0 });
  });

  it('names the first byte that is not UTF-8 (Latin-1 é) with the bytes there', () => {
    expect(decodeStrict(Buffer.from('caf\xe9 au lait', 'latin1'))).toEqual({ ok: false, offset: 3, reason: 'the bytes e9 20 61 75 are not UTF-8' });
  });

  it('refuses a NUL byte, which UTF-8 allows but no note holds', () => {
    expect(decodeStrict(Buffer.from('ab\0cd'))).toEqual({ ok: false, offset: 2, reason: 'it holds a NUL byte' });
    expect(decodeStrict(bytes('61 00 62 ff'))).toMatchObject({ ok: false, offset: 1, reason: 'it holds a NUL byte' });
  });

  it('finds overlongs, surrogates, truncated and out-of-range sequences', () => {
    expect(firstInvalidUtf8(bytes('61 c0 80'))).toBe(1);
    expect(firstInvalidUtf8(bytes('61 62 ed a0 80'))).toBe(2);
    expect(firstInvalidUtf8(bytes('e2 82'))).toBe(0);
    expect(firstInvalidUtf8(bytes('f4 90 80 80'))).toBe(0);
    expect(firstInvalidUtf8(bytes('e2 82 ac f0 9f 98 80 41'))).toBe(-1);
  });
});

describe('readableHead', () => {
  const text = '---\nid: D1\n---\nsome caf\u00e9 text\n';
  it('reads the bytes before the first bad one, and a UTF-16 file whole by its byte-order mark', () => {
    expect(readableHead(Buffer.from(text, 'latin1'))).toBe('---\nid: D1\n---\nsome caf');
    expect(readableHead(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(text);
    expect(readableHead(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]))).toBe(text);
    expect(readableHead(Buffer.from('---\nid: D1\0\n---\n'))).toBe('---\nid: D1');
    expect(readableHead(Buffer.from(text))).toBe(text);
  });
});
