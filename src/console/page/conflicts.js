// The open conflicts: the base, the space's version (in the document's file) and yours (in the copy)
// side by side, block by block, with the ways to settle each (keep the space's, mine, both, or mark
// it resolved after merging by hand): the same as `spacesync conflicts resolve --keep …`.
import { html } from './html.js';
import { Offers } from './offers.js';
import { Block, Gap, Runs } from './rows.js';
import { ago, localTime } from './time.js';

function Row({ r }) {
  if (r.row === 'gap') return html`<${Gap} count=${r.count} columns="3" />`;
  if (r.row === 'same') return html`<tr class="same"><td colspan="3"><${Block} ...${r} /></td></tr>`;
  if (r.row === 'space') {
    return html`<tr class="only-a"><td class="none">—</td><td class="ins"><${Block} ...${r} /></td><td class="none">not in yours</td></tr>`;
  }
  if (r.row === 'mine') {
    return html`<tr class="only-b"><td class="none">—</td><td class="none">not in the space's</td><td class="ins"><${Block} ...${r} /></td></tr>`;
  }
  const base = r.base === null ? html`<span class="none">not kept</span>` : html`<${Block} kind=${r.kind} depth=${r.depth} text=${r.base} />`;
  return html`<tr class=${r.conflict ? 'changed conflict' : 'changed'}>
    <td>${base}</td>
    <td><${Block} kind=${r.kind} depth=${r.depth}><${Runs} runs=${r.space} /></${Block}></td>
    <td><${Block} kind=${r.kind} depth=${r.depth}><${Runs} runs=${r.mine} /></${Block}></td>
  </tr>`;
}

function Versions({ c }) {
  if (!c.copyExists) return html`<p>Your copy is gone: nothing is left to compare. Mark the conflict resolved.</p>`;
  if (!c.fileExists) return html`<p>The document's file is gone (moved or deleted): compare the copy with the document by hand.</p>`;
  if (c.rows.every((r) => r.row === 'same' || r.row === 'gap')) return html`<p>The copy and the file hold the same blocks now: nothing is left to merge.</p>`;
  return html`<table class="rows three">
    <thead><tr><th>Base</th><th>The space's</th><th>Yours</th></tr></thead>
    <tbody>${c.rows.map((r) => html`<${Row} r=${r} />`)}</tbody>
  </table>`;
}

function Conflict({ c, now, onRun, busy }) {
  const copy = `${c.copyPath}${c.copyExists ? '' : ' (deleted)'}`;
  return html`<article class="conflict" aria-label=${`Conflict #${c.id} on ${c.path}`}>
    <header>
      <h3>#${c.id} <code>${c.path}</code></h3>
      <span class="muted">kept <time datetime=${c.createdAt} title=${localTime(c.createdAt)}>${ago(c.createdAt, now)}</time>; yours is in <code>${copy}</code></span>
    </header>
    ${c.title ? html`<p>${`The title changed on both sides: the document keeps the space's "${c.title.remote}"; yours, "${c.title.local}", names the copy.`}</p>` : null}
    <${Versions} c=${c} />
    <${Offers} offers=${c.offers} busy=${busy} onRun=${onRun} />
  </article>`;
}

export function Conflicts({ m, now, onRun, busy }) {
  const n = m.conflicts.length;
  return html`<section class="card" aria-labelledby=${`conflicts-${m.id}`}>
    <h2 id=${`conflicts-${m.id}`}>${n ? `Conflicts (${n})` : 'Conflicts'}</h2>
    ${
      n === 0
        ? html`<p class="muted">No open conflicts.</p>`
        : html`<p class="muted">Both sides changed the same blocks. The space's version stayed in each document; yours is in the copy beside it, never synced.</p>
          ${m.conflicts.map((c) => html`<${Conflict} key=${c.id} c=${c} now=${now} onRun=${onRun} busy=${busy} />`)}`
    }
  </section>`;
}
