// Fetches one asset from the signed URL the service gave its block into a temp file of the state
// directory (`.spacesync/downloads/`, never synced or watched), hashed on the way and stopped at the
// size cap. Where it goes in the mirror is decided later, when the result is applied between cycles
// (syncMedia): nothing here touches the mirror. Whatever fails leaves nothing behind but the error.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
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
function extensionOf(headers: http.IncomingHttpHeaders, url: URL): string {
  const disposition = String(headers['content-disposition'] ?? '');
  const named = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="?([^";]+)/i.exec(disposition)?.[1];
  let fromName: string | undefined;
  try {
    fromName = named ? /\.[A-Za-z0-9]{1,8}$/.exec(decodeURIComponent(named))?.[0] : undefined;
  } catch {
    fromName = undefined;
  }
  const fromPath = /\.[A-Za-z0-9]{1,8}$/.exec(url.pathname)?.[0];
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  return (fromName ?? fromPath ?? EXT_OF_TYPE[type] ?? '.bin').toLowerCase();
}

/** Kept-alive connections to the storage the signed URLs point at. */
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 8 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 8 }) };
const MAX_REDIRECTS = 5;

/** The answer to a GET of `url`, redirects followed. */
function get(url: URL, signal: AbortSignal, redirects = 0): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(url, { agent: agents[url.protocol as 'http:' | 'https:'], signal }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location !== undefined && redirects < MAX_REDIRECTS) {
        res.resume();
        get(new URL(location, url), signal, redirects + 1).then(resolve, reject);
        return;
      }
      resolve(res);
    });
    req.on('error', reject);
  });
}

/**
 * Fetches `url` into a new temp file in `tmpDir`; at most `maxBytes` are taken (a larger asset is
 * not kept). Node's own HTTP client rather than fetch: a download is a plain GET of bytes, and
 * fetch's machinery costs more CPU than the small images it carries.
 */
export async function fetchAsset(url: string, tmpDir: string, opts: { maxBytes: number; timeoutMs: number; signal: AbortSignal }): Promise<Fetched> {
  const signal = AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.signal]);
  const failed = (e: unknown): Fetched =>
    opts.signal.aborted ? { ok: false, reason: 'stopped' } : { ok: false, reason: 'failed', message: (e as Error).message };
  let target: URL;
  let res: http.IncomingMessage;
  try {
    target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return { ok: false, reason: 'failed', message: `not an http(s) URL` };
    res = await get(target, signal);
  } catch (e) {
    return failed(e);
  }
  const status = res.statusCode ?? 0;
  if (status !== 200) {
    res.resume();
    return { ok: false, reason: 'failed', message: `the service answered ${status}` };
  }
  const ext = extensionOf(res.headers, target);
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    res.destroy();
    return { ok: false, reason: 'too_large', size: declared, ext };
  }
  await fsp.mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, tempFileName('asset'));
  const out = await fsp.open(tmp, 'wx');
  const hash = createHash('sha256');
  let size = 0;
  let kept = false;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        res.destroy();
        return { ok: false, reason: 'too_large', size, ext };
      }
      hash.update(chunk);
      await out.write(chunk);
    }
    if (!res.complete) return failed(new Error('the connection closed before the whole asset came'));
    await out.sync();
    kept = true;
    return { ok: true, tmp, hash: hash.digest('hex'), size, ext };
  } catch (e) {
    return failed(e);
  } finally {
    await out.close().catch(() => undefined);
    if (!kept) await fsp.rm(tmp, { force: true });
  }
}

/**
 * The extension an asset's download would be named with, from its answer's headers alone (the body
 * is not read): what a plan needs to name the file. Null when the asset cannot be read now.
 */
export async function assetExtension(url: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
    const res = await get(target, AbortSignal.any([AbortSignal.timeout(30_000), ...(signal ? [signal] : [])]));
    res.destroy();
    return (res.statusCode ?? 0) === 200 ? extensionOf(res.headers, target) : null;
  } catch {
    return null;
  }
}
