#!/usr/bin/env node
// The installed command (package.json `bin`, compiled to dist/cli/bin.js): runs the command line.
import v8 from 'node:v8';

// `sync` keeps V8's young generation at its first size (1 MiB semi-spaces, growth factor 1) instead
// of letting it grow to 16 MiB semi-spaces: 32 MiB that a daemon keeps resident all day once grown,
// and with releaseMemory's collections it keeps a first pull's peak low (docs/benchmarks.md,
// Memory). V8 reads the growth factor each time it would grow the space (the maximum size only at
// start), so it is set here, before loading the program, which alone would grow it.
//
// It also asks V8 to collect rather than grow the old generation (`--optimize-for-size`, read at
// each decision to grow): a cycle's garbage (listings, scans, parsed answers) otherwise piles up to
// the next major collection, and a `sync --once` beside 10,000 unchanged documents peaked at 194 MiB
// instead of 143, for no less CPU (bench/REPORT.md, scale).
if (process.argv[2] === 'sync') v8.setFlagsFromString('--semi-space-growth-factor=1 --optimize-for-size');

const { main } = await import('./main.js');
process.exitCode = await main(process.argv);
