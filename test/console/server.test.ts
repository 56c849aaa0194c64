// The console's HTTP side on a real mirror (a conflict, a held-back file, versions): who is let in,
// the headers every answer carries, what the API tells the page (and never: the link), the actions,
// and the change events. Requests are made with node:http, which sends the Host header it is told.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyReport, type CycleReport } from '../../src/core/report/cycleReport.js';
import { REPORT_KEYS } from '../../src/sync/cycle/recordReport.js';
import { openJournal } from '../../src/journal/index.js';
import { startConsole, type RunningConsole } from '../../src/console/server.js';
import { cookieName } from '../../src/console/guard.js';
import type { MirrorView } from '../../src/console/mirrorView.js';
import type { FileHistory } from '../../src/console/fileHistory.js';
import { consoleMirror, copyMirror, INBOX, ROADMAP, type ConsoleMirror } from './consoleMirror.js';

let made: ConsoleMirror;
beforeAll(async () => {
  made = await consoleMirror();
}, 60_000);
afterAll(async () => {
  await made?.server.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function call(
  c: RunningConsole,
  target: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; cookie?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${c.port}`,
    ...(opts.cookie === false ? {} : { cookie: `${cookieName(c.port)}=${c.token}` }),
    ...opts.headers,
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: c.port, path: target, method: opts.method ?? 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const post = (c: RunningConsole, target: string, body: unknown, headers: Record<string, string> = {}) =>
  call(c, target, { method: 'POST', body: JSON.stringify(body), headers: { origin: c.origin, 'content-type': 'application/json', ...headers } });

async function withConsole(use: (c: RunningConsole, root: string) => Promise<void>, root = copyMirror(made.root)): Promise<void> {
  const c = await startConsole({ dirs: [root], pollMs: 50 });
  try {
    await use(c, root);
  } finally {
    await c.close();
  }
}

describe('who the console lets in', () => {
  it('nothing without the token, the page and its files included', async () => {
    await withConsole(async (c) => {
      for (const p of ['/', '/app/main.js', '/app/style.css', '/vendor/preact.mjs', '/api/mirrors', '/api/events', '/nothing']) {
        const r = await call(c, p, { cookie: false });
        expect(r.status, p).toBe(401);
        expect(r.text).toContain('Open the address `spacesync console` printed');
      }
      expect((await call(c, '/?token=not-this-one', { cookie: false })).status).toBe(403);
      expect((await call(c, '/', { headers: { cookie: `${cookieName(c.port)}=not-this-one` } })).status).toBe(403);
    });
  });

  it("the address's token becomes an HttpOnly, SameSite=Strict cookie, and the browser is sent on without it in the address", async () => {
    await withConsole(async (c) => {
      expect(c.url).toBe(`http://127.0.0.1:${c.port}/?token=${c.token}`);
      const r = await call(c, `/?token=${c.token}`, { cookie: false });
      expect(r.status).toBe(303);
      expect(r.headers.location).toBe('/');
      expect(r.headers['set-cookie']).toEqual([`${cookieName(c.port)}=${c.token}; Path=/; HttpOnly; SameSite=Strict`]);
      const page = await call(c, '/');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    });
  });

  it('refuses another Host (DNS rebinding), with the token or the cookie', async () => {
    await withConsole(async (c) => {
      for (const host of [`rebind.example:${c.port}`, `127.0.0.1:${c.port + 1}`, 'localhost']) {
        expect((await call(c, '/api/mirrors', { headers: { host } })).status, host).toBe(403);
        expect((await call(c, `/?token=${c.token}`, { cookie: false, headers: { host } })).status, host).toBe(403);
      }
      expect((await call(c, '/api/mirrors', { headers: { host: `localhost:${c.port}` } })).status).toBe(200);
    });
  });

  it('refuses a write from another Origin (or none) before routing, and a body that is not JSON', async () => {
    const root = copyMirror(made.root);
    await withConsole(async (c) => {
      const settle = '/api/mirrors/0/actions/settle-conflict';
      for (const origin of ['http://evil.example', `http://127.0.0.1:${c.port + 1}`, 'null']) {
        expect((await post(c, settle, { id: 1, keep: 'mine' }, { origin })).status, origin).toBe(403);
        expect((await post(c, '/no/such/route', {}, { origin })).status, origin).toBe(403);
      }
      const bare = await call(c, settle, { method: 'POST', body: '{"id":1}', headers: { 'content-type': 'application/json' } });
      expect(bare.status).toBe(403);
      const form = await call(c, settle, { method: 'POST', body: 'id=1', headers: { origin: c.origin, 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(415);
      // Nothing was settled.
      const m = JSON.parse((await call(c, '/api/mirrors/0')).text) as MirrorView;
      expect(m.conflicts).toHaveLength(1);
    }, root);
  });

  it('every answer carries a strict Content-Security-Policy: its own files, the import map by its hash, nothing inline', async () => {
    await withConsole(async (c) => {
      const page = await call(c, '/');
      const csp = page.headers['content-security-policy'] as string;
      const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(page.text)![1]!;
      const { createHash } = await import('node:crypto');
      expect(csp).toBe(
        `default-src 'none'; script-src 'self' 'sha256-${createHash('sha256').update(importMap).digest('base64')}'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      );
      for (const p of ['/app/main.js', '/api/mirrors', '/nothing']) {
        const r = await call(c, p);
        expect(r.headers['content-security-policy'], p).toBe(csp);
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(r.headers['x-frame-options']).toBe('DENY');
        expect(r.headers['cache-control']).toBe('no-store');
      }
      // The page names no resource outside the console (it works offline).
      const files = [page.text, ...(await Promise.all(['main.js', 'api.js', 'style.css'].map(async (f) => (await call(c, `/app/${f}`)).text)))];
      for (const f of files) expect(f).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    });
  });
});

describe('what the API tells the page', () => {
  it('the daemon, the conflict as three versions, the held-back file, the versions, the budget; never the link', async () => {
    await withConsole(async (c) => {
      const r = await call(c, '/api/mirrors');
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(made.server.linkId);
      const [m] = (JSON.parse(r.text) as { mirrors: MirrorView[] }).mirrors;
      expect(m!.problem).toBeNull();
      expect(m!.link).toMatch(/\/links\/.{4}…\/api\/v1$/);
      expect(m!.daemon).toMatchObject({ running: false, reachable: true, start: expect.stringContaining('spacesync sync --dir ') });
      expect(m!.daemon!.lastPoll).toEqual(expect.any(String));
      expect(m!.daemon!.lastChange).toEqual(expect.any(String));
      // The reports of the fixture's two cycles: the push of the Inbox note's edit among them.
      expect(m!.activity!.flatMap((a) => a.changes)).toContainEqual(expect.objectContaining({ side: 'local', path: INBOX, title: 'Inbox note' }));
      const conflict = m!.conflicts[0]!;
      expect(conflict).toMatchObject({ path: ROADMAP, copyExists: true, fileExists: true });
      expect(conflict.rows).toContainEqual({
        row: 'changed',
        kind: 'block',
        depth: 0,
        base: 'Ship the sync engine',
        space: [
          { text: 'Ship the sync engine', op: 'same' },
          { text: ' in March', op: 'ins' },
        ],
        mine: [
          { text: 'Ship the sync engine', op: 'same' },
          { text: ' next week', op: 'ins' },
        ],
        conflict: true,
      });
      expect(conflict.offers.map((o) => o.label)).toEqual(["Keep the space's", 'Keep mine', 'Keep both', 'Mark resolved']);
      expect(m!.heldBack).toEqual([expect.objectContaining({ path: 'Projects/Broken.md', reason: 'undecodable', offers: [] })]);
      expect(m!.history.shown.map((v) => `${v.side} ${v.path}`)).toEqual(expect.arrayContaining([`local ${ROADMAP}`, `remote ${INBOX}`]));
      expect(m!.budget!.windows.map((w) => w.name)).toEqual(['requests to the space', 'requests from this address', 'blocks read or written']);
      expect(m!.budget!.lastHour).toHaveLength(60);
      expect(m!.budget!.lastHour.reduce((n, x) => n + x.requests, 0)).toBeGreaterThan(0);
      expect(m!.downloads).toEqual([]);
    });
  });

  it('recent activity once the daemon keeps cycle reports; downloads waiting; the link masked wherever it appears', async () => {
    const root = copyMirror(made.root);
    const cfg = path.join(root, '.spacesync', 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ ...JSON.parse(fs.readFileSync(cfg, 'utf8')), apiKey: 'SECRET-API-KEY-1234' }));
    const j = openJournal(path.join(root, '.spacesync', 'journal.db'));
    const report = (at: string, more: Partial<CycleReport>): CycleReport => ({ ...emptyReport('cycle', at), finishedAt: at, ...more });
    j.setState(REPORT_KEYS.recent, [
      report('2026-11-21T10:00:00.000Z', { changes: [{ kind: 'document', side: 'remote', action: 'updated', path: INBOX, title: 'Inbox note' }] }),
      report('2026-11-21T10:05:00.000Z', { problems: [{ key: 'k', path: 'x.md', severity: 'failed', message: 'it failed' }] }),
    ]);
    j.setState(
      REPORT_KEYS.lastChange,
      report('2026-11-21T10:00:00.000Z', { changes: [{ kind: 'document', side: 'remote', action: 'updated', path: INBOX, title: 'Inbox note' }] }),
    );
    j.setState('media-retry:B-IMG', {
      url: `${made.server.baseUrl}/assets/A-1`,
      failures: 2,
      notBefore: '2026-11-21T10:10:00.000Z',
      message: `GET ${made.server.baseUrl}/assets/A-1 failed with SECRET-API-KEY-1234`,
    });
    j.close();
    await withConsole(async (c) => {
      const r = await call(c, '/api/mirrors/0');
      expect(r.text).not.toContain(made.server.linkId);
      expect(r.text).not.toContain('SECRET-API-KEY-1234');
      const m = JSON.parse(r.text) as MirrorView;
      expect(m.activity).toEqual([
        { at: '2026-11-21T10:05:00.000Z', changes: [], problems: ['x.md: it failed'] },
        { at: '2026-11-21T10:00:00.000Z', changes: [{ kind: 'document', side: 'remote', action: 'updated', path: INBOX, title: 'Inbox note' }], problems: [] },
      ]);
      expect(m.daemon!.lastChange).toBe('2026-11-21T10:00:00.000Z');
      expect(m.downloads).toEqual([expect.objectContaining({ failures: 2, notBefore: '2026-11-21T10:10:00.000Z', tooLarge: null })]);
      expect(m.downloads[0]!.url).toMatch(/\/links\/.{4}…\/api\/v1\/assets\/A-1$/);
    }, root);
  });

  it('a folder that is not a mirror (any more) is shown with what to do, beside the others', async () => {
    const gone = path.join(copyMirror(made.root), 'not-here');
    const c = await startConsole({ dirs: [made.root, gone] });
    try {
      const { mirrors } = JSON.parse((await call(c, '/api/mirrors')).text) as { mirrors: MirrorView[] };
      expect(mirrors[0]!.problem).toBeNull();
      expect(mirrors[1]!.problem).toMatchObject({ code: 'config_missing', message: expect.stringContaining('does not exist') });
      expect((await call(c, '/api/mirrors/2')).status).toBe(404);
    } finally {
      await c.close();
    }
  });
});

describe('the actions', () => {
  it('keep both: the copy becomes a note of its own and the conflict is resolved', async () => {
    await withConsole(async (c, root) => {
      const r = await post(c, '/api/mirrors/0/actions/settle-conflict', { id: 1, keep: 'both' });
      expect(r.status, r.text).toBe(200);
      expect(JSON.parse(r.text).message).toContain('is now a note of its own, Projects/Roadmap (mine).md');
      expect(fs.readFileSync(path.join(root, 'Projects', 'Roadmap (mine).md'), 'utf8')).toContain('Ship the sync engine next week');
      const m = JSON.parse((await call(c, '/api/mirrors/0')).text) as MirrorView;
      expect(m.conflicts).toEqual([]);
    });
  });

  it('a wrong argument or an unknown action is a 400 or 404 saying what is wrong', async () => {
    await withConsole(async (c) => {
      const bad = await post(c, '/api/mirrors/0/actions/settle-conflict', { id: 1, keep: 'theirs' });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text).error.message).toBe('"keep" is mine, space or both.');
      const gone = await post(c, '/api/mirrors/0/actions/settle-conflict', { id: 99 });
      expect(gone.status).toBe(400);
      expect(JSON.parse(gone.text).error.message).toContain('No conflict #99');
      expect((await post(c, '/api/mirrors/0/actions/approve-everything', {})).status).toBe(404);
    });
  });

  it("backup mode: a change here is offered a revert, which writes the space's version back and keeps the file's in the history", async () => {
    const root = copyMirror(made.root);
    const configFile = path.join(root, '.spacesync', 'config.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    await withConsole(async (c) => {
      // Two-way: the same change is sent by the next sync, never reverted.
      fs.appendFileSync(path.join(root, INBOX), '\nkept here\n');
      const twoWay = JSON.parse((await call(c, '/api/mirrors/0')).text) as MirrorView;
      expect(twoWay.pending.backup).toBe(false);
      expect(twoWay.pending.local.find((x) => x.path === INBOX)!.offers).toEqual([]);
      fs.writeFileSync(configFile, JSON.stringify({ ...config, mode: 'backup' }));
      const m = JSON.parse((await call(c, '/api/mirrors/0')).text) as MirrorView;
      expect(m.pending.backup).toBe(true);
      const change = m.pending.local.find((x) => x.path === INBOX)!;
      expect(change.offers).toEqual([expect.objectContaining({ action: 'revert-change', label: 'Revert', args: { path: INBOX }, tone: 'danger' })]);
      const done = await post(c, '/api/mirrors/0/actions/revert-change', change.offers[0]!.args);
      expect(done.status, done.text).toBe(200);
      expect(JSON.parse(done.text).message).toContain(`Reverted ${INBOX}: written again from the space's version`);
      expect(fs.readFileSync(path.join(root, INBOX), 'utf8')).not.toContain('kept here');
      const h = JSON.parse((await call(c, `/api/mirrors/0/history?path=${encodeURIComponent(INBOX)}`)).text) as FileHistory;
      expect(JSON.stringify(h.versions)).toContain('kept here');
    }, root);
  });

  it("a file's versions against the file now, and restore", async () => {
    await withConsole(async (c, root) => {
      const r = await call(c, `/api/mirrors/0/history?path=${encodeURIComponent(INBOX)}`);
      expect(r.status, r.text).toBe(200);
      const h = JSON.parse(r.text) as FileHistory;
      const v = h.versions.find((x) => x.side === 'remote')!;
      expect(v.current).toBe(false);
      expect(v.rows).toContainEqual({ row: 'changed', kind: 'block', depth: 0, a: 'hello world', b: 'hello there', runs: expect.any(Array) });
      expect(v.offers).toEqual([expect.objectContaining({ action: 'restore-version', label: 'Restore', args: { path: INBOX, version: v.id } })]);
      const done = await post(c, '/api/mirrors/0/actions/restore-version', v.offers[0]!.args);
      expect(done.status, done.text).toBe(200);
      expect(JSON.parse(done.text).message).toContain(`Restored "${INBOX}" to version ${v.id}`);
      expect(fs.readFileSync(path.join(root, INBOX), 'utf8')).toContain('hello world');
      const after = JSON.parse((await call(c, `/api/mirrors/0/history?path=${encodeURIComponent(INBOX)}`)).text) as FileHistory;
      expect(after.versions.find((x) => x.id === v.id)!.current).toBe(true);
      expect((await call(c, '/api/mirrors/0/history')).status).toBe(400);
    });
  });

  it("tells a listening page when a mirror changes: its own action, or another process's write", async () => {
    await withConsole(async (c, root) => {
      const events: string[] = [];
      const req = http.request({
        host: '127.0.0.1',
        port: c.port,
        path: '/api/events',
        headers: { host: `127.0.0.1:${c.port}`, cookie: `${cookieName(c.port)}=${c.token}` },
      });
      const got = new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
      req.end();
      const res = await got;
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      res.setEncoding('utf8');
      res.on('data', (d: string) => events.push(...d.split('\n\n').filter((e) => e.startsWith('event:'))));
      const until = async (n: number, tries = 100) => {
        for (let i = 0; i < tries && events.length < n; i++) await new Promise((r) => setTimeout(r, 20));
        return events.length;
      };
      // Nothing changed: nothing told.
      expect(await until(1, 10)).toBe(0);
      // Another process (a daemon, a command) writes the journal.
      const j = openJournal(path.join(root, '.spacesync', 'journal.db'));
      j.setState('status.errors', [{ at: new Date().toISOString(), code: 'network', message: 'gone' }]);
      j.close();
      expect(await until(1)).toBe(1);
      expect(events[0]).toBe('event: mirror\ndata: {"id":0}');
      expect((await post(c, '/api/mirrors/0/actions/settle-conflict', { id: 1, keep: 'space' })).status).toBe(200);
      expect(await until(2)).toBeGreaterThanOrEqual(2);
      expect(events[1]).toBe('event: mirror\ndata: {"id":0}');
      req.destroy();
    });
  });
});
