import { describe, expect, it } from 'vitest';
import { coreDialect } from './coreDialect.js';
import { diffDocument } from './diff.js';
import { checkSafety, roundTripProblems, type SafetyInput } from './safety.js';
import { baseOf, blk, ro } from './testSupport.js';

const calm: SafetyInput = { known: 10, remoteDeletes: 0, localDeletes: 0, rootExists: true, localFiles: 10, remoteListed: 10, maxDeletePercent: 50, force: false };

describe('checkSafety', () => {
  it('lets an ordinary cycle through', () => {
    expect(checkSafety(calm)).toEqual({ ok: true });
    expect(checkSafety({ ...calm, remoteDeletes: 5 })).toEqual({ ok: true });
  });

  it('refuses deleting more than the allowed share of documents, naming the numbers and --force', () => {
    const v = checkSafety({ ...calm, remoteDeletes: 6, localFiles: 4 });
    expect(v).toMatchObject({ ok: false, reason: 'mass_delete_remote' });
    if (!v.ok) {
      expect(v.message).toContain('6 of 10 documents (60%)');
      expect(v.message).toContain('50%');
      expect(v.message).toContain('--force');
    }
    expect(checkSafety({ ...calm, localDeletes: 8 })).toMatchObject({ ok: false, reason: 'mass_delete_local' });
  });

  it('follows the configured share', () => {
    expect(checkSafety({ ...calm, remoteDeletes: 3, maxDeletePercent: 20 })).toMatchObject({ ok: false });
    expect(checkSafety({ ...calm, remoteDeletes: 9, maxDeletePercent: 100 })).toEqual({ ok: true });
  });

  it('never calls one document a mass delete', () => {
    expect(checkSafety({ ...calm, known: 1, localFiles: 1, remoteListed: 1, remoteDeletes: 1 })).toEqual({ ok: true });
  });

  it('refuses a missing or emptied mirror, and an empty listing', () => {
    expect(checkSafety({ ...calm, rootExists: false })).toMatchObject({ ok: false, reason: 'root_missing' });
    expect(checkSafety({ ...calm, localFiles: 0 })).toMatchObject({ ok: false, reason: 'root_empty' });
    expect(checkSafety({ ...calm, remoteListed: 0 })).toMatchObject({ ok: false, reason: 'remote_empty' });
    expect(checkSafety({ ...calm, known: 0, localFiles: 0, remoteListed: 0 })).toEqual({ ok: true });
  });

  it('lets --force through and says what it let through', () => {
    expect(checkSafety({ ...calm, remoteDeletes: 9, localFiles: 1, force: true })).toEqual({ ok: true, forced: 'mass_delete_remote' });
    expect(checkSafety({ ...calm, rootExists: false, force: true })).toEqual({ ok: true, forced: 'root_missing' });
  });
});

describe('roundTripProblems', () => {
  it('reports new and edited blocks the service would split or refuse, and output-only edits', () => {
    const base = baseOf([['A', 'one'], ['B', 'the second paragraph']]);
    const d = diffDocument(base, [blk('one'), blk('the second paragraph\n\nand a third'), blk('x\n\ny'), ro('<collection></collection>')], { equals: coreDialect.equals });
    const p = roundTripProblems(d.nodes, coreDialect);
    expect(p.map((x) => x.id)).toEqual(['B', undefined, undefined]);
    expect(p[0]!.message).toContain('not sent');
    expect(p[2]!.message).toContain('output-only');
  });
});
