// The daemon (`spacesync sync`) as a process a benchmark started: stopped as a user stops it.
import type { ChildProcess } from 'node:child_process';

/** SIGTERM, then SIGKILL when the daemon has not stopped within 10 s; resolves once it exited. */
export async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}
