// Values the journal stores in fewer bytes than their text, given back exactly: a sha256 as its 32
// bytes, a time as 6 bytes of milliseconds since 1970. A value of another form (a hash that is not
// 64 lower-case hex digits, a time not written as toISOString writes it) is stored as it is.
// A nanosecond count or an inode is an int64 when it fits one, else its decimal text.
const SHA256_HEX = /^[0-9a-f]{64}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function packHash(hash: string | null): string | Buffer | null {
  return hash !== null && SHA256_HEX.test(hash) ? Buffer.from(hash, 'hex') : hash;
}

export function unpackHash(stored: string | Buffer | null): string | null {
  return Buffer.isBuffer(stored) ? stored.toString('hex') : stored;
}

export function packTime(time: string | null): string | Buffer | null {
  if (time === null || !ISO_MS.test(time)) return time;
  const ms = Date.parse(time);
  if (!(ms >= 0 && ms < 2 ** 48) || new Date(ms).toISOString() !== time) return time;
  const b = Buffer.alloc(6);
  b.writeUIntBE(ms, 0, 6);
  return b;
}

export function unpackTime<T extends string | null>(stored: T | Buffer): T {
  if (Buffer.isBuffer(stored)) return new Date(stored.readUIntBE(0, 6)).toISOString() as T;
  // Its 6 bytes as timeColumn reads them: in hex, behind a U+0001.
  if (typeof stored === 'string' && stored.charCodeAt(0) === 1) return new Date(parseInt(stored.slice(1), 16)).toISOString() as T;
  return stored;
}

// The packed values read back as text by SQLite itself, for the reads of every record at once: a
// value read as a blob is a Buffer (an object and a native allocation each), six per document, so
// 50,000 records came with 300,000 of them (a read twice as slow and some 90 MiB more at its peak).
// The unpack functions take either form.

/** SQL reading a stored id as packId took it: an upper-case UUID from its 16 bytes. */
export function idColumn(column: string): string {
  const hex = `hex(${column})`;
  const part = (from: number, length: number) => `substr(${hex}, ${from}, ${length})`;
  return `CASE WHEN typeof(${column}) = 'blob' THEN ${part(1, 8)} || '-' || ${part(9, 4)} || '-' || ${part(13, 4)} || '-' || ${part(17, 4)} || '-' || ${part(21, 12)} ELSE ${column} END`;
}

/** SQL reading a stored hash as its 64 lower-case hex digits. */
export function hashColumn(column: string): string {
  return `CASE WHEN typeof(${column}) = 'blob' THEN lower(hex(${column})) ELSE ${column} END`;
}

/** SQL reading a stored time as text: its 6 bytes in hex behind a U+0001 (no time kept as text starts with one), for unpackTime. */
export function timeColumn(column: string): string {
  return `CASE WHEN typeof(${column}) = 'blob' THEN char(1) || hex(${column}) ELSE ${column} END`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function packNs(n: bigint): bigint | string {
  return n >= INT64_MIN && n <= INT64_MAX ? n : String(n);
}

/** What packNs stored, read with safeIntegers (an integer comes back as a bigint). */
export function unpackNs(stored: bigint | number | string): bigint {
  return BigInt(stored);
}

const UUID_UPPER = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/** An id: an upper-case UUID (the service's form) as its 16 bytes, any other as its text. */
export function packId<T extends string | null>(id: T): T | Buffer {
  return id !== null && UUID_UPPER.test(id) ? Buffer.from(id.replace(/-/g, ''), 'hex') : id;
}

const HEX = Buffer.from('0123456789ABCDEF', 'latin1');
/** Where each of the 16 bytes' two digits go in the 36 characters of a UUID. */
const UUID_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * What packId stored. The UUID is written into one buffer and read as one string: joined from its
 * five pieces it would be a chain of V8 string parts, some 200 bytes where 56 do (50,000 records
 * held at once in a cycle: 12 MiB of it).
 */
export function unpackId<T extends string | null>(stored: T | Buffer): T {
  if (!Buffer.isBuffer(stored)) return stored;
  const out = Buffer.alloc(36, 0x2d); // '-'
  for (let i = 0; i < 16; i++) {
    out[UUID_AT[i]!] = HEX[stored[i]! >> 4]!;
    out[UUID_AT[i]! + 1] = HEX[stored[i]! & 15]!;
  }
  return out.toString('latin1') as T;
}

/** The folder ids read back, one string each: every document of a folder names it. */
const folderIds = new Map<string, string>();

/** unpackId for a value many records share (a folder's id): the same string each time. */
export function unpackSharedId<T extends string | null>(stored: T | Buffer): T {
  if (stored === null) return stored;
  const key = Buffer.isBuffer(stored) ? stored.toString('latin1') : stored;
  let id = folderIds.get(key);
  if (id === undefined) {
    if (folderIds.size >= 10_000) folderIds.clear();
    id = unpackId(stored) as string;
    folderIds.set(key, id);
  }
  return id as T;
}

/**
 * A local version's file, stored without the folder its document's path gives it
 * (`.spacesync/versions/<path>/`): only its name, which holds no slash; any other as it is.
 */
export function packVersionFile(versionFile: string | null, docPath: string): string | null {
  const folder = `.spacesync/versions/${docPath}/`;
  if (versionFile === null || !versionFile.startsWith(folder)) return versionFile;
  const name = versionFile.slice(folder.length);
  return name.length > 0 && !name.includes('/') ? name : versionFile;
}

export function unpackVersionFile(stored: string | null, docPath: string): string | null {
  return stored === null || stored.includes('/') ? stored : `.spacesync/versions/${docPath}/${stored}`;
}
