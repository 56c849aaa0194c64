// An upload's body written to a file as it arrives, so the process holds a few chunks of it at a
// time rather than the whole body (several times over while it is gathered and copied). The route
// reads the file once, into the store, and the file goes when the answer has been sent.
import { createWriteStream, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A received upload: where its bytes are and how many. */
export class UploadedFile {
  constructor(
    readonly path: string,
    readonly size: number,
  ) {}

  remove(): void {
    rmSync(this.path, { force: true });
  }
}

/** Thrown when the body passes `limit` bytes while it arrives (no Content-Length said so before). */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The upload is over the limit of ${limit} bytes.`);
    this.name = 'UploadTooLarge';
  }
}

/** Streams `payload` into a new file in `dir`; rejects (and removes the file) past `limit` bytes or when the client goes. */
export async function receiveToFile(payload: Readable, dir: string, limit: number): Promise<UploadedFile> {
  const file = path.join(dir, randomUUID());
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) done(new UploadTooLarge(limit));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(payload, count, createWriteStream(file));
  } catch (e) {
    rmSync(file, { force: true });
    throw e;
  }
  return new UploadedFile(file, size);
}
