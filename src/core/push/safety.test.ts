import { describe, expect, it } from 'vitest';
import { checkDocumentWipe, checkPullSafety, checkSafety, WIPE_MIN_BLOCKS, type SafetyInput } from './safety.js';

const calm: SafetyInput = {
  known: 10,
  remoteDeletes: 0,
  localDeletes: 0,
  rootExists: true,
  localFiles: 10,
  remoteListed: 10,
  maxDeletePercent: 50,
  force: false,
};

describe('checkSafety', () => {
  it('lets an ordinary cycle through', () => {
    expect(checkSafety(calm)).toEqual({ ok: true });
    expect(checkSafety({ ...calm, remoteDeletes: 5 })).toEqual({ ok: true });
  });

  it('refuses deleting more than the allowed share of documents, naming the numbers, `spacesync approve --deletes` and --force', () => {
    const v = checkSafety({ ...calm, remoteDeletes: 6, localFiles: 4 });
    expect(v).toMatchObject({ ok: false, reason: 'mass_delete_remote' });
    if (!v.ok) {
      expect(v.message).toContain('6 of 10 documents (60%)');
      expect(v.message).toContain('50%');
      expect(v.message).toContain('--force');
      // --force cannot be followed beside a running daemon; an approval can.
      expect(v.message).toContain('`spacesync approve --deletes` (a running daemon goes ahead at its next cycle');
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

describe('checkPullSafety', () => {
  const pull = { known: 10, listed: 10, purged: 0, maxDeletePercent: 50, force: false };

  it('refuses an empty listing where documents were synced before, saying what to do', () => {
    const r = checkPullSafety({ ...pull, listed: 0, purged: 10 });
    expect(r?.reason).toBe('remote_empty');
    expect(r?.message).toMatch(/lists no documents at all.*Nothing was changed.*--force/);
  });

  it('refuses a purge of more than maxDeletePercent, but never a single document', () => {
    expect(checkPullSafety({ ...pull, purged: 6 })?.reason).toBe('mass_delete_local');
    expect(checkPullSafety({ ...pull, purged: 6 })?.message).toContain('6 of 10 documents (60%) are gone from the space');
    expect(checkPullSafety({ ...pull, purged: 5 })).toBeNull();
    expect(checkPullSafety({ ...pull, known: 2, listed: 1, purged: 1 })).toBeNull();
  });

  it('holds the push and the pull to one threshold: two of three documents is a mass delete either way', () => {
    expect(checkPullSafety({ ...pull, known: 3, listed: 1, purged: 2 })?.reason).toBe('mass_delete_local');
    expect(checkSafety({ ...calm, known: 3, localFiles: 1, remoteListed: 3, remoteDeletes: 2 })).toMatchObject({ ok: false, reason: 'mass_delete_remote' });
  });

  it('lets --force and a first run through', () => {
    expect(checkPullSafety({ ...pull, listed: 0, force: true })).toBeNull();
    expect(checkPullSafety({ ...pull, known: 0, listed: 0 })).toBeNull();
  });
});

describe('checkDocumentWipe', () => {
  const doc = { path: 'Unsorted/Note.md', baseBlocks: 3, baseWithText: 3, localWithText: 3, deletes: 0, maxDeletePercent: 50, force: false };

  it('holds back a file reduced to no blocks while its document has text, naming it, its `spacesync approve` and --force', () => {
    const v = checkDocumentWipe({ ...doc, localWithText: 0, deletes: 3 });
    expect(v).toMatchObject({ ok: false, reason: 'document_wipe' });
    if (!v.ok)
      expect(v.message).toMatch(
        /"Unsorted\/Note\.md" holds no blocks any more.*`spacesync approve "Unsorted\/Note\.md"` \(a running daemon sends it.*--force.*delete the file/,
      );
  });

  it('lets an emptied file through when its document had no text, or with --force', () => {
    expect(checkDocumentWipe({ ...doc, baseWithText: 0, localWithText: 0 })).toEqual({ ok: true });
    expect(checkDocumentWipe({ ...doc, localWithText: 0, force: true })).toEqual({ ok: true, forced: 'document_wipe' });
  });

  it('holds back deleting more than maxDeletePercent of a document of at least 20 blocks', () => {
    expect(checkDocumentWipe({ ...doc, baseBlocks: WIPE_MIN_BLOCKS, baseWithText: 20, localWithText: 9, deletes: 11 })).toMatchObject({
      ok: false,
      reason: 'document_wipe',
    });
    expect(checkDocumentWipe({ ...doc, baseBlocks: WIPE_MIN_BLOCKS, baseWithText: 20, localWithText: 10, deletes: 10 })).toEqual({ ok: true });
  });

  it('leaves shorter documents to the user: deleting 3 of 4 blocks goes through', () => {
    expect(checkDocumentWipe({ ...doc, baseBlocks: 4, baseWithText: 4, localWithText: 1, deletes: 3 })).toEqual({ ok: true });
    expect(checkDocumentWipe({ ...doc, baseBlocks: WIPE_MIN_BLOCKS - 1, baseWithText: 19, localWithText: 1, deletes: 18 })).toEqual({ ok: true });
  });
});
