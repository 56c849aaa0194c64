// The server's clock: the real (or injected) time, shifted or frozen by the admin routes so
// tests can move a space through days and rate-limit windows without waiting.

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ServerClock implements Clock {
  private offset = 0;
  private frozenAt: number | undefined;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.frozenAt ?? this.base.now() + this.offset;
  }

  /** Jumps to `time`; the clock keeps running from there unless `frozen`. */
  set(time: number, frozen = false): void {
    this.frozenAt = undefined;
    this.offset = time - this.base.now();
    if (frozen) this.frozenAt = time;
  }

  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offset += ms;
  }

  /** Back to the base clock. */
  restore(): void {
    this.offset = 0;
    this.frozenAt = undefined;
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }
}
