// The media's part of a cycle's report: assets downloaded beside their documents, files uploaded
// from the mirror, assets removed with their block; downloads that failed and files that could not
// be uploaded as problems.
import type { Problem, ReportPart } from '../../core/report/cycleReport.js';
import type { MediaSyncResult } from './mediaRecord.js';

const name = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export function mediaPart(m: MediaSyncResult): ReportPart {
  return {
    changes: [
      ...m.downloaded.map((p) => ({ kind: 'asset' as const, side: 'remote' as const, action: 'downloaded' as const, path: p, title: name(p) })),
      ...m.uploaded.map((p) => ({ kind: 'asset' as const, side: 'local' as const, action: 'uploaded' as const, path: p, title: name(p) })),
      ...m.removed.map((p) => ({ kind: 'asset' as const, side: 'remote' as const, action: 'deleted' as const, path: p, title: name(p) })),
    ],
    problems: [
      ...m.failed.map((f): Problem => ({ key: `download:${f.blockId}`, path: f.file, severity: 'retrying', message: f.message })),
      ...m.notUploaded.map((u): Problem => ({ key: `upload:${u.path}:${u.file}`, path: u.path, severity: 'held', message: u.message })),
    ],
  };
}
