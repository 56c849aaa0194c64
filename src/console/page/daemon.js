// The mirror's daemon at a glance, as `spacesync status` reads it: running or not, the last poll and
// the last change, whether the space answers, what waits for the rate limit, a refused cycle, errors.
// (Markup: htm keeps a space inside a line of text and drops the line breaks around tags.)
import { html } from './html.js';
import { Offers } from './offers.js';
import { ago, count, localTime } from './time.js';

const When = ({ iso, now, never }) => (iso ? html`<time datetime=${iso} title=${localTime(iso)}>${localTime(iso)} (${ago(iso, now)})</time>` : never);

function Reach({ d, now }) {
  if (d.reachable === false) {
    return html`<span class="bad">out of reach since <${When} iso=${d.unreachableSince} now=${now} /></span>; the daemon keeps trying (the errors are below)`;
  }
  if (d.reachable === true) return html`<span class="good">reachable</span> <span class="muted">(as of the last poll)</span>`;
  return html`<span class="muted">unknown until a cycle runs</span>`;
}

function State({ d, now }) {
  if (d.running) {
    const where = `pid ${d.pid}${d.host ? ` on ${d.host}` : ''}`;
    return html`<span class="good">running</span> (${where}${d.since ? html`, since <${When} iso=${d.since} now=${now} />` : ''})`;
  }
  const stale = d.stale ? ` (a stale lock of pid ${d.pid} is left; the next sync takes it over)` : '';
  return html`<span class="bad">not running</span>${stale}; start it with <code>${d.start}</code>`;
}

function Waiting({ w, now }) {
  const budget = w.reason === 'retry-after' ? "the service's rate limit" : `the ${w.reason} budget`;
  const what = w.paths.length ? `: ${w.paths.join(', ')}` : '';
  return html`since <${When} iso=${w.since} now=${now} /> for ${budget}, until about <${When} iso=${w.until} now=${now} />${what}`;
}

function Refused({ r, now, onRun, busy }) {
  const more = r.deleteCount > 10 ? ` and ${r.deleteCount - 10} more` : '';
  return html`<div class="refused" role="note">
    <p><strong>The cycle of <${When} iso=${r.at} now=${now} /> was stopped by a safety check; nothing was changed.</strong> ${r.message}</p>
    ${r.deletes.length ? html`<p>${`It would have deleted: ${r.deletes.slice(0, 10).join(', ')}${more}.`}</p>` : null}
    <p>If that is what you want: <code>${r.proceed}</code></p>
    <${Offers} offers=${r.offers} busy=${busy} onRun=${onRun} />
  </div>`;
}

export function Daemon({ m, now, onRun, busy }) {
  const d = m.daemon;
  const unconfirmed =
    m.unconfirmed > 0 ? `; ${count(m.unconfirmed, 'request')} sent without a confirmed answer (the next sync reads those documents again)` : '';
  return html`<section class="card" aria-labelledby=${`daemon-${m.id}`}>
    <h2 id=${`daemon-${m.id}`}>Daemon</h2>
    <dl class="facts">
      <dt>State</dt>
      <dd><${State} d=${d} now=${now} /></dd>
      <dt>Last poll</dt>
      <dd><${When} iso=${d.lastPoll} now=${now} never="never: no cycle has completed yet" /></dd>
      <dt>Last change</dt>
      <dd><${When} iso=${d.lastChange} now=${now} never="none recorded" /></dd>
      <dt>The space</dt>
      <dd><${Reach} d=${d} now=${now} /></dd>
      <dt>Link</dt>
      <dd><code>${m.link ?? 'none configured'}</code></dd>
      <dt>Documents</dt>
      <dd>${`${count(m.documents, 'document')} in sync${unconfirmed}`}</dd>
      ${d.waiting ? html`<dt>Waiting</dt><dd><${Waiting} w=${d.waiting} now=${now} /></dd>` : null}
    </dl>
    ${d.refused ? html`<${Refused} r=${d.refused} now=${now} onRun=${onRun} busy=${busy} />` : null}
    ${
      m.errors.length
        ? html`<h3>Recent errors, newest last</h3>
          <ul class="errors">
            ${m.errors.slice(-5).map((e) => html`<li><${When} iso=${e.at} now=${now} /> <code>${e.code}</code> ${e.message}</li>`)}
          </ul>`
        : null
    }
  </section>`;
}
