#!/usr/bin/env node
// The installed command (package.json `bin`, compiled to dist/cli/bin.js): runs the command line.
import { main } from './main.js';

process.exitCode = await main(process.argv);
