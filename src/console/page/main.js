// The console page: the mirrors on this machine, one at a time, read from the console's API and read
// again whenever one changes (server-sent events); a click on an offer runs its action and says what
// it did. Each section appears only when its data exists (the recent activity once the daemon keeps
// cycle reports, held-back files when there are some…).
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Activity } from './activity.js';
import { oneAtATime, readMirror, readMirrors, runOffer, watchMirrors } from './api.js';
import { Budget } from './budget.js';
import { Conflicts } from './conflicts.js';
import { Daemon } from './daemon.js';
import { Downloads } from './downloads.js';
import { History } from './history.js';
import { html } from './html.js';
import { HeldBack, Pending } from './waiting.js';

/** Relative times ("5 min ago") are redrawn this often; the data is read again on every change and at least this often. */
const TICK_MS = 10_000;
const REREAD_MS = 60_000;

const selectedFromHash = () => Number(/^#mirror-(\d+)$/.exec(location.hash)?.[1] ?? 0);

function Notice({ notice, onClose }) {
  if (!notice) return null;
  return html`<div class=${`notice ${notice.kind}`} role=${notice.kind === 'error' ? 'alert' : 'status'}>
    <span>${notice.text}</span>
    <button type="button" class="link" onClick=${onClose} aria-label="Dismiss">×</button>
  </div>`;
}

function Mirror({ m, now, onRun, busy }) {
  if (m.problem) {
    return html`<section class="card" aria-label="Problem">
      <h2>This mirror cannot be read</h2>
      <p class="bad">${m.problem.message}</p>
    </section>`;
  }
  return html`<div class="mirror">
    <${Daemon} m=${m} now=${now} onRun=${onRun} busy=${busy} />
    ${m.activity ? html`<${Activity} m=${m} now=${now} />` : null}
    <${Conflicts} m=${m} now=${now} onRun=${onRun} busy=${busy} />
    <${HeldBack} m=${m} onRun=${onRun} busy=${busy} />
    <${Pending} m=${m} onRun=${onRun} busy=${busy} />
    <${History} m=${m} now=${now} onRun=${onRun} busy=${busy} />
    <${Budget} m=${m} now=${now} />
    <${Downloads} m=${m} now=${now} />
  </div>`;
}

function Nav({ mirrors, selected }) {
  if (mirrors.length < 2) return null;
  return html`<nav aria-label="Mirrors">
    <ul>
      ${mirrors.map((m) => {
        const badge = m.conflicts.length ? html` <span class="badge warn">${m.conflicts.length}</span>` : null;
        return html`<li>
          <a href=${`#mirror-${m.id}`} aria-current=${m.id === selected ? 'page' : null} title=${m.dir}><span class=${`dot ${m.daemon?.running ? 'on' : 'off'}`}></span>${m.name}${badge}</a>
        </li>`;
      })}
    </ul>
  </nav>`;
}

function App() {
  const [mirrors, setMirrors] = useState(null);
  const [selected, setSelected] = useState(selectedFromHash());
  const [notice, setNotice] = useState(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now());

  const reread = useMemo(
    () =>
      oneAtATime((id) =>
        readMirror(id).then(
          (m) => setMirrors((list) => list && list.map((x) => (x.id === id ? m : x))),
          (e) => setNotice({ kind: 'error', text: e.message }),
        ),
      ),
    [],
  );

  useEffect(() => {
    const readAll = () =>
      readMirrors().then(
        (r) => setMirrors(r.mirrors),
        (e) => setNotice({ kind: 'error', text: e.message }),
      );
    // Read once the change stream is open (and again at every reconnection): no change falls between.
    const stop = watchMirrors(reread, readAll);
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    const all = setInterval(readAll, REREAD_MS);
    const onHash = () => setSelected(selectedFromHash());
    addEventListener('hashchange', onHash);
    return () => {
      stop();
      clearInterval(tick);
      clearInterval(all);
      removeEventListener('hashchange', onHash);
    };
  }, [reread]);

  const m = mirrors?.find((x) => x.id === selected) ?? mirrors?.[0];

  const onRun = useCallback(
    (offer) => {
      if (!m) return;
      setBusy(true);
      runOffer(m.id, offer)
        .then(
          (r) => setNotice({ kind: 'done', text: r.message }),
          (e) => setNotice({ kind: 'error', text: e.message }),
        )
        .finally(() => {
          setBusy(false);
          reread(m.id);
        });
    },
    [m, reread],
  );

  return html`<header class="top">
      <h1>spacesync console</h1>
      ${m ? html`<span class="where" title=${m.dir}><strong>${m.name}</strong> <code>${m.dir}</code></span>` : null}
    </header>
    <${Nav} mirrors=${mirrors ?? []} selected=${m?.id} />
    <${Notice} notice=${notice} onClose=${() => setNotice(null)} />
    <main>${!mirrors ? html`<p class="loading">Loading the mirrors…</p>` : html`<${Mirror} m=${m} now=${now} onRun=${onRun} busy=${busy} />`}</main>`;
}

// The placeholder shown while the modules load goes: the page is preact's from here on.
const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
