// The space server as its own process (`spacesync server`), for the benchmarks that measure the sync
// against it: its work is not counted in the sync's, and its event loop is not the sync's.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  child: ChildProcess;
  link: string;
  /** The admin routes' base (`…/__admin`). */
  admin: string;
}

/** Starts `spacesync server --seed <fixtureFile> --admin` with `limitArgs` (`--limits off`…) and waits for its link. */
export async function startServerProcess(fixtureFile: string, limitArgs: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/dev.js', 'server', '--port', '0', '--seed', fixtureFile, ...limitArgs, '--admin'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const link = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (d) => {
      buffer += String(d);
      const m = /listening: (\S+)/.exec(buffer);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, link, admin: `${new URL(link).origin}/__admin` };
}
