import { describe, expect, it } from 'vitest';
import { SpacesyncError } from '../../errors.js';
import { isOutOfReach, Outage, PROBE_MAX_MS } from './outage.js';

const down = new SpacesyncError('network', 'Could not reach the service.');

describe('an outage', () => {
  it('starts at the first failure, and each later one is no start', () => {
    const o = new Outage();
    expect(o.failed(down, 1_000)).toMatchObject({ kind: 'started', since: new Date(1_000).toISOString() });
    expect(o.failed(down, 9_000)).toMatchObject({ kind: 'failed', since: new Date(1_000).toISOString() });
    expect(o.active).toBe(true);
  });

  it('looks again after a wait that doubles and never passes the cap, however long it lasts', () => {
    const o = new Outage();
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      o.failed(down, i);
      waits.push(o.nextLookMs());
    }
    expect(waits).toEqual([2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000]);
    expect(Math.max(...waits)).toBe(PROBE_MAX_MS);
  });

  it('ends once, with how long it lasted and the edits sent; an answer with no outage is no news', () => {
    const o = new Outage();
    expect(o.reached(500, 0)).toBeUndefined();
    o.failed(down, 1_000);
    o.failed(down, 5_000);
    expect(o.reached(131_000, 2)).toEqual({ kind: 'ended', since: new Date(1_000).toISOString(), downMs: 130_000, sent: 2 });
    expect(o.reached(140_000, 0)).toBeUndefined();
    // The next outage starts afresh: told again, its looks from the shortest wait.
    expect(o.failed(down, 200_000).kind).toBe('started');
    expect(o.nextLookMs()).toBe(2_000);
  });

  it('is a network failure, a timeout or an unavailable service, not a request the service refused', () => {
    expect(isOutOfReach(down)).toBe(true);
    expect(isOutOfReach(new SpacesyncError('timeout', 'no answer in time'))).toBe(true);
    expect(isOutOfReach(new SpacesyncError('unavailable', 'down for maintenance'))).toBe(true);
    expect(isOutOfReach(new SpacesyncError('auth_rejected', 'the link was revoked'))).toBe(false);
    expect(isOutOfReach(new SpacesyncError('server', '500'))).toBe(false);
    expect(isOutOfReach(new Error('ECONNREFUSED'))).toBe(false);
  });
});
