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
    // The stages of src/sync: pull and push never import each other, nothing below daemon/ imports
    // it, a stage imports only the ones before it, and enters another only through its index.ts.
    ['src/sync/pull/x.ts', "import { x } from '../push/index.js';\nexport const a = x;"],
    ['src/sync/push/x.ts', "import { x } from '../pull/index.js';\nexport const a = x;"],
    ['src/sync/pull/x.ts', "import { x } from '../daemon/index.js';\nexport const a = x;"],
    ['src/sync/push/x.ts', "import { x } from '../daemon/index.js';\nexport const a = x;"],
    ['src/sync/cycle/x.ts', "import { x } from '../daemon/index.js';\nexport const a = x;"],
    ['src/sync/session/x.ts', "import { x } from '../pull/index.js';\nexport const a = x;"],
    ['src/sync/versions/x.ts', "import { x } from '../push/index.js';\nexport const a = x;"],
    ['src/sync/pull/x.ts', "import { x } from '../cycle/index.js';\nexport const a = x;"],
    ['src/sync/cycle/x.ts', "import { x } from '../pull/runPull.js';\nexport const a = x;"],
    ['src/sync/daemon/x.ts', "import { x } from '../session/SyncContext.js';\nexport const a = x;"],
    ['src/sync/index.ts', "export { x } from './push/pushLocal.js';"],
    ['src/cli/x.ts', "import { x } from '../sync/push/pushLocal.js';\nexport const a = x;"],
    ['src/cli/x.ts', "import { x } from '../sync/daemon/index.js';\nexport const a = x;"],
    ['src/sync/pull/x.ts', "import { x } from '../../cli/main.js';\nexport const a = x;"],
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
    ['src/sync/cycle/x.ts', "import { x } from '../pull/index.js';\nimport { y } from '../push/index.js';\nexport const a = [x, y];"],
    ['src/sync/daemon/x.ts', "import { x } from '../cycle/index.js';\nimport { y } from '../session/index.js';\nexport const a = [x, y];"],
    [
      'src/sync/pull/x.ts',
      "import { x } from './pullDocument.js';\nimport { y } from '../session/index.js';\nimport { z } from '../../core/merge.js';\nexport const a = [x, y, z];",
    ],
    ['src/sync/push/x.ts', "import { x } from '../versions/index.js';\nexport const a = x;"],
    ['src/sync/index.ts', "export { x } from './push/index.js';"],
    ['src/cli/x.ts', "import { x } from '../sync/index.js';\nexport const a = x;"],
    ['src/console/x.ts', "import { x } from '../sync/index.js';\nimport { y } from '../cli/status.js';\nexport const a = [x, y];"],
    ['src/cli/x.ts', "import { x } from '../server/index.js';\nexport const a = x;"],
  ])('allows %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
