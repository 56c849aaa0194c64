import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  hashColumn,
  idColumn,
  packHash,
  packId,
  packTime,
  packVersionFile,
  timeColumn,
  unpackHash,
  unpackId,
  unpackSharedId,
  unpackTime,
  unpackVersionFile,
} from './compactValues.js';

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

describe('the packed values read back as text by SQLite', () => {
  it('idColumn, hashColumn and timeColumn give what unpackId, unpackHash and unpackTime give, for either form stored', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id, hash, at)');
    const rows = [
      ['0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D', 'ab'.repeat(32), '2026-11-28T21:30:00.123Z'],
      ['D-NOTE', 'not a sha256', 'yesterday'],
      [null, null, null],
    ] as const;
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
    for (const [id, hash, at] of rows) insert.run(packId(id), packHash(hash), packTime(at));
    const read = db.prepare(`SELECT ${idColumn('id')} AS id, ${hashColumn('hash')} AS hash, ${timeColumn('at')} AS at FROM t ORDER BY rowid`).all() as Array<{
      id: string | null;
      hash: string | null;
      at: string | null;
    }>;
    // Text, never a Buffer.
    expect(read.flatMap((r) => Object.values(r)).some((v) => Buffer.isBuffer(v))).toBe(false);
    expect(read.map((r) => [unpackId(r.id), unpackHash(r.hash), unpackTime(r.at)])).toEqual(rows.map((r) => [...r]));
    expect(unpackSharedId(read[0]!.id)).toBe(rows[0][0]);
    db.close();
  });
});
