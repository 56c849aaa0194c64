// The versions the sync kept of what it replaced or deleted (`spacesync history`): the newest of the
// mirror, and for one file each version against the file now, with a restore button on each (the
// same as `spacesync restore FILE --version N`).
import { useEffect, useState } from 'preact/hooks';
import { readFileHistory } from './api.js';
import { html } from './html.js';
import { Offers } from './offers.js';
import { TwoColumns } from './rows.js';
import { ago, localTime } from './time.js';

function Version({ v, onRun, busy }) {
  let body;
  if (v.unavailable) body = html`<p class="muted">${v.unavailable}</p>`;
  else if (v.current) body = html`<p class="muted">The file holds this version now.</p>`;
  else body = html`<${TwoColumns} rows=${v.rows} left="This version" right="The file now" />`;
  return html`<article class="version" aria-label=${`Version ${v.id}`}>
    <header>
      <h4>Version ${v.id} <span class="badge">${v.side}</span></h4>
      <span class="muted"><time datetime=${v.at}>${localTime(v.at)} (${ago(v.at)})</time>: ${v.about}</span>
    </header>
    ${body}
    <${Offers} offers=${v.current ? [] : v.offers} busy=${busy} onRun=${onRun} />
  </article>`;
}

function FileVersions({ m, path, onRun, busy, onClose }) {
  const [file, setFile] = useState(null);
  const [failed, setFailed] = useState(null);
  useEffect(() => {
    readFileHistory(m.id, path).then(
      (f) => {
        setFile(f);
        setFailed(null);
      },
      (e) => setFailed(e.message),
    );
    // Read again whenever the mirror was (a restore, a cycle).
  }, [m.id, path, m.readAt]);
  const older = file && file.total > file.versions.length ? file.total - file.versions.length : 0;
  return html`<div class="file-history" aria-label=${`Versions of ${path}`}>
    <header>
      <h3>Versions of <code>${path}</code></h3>
      <button type="button" class="link" onClick=${onClose}>Close</button>
    </header>
    ${failed ? html`<p role="alert" class="bad">${failed}</p>` : null}
    ${!file ? html`<p class="muted">Reading…</p>` : null}
    ${file && !file.exists ? html`<p>The file is not there now: a restore writes it back.</p>` : null}
    ${file ? file.versions.map((v) => html`<${Version} key=${v.id} v=${v} onRun=${onRun} busy=${busy} />`) : null}
    ${older ? html`<p class="muted">${older} older versions: <code>spacesync history "${path}"</code> lists them.</p>` : null}
  </div>`;
}

export function History({ m, now, onRun, busy }) {
  const [open, setOpen] = useState(null);
  const list = m.history.shown;
  const older = m.history.total - list.length;
  return html`<section class="card" aria-labelledby=${`history-${m.id}`}>
    <h2 id=${`history-${m.id}`}>History</h2>
    ${
      list.length === 0
        ? html`<p class="muted">No versions: the sync has replaced or deleted nothing since the history began (or retention pruned it).</p>`
        : html`<p class="muted">What the sync replaced or deleted, newest first. Open a file to compare its versions with it and restore one.</p>
          <table class="history">
            <tbody>
              ${list.map(
                (v) => html`<tr>
                  <td><time datetime=${v.at} title=${localTime(v.at)}>${ago(v.at, now)}</time></td>
                  <td><span class="badge">${v.side}</span></td>
                  <td><button type="button" class="link" onClick=${() => setOpen(v.path)}>${v.path}</button></td>
                  <td class="muted">${v.about}</td>
                </tr>`,
              )}
            </tbody>
          </table>
          ${older > 0 ? html`<p class="muted">… and ${older} older (<code>spacesync history</code> lists them all).</p>` : null}`
    }
    ${open ? html`<${FileVersions} m=${m} path=${open} onRun=${onRun} busy=${busy} onClose=${() => setOpen(null)} />` : null}
  </section>`;
}
