// How many bytes of request bodies the server takes in at once. Without a cap, a few large bodies
// arriving together are each held (and parsed) at the same time and the process runs out of
// memory; with it, a body that would go over waits for the client to retry (503 + Retry-After).

export class BodyBudget {
  private used = 0;
  private bodies = 0;

  constructor(readonly capacity: number) {}

  /**
   * Reserves `bytes` for a body about to be read; false when they do not fit. A body alone is
   * always admitted (its own limit already bounds it), so one request at the limit never waits forever.
   */
  admit(bytes: number): boolean {
    if (this.bodies > 0 && this.used + bytes > this.capacity) return false;
    this.used += bytes;
    this.bodies++;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.bodies--;
  }

  /** Bytes reserved by the bodies now in flight. */
  get inFlight(): number {
    return this.used;
  }
}
