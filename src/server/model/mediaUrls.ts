// Media of uploaded assets are stored as `asset:<id>` and read as signed URLs that change on
// every read (docs/api.md); a signed URL sent back is stored as the asset again, so a
// changed signature alone is never an edit.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ASSET_REF = /asset:([A-Za-z0-9-]+)/g;
const SIGNED = /^https?:\/\/[^/\s]+\/assets\/([A-Za-z0-9-]+)(?:\/[^?\s]*)?\?[^\s]*\bsig=[0-9a-f]+[^\s]*$/;
const LIFETIME_MS = 60 * 60 * 1000;

export class MediaSigner {
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  private mac(assetId: string, expires: number, nonce: string): string {
    return createHmac('sha256', this.secret).update(`${assetId}:${expires}:${nonce}`).digest('hex').slice(0, 32);
  }

  /** A fresh signed URL of `assetId`, valid for an hour from `now`. */
  sign(origin: string, assetId: string, now: number): string {
    const expires = Math.floor((now + LIFETIME_MS) / 1000);
    const nonce = randomBytes(6).toString('hex');
    return `${origin}/assets/${assetId}?expires=${expires}&nonce=${nonce}&sig=${this.mac(assetId, expires, nonce)}`;
  }

  /** Whether a request for an asset carries a valid, unexpired signature. */
  verify(assetId: string, q: { expires?: string; nonce?: string; sig?: string }, now: number): boolean {
    const expires = Number(q.expires);
    if (!Number.isFinite(expires) || expires * 1000 < now || !q.nonce || !q.sig) return false;
    const want = Buffer.from(this.mac(assetId, expires, q.nonce));
    const got = Buffer.from(q.sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  /** Replaces every `asset:<id>` in `text` with a freshly signed URL. */
  signAll(text: string, origin: string, now: number): string {
    return text.includes('asset:') ? text.replace(ASSET_REF, (_m, id: string) => this.sign(origin, id, now)) : text;
  }
}

/** The stored form of a URL: `asset:<id>` for one of our signed asset URLs, else unchanged. */
export function storedUrl(url: string): string {
  const m = SIGNED.exec(url);
  return m ? `asset:${m[1]}` : url;
}

/** Every signed asset URL inside `markdown` back to `asset:<id>`. */
export function unsignMarkdown(markdown: string): string {
  if (!markdown.includes('/assets/')) return markdown;
  return markdown.replace(/https?:\/\/[^/\s()]+\/assets\/([A-Za-z0-9-]+)(?:\/[^?\s()]*)?\?[^\s()]*\bsig=[0-9a-f]+[^\s()]*/g, (_m, id: string) => `asset:${id}`);
}
