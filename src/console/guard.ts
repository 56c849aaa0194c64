// Who may talk to the console: only this machine's browser that opened the address it printed. The
// checks run on every request before any route (static files included): the Host header must name
// the console itself (a page of another site that re-points its own name at 127.0.0.1 — DNS
// rebinding — sends its own name), a write must come from the console's own page (its Origin), and
// the request must carry the token of this start, in the address the first time and then in an
// HttpOnly, SameSite=Strict cookie that no script and no other site can read or send.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface GuardConfig {
  port: number;
  token: string;
}

export interface RequestFacts {
  method: string;
  /** The request line's target: path and query. */
  url: string;
  host: string | undefined;
  origin: string | undefined;
  cookie: string | undefined;
}

export type Verdict =
  | { ok: true }
  /** The address's token: answered with the cookie and a redirect to the same page without it. */
  | { ok: true; login: { setCookie: string; location: string } }
  | { ok: false; status: 401 | 403; message: string };

/** A fresh token for one start of the console: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The cookie's name: one per port, so two consoles on one machine do not overwrite each other's. */
export function cookieName(port: number): string {
  return `spacesync-console-${port}`;
}

/** The names the console answers to: loopback only, with its port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

const READING = new Set(['GET', 'HEAD']);

function sameToken(given: string, token: string): boolean {
  // Hashed first: equal lengths for timingSafeEqual, and no early exit on a wrong length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function judge(req: RequestFacts, cfg: GuardConfig): Verdict {
  const hosts = allowedHosts(cfg.port);
  const host = req.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) {
    return { ok: false, status: 403, message: `This console answers only at http://127.0.0.1:${cfg.port}/ (the Host "${req.host ?? ''}" is not its own).` };
  }
  if (!READING.has(req.method.toUpperCase())) {
    const origin = req.origin?.toLowerCase();
    if (origin === undefined || !hosts.some((h) => origin === `http://${h}`)) {
      return { ok: false, status: 403, message: `Refused: a change may come only from the console's own page (the Origin "${req.origin ?? ''}" is not it).` };
    }
  }
  const url = new URL(req.url, `http://${host}`);
  const given = url.searchParams.get('token');
  if (given !== null && READING.has(req.method.toUpperCase())) {
    if (!sameToken(given, cfg.token)) {
      return { ok: false, status: 403, message: 'This address holds an old or wrong token: open the address `spacesync console` printed when it started.' };
    }
    url.searchParams.delete('token');
    return {
      ok: true,
      login: {
        setCookie: `${cookieName(cfg.port)}=${cfg.token}; Path=/; HttpOnly; SameSite=Strict`,
        location: `${url.pathname}${url.search}`,
      },
    };
  }
  const cookie = cookieValue(req.cookie, cookieName(cfg.port));
  if (cookie === undefined) {
    return { ok: false, status: 401, message: 'Open the address `spacesync console` printed (with its token) to use this console.' };
  }
  if (!sameToken(cookie, cfg.token)) {
    return { ok: false, status: 403, message: 'This browser holds the token of an earlier start: open the address `spacesync console` printed this time.' };
  }
  return { ok: true };
}
