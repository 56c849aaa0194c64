// The page's requests: the mirrors' data, one file's versions, an action. Same origin only; the
// token travels in the HttpOnly cookie the first visit set, never in a script.

async function answer(r) {
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `The console answered ${r.status}; reload the page, or open the address spacesync console printed.`);
  return body;
}

export const readMirrors = () => fetch('/api/mirrors').then(answer);

export const readMirror = (id) => fetch(`/api/mirrors/${id}`).then(answer);

export const readFileHistory = (id, path) => fetch(`/api/mirrors/${id}/history?path=${encodeURIComponent(path)}`).then(answer);

/** Runs an offer's action; resolves to what was done, in a sentence or two. */
export const runOffer = (id, offer) =>
  fetch(`/api/mirrors/${id}/actions/${encodeURIComponent(offer.action)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(offer.args),
  }).then(answer);

/**
 * Calls `onChange(mirrorId)` each time a mirror's data changes, and `onOpen()` each time the stream
 * (re)opens: what changed before it listened is read then. Returns the stop.
 */
export function watchMirrors(onChange, onOpen) {
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => onOpen());
  events.addEventListener('mirror', (e) => onChange(JSON.parse(e.data).id));
  return () => events.close();
}

/**
 * `fn(id)` at most once at a time per id: a call while one runs is remembered and made once it ends
 * (a mirror that changes every second while a large sync runs is read back to back, never piled up).
 */
export function oneAtATime(fn) {
  const running = new Map();
  const call = (id) => {
    if (running.has(id)) {
      running.set(id, true);
      return;
    }
    running.set(id, false);
    const next = () => {
      const again = running.get(id);
      running.delete(id);
      if (again) call(id);
    };
    // `fn` says its own failures; one that fails still lets the next read run.
    let done;
    try {
      done = Promise.resolve(fn(id));
    } catch (e) {
      done = Promise.reject(e);
    }
    done.then(next, next);
  };
  return call;
}
