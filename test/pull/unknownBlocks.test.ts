// A service that added a block type or fields the contract does not name: such blocks are shown in
// the file and kept read-only there — an edit of them is not sent, a deletion is put back, their
// fields are never sent nor lost — and the user is told about each once, not every cycle.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, syncOnce, type SyncSession } from '../../src/sync/index.js';
import { captureLogger, makeRoot, openSession, startSpace, type CapturedLogger, type Space } from './harness.js';

const fixture = {
  version: 1,
  space: { id: 'S-NEW', name: 'Newer service', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-NEW',
      title: 'Newer blocks',
      createdAt: '2026-09-01T10:00:00Z',
      content: [
        { id: 'B-PLAIN', markdown: 'an ordinary paragraph' },
        { id: 'B-POLL', type: 'poll', markdown: 'Poll: where do we eat?', options: ['Harbour', 'Market'] },
        { id: 'B-GLOW', markdown: 'a paragraph that glows', glow: { strength: 3 } },
        { id: 'B-LAST', markdown: 'the end' },
      ],
    },
  ],
} as unknown as SpaceFixture;

let space: Space;
let root: string;
let session: SyncSession;
let log: CapturedLogger;

beforeAll(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  log = captureLogger();
  session = await openSession(root, space, { logger: log.logger });
});
afterAll(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const serverBlocks = async () => new Map(((await space.call('GET', '/blocks', undefined, { id: 'D-NEW' })) as any).content.map((b: any) => [b.id, b]));
const told = () => log.lines.filter((l) => l.includes('This is said once'));

describe('blocks of a type or with fields spacesync does not know', () => {
  it('are served as the fixture gives them, and pulled into the file as they read', async () => {
    const m = await serverBlocks();
    expect(m.get('B-POLL')).toEqual({ id: 'B-POLL', type: 'poll', options: ['Harbour', 'Market'], markdown: 'Poll: where do we eat?' });
    expect(m.get('B-GLOW')).toEqual({ id: 'B-GLOW', type: 'text', glow: { strength: 3 }, markdown: 'a paragraph that glows' });
    await runPull(session.ctx);
    const text = fs.readFileSync(path.join(root, 'Unsorted/Newer blocks.md'), 'utf8');
    expect(text).toContain('Poll: where do we eat?');
    expect(text).toContain('a paragraph that glows');
    expect(told()).toHaveLength(2);
    expect(told().join('\n')).toMatch(/a poll block, a type spacesync does not know/);
    expect(told().join('\n')).toMatch(/fields spacesync does not know \(glow\)/);
  });

  it('are never sent nor deleted: an edit stays in the file, a deletion is put back, the rest goes through', async () => {
    const file = path.join(root, 'Unsorted/Newer blocks.md');
    const before = fs.readFileSync(file, 'utf8');
    const edited = before
      .replace('an ordinary paragraph', 'an ordinary paragraph, edited')
      .replace('Poll: where do we eat?', 'Poll: where do we eat tonight?')
      .replace('a paragraph that glows\n\n', '');
    expect(edited).not.toContain('glows');
    fs.writeFileSync(file, edited);
    await space.clearRequests();
    await syncOnce(session.ctx);
    const m = await serverBlocks();
    expect(m.get('B-PLAIN')).toMatchObject({ markdown: 'an ordinary paragraph, edited' });
    expect(m.get('B-POLL')).toEqual({ id: 'B-POLL', type: 'poll', options: ['Harbour', 'Market'], markdown: 'Poll: where do we eat?' });
    expect(m.get('B-GLOW')).toEqual({ id: 'B-GLOW', type: 'text', glow: { strength: 3 }, markdown: 'a paragraph that glows' });
    expect((await space.requests()).filter((r) => r.method === 'DELETE' || r.method === 'POST')).toEqual([]);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toContain('a paragraph that glows');
    expect(after).toContain('Poll: where do we eat tonight?');
  });

  it('tell the user once: later cycles and a new session say nothing more', async () => {
    await syncOnce(session.ctx);
    await syncOnce(session.ctx);
    expect(told()).toHaveLength(2);
    session.close();
    log = captureLogger();
    session = await openSession(root, space, { logger: log.logger });
    await syncOnce(session.ctx);
    expect(told()).toHaveLength(0);
  });
});
