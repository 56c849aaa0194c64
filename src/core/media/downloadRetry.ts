// When a media block's asset is downloaded again after a download failed: a failure backs off
// (1 minute, doubling to 1 hour, per block); an asset too large for `assets.maxMiB` waits until the
// setting is raised enough to hold it (the bytes at one URL never change). Either starts afresh
// when the block's URL changes (signature aside: a new asset). Kept in the journal per block.

/** The state of a block whose asset was not downloaded. */
export interface DownloadRetry {
  /** The asset's URL without its signature. */
  url: string;
  /** Failed downloads of that URL in a row. */
  failures: number;
  /** Not tried again before this time (ISO 8601). */
  notBefore: string;
  /** Too large: its size in bytes and the setting it was over; tried again only once the setting holds it. */
  tooLarge?: { size: number; maxMiB: number };
  /** What the last failure said. */
  message: string;
}

export const FIRST_RETRY_MS = 60_000;
export const MAX_RETRY_MS = 60 * 60_000;

/** The wait after `failures` failures in a row: 1 min, 2, 4 … up to 1 h. */
export const retryDelayMs = (failures: number): number => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(failures - 1, 20)));

/** The retry state after a download of `url` failed at `now` (`prev`: the block's state before). */
export function afterFailedDownload(
  prev: DownloadRetry | undefined,
  url: string,
  now: Date,
  failure: { message: string; tooLarge?: { size: number; maxMiB: number } },
): DownloadRetry {
  const failures = (prev?.url === url ? prev.failures : 0) + 1;
  return {
    url,
    failures,
    notBefore: new Date(now.getTime() + retryDelayMs(failures)).toISOString(),
    ...(failure.tooLarge ? { tooLarge: failure.tooLarge } : {}),
    message: failure.message,
  };
}

/** Whether the asset at `url` (signature removed) may be downloaded at `now`, with `assets.maxMiB` at `maxMiB`. */
export function downloadDue(retry: DownloadRetry | undefined, url: string, now: Date, maxMiB: number): boolean {
  if (!retry || retry.url !== url) return true;
  if (retry.tooLarge) return retry.tooLarge.size <= maxMiB * 1024 * 1024;
  return now.getTime() >= Date.parse(retry.notBefore);
}
