// What the sync does not do on its own: files held back until you act (with the reason), changes
// made here and not yet sent, and changes in the space not yet pulled. An item gets buttons when an
// action applies to it (the server's offers).
import { html } from './html.js';
import { Offers } from './offers.js';
import { localTime } from './time.js';

const REASONS = {
  undecodable: 'not UTF-8 text',
  wipe: 'would empty its document',
  orphan: 'names a document the space no longer has',
  symlink: 'a symbolic link',
  deletion: 'a deletion that may be a move',
};

const LOCAL = { edited: 'edited', new: 'new', missing: 'deleted', moved: 'moved' };
const REMOTE = { changed: 'changed', new: 'new', removed: 'purged from the trash' };

export function HeldBack({ m, onRun, busy }) {
  if (m.heldBack.length === 0) return null;
  return html`<section class="card" aria-labelledby=${`held-${m.id}`}>
    <h2 id=${`held-${m.id}`}>${`Held back (${m.heldBack.length})`}</h2>
    <p class="muted">Not synced until you act: each says why and what to do.</p>
    <ul class="items">
      ${m.heldBack.map(
        (h) => html`<li>
          <code>${h.path}</code> <span class="badge">${REASONS[h.reason] ?? h.reason}</span>
          <p>${h.message}</p>
          <${Offers} offers=${h.offers} busy=${busy} onRun=${onRun} />
        </li>`,
      )}
    </ul>
  </section>`;
}

export function Pending({ m, onRun, busy }) {
  const { local, remote, listedAt } = m.pending;
  if (local.length === 0 && remote.length === 0) return null;
  return html`<section class="card" aria-labelledby=${`pending-${m.id}`}>
    <h2 id=${`pending-${m.id}`}>Waiting to sync</h2>
    ${
      local.length
        ? html`<h3>${m.pending.backup ? `Changed here, not sent (backup mode) (${local.length})` : `Changed here, not yet in the space (${local.length})`}</h3>
          <ul class="items">
            ${local.map(
              (c) => html`<li>
                <code>${c.path}</code> <span class="badge">${LOCAL[c.change] ?? c.change}</span>${c.from ? html` <span class="muted">from ${c.from}</span>` : null}
                <${Offers} offers=${c.offers} busy=${busy} onRun=${onRun} />
              </li>`,
            )}
          </ul>`
        : null
    }
    ${
      remote.length
        ? html`<h3>${`Changed in the space, not yet here (${remote.length}, as of the listing at ${localTime(listedAt)})`}</h3>
          <ul class="items">
            ${remote.map((c) => html`<li><code>${c.path ?? c.title}</code> <span class="badge">${REMOTE[c.change] ?? c.change}</span></li>`)}
          </ul>`
        : null
    }
  </section>`;
}
