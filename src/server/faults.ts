// Injected failures for tests: the next N requests that match answer 429 or 500, are delayed,
// or have their connection reset after the change was applied (the client cannot tell it landed).
// Asset downloads (`GET /assets/<id>`, outside the link) meet only faults whose path names them.

export type FaultKind = '429' | '500' | 'delay' | 'reset-after-apply';

export interface FaultSpec {
  match?: { method?: string; path?: string };
  count?: number;
  kind: FaultKind;
  /** Seconds, for 429 (default 1); null sends the 429 without a Retry-After header. */
  retryAfter?: number | null;
  /** For delay (default 1000). */
  delayMs?: number;
}

interface ArmedFault {
  method: string | undefined;
  path: RegExp | undefined;
  left: number;
  spec: FaultSpec;
}

export class Faults {
  private armed: ArmedFault[] = [];

  /** Arms a fault; throws a RangeError describing a bad spec. */
  add(spec: FaultSpec): void {
    if (!['429', '500', 'delay', 'reset-after-apply'].includes(spec.kind)) {
      throw new RangeError(`Unknown fault kind "${String(spec.kind)}": use 429, 500, delay or reset-after-apply.`);
    }
    const count = spec.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new RangeError('A fault count must be a whole number of at least 1.');
    let path: RegExp | undefined;
    if (spec.match?.path !== undefined) {
      try {
        path = new RegExp(spec.match.path);
      } catch (e) {
        throw new RangeError(`The fault path pattern is not a regular expression: ${(e as Error).message}`, { cause: e });
      }
    }
    this.armed.push({ method: spec.match?.method?.toUpperCase(), path, left: count, spec });
  }

  /**
   * The fault the request `method path` triggers, if any (its count goes down by one); with
   * `explicit`, only a fault whose path pattern matches (an asset download is not an API request,
   * so a fault armed for every request leaves it alone).
   */
  take(method: string, path: string, opts: { explicit?: boolean } = {}): FaultSpec | undefined {
    const f = this.armed.find((a) => (a.method === undefined || a.method === method) && (a.path === undefined ? opts.explicit !== true : a.path.test(path)));
    if (!f) return undefined;
    f.left--;
    if (f.left === 0) this.armed = this.armed.filter((a) => a !== f);
    return f.spec;
  }

  list(): Array<FaultSpec & { left: number }> {
    return this.armed.map((a) => ({ ...a.spec, left: a.left }));
  }

  clear(): void {
    this.armed = [];
  }
}
