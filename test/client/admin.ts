// The test server's admin routes, as the client tests use them: faults and the request log.
import type { FaultSpec, LoggedRequest } from '../../src/server/index.js';

/** How to reach a test server's admin routes: a RunningServer is one (its base and its bearer token). */
export interface AdminAccess {
  adminUrl: string;
  adminToken: string | undefined;
}

/** A request to an admin route (`path` after `/__admin`), with the admin credential. */
export function adminFetch(admin: AdminAccess, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (admin.adminToken !== undefined) headers.set('authorization', `Bearer ${admin.adminToken}`);
  return fetch(`${admin.adminUrl}${path}`, { ...init, headers });
}

export async function armFault(admin: AdminAccess, fault: FaultSpec): Promise<void> {
  const res = await adminFetch(admin, '/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
  if (res.status !== 200) throw new Error(`arming a fault failed: ${res.status} ${await res.text()}`);
}

export async function requestLog(admin: AdminAccess): Promise<LoggedRequest[]> {
  const res = await adminFetch(admin, '/requests');
  return ((await res.json()) as { items: LoggedRequest[] }).items;
}

export async function clearLog(admin: AdminAccess): Promise<void> {
  await adminFetch(admin, '/requests', { method: 'DELETE' });
}

/** The most entries of `times` inside any window of `windowMs`, each weighted. */
export function maxInWindow(times: ReadonlyArray<{ at: number; weight?: number }>, windowMs: number): number {
  const sorted = [...times].sort((a, b) => a.at - b.at);
  let best = 0;
  let sum = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    sum += sorted[hi]!.weight ?? 1;
    while (sorted[hi]!.at - sorted[lo]!.at >= windowMs) sum -= sorted[lo++]!.weight ?? 1;
    best = Math.max(best, sum);
  }
  return best;
}
