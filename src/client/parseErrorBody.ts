// Reads every error body shape the service sends (docs/api.md "Envelopes and errors"):
// `{error, code}`, `{error, code, details: [issues]}`, `{errors: [{code, message}]}`,
// `{error, code: INVALID_REGEX_ERROR, details: {…}}`, and an HTML page for an unknown route.

export interface ServiceError {
  /** The service's code (`NOT_FOUND_ERROR`, `VALIDATION_ERROR`, …) when it sent one. */
  code: string | undefined;
  /** What the service said, issues included, on one line. */
  message: string;
  /** The body was an HTML page (an unknown route), not one of the service's JSON errors. */
  html: boolean;
  details: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function issueText(issue: unknown): string | undefined {
  if (typeof issue === 'string') return str(issue);
  if (!issue || typeof issue !== 'object') return undefined;
  const i = issue as { message?: unknown; path?: unknown };
  const message = str(i.message);
  if (!message) return undefined;
  const path = Array.isArray(i.path) && i.path.length > 0 ? `${i.path.join('.')}: ` : '';
  return `${path}${message}`;
}

function detailText(details: unknown): string | undefined {
  if (Array.isArray(details)) {
    const texts = details.map(issueText).filter((t): t is string => t !== undefined);
    return texts.length ? texts.join('; ') : undefined;
  }
  if (details && typeof details === 'object') {
    // The regex error's details: name the fields, short values only.
    const parts = Object.entries(details as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => `${k}: ${String(v).slice(0, 200)}`);
    return parts.length ? parts.join(', ') : undefined;
  }
  return str(details);
}

const TAGS = /<[^>]*>/g;

function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const text = (title ?? html)
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(TAGS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, 200) || 'an HTML page';
}

export function parseErrorBody(body: Buffer | string, contentType: string | undefined): ServiceError {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const looksHtml = /html/i.test(contentType ?? '') || /^\s*<(!doctype|html)/i.test(text);
  if (!looksHtml) {
    try {
      const json = JSON.parse(text) as unknown;
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        const o = json as { error?: unknown; code?: unknown; details?: unknown; errors?: unknown; message?: unknown };
        if (Array.isArray(o.errors)) {
          const first = o.errors[0] as { code?: unknown } | undefined;
          return { code: str(first?.code), message: detailText(o.errors) ?? 'no message', html: false, details: o.errors };
        }
        const head = str(o.error) ?? str(o.message);
        const detail = detailText(o.details);
        const message = head && detail && !head.includes(detail) ? `${head}: ${detail}` : (detail ?? head ?? 'no message');
        return { code: str(o.code), message, html: false, details: o.details };
      }
    } catch {
      // Not JSON: fall through to plain text.
    }
  }
  if (looksHtml) return { code: undefined, message: htmlText(text), html: true, details: undefined };
  return { code: undefined, message: text.trim().slice(0, 300) || 'an empty body', html: false, details: undefined };
}
