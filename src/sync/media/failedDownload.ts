// A download that failed (or was too large for assets.maxMiB): the block's retry state and the
// message that names its file and says what to do, logged. The caller records the retry with its
// other journal writes and reports the message.
import { FILE_ONLY } from '../../log.js';
import { afterFailedDownload, type DownloadRetry } from '../../core/media/downloadRetry.js';
import type { Fetched, SyncContext } from '../context/index.js';
import { MEDIA_RETRY } from './mediaRecord.js';

type Failure = Extract<Fetched, { reason: 'too_large' | 'failed' }>;

/** The retry and the message for block `blockId` (a `type` block whose asset is shown as `label`), its asset at `url` (signature removed). */
export function failedDownload(
  ctx: SyncContext,
  f: Failure & { blockId: string },
  type: string,
  label: string,
  url: string,
): { retry: DownloadRetry; message: string } {
  const maxMiB = ctx.settings.assets.maxMiB;
  const prev = ctx.journal.getState<DownloadRetry>(`${MEDIA_RETRY}${f.blockId}`);
  const retry =
    f.reason === 'too_large'
      ? afterFailedDownload(prev, url, ctx.now(), { message: 'too large', tooLarge: { size: f.size, maxMiB } })
      : afterFailedDownload(prev, url, ctx.now(), { message: f.message });
  const message =
    f.reason === 'too_large'
      ? `The ${type} asset for "${label}" was not downloaded: it is ${(f.size / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB). The document keeps its link to the space; raise assets.maxMiB in .spacesync/config.json to download it.`
      : `The ${type} asset for "${label}" was not downloaded (${f.message}). The document keeps its link to the space; it is tried again after ${retry.notBefore}.`;
  ctx.logger.warn({ ...FILE_ONLY, file: label, blockId: f.blockId }, message); // the cycle's report says it
  return { retry, message };
}
