// The daemon: the watcher and the poll that run full cycles, and what follows a cycle (git backup
// of the mirror, stats, refusals kept for `status`).
export { backUp, filesOfCycle, noteRefusal, saveStats } from './afterWork.js';
export { type DaemonHandle, type DaemonOptions, FATAL_CODES, runDaemon } from './daemon.js';
