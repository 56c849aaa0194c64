// The rate budget: each budget's use in its current window, and the last hour minute by minute
// (requests and blocks), from the counters the daemon saves after each cycle.
import { html } from './html.js';
import { ago, localTime } from './time.js';

const per = (ms) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/** A bar per minute, oldest on the left; a bar's tooltip says its minute and count; red where the service answered 429. */
function Chart({ minutes, field, label }) {
  const peak = Math.max(1, ...minutes.map((x) => x[field]));
  const w = 6;
  const h = 48;
  return html`<figure class="chart">
    <svg viewBox=${`0 0 ${minutes.length * w} ${h}`} width=${minutes.length * w} height=${h} role="img" aria-label=${`${label} per minute, the last hour`}>
      ${minutes.map((x, i) => {
        const bar = Math.round((x[field] / peak) * (h - 2));
        return html`<rect x=${i * w + 1} y=${h - bar} width=${w - 2} height=${bar} class=${x.rateLimited > 0 ? 'limited' : ''}><title>${`${localTime(x.minute).slice(11, 16)}: ${x[field]} ${label}`}</title></rect>`;
      })}
      <line x1="0" y1=${h - 0.5} x2=${minutes.length * w} y2=${h - 0.5} class="axis" />
    </svg>
    <figcaption>${`${label} per minute, the last hour (peak ${peak})`}</figcaption>
  </figure>`;
}

export function Budget({ m, now }) {
  const b = m.budget;
  if (!b) {
    return html`<section class="card" aria-labelledby=${`budget-${m.id}`}>
      <h2 id=${`budget-${m.id}`}>Rate budget</h2>
      <p class="muted">No counts yet: the daemon records them after each cycle.</p>
    </section>`;
  }
  const totals = `As of ${ago(b.savedAt, now)}: ${b.requests} requests and ${b.blocksSpent} blocks since ${localTime(b.startedAt)}, ${b.rateLimited} ${b.rateLimited === 1 ? 'answer' : 'answers'} 429 (rate limited), ${b.retries} ${b.retries === 1 ? 'retry' : 'retries'}.`;
  return html`<section class="card" aria-labelledby=${`budget-${m.id}`}>
    <h2 id=${`budget-${m.id}`}>Rate budget</h2>
    <table class="meters">
      <tbody>
        ${b.windows.map(
          (w) => html`<tr>
            <th>${w.name}</th>
            <td><meter min="0" max=${w.limit} high=${w.limit * 0.8} value=${w.used}></meter></td>
            <td>${`${w.used} of ${w.limit} per ${per(w.windowMs)}`}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted">${totals}</p>
    ${
      b.lastHour.length
        ? html`<div class="charts"><${Chart} minutes=${b.lastHour} field="requests" label="requests" /><${Chart} minutes=${b.lastHour} field="blocks" label="blocks" /></div>`
        : null
    }
  </section>`;
}
