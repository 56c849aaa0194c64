import { describe, expect, it } from 'vitest';
import { checkPullSafety } from './checkPullSafety.js';

const base = { known: 10, listed: 10, purged: 0, maxDeletePercent: 50, force: false };

describe('checkPullSafety', () => {
  it('refuses an empty listing where documents were synced before, saying what to do', () => {
    const r = checkPullSafety({ ...base, listed: 0, purged: 10 });
    expect(r?.reason).toBe('empty_remote');
    expect(r?.message).toMatch(/Nothing was changed.*--force/);
  });

  it('refuses a purge of more than maxDeletePercent, but not a few documents of a small space', () => {
    expect(checkPullSafety({ ...base, purged: 6 })?.reason).toBe('mass_delete');
    expect(checkPullSafety({ ...base, purged: 5 })).toBeNull();
    expect(checkPullSafety({ ...base, known: 2, listed: 1, purged: 1 })).toBeNull();
  });

  it('lets --force and a first run through', () => {
    expect(checkPullSafety({ ...base, listed: 0, force: true })).toBeNull();
    expect(checkPullSafety({ ...base, known: 0, listed: 0 })).toBeNull();
  });
});
