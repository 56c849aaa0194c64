#!/usr/bin/env node
// The installed command (package.json `bin`, compiled to dist/cli/bin.js): runs the command line.
import v8 from 'node:v8';

// `sync` keeps V8's young generation at its first size (1 MiB semi-spaces, growth factor 1) instead
// of letting it grow to 16 MiB semi-spaces: 32 MiB that a daemon keeps resident all day once grown,
// and with releaseMemory's collections it keeps a first pull's peak low (docs/benchmarks.md,
// Memory). V8 reads the growth factor each time it would grow the space (the maximum size only at
// start), so it is set here, before loading the program, which alone would grow it.
if (process.argv[2] === 'sync') v8.setFlagsFromString('--semi-space-growth-factor=1');

const { main } = await import('./main.js');
process.exitCode = await main(process.argv);
