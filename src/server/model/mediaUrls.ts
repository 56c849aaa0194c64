// Media of uploaded assets are stored as `asset:<id>` and read as signed URLs that change on
// every read (docs/api.md); a signed URL sent back is stored as the asset again, so a
// changed signature alone is never an edit. Only URLs this space signed are its assets: the same
// shape from another host or another space (a mirror restored elsewhere) is an external URL, kept as given.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const ASSET_REF = /asset:([A-Za-z0-9-]+)/g;
const SIGNED = /^https?:\/\/[^/\s]+\/assets\/([A-Za-z0-9-]+)(?:\/[^?\s]*)?\?[^\s]*\bsig=[0-9a-f]+[^\s]*$/;
const LIFETIME_MS = 60 * 60 * 1000;

/** How a server reads the media URLs it is sent: its own signed asset URLs back to `asset:<id>`, any other as given. */
export interface StoredUrls {
  stored(url: string): string;
  /** Every own signed asset URL inside `markdown` back to `asset:<id>`. */
  unsign(markdown: string): string;
}

const SIGNED_IN_TEXT = /https?:\/\/[^/\s()]+\/assets\/([A-Za-z0-9-]+)(?:\/[^?\s()]*)?\?[^\s()]*\bsig=[0-9a-f]+[^\s()]*/g;

export class MediaSigner implements StoredUrls {
  constructor(private readonly secret: Buffer = randomBytes(32)) {}

  /** The secret, to keep with the space (a server started again on the same data recognises its URLs). */
  get secretHex(): string {
    return this.secret.toString('hex');
  }

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

  /** Whether `url` is one this signer signed (expired or not): the asset it names, else null. */
  private ownAsset(url: string): string | null {
    const m = SIGNED.exec(url);
    if (!m) return null;
    const q = new URL(url).searchParams;
    const expires = q.get('expires') ?? '';
    const nonce = q.get('nonce') ?? '';
    const want = Buffer.from(this.mac(m[1]!, Number(expires), nonce));
    const got = Buffer.from(q.get('sig') ?? '');
    return want.length === got.length && timingSafeEqual(want, got) ? m[1]! : null;
  }

  stored(url: string): string {
    const id = this.ownAsset(url);
    return id === null ? url : `asset:${id}`;
  }

  unsign(markdown: string): string {
    if (!markdown.includes('/assets/')) return markdown;
    return markdown.replace(SIGNED_IN_TEXT, (url) => this.stored(url));
  }

  /** Replaces every `asset:<id>` in `text` with a freshly signed URL. */
  signAll(text: string, origin: string, now: number): string {
    return text.includes('asset:') ? text.replace(ASSET_REF, (_m, id: string) => this.sign(origin, id, now)) : text;
  }
}

/** A fixture's URLs: any signed asset URL is its own asset (a fixture is written for the space it seeds). */
export const FIXTURE_URLS: StoredUrls = {
  stored(url) {
    const m = SIGNED.exec(url);
    return m ? `asset:${m[1]}` : url;
  },
  unsign(markdown) {
    if (!markdown.includes('/assets/')) return markdown;
    return markdown.replace(SIGNED_IN_TEXT, (_m, id: string) => `asset:${id}`);
  },
};
