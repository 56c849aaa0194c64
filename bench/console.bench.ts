// The console's cost beside `status`'s, and its page's weight. On a mirror of 2,000 documents ×
// 10 blocks (synced once, then 50 of its files edited and a conflict kept, so the sections have
// something to show), one read of the mirror for the page (readMirrorView: what `status` reads,
// plus the conflicts side by side, the history and the budget's last hour) against collectStatus
// alone, alternated over ROUNDS rounds: the median of each neighbouring pair's ratio is the figure
// (a slower stretch of a shared machine weighs on both). The page read happens at each change of
// the mirror while a page is open, so this is what an open console adds to an idle daemon's cycle.
// Then the page's weight: its own files and the library it loads, as served.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../src/log.js';
import { generateSpace } from '../src/server/index.js';
import { openJournal } from '../src/journal/index.js';
import { openSyncSession, syncOnce } from '../src/sync/index.js';
import { collectStatus } from '../src/cli/status.js';
import { CONSOLE_ACTIONS } from '../src/console/actions.js';
import { readMirrorView } from '../src/console/mirrorView.js';
import { loadPageFiles } from '../src/console/pageFiles.js';
import { benchTempDir, type Figure } from './figure.js';
import { startServerProcess } from './serverProcess.js';

const DOCUMENTS = 2_000;
const ROUNDS = 15;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function consoleBench(): Promise<Figure[]> {
  const tmp = benchTempDir('console');
  const fixtureFile = path.join(tmp, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace({ documents: DOCUMENTS, blocksPerDocument: 10 })));
  const root = path.join(tmp, 'mirror');
  fs.mkdirSync(root);
  const server = await startServerProcess(fixtureFile, ['--limits', 'off']);
  try {
    const session = await openSyncSession({
      root,
      link: server.link,
      logger: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
      budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000 },
    });
    try {
      await syncOnce(session.ctx);
    } finally {
      session.close();
    }
    fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify({ link: server.link }), { mode: 0o600 });
    // 50 files edited here (changes waiting), and one conflict with its copy.
    const files = fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.parentPath.includes('.spacesync'))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    for (const f of files.slice(0, 50)) fs.appendFileSync(path.join(root, f), '\nAn edit here.\n');
    const copy = files[60]!.replace(/\.md$/, ' (conflict 2026-11-21 093005).md');
    fs.writeFileSync(path.join(root, copy), `${fs.readFileSync(path.join(root, files[60]!), 'utf8')}\nMine.\n`);
    const j = openJournal(path.join(root, '.spacesync', 'journal.db'));
    j.addConflict({ docId: j.getDocumentByPath(files[60]!)!.id, path: files[60]!, copyPath: copy, details: { blocks: [] } });
    j.close();

    const times = { view: [] as number[], status: [] as number[] };
    const ratios: number[] = [];
    let view = 0;
    for (let i = -2; i < 2 * ROUNDS; i++) {
      const isView = i < 0 ? i === -2 : i % 4 === 0 || i % 4 === 3;
      const t0 = performance.now();
      if (isView) {
        const m = await readMirrorView(0, root, { actions: CONSOLE_ACTIONS });
        if (m.problem || m.pending.local.length !== 50 || m.conflicts.length !== 1) throw new Error(`the mirror read wrong: ${JSON.stringify(m.problem)}`);
      } else await collectStatus({ dir: root });
      const ms = performance.now() - t0;
      if (i < 0) continue;
      times[isView ? 'view' : 'status'].push(ms);
      if (isView) view = ms;
      else if (i % 4 === 1 || i % 4 === 2) ratios.push(view / ms);
    }
    const page = loadPageFiles();
    const own = [page.index, ...page.app.values()].reduce((n, a) => n + a.body.length, 0);
    const library = [...page.vendor.values()].reduce((n, a) => n + a.body.length, 0);
    return [
      {
        name: `console: one read of a ${DOCUMENTS}-document mirror for the page ÷ status's read of it`,
        measured: Number(median(ratios).toFixed(2)),
        unit: '×',
        target: { op: '<=', value: 1.5 },
        note: `medians ${median(times.view).toFixed(0)} ms and ${median(times.status).toFixed(0)} ms`,
      },
      {
        name: 'console: the page with its library, as served (before compression)',
        measured: Number(((own + library) / 1024).toFixed(1)),
        unit: 'KiB',
        target: { op: '<=', value: 300 },
        note: `${(own / 1024).toFixed(1)} KiB of its own files, ${(library / 1024).toFixed(1)} KiB of preact, its hooks and htm`,
      },
    ];
  } finally {
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
