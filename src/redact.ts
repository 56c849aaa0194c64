// Secrets never leave the process whole: the connection link (its LINK_ID) and API keys.
// Pure string work, shared by the logger, the client's errors and the CLI's messages.

const LINK_ID = /\/links\/([^/?#\s"'`<>]+)/g;
const BEARER = /(Bearer\s+)[^\s"',;]+/gi;

/** Shows a link id as its first four characters and an ellipsis, as the behaviour page asks. */
export function maskLinkId(id: string): string {
  return `${id.slice(0, 4)}…`;
}

/** Masks every link id and bearer token in `text`, and every exact occurrence of `secrets`. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = out.replace(LINK_ID, (_m, id: string) => `/links/${id.startsWith('[redacted]') ? id : maskLinkId(id)}`);
  return out.replace(BEARER, '$1[redacted]');
}

/**
 * A link as it may be shown to a person: `<host>/links/abcd…/api/v1`. A value that is not of that
 * form (`/link/` for `/links/`, a bare id, a link without its id) is a secret all the same: only its
 * scheme and host are shown, or, when it is no URL, its first four characters.
 */
export function describeLink(link: string): string {
  const text = link.trim();
  if (/^https?:\/\/[^/\s]+(\/[^\s]*)?\/links\/[^/\s]+(\/|$)/i.test(text) && !/[?#]/.test(text)) return redactText(text);
  const url = /^([a-z][a-z0-9+.-]*:\/\/[^/?#\s]*)([/?#].*)?$/i.exec(text);
  if (url) return url[2] && url[2] !== '/' ? `${url[1]}/… (${url[2].length} characters hidden)` : url[1]!;
  return text.length <= 4 ? '…' : `${maskLinkId(text)} (${text.length} characters)`;
}

/**
 * The one spelling of a link that is stored and compared: trimmed, without trailing slashes
 * (`…/api/v1/` and `…/api/v1` are the same link).
 */
export function normalizeLink(link: string): string {
  return link.trim().replace(/\/+$/, '');
}

/** Deep copy of `value` with every string redacted; Errors become plain objects. */
export function redactValue(value: unknown, secrets: readonly string[] = [], seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    // Stay an Error (loggers and callers recognise it), with every string in it masked.
    const out = new Error(redactText(value.message, secrets)) as Error & Record<string, unknown>;
    out.name = value.name;
    out.stack = value.stack === undefined ? undefined : redactText(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets, seen);
    if (value.cause !== undefined) out.cause = redactValue(value.cause, secrets, seen);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, seen));
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets, seen);
  return out;
}
