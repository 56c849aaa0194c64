#!/usr/bin/env node
// The development entry: runs the TypeScript sources in src/ through tsx, so the tests, the
// scenario harness, chaos runs, benchmarks and `npm start` always run the code as it is now,
// with no build step. The installed command is the compiled one in dist/ (package.json `bin`).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
