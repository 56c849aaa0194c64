// The layer rule of eslint.layers.js rejects imports against the direction of the architecture.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('no-restricted')).map((m) => m.message);
}

describe('layer boundaries', () => {
  it.each([
    ['src/core/x.ts', "import fs from 'node:fs';\nexport const a = fs;"],
    ['src/core/x.ts', "import { readFile } from 'fs/promises';\nexport const a = readFile;"],
    ['src/core/x.ts', "import Database from 'better-sqlite3';\nexport const a = Database;"],
    ['src/core/x.ts', "import pino from 'pino';\nexport const a = pino;"],
    ['src/core/x.ts', "import { x } from '../client/http.js';\nexport const a = x;"],
    ['src/core/x.ts', "import { x } from '../log.js';\nexport const a = x;"],
    ['src/core/x.ts', 'export const t = Date.now();'],
    ['src/core/x.ts', 'export const t = new Date();'],
    ['src/dialect/x.ts', "import { x } from '../core/merge.js';\nexport const a = x;"],
    ['src/dialect/x.ts', "import http from 'node:http';\nexport const a = http;"],
    ['src/server/x.ts', "import { x } from '../sync/cycle.js';\nexport const a = x;"],
    ['src/server/x.ts', "import { x } from '../client/api.js';\nexport const a = x;"],
    ['src/client/x.ts', "import { x } from '../sync/cycle.js';\nexport const a = x;"],
    ['src/journal/x.ts', "import { x } from '../mirror/scan.js';\nexport const a = x;"],
    ['src/sync/x.ts', "import { x } from '../cli/main.js';\nexport const a = x;"],
    ['src/wire/x.ts', "import { x } from '../client/index.js';\nexport const a = x;"],
    ['src/wire/x.ts', "import { x } from '../server/app.js';\nexport const a = x;"],
    ['src/dialect/x.ts', "import { x } from '../wire/types.js';\nexport const a = x;"],
    // The folders of src/sync: a slice imports no other slice (type imports included) and context/
    // none, only cycle/ imports the slices, daemon/ only cycle/ and context/, and every folder is
    // entered only through its index.ts.
    ['src/sync/documents/pull/x.ts', "import { x } from '../../media/index.js';\nexport const a = x;"],
    ['src/sync/documents/push/x.ts', "import { x } from '../../links/index.js';\nexport const a = x;"],
    ['src/sync/media/x.ts', "import { x } from '../whiteboards/index.js';\nexport const a = x;"],
    ['src/sync/media/x.ts', "import type { X } from '../whiteboards/index.js';\nexport type A = X;"],
    ['src/sync/links/x.ts', "import { x } from '../media/index.js';\nexport const a = x;"],
    ['src/sync/collections/x.ts', "import { x } from '../versions/index.js';\nexport const a = x;"],
    ['src/sync/tasks/x.ts', "import { x } from '../versions/index.js';\nexport const a = x;"],
    ['src/sync/versions/x.ts', "import { x } from '../documents/index.js';\nexport const a = x;"],
    ['src/sync/context/x.ts', "import type { X } from '../media/index.js';\nexport type A = X;"],
    ['src/sync/context/x.ts', "import { x } from '../cycle/index.js';\nexport const a = x;"],
    ['src/sync/documents/pull/x.ts', "import { x } from '../../cycle/index.js';\nexport const a = x;"],
    ['src/sync/whiteboards/x.ts', "import { x } from '../daemon/index.js';\nexport const a = x;"],
    ['src/sync/cycle/x.ts', "import { x } from '../daemon/index.js';\nexport const a = x;"],
    ['src/sync/daemon/x.ts', "import { x } from '../documents/index.js';\nexport const a = x;"],
    ['src/sync/daemon/x.ts', "import { x } from '../media/index.js';\nexport const a = x;"],
    ['src/sync/cycle/x.ts', "import { x } from '../documents/pull/pullDocuments.js';\nexport const a = x;"],
    ['src/sync/media/x.ts', "import { x } from '../context/SyncContext.js';\nexport const a = x;"],
    ['src/sync/daemon/x.ts', "import { x } from '../cycle/syncOnce.js';\nexport const a = x;"],
    ['src/sync/index.ts', "export { x } from './documents/push/pushDocuments.js';"],
    ['src/cli/x.ts', "import { x } from '../sync/documents/push/pushDocuments.js';\nexport const a = x;"],
    ['src/cli/x.ts', "import { x } from '../sync/daemon/index.js';\nexport const a = x;"],
    ['src/sync/documents/pull/x.ts', "import { x } from '../../../cli/main.js';\nexport const a = x;"],
    // The console sits beside the CLI: nothing below imports it, it never reaches the server.
    ['src/console/x.ts', "import { x } from '../server/index.js';\nexport const a = x;"],
    ['src/console/x.ts', "import { x } from '../sync/versions/restoreVersion.js';\nexport const a = x;"],
    ['src/sync/x.ts', "import { x } from '../console/server.js';\nexport const a = x;"],
    ['src/core/x.ts', "import { x } from '../console/threeWay.js';\nexport const a = x;"],
    ['src/journal/x.ts', "import { x } from '../console/activity.js';\nexport const a = x;"],
  ])('rejects %s importing against the direction: %s', async (file, code) => {
    expect(await problems(file, code)).not.toEqual([]);
  });

  it.each([
    ['src/core/x.ts', "import { x } from '../dialect/segment.js';\nimport { createHash } from 'node:crypto';\nexport const a = [x, createHash];"],
    ['src/server/x.ts', "import { x } from '../dialect/segment.js';\nimport Database from 'better-sqlite3';\nexport const a = [x, Database];"],
    ['src/sync/x.ts', "import { x } from '../core/merge.js';\nimport { y } from '../client/api.js';\nexport const a = [x, y];"],
    ['src/server/x.ts', "import { SPEC_LIMITS } from '../wire/limits.js';\nexport const a = SPEC_LIMITS;"],
    ['src/client/x.ts', "import { SPEC_LIMITS } from '../wire/limits.js';\nexport const a = SPEC_LIMITS;"],
    ['src/core/x.test.ts', "import fs from 'node:fs';\nexport const a = fs;"],
    ['src/sync/cycle/x.ts', "import { x } from '../documents/index.js';\nimport { y } from '../media/index.js';\nexport const a = [x, y];"],
    ['src/sync/daemon/x.ts', "import { x } from '../cycle/index.js';\nimport { y } from '../context/index.js';\nexport const a = [x, y];"],
    [
      'src/sync/documents/pull/x.ts',
      "import { x } from './pullDocument.js';\nimport { w } from '../push/scanLocal.js';\nimport { y } from '../../context/index.js';\nimport { z } from '../../../core/merge/merge.js';\nexport const a = [w, x, y, z];",
    ],
    ['src/sync/media/x.ts', "import { x } from '../context/index.js';\nimport { y } from '../../core/media/linkAssets.js';\nexport const a = [x, y];"],
    ['src/sync/context/x.ts', "import { x } from './SyncContext.js';\nimport { y } from '../../journal/index.js';\nexport const a = [x, y];"],
    ['src/sync/index.ts', "export { x } from './documents/index.js';"],
    ['src/cli/x.ts', "import { x } from '../sync/index.js';\nexport const a = x;"],
    ['src/console/x.ts', "import { x } from '../sync/index.js';\nimport { y } from '../cli/status.js';\nexport const a = [x, y];"],
    ['src/cli/x.ts', "import { x } from '../server/index.js';\nexport const a = x;"],
  ])('allows %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
