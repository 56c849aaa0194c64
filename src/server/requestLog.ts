// What the server was asked, for tests that count requests (budgets, "one PUT per edit").

export interface LoggedRequest {
  /** Server clock, ms since the epoch: when the answer went (or the connection broke). */
  t: number;
  /** Server clock: when the request arrived (before any delay it met, so `receivedAt..t` is when it may have been applied). */
  receivedAt: number;
  method: string;
  /** The path after the link (`/blocks`), never the link itself. */
  path: string;
  query: Record<string, string | string[]>;
  /** 0 when the connection was reset before a response. */
  status: number;
  blocksCharged: number;
}

const MAX_ENTRIES = 100_000;

export class RequestLog {
  private entries: LoggedRequest[] = [];

  add(e: LoggedRequest): void {
    this.entries.push(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
