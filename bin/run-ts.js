#!/usr/bin/env node
// Runs a TypeScript file (benchmarks, chaos runs) through tsx: node bin/run-ts.js FILE [args…]
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

register();
const file = process.argv[2];
if (!file) {
  console.error('usage: node bin/run-ts.js FILE.ts [args…]');
  process.exit(64);
}
process.argv.splice(2, 1);
await import(pathToFileURL(path.resolve(file)).href);
