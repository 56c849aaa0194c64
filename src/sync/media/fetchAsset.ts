// Fetches one asset from the signed URL the service gave its block into a temp file of the state
// directory (`.spacesync/downloads/`, never synced or watched), hashed on the way and stopped at the
// size cap. Where it goes in the mirror is decided later, when the result is applied between cycles
// (syncMedia): nothing here touches the mirror. Whatever fails leaves nothing behind but the error.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { tempFileName } from '../../mirror/index.js';

export type Fetched =
  | { ok: true; tmp: string; hash: string; size: number; ext: string }
  | { ok: false; reason: 'too_large'; size: number; ext: string }
  | { ok: false; reason: 'failed'; message: string }
  /** Stopped (SIGINT/SIGTERM, the session closed, the block's URL changed): not a failure of the asset. */
  | { ok: false; reason: 'stopped' };

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

/** Fetches `url` into a new temp file in `tmpDir`; at most `maxBytes` are taken (a larger asset is not kept). */
export async function fetchAsset(url: string, tmpDir: string, opts: { maxBytes: number; timeoutMs: number; signal: AbortSignal }): Promise<Fetched> {
  const stopped = () => opts.signal.aborted;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.signal]), redirect: 'follow' });
  } catch (e) {
    return stopped() ? { ok: false, reason: 'stopped' } : { ok: false, reason: 'failed', message: (e as Error).message };
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'failed', message: `the service answered ${res.status}` };
  }
  const ext = extensionOf(res, url);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    await res.body.cancel().catch(() => undefined);
    return { ok: false, reason: 'too_large', size: declared, ext };
  }
  await fsp.mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, tempFileName('asset'));
  const out = await fsp.open(tmp, 'wx');
  const hash = createHash('sha256');
  let size = 0;
  let kept = false;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        await res.body.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large', size, ext };
      }
      hash.update(chunk);
      await out.write(chunk);
    }
    await out.sync();
    kept = true;
    return { ok: true, tmp, hash: hash.digest('hex'), size, ext };
  } catch (e) {
    return stopped() ? { ok: false, reason: 'stopped' } : { ok: false, reason: 'failed', message: (e as Error).message };
  } finally {
    await out.close().catch(() => undefined);
    if (!kept) await fsp.rm(tmp, { force: true });
  }
}
