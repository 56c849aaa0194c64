// Downloads one asset from the signed URL the service gave its block: streamed to a temp file beside
// where it goes (dot-named, so the watcher and the scan skip it), hashed on the way, stopped at the
// size cap, then renamed into place. Whatever fails leaves nothing behind but the error.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { OwnWrites } from '../../mirror/index.js';
import { resolveInRoot, tempFileName } from '../../mirror/index.js';

export type Download =
  | { ok: true; hash: string; size: number; ext: string }
  | { ok: false; reason: 'too_large'; size: number; file: string }
  | { ok: false; reason: 'failed'; message: string };

const TIMEOUT_MS = 60_000;

const EXT_OF_TYPE: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
};

/** The extension of what the answer carries: its file name's, else its path's, else its content type's, else `.bin`. */
function extensionOf(res: Response, url: string): string {
  const disposition = res.headers.get('content-disposition') ?? '';
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="?([^";]+)/i.exec(disposition)?.[1];
  const fromName = named ? /\.[A-Za-z0-9]{1,8}$/.exec(decodeURIComponent(named))?.[0] : undefined;
  const fromPath = /\.[A-Za-z0-9]{1,8}$/.exec(new URL(url).pathname)?.[0];
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return (fromName ?? fromPath ?? EXT_OF_TYPE[type] ?? '.bin').toLowerCase();
}

/**
 * Fetches `url` into `<root>/<dir>/<name(ext)>`: `name` is asked for once the answer's headers tell
 * the extension. At most `maxBytes` are taken; a larger asset is not written.
 */
export async function downloadAsset(
  root: string,
  url: string,
  dir: string,
  name: (ext: string) => string,
  opts: { maxBytes: number; ownWrites?: OwnWrites; signal?: AbortSignal },
): Promise<Download & { file?: string }> {
  const signals = [AbortSignal.timeout(TIMEOUT_MS), ...(opts.signal ? [opts.signal] : [])];
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any(signals), redirect: 'follow' });
  } catch (e) {
    return { ok: false, reason: 'failed', message: (e as Error).message };
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return { ok: false, reason: 'failed', message: `the service answered ${res.status}` };
  }
  const ext = extensionOf(res, url);
  const file = `${dir}/${name(ext)}`;
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    await res.body.cancel();
    return { ok: false, reason: 'too_large', size: declared, file };
  }
  const abs = resolveInRoot(root, file);
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  const tmp = path.join(path.dirname(abs), tempFileName(path.basename(abs)));
  const out = await fsp.open(tmp, 'wx');
  const hash = createHash('sha256');
  let size = 0;
  let kept = false;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        await res.body.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large', size, file };
      }
      hash.update(chunk);
      await out.write(chunk);
    }
    await out.sync();
    await out.close();
    const digest = hash.digest('hex');
    opts.ownWrites?.note(file, digest);
    await fsp.rename(tmp, abs);
    kept = true;
    return { ok: true, hash: digest, size, ext, file };
  } catch (e) {
    return { ok: false, reason: 'failed', message: (e as Error).message };
  } finally {
    if (!kept) {
      await out.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true });
    }
  }
}
