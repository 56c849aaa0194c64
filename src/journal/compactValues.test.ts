import { describe, expect, it } from 'vitest';
import { packHash, packId, packTime, packVersionFile, unpackHash, unpackId, unpackSharedId, unpackTime, unpackVersionFile } from './compactValues.js';

describe('compactValues', () => {
  it('stores a sha256 in 32 bytes and a toISOString time in 6, and gives both back exactly', () => {
    const sha = 'b53f8865d974d187f4e95e8d2820c2df955ef95ef5a97d31287602968c8daeab';
    expect(packHash(sha)).toHaveLength(32);
    expect(unpackHash(packHash(sha))).toBe(sha);
    for (const t of ['2026-11-24T20:10:00.494Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(packTime(t)).toHaveLength(6);
      expect(unpackTime(packTime(t))).toBe(t);
    }
  });

  it('keeps any other form as it is', () => {
    for (const h of ['ab', 'B53F8865D974D187F4E95E8D2820C2DF955EF95EF5A97D31287602968C8DAEAB', null]) expect(packHash(h)).toBe(h);
    for (const t of ['2026-01-02T00:00:00Z', '2026-01-02T00:00:00.000+01:00', '1969-12-31T23:59:59.999Z', '2026-02-30T00:00:00.000Z', 'soon', null]) {
      expect(packTime(t)).toBe(t);
      expect(unpackTime(packTime(t))).toBe(t);
    }
  });

  it('stores an upper-case UUID in 16 bytes and any other id as its text', () => {
    const id = '0005D471-2D2D-4A17-AF2B-B5898D8E41C4';
    expect(packId(id)).toHaveLength(16);
    expect(unpackId(packId(id))).toBe(id);
    for (const other of ['0005d471-2d2d-4a17-af2b-b5898d8e41c4', 'folder-7', '', null]) expect(unpackId(packId(other))).toBe(other);
    expect(packId('0005d471-2d2d-4a17-af2b-b5898d8e41c4')).toBe('0005d471-2d2d-4a17-af2b-b5898d8e41c4');
  });

  it('gives back every byte of an id, and a shared id (a folder’s) the same from its own cache', () => {
    for (let n = 0; n < 256; n++) {
      const id = [8, 4, 4, 4, 12]
        .map((len, k) =>
          ((n * 2654435761 + k * 40503) >>> 0)
            .toString(16)
            .toUpperCase()
            .padStart(12, String.fromCharCode(48 + (n % 10)))
            .slice(0, len),
        )
        .join('-');
      expect(unpackId(packId(id))).toBe(id);
      expect(unpackSharedId(packId(id))).toBe(id);
      expect(unpackSharedId(packId(id))).toBe(id);
    }
    expect(unpackSharedId(null)).toBeNull();
  });

  it("stores a version file in its document's folder by its name only, any other whole", () => {
    const file = '.spacesync/versions/Area/Note.md/2026-01-04T00-00-00.000Z.md.gz';
    expect(packVersionFile(file, 'Area/Note.md')).toBe('2026-01-04T00-00-00.000Z.md.gz');
    expect(unpackVersionFile(packVersionFile(file, 'Area/Note.md'), 'Area/Note.md')).toBe(file);
    for (const [f, p] of [
      [file, 'Other.md'],
      ['.spacesync/versions/Area/Note.md/sub/x.md.gz', 'Area/Note.md'],
      [null, 'A.md'],
    ] as const) {
      expect(packVersionFile(f, p)).toBe(f);
      expect(unpackVersionFile(packVersionFile(f, p), p)).toBe(f);
    }
  });
});
