// Media downloads that failed and wait for their retry (or are over assets.maxMiB): the documents keep
// their links to the space meanwhile.
import { html } from './html.js';
import { ago, localTime } from './time.js';

const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

function Download({ d, now }) {
  if (d.tooLarge)
    return html`<li><code class="url">${d.url}</code><p>${`${mib(d.tooLarge.size)}, over assets.maxMiB (${d.tooLarge.maxMiB}): raise it to download.`}</p></li>`;
  const failed = `Failed ${d.failures} ${d.failures === 1 ? 'time' : 'times in a row'}; tried again from `;
  return html`<li>
    <code class="url">${d.url}</code>
    <p>${failed}<time datetime=${d.notBefore} title=${localTime(d.notBefore)}>${ago(d.notBefore, now)}</time>. ${d.message}</p>
  </li>`;
}

export function Downloads({ m, now }) {
  if (m.downloads.length === 0) return null;
  return html`<section class="card" aria-labelledby=${`downloads-${m.id}`}>
    <h2 id=${`downloads-${m.id}`}>${`Downloads waiting (${m.downloads.length})`}</h2>
    <p class="muted">The documents keep their links to the space meanwhile.</p>
    <ul class="items">${m.downloads.map((d) => html`<${Download} d=${d} now=${now} />`)}</ul>
  </section>`;
}
