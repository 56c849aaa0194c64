// Times as a person reads them, as the terminal commands write them: "2026-11-21 09:30:05" and "5 min ago".

const pad = (n) => String(n).padStart(2, '0');

/** A local time: `2026-11-21 09:30:05`. */
export function localTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago"; "in 40 s" for a time to come. */
export function ago(iso, now = Date.now()) {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return 'at an unknown time';
  if (s < -5) return `in ${span(-s)}`;
  if (s < 5) return 'just now';
  return `${span(s)} ago`;
}

function span(s) {
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

/** `1 document`, `3 documents`. */
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
