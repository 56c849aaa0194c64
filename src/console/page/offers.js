// An item's offers as buttons: the server says which actions apply to it (a conflict's keep choices,
// a version's restore…); a click runs one, and the page says what it did.
import { html } from './html.js';

export function Offers({ offers, onRun, busy }) {
  if (!offers || offers.length === 0) return null;
  return html`<div class="offers">
    ${offers.map(
      (o) => html`<button type="button" class=${`offer ${o.tone ?? ''}`} title=${o.hint} disabled=${busy} onClick=${() => onRun(o)}>${o.label}</button>`,
    )}
  </div>`;
}
