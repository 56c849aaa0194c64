// What the last cycles did, newest first: each change with its side (made here and sent, or made in
// the space and pulled), and what went wrong. Shown only once the daemon keeps these reports.
import { html } from './html.js';
import { ago, localTime } from './time.js';

const SIDES = { local: 'here → space', remote: 'space → here' };

function Change({ c }) {
  const what = `${c.action} ${c.kind === 'document' ? '' : `${c.kind} `}`;
  return html`<li>
    <span class=${`side ${c.side}`}>${SIDES[c.side] ?? c.side}</span> ${what}<strong>${c.title ?? c.path}</strong>
    ${c.title && c.title !== c.path ? html` <span class="muted">${c.path}</span>` : null}
    ${c.from ? html` <span class="muted">(from ${c.from})</span>` : null}
  </li>`;
}

export function Activity({ m, now }) {
  const reports = m.activity;
  return html`<section class="card" aria-labelledby=${`activity-${m.id}`}>
    <h2 id=${`activity-${m.id}`}>Recent activity</h2>
    ${
      reports.length === 0
        ? html`<p class="muted">No cycle has reported yet.</p>`
        : html`<ol class="activity">
          ${reports.map(
            (r) => html`<li>
              <time datetime=${r.at} title=${localTime(r.at)}>${localTime(r.at)} (${ago(r.at, now)})</time>
              ${r.changes.length === 0 && r.problems.length === 0 ? html` <span class="muted">nothing changed</span>` : null}
              <ul>
                ${r.changes.map((c) => html`<${Change} c=${c} />`)}
                ${r.problems.map((p) => html`<li class="bad">${p}</li>`)}
              </ul>
            </li>`,
          )}
        </ol>`
    }
  </section>`;
}
