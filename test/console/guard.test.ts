// Who may talk to the console (src/console/guard.ts), request by request: the rules alone; the
// HTTP test (server.test.ts) and the browser test show them applied to every route.
import { describe, expect, it } from 'vitest';
import { allowedHosts, cookieName, judge, newToken, type RequestFacts } from '../../src/console/guard.js';

const cfg = { port: 4321, token: 'T0KEN-of-this-start' };
const cookie = `${cookieName(4321)}=${cfg.token}`;
const req = (over: Partial<RequestFacts>): RequestFacts => ({ method: 'GET', url: '/', host: '127.0.0.1:4321', origin: undefined, cookie, ...over });

describe('the console guard', () => {
  it('lets in a request with the cookie of this start, at any of its loopback names', () => {
    for (const host of allowedHosts(4321)) expect(judge(req({ host }), cfg)).toEqual({ ok: true });
    expect(judge(req({ host: 'LOCALHOST:4321' }), cfg)).toEqual({ ok: true });
  });

  it('refuses another Host (DNS rebinding), another port, or none, whatever the token', () => {
    for (const host of ['evil.example:4321', '127.0.0.1:4322', '127.0.0.1', '192.168.1.5:4321', undefined]) {
      const v = judge(req({ host, url: `/?token=${cfg.token}` }), cfg);
      expect(v).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('refuses a write without the Origin of its own page, before anything else is looked at', () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:9999', 'https://127.0.0.1:4321', 'null', undefined]) {
      expect(judge(req({ method: 'POST', url: '/api/mirrors/0/actions/x', origin }), cfg)).toMatchObject({ ok: false, status: 403 });
    }
    expect(judge(req({ method: 'POST', origin: 'http://localhost:4321' }), cfg)).toEqual({ ok: true });
    expect(judge(req({ method: 'DELETE', origin: 'http://[::1]:4321' }), cfg)).toEqual({ ok: true });
  });

  it('asks for the token without a cookie (401), and refuses a wrong one (403)', () => {
    expect(judge(req({ cookie: undefined }), cfg)).toMatchObject({ ok: false, status: 401 });
    expect(judge(req({ cookie: 'other=1' }), cfg)).toMatchObject({ ok: false, status: 401 });
    expect(judge(req({ cookie: `${cookieName(4321)}=old-token` }), cfg)).toMatchObject({ ok: false, status: 403 });
    // Another console's cookie (another port) is not this one's.
    expect(judge(req({ cookie: `${cookieName(4322)}=${cfg.token}` }), cfg)).toMatchObject({ ok: false, status: 401 });
  });

  it("turns the address's token into an HttpOnly, SameSite=Strict cookie and sends the browser to the same page without it", () => {
    const v = judge(req({ cookie: undefined, url: `/?token=${cfg.token}&x=1` }), cfg);
    expect(v).toEqual({
      ok: true,
      login: { setCookie: `${cookieName(4321)}=${cfg.token}; Path=/; HttpOnly; SameSite=Strict`, location: '/?x=1' },
    });
    expect(judge(req({ cookie: undefined, url: '/?token=nope' }), cfg)).toMatchObject({ ok: false, status: 403 });
    // A token in the address of a write is not a login.
    expect(judge(req({ method: 'POST', origin: 'http://127.0.0.1:4321', cookie: undefined, url: `/?token=${cfg.token}` }), cfg)).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('makes a new random token each time', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
  });
});
