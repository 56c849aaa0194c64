// Git backups with a real git in temp folders (with no user or system git config, so a developer's
// own settings change nothing), and with no git at all.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Change } from '../../core/report/cycleReport.js';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../log.js';
import { commitMessage, commitMirror, GITIGNORE_LINES } from './gitBackup.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-githome-'));
const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
  HOME: home,
  XDG_CONFIG_HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig'),
};
const NOW = () => new Date('2026-11-21T09:30:05Z');

function mirror(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-git-')));
}

function put(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

const git = (root: string, ...args: string[]) => execFileSync('git', args, { cwd: root, env: ENV, encoding: 'utf8' });

function logs() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

/** A document's change in a cycle's report. */
const doc = (p: string, title: string, side: Change['side'] = 'local'): Change => ({ kind: 'document', side, action: 'updated', path: p, title });

describe('commitMirror', () => {
  it('makes the mirror a repository and commits the documents, never .spacesync/, conflict copies or temp files', async () => {
    const root = mirror();
    put(root, 'Projects/Roadmap.md', '---\nid: D1\n---\n# Goals\n');
    put(root, 'Unsorted/What_ A_B.md', '---\nid: D2\ntitle: "What? A/B"\n---\nodd\n');
    put(root, '.spacesync/journal.db', 'state');
    put(root, '.spacesync/logs/spacesync.log', '{}\n');
    put(root, 'Projects/Roadmap (conflict 2026-11-21 093005).md', 'mine');
    put(root, 'Projects/Roadmap (conflict 2026-11-21 093005 2).md', 'mine again');
    put(root, 'Projects/.Roadmap.md.spacesync-1a2b3c.tmp', 'half');
    const { logger } = logs();
    const out = await commitMirror({
      root,
      now: NOW,
      logger,
      env: ENV,
      changes: [doc('Projects/Roadmap.md', 'Roadmap'), doc('Unsorted/What_ A_B.md', 'What? A/B')],
    });
    expect(out.kind).toBe('committed');
    expect(git(root, 'ls-files').split('\n').filter(Boolean)).toEqual(['.gitignore', 'Projects/Roadmap.md', 'Unsorted/What_ A_B.md']);
    // The first commit says so, and names every file it adds.
    expect(git(root, 'log', '--format=%s%n%n%b')).toBe(
      'spacesync: first backup of the mirror, 2 documents\n\nAdded:\n- Projects/Roadmap.md: new\n- Unsorted/What_ A_B.md (What? A/B): new\n\n',
    );
    expect(git(root, 'log', '--format=%an <%ae> %at')).toMatch(new RegExp(`^spacesync <spacesync@.+> ${NOW().getTime() / 1000}\\n$`));
    if (out.kind === 'committed') expect(out.commit).toBe(git(root, 'rev-parse', 'HEAD').trim());
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toContain(GITIGNORE_LINES.join('\n'));
    expect(git(root, 'status', '--porcelain')).toBe('');
  });

  it('does nothing when nothing changed, and commits only what changed next', async () => {
    const root = mirror();
    put(root, 'A.md', 'a\n');
    put(root, 'B.md', 'b\n');
    const { logger } = logs();
    await commitMirror({
      root,
      now: NOW,
      logger,
      env: ENV,
      changes: [doc('A.md', 'A'), doc('B.md', 'B')],
    });
    expect(await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] })).toEqual({ kind: 'nothing' });
    expect(git(root, 'rev-list', '--count', 'HEAD').trim()).toBe('1');

    put(root, 'A.md', 'a, edited\n');
    fs.rmSync(path.join(root, 'B.md'));
    put(root, 'A (conflict 2026-11-21 093005).md', 'never committed');
    put(root, 'C.md', 'c\n');
    const out = await commitMirror({
      root,
      now: NOW,
      logger,
      env: ENV,
      changes: [doc('A.md', 'A', 'local'), doc('B.md', 'B', 'remote')],
    });
    expect(out.kind).toBe('committed');
    expect(git(root, 'show', '--name-status', '--format=%s%n%b', 'HEAD').trim().split('\n').filter(Boolean)).toEqual([
      'spacesync: A (changed here); B (from the space); C (in the folder)',
      'Changed here, sent to the space:',
      '- A.md: edited',
      'Changed in the space, pulled:',
      '- B.md: removed',
      'Also changed in the folder:',
      '- C.md: new',
      'M\tA.md',
      'D\tB.md',
      'A\tC.md',
    ]);
  });

  it("commits the assets beside the documents with them, on their document's side, and counts them apart in the first backup", async () => {
    const root = mirror();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    put(root, 'Projects/Roadmap.md', '---\nid: D1\n---\n![Diagram](Roadmap.assets/diagram-1a2b.png)\n');
    fs.mkdirSync(path.join(root, 'Projects/Roadmap.assets'));
    fs.writeFileSync(path.join(root, 'Projects/Roadmap.assets/diagram-1a2b.png'), png);
    const { logger } = logs();
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('Projects/Roadmap.md', 'Roadmap', 'remote')] });
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('spacesync: first backup of the mirror, 1 document and 1 other file');
    expect(git(root, 'ls-files').split('\n').filter(Boolean)).toEqual(['.gitignore', 'Projects/Roadmap.assets/diagram-1a2b.png', 'Projects/Roadmap.md']);
    expect(execFileSync('git', ['show', 'HEAD:Projects/Roadmap.assets/diagram-1a2b.png'], { cwd: root, env: ENV })).toEqual(png);

    fs.writeFileSync(path.join(root, 'Projects/Roadmap.assets/diagram-1a2b.png'), Buffer.concat([png, png]));
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('Projects/Roadmap.md', 'Roadmap', 'remote')] });
    expect(git(root, 'log', '-1', '--format=%s%n%b').trim()).toBe(
      'spacesync: diagram-1a2b.png (from the space)\nChanged in the space, pulled:\n- Projects/Roadmap.assets/diagram-1a2b.png: updated',
    );
  });

  it('names a rename made here by both its paths', async () => {
    const root = mirror();
    put(root, 'Old name.md', '---\nid: D1\n---\nsome text long enough to be seen as the same file\n');
    const { logger } = logs();
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] });
    fs.renameSync(path.join(root, 'Old name.md'), path.join(root, 'New name.md'));
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('New name.md', 'New name', 'local')] });
    expect(git(root, 'log', '-1', '--format=%s%n%b').trim()).toBe(
      'spacesync: New name (changed here)\nChanged here, sent to the space:\n- New name.md: renamed or moved from Old name.md',
    );
  });

  it("keeps the user's repository, .gitignore and identity", async () => {
    const root = mirror();
    git(root, 'init', '-q');
    git(root, 'config', 'user.name', 'Ada');
    git(root, 'config', 'user.email', 'ada@example.org');
    put(root, '.gitignore', '*.pdf\n');
    put(root, 'Doc.md', 'x\n');
    put(root, 'paper.pdf', 'binary');
    const { logger } = logs();
    expect((await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('Doc.md', 'Doc')] })).kind).toBe('committed');
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toMatch(/^\*\.pdf\n# spacesync: .*\n\.spacesync\/\n/);
    expect(git(root, 'log', '--format=%an <%ae>').trim()).toBe('Ada <ada@example.org>');
    expect(git(root, 'ls-files')).not.toContain('paper.pdf');
  });

  it("leaves spacesync's state and conflict copies out even when the .gitignore lets them in or an old commit tracks them", async () => {
    const root = mirror();
    git(root, 'init', '-q');
    put(root, '.spacesync/config.json', '{"link":"secret"}');
    put(root, 'Doc.md', 'x\n');
    git(root, 'add', '-f', '.spacesync/config.json');
    git(root, '-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'by hand');
    put(root, '.gitignore', `${GITIGNORE_LINES.join('\n')}\n!*\n!.spacesync/**\n`);
    put(root, 'Doc (conflict 2026-11-21 093005).md', 'mine');
    put(root, '.spacesync/journal.db', 'state');
    const { logger } = logs();
    expect((await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('Doc.md', 'Doc')] })).kind).toBe('committed');
    expect(git(root, 'ls-files').split('\n').filter(Boolean)).toEqual(['.gitignore', 'Doc.md']);
    expect(fs.existsSync(path.join(root, '.spacesync', 'config.json'))).toBe(true);
  });

  it('a mirror inside another repository gets its own, and the outer history is left alone', async () => {
    const outer = mirror();
    git(outer, 'init', '-q');
    const root = path.join(outer, 'Notes');
    put(root, 'Doc.md', 'x\n');
    const { logger } = logs();
    expect((await commitMirror({ root, now: NOW, logger, env: ENV, changes: [doc('Doc.md', 'Doc')] })).kind).toBe('committed');
    expect(fs.existsSync(path.join(root, '.git'))).toBe(true);
    expect(() => git(outer, 'rev-parse', 'HEAD')).toThrow();
  });

  it('a missing git: a clear git_missing error, logged once however many cycles ask, never thrown', async () => {
    const root = mirror();
    put(root, 'Doc.md', 'x\n');
    const { logger, lines } = logs();
    const env = { ...ENV, PATH: '' };
    const first = await commitMirror({ root, now: NOW, logger, env, changes: [doc('Doc.md', 'Doc')] });
    const second = await commitMirror({ root, now: NOW, logger, env, changes: [doc('Doc.md', 'Doc')] });
    expect(first.kind).toBe('failed');
    expect(second.kind).toBe('failed');
    if (first.kind === 'failed') {
      expect(first.error.code).toBe('git_missing');
      expect(first.error.message).toMatch(/git was not found on the PATH.*Install git, or set "autoCommit" to false; syncing goes on/);
    }
    expect(lines.filter((l) => l.level === 50)).toHaveLength(1);
    expect(fs.existsSync(path.join(root, '.git'))).toBe(false);
  });

  it('a broken repository: git_failed naming the step and what to look at; logged again only after a success', async () => {
    const root = mirror();
    put(root, 'Doc.md', 'x\n');
    put(root, '.git', 'gitdir: /nowhere/at/all\n');
    const { logger, lines } = logs();
    const out = await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] });
    expect(out.kind).toBe('failed');
    if (out.kind === 'failed') {
      expect(out.error.code).toBe('git_failed');
      expect(out.error.message).toMatch(new RegExp(`^git add failed in ${root} \\(.+\\), so this cycle's changes were not committed\\. Run \`git status\``));
    }
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] });
    expect(lines.filter((l) => l.level === 50)).toHaveLength(1);
    fs.rmSync(path.join(root, '.git'));
    expect((await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] })).kind).toBe('committed');
    put(root, '.git/HEAD', 'garbage');
    await commitMirror({ root, now: NOW, logger, env: ENV, changes: [] });
    expect(lines.filter((l) => l.level === 50)).toHaveLength(2);
  });
});

describe('commitMessage', () => {
  it('names up to three documents in the subject, every one in the body, long lists cut', () => {
    const docs = Array.from({ length: 60 }, (_, i) => ({ path: `N/${String(i).padStart(2, '0')}.md`, title: String(i).padStart(2, '0') }));
    const m = commitMessage(docs.map((d) => doc(d.path, d.title, 'remote')));
    expect(m.subject).toBe('spacesync: 00, 01, 02 and 57 more (from the space)');
    expect(m.body.split('\n')).toHaveLength(52);
    expect(m.body.split('\n').at(-1)).toBe('- … and 10 more');
    expect(commitMessage([doc('a.md', 'x'.repeat(80), 'local'), doc('b.md', 'b', 'remote')]).subject).toBe(
      'spacesync: 1 document changed here, 1 document from the space',
    );
    expect(commitMessage([doc('a.md', 'two\nlines', 'local')]).subject).toBe('spacesync: two lines (changed here)');
  });
});
