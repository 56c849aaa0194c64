// One allowance (N units per window): the window opens with the first use after the previous
// one ended, like the service's `X-RateLimit-Reset` countdown.

export class FixedWindow {
  private start = Number.NEGATIVE_INFINITY;
  private used = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private roll(now: number): void {
    if (now >= this.start + this.windowMs || now < this.start) {
      this.start = now;
      this.used = 0;
    }
  }

  /** Units used in the current window (0 when it has ended). */
  usedAt(now: number): number {
    return now >= this.start + this.windowMs || now < this.start ? 0 : this.used;
  }

  remainingAt(now: number): number {
    return Math.max(0, this.limit - this.usedAt(now));
  }

  /** Milliseconds until the current window ends (a full window when none is open). */
  resetInMs(now: number): number {
    return now >= this.start + this.windowMs || now < this.start ? this.windowMs : this.start + this.windowMs - now;
  }

  /** Takes `n` units if they fit (an empty window takes any amount); false when they do not. */
  tryTake(now: number, n: number): boolean {
    this.roll(now);
    if (this.used > 0 && this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  /** Takes `n` units whether or not they fit (a request already served). */
  take(now: number, n: number): void {
    this.roll(now);
    this.used += n;
  }

  /** Whether `n` more units would fit now, without taking them. */
  fits(now: number, n: number): boolean {
    const used = this.usedAt(now);
    return used === 0 || used + n <= this.limit;
  }

  /** Ends the window in progress (admin reset). */
  clear(): void {
    this.start = Number.NEGATIVE_INFINITY;
    this.used = 0;
  }

  /** True when the window has ended, so the holder may drop it. */
  idleAt(now: number): boolean {
    return now >= this.start + this.windowMs;
  }
}
