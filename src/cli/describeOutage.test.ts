import { describe, expect, it } from 'vitest';
import { SpacesyncError } from '../errors.js';
import { describeOutage } from './describeOutage.js';
import { duration } from './format.js';

const error = new SpacesyncError('network', 'Could not reach the service at example.test. Check the network connection.');
const since = '2026-01-01T10:00:00.000Z';

describe('the lines of an outage', () => {
  it('says when it starts, with what failed, on stderr; the failed looks after it say nothing', () => {
    expect(describeOutage({ kind: 'started', since, error })).toEqual({
      stream: 'err',
      line: 'spacesync: the space is unreachable: retrying every few seconds; edits are kept and sent when it is back. Could not reach the service at example.test. Check the network connection.',
    });
    expect(describeOutage({ kind: 'failed', since, error })).toBeNull();
  });

  it('says when it ends, how long it lasted and the edits that went out', () => {
    expect(describeOutage({ kind: 'ended', since, downMs: 130_000, sent: 2 })).toEqual({
      stream: 'out',
      line: 'spacesync: the space is reachable again after 2 min 10 s; 2 edits sent.',
    });
    expect(describeOutage({ kind: 'ended', since, downMs: 1_000, sent: 1 })!.line).toBe('spacesync: the space is reachable again after 1 s; 1 edit sent.');
    expect(describeOutage({ kind: 'ended', since, downMs: 42_000, sent: 0 })!.line).toBe('spacesync: the space is reachable again after 42 s.');
  });
});

describe('duration', () => {
  it.each([
    [0, '0 s'],
    [45_400, '45 s'],
    [120_000, '2 min'],
    [130_000, '2 min 10 s'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
    [7_170_000, '2 h'],
  ])('%d ms is %s', (ms, words) => expect(duration(ms)).toBe(words));
});
