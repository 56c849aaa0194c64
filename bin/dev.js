#!/usr/bin/env node
// The development entry: runs the TypeScript sources in src/ through tsx, so the tests, the
// scenario harness, chaos runs, benchmarks and `npm start` always run the code as it is now,
// with no build step. The installed command is the compiled one in dist/ (package.json `bin`).
import v8 from 'node:v8';
import { register } from 'tsx/esm/api';

// As the installed command does (src/cli/bin.ts): `sync` keeps V8's young generation small.
if (process.argv[2] === 'sync') v8.setFlagsFromString('--semi-space-growth-factor=1');
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
