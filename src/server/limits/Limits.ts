// The three allowances of docs/api.md "Limits": requests per source address, requests per
// space, blocks read or written per space; with their response headers and 429s.
import { SPEC_LIMITS } from '../../wire/limits.js';
import { FixedWindow } from './FixedWindow.js';
import { tooManyRequests, type ApiError } from '../http/apiError.js';

export interface LimitSettings {
  mode: 'spec' | 'off';
  /** Multiplies every window (0.01: 100 requests per 0.6 s). */
  scale: number;
}

export class Limits {
  private readonly addresses = new Map<string, FixedWindow>();
  private space: FixedWindow;
  private blocks: FixedWindow;

  constructor(public settings: LimitSettings) {
    this.space = new FixedWindow(SPEC_LIMITS.spaceRequests.limit, SPEC_LIMITS.spaceRequests.windowMs * settings.scale);
    this.blocks = new FixedWindow(SPEC_LIMITS.blocks.limit, SPEC_LIMITS.blocks.windowMs * settings.scale);
  }

  /** Reset countdowns: whole seconds at the spec's scale; to the millisecond when scaled. */
  private seconds(ms: number): string {
    const s = Math.max(0, ms) / 1000;
    return this.settings.scale === 1 ? String(Math.ceil(s)) : String(Math.ceil(s * 1000) / 1000);
  }

  get enabled(): boolean {
    return this.settings.mode === 'spec';
  }

  /** Changes mode or scale; every window starts afresh. */
  configure(settings: LimitSettings): void {
    this.settings = settings;
    this.addresses.clear();
    this.space = new FixedWindow(SPEC_LIMITS.spaceRequests.limit, SPEC_LIMITS.spaceRequests.windowMs * settings.scale);
    this.blocks = new FixedWindow(SPEC_LIMITS.blocks.limit, SPEC_LIMITS.blocks.windowMs * settings.scale);
  }

  clear(): void {
    this.configure(this.settings);
  }

  /** Counts a request from `address`; the 429 it may return carries no X-RateLimit headers. */
  takeAddress(address: string, now: number): ApiError | undefined {
    if (!this.enabled) return undefined;
    if (this.addresses.size > 1000) for (const [k, w] of this.addresses) if (w.idleAt(now)) this.addresses.delete(k);
    let w = this.addresses.get(address);
    if (!w) {
      w = new FixedWindow(SPEC_LIMITS.addressRequests.limit, SPEC_LIMITS.addressRequests.windowMs * this.settings.scale);
      this.addresses.set(address, w);
    }
    if (w.tryTake(now, 1)) return undefined;
    return tooManyRequests('Too many requests from this address: wait for Retry-After seconds, then retry.', w.resetInMs(now));
  }

  /** Counts a request to the space; a 429 when the space's allowance is spent. */
  takeSpace(now: number): ApiError | undefined {
    if (!this.enabled) return undefined;
    if (this.space.tryTake(now, 1)) return undefined;
    return tooManyRequests('Too many requests to this space: wait for Retry-After seconds, then retry.', this.space.resetInMs(now), this.requestHeaders(now));
  }

  requestHeaders(now: number): Record<string, string> {
    if (!this.enabled) return {};
    return {
      'x-ratelimit-limit': String(this.space.limit),
      'x-ratelimit-remaining': String(this.space.remainingAt(now)),
      'x-ratelimit-reset': this.seconds(this.space.resetInMs(now)),
    };
  }

  /** Whether `n` more blocks fit in the space's block budget on top of `pending` already counted. */
  blocksFit(now: number, pending: number, n: number): boolean {
    if (!this.enabled) return true;
    // An empty window admits one request of any size, so no document is too large to read.
    return this.blocks.fits(now, pending + n);
  }

  blockLimitError(now: number): ApiError {
    return tooManyRequests('The block budget of this space is spent: wait for Retry-After seconds, then retry.', this.blocks.resetInMs(now), {
      ...this.requestHeaders(now),
      ...this.blockHeaders(now, true),
    });
  }

  /** Records blocks read or written by a request that succeeded. */
  chargeBlocks(now: number, n: number): void {
    if (!this.enabled || n <= 0) return;
    this.blocks.take(now, n);
  }

  /** `X-BlockBudget-*`, shown once the space has recorded block usage in the current window. */
  blockHeaders(now: number, force = false): Record<string, string> {
    if (!this.enabled) return {};
    if (!force && this.blocks.usedAt(now) === 0) return {};
    return {
      'x-blockbudget-limit': String(this.blocks.limit),
      'x-blockbudget-remaining': String(this.blocks.remainingAt(now)),
      'x-blockbudget-reset': this.seconds(this.blocks.resetInMs(now)),
    };
  }
}
