// The program the tests spawn: the one test/globalSetup.ts compiled for this run, else the sources
// through tsx (bin/dev.js: a single test file run outside the suite's setup).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SPAWN_BIN = process.env.SPACESYNC_TEST_BIN ?? path.join(repo, 'bin', 'dev.js');
