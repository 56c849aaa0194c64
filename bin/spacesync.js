#!/usr/bin/env node
// Entry point: runs the TypeScript sources through tsx, so a fresh clone needs only `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
