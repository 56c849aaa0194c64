// The space server as its own process (`spacesync server`), for the benchmarks that measure the sync
// against it: its work is not counted in the sync's, and its event loop is not the sync's.
import { spawn, type ChildProcess } from 'node:child_process';

/** How to reach a server's admin routes: their base (`…/__admin`) and their bearer token. */
export interface AdminAccess {
  adminUrl: string;
  adminToken: string | undefined;
}

export interface ServerProcess extends AdminAccess {
  child: ChildProcess;
  link: string;
}

/** A request to an admin route (`path` after `/__admin`), with the admin credential. */
export function adminFetch(admin: AdminAccess, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (admin.adminToken !== undefined) headers.set('authorization', `Bearer ${admin.adminToken}`);
  return fetch(`${admin.adminUrl}${path}`, { ...init, headers });
}

/**
 * Starts `spacesync server --seed <fixtureFile> --admin` with `extraArgs` (`--limits off`…) and
 * waits for its link and the admin token it prints.
 */
export async function startServerProcess(fixtureFile: string, extraArgs: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/dev.js', 'server', '--port', '0', '--seed', fixtureFile, ...extraArgs, '--admin'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The warning that the admin routes are on is expected here; anything else on stderr is shown.
  child.stderr!.on('data', (d) => {
    const text = String(d)
      .split('\n')
      .filter((l) => l !== '' && !/admin routes are on/.test(l))
      .join('\n');
    if (text) process.stderr.write(`${text}\n`);
  });
  const { link, token } = await new Promise<{ link: string; token: string }>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (d) => {
      buffer += String(d);
      const m = /listening: (\S+)/.exec(buffer);
      const t = /admin token: (\S+)/.exec(buffer);
      if (m && t) resolve({ link: m[1]!, token: t[1]! });
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, link, adminUrl: `${new URL(link).origin}/__admin`, adminToken: token };
}
