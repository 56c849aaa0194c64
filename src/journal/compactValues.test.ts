import { describe, expect, it } from 'vitest';
import { packHash, packTime, unpackHash, unpackTime } from './compactValues.js';

describe('compactValues', () => {
  it('stores a sha256 in 32 bytes and a toISOString time in 6, and gives both back exactly', () => {
    const sha = 'b53f8865d974d187f4e95e8d2820c2df955ef95ef5a97d31287602968c8daeab';
    expect(packHash(sha)).toHaveLength(32);
    expect(unpackHash(packHash(sha))).toBe(sha);
    for (const t of ['2026-11-24T20:10:00.494Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(packTime(t)).toHaveLength(6);
      expect(unpackTime(packTime(t))).toBe(t);
    }
  });

  it('keeps any other form as it is', () => {
    for (const h of ['ab', 'B53F8865D974D187F4E95E8D2820C2DF955EF95EF5A97D31287602968C8DAEAB', null]) expect(packHash(h)).toBe(h);
    for (const t of ['2026-01-02T00:00:00Z', '2026-01-02T00:00:00.000+01:00', '1969-12-31T23:59:59.999Z', '2026-02-30T00:00:00.000Z', 'soon', null]) {
      expect(packTime(t)).toBe(t);
      expect(unpackTime(packTime(t))).toBe(t);
    }
  });
});
