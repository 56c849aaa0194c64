// Blocks side by side: a block's text as runs (what stayed, what was inserted, what was deleted) and
// the rows of two versions of a document, for a file's history and a conflict's three versions.
import { html } from './html.js';

/** A block's text; `show` picks which runs appear (a column shows its own side of a change). */
export function Runs({ runs, show = ['same', 'ins', 'del'] }) {
  return html`<span class="runs">${runs.filter((r) => show.includes(r.op)).map((r) => html`<span class=${`run ${r.op}`}>${r.text}</span>`)}</span>`;
}

/** A block's label: a page or card wrapper shows its kind before its title. */
export function Block({ kind, text, depth = 0, children }) {
  return html`<div class=${`block depth-${Math.min(depth, 4)}`}>
    ${kind === 'page' || kind === 'card' ? html`<span class="kind">${kind}</span> ` : null}${children ?? (text === '' ? html`<em>(empty block)</em>` : text)}
  </div>`;
}

export function Gap({ count, columns }) {
  return html`<tr class="gap">
    <td colspan=${columns}>… ${count} unchanged block${count === 1 ? '' : 's'}</td>
  </tr>`;
}

/** Two versions: `a` (the left column) and `b` (the right), as the server's block rows. */
export function TwoColumns({ rows, left, right }) {
  if (rows.every((r) => r.row === 'same' || r.row === 'gap')) return html`<p class="muted">The same blocks as the file now.</p>`;
  return html`<table class="rows two">
    <thead>
      <tr>
        <th>${left}</th>
        <th>${right}</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => {
        if (r.row === 'gap') return html`<${Gap} count=${r.count} columns="2" />`;
        if (r.row === 'same')
          return html`<tr class="same">
            <td colspan="2"><${Block} ...${r} /></td>
          </tr>`;
        if (r.row === 'a')
          return html`<tr class="only-a">
            <td class="del"><${Block} ...${r} /></td>
            <td class="none">—</td>
          </tr>`;
        if (r.row === 'b')
          return html`<tr class="only-b">
            <td class="none">—</td>
            <td class="ins"><${Block} ...${r} /></td>
          </tr>`;
        return html`<tr class="changed">
          <td><${Block} kind=${r.kind} depth=${r.depth}><${Runs} runs=${r.runs} show=${['same', 'del']} /></${Block}></td>
          <td><${Block} kind=${r.kind} depth=${r.depth}><${Runs} runs=${r.runs} show=${['same', 'ins']} /></${Block}></td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}
