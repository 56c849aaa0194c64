import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { capBytes, collisionKey, dirOfPath, EMPTY_TITLE, fileStem, MAX_STEM_BYTES, stemOfPath, suffixedStem, utf8Length } from './fileName.js';

describe('fileStem', () => {
  it('keeps an ordinary title as it is', () => {
    expect(fileStem('Roadmap 2027')).toBe('Roadmap 2027');
  });

  it('replaces characters a file system or editor cannot hold', () => {
    expect(fileStem('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(fileStem('line\none\ttab\u0007bell\u0085')).toBe('line one tab bell');
  });

  it('replaces the bidirectional controls, which would show a name in another order than it has', () => {
    expect(fileStem('evil\u202edm.exe')).toBe('evil dm.exe');
    expect(fileStem('a\u200eb\u200fc\u202ad\u2066e\u2069f\u061cg')).toBe('a b c d e f g');
  });

  it('trims spaces and replaces dots at the ends (hidden files, Windows)', () => {
    expect(fileStem('  spaced  ')).toBe('spaced');
    expect(fileStem('.hidden')).toBe('_hidden');
    expect(fileStem('ends.')).toBe('ends_');
    expect(fileStem('...')).toBe('___');
    expect(fileStem('a.b')).toBe('a.b');
  });

  it('names an empty or blank title Untitled', () => {
    expect(fileStem('')).toBe(EMPTY_TITLE);
    expect(fileStem('   ')).toBe(EMPTY_TITLE);
    expect(fileStem('\n\t')).toBe(EMPTY_TITLE);
  });

  it('normalises to NFC so NFD and NFC titles give one name', () => {
    const nfd = 'Cafe\u0301';
    expect(fileStem(nfd)).toBe('Caf\u00e9');
    expect(fileStem(nfd)).toBe(fileStem('Caf\u00e9'));
  });

  it('defuses Windows device names, also with an extension', () => {
    expect(fileStem('CON')).toBe('CON_');
    expect(fileStem('nul')).toBe('nul_');
    expect(fileStem('com1.notes')).toBe('com1_.notes');
    expect(fileStem('Lpt9')).toBe('Lpt9_');
    expect(fileStem('CONSOLE')).toBe('CONSOLE');
    expect(fileStem('com10')).toBe('com10');
  });

  it('replaces lone surrogates that no file system accepts', () => {
    expect(fileStem('a\ud800b')).toBe('a\ufffdb');
    expect(fileStem('ok \ud83d\ude00')).toBe('ok \ud83d\ude00');
  });

  it('caps long titles under the byte limit at a grapheme boundary', () => {
    const long = 'é'.repeat(500);
    const stem = fileStem(long);
    expect(utf8Length(stem)).toBeLessThanOrEqual(MAX_STEM_BYTES);
    expect(stem).toBe('é'.repeat(MAX_STEM_BYTES / 2));
    const flags = '🇩🇪'.repeat(100); // 8 bytes per flag: never cut in half
    expect(fileStem(flags)).toBe('🇩🇪'.repeat(Math.floor(MAX_STEM_BYTES / 8)));
    expect(fileStem('a'.repeat(179) + ' .b')).toBe('a'.repeat(179));
  });

  it('property: a stem is always a valid, NFC, bounded, stable file name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (title) => {
        const stem = fileStem(title);
        expect(stem.length).toBeGreaterThan(0);
        expect(stem).not.toMatch(/[/\\:*?"<>|\u0000-\u001f]/);
        expect(stem).not.toMatch(/^[. ]|[. ]$/);
        expect(stem.normalize('NFC')).toBe(stem);
        // Room for an id suffix and a conflict copy's stamp (src/mirror/conflictCopyName.ts) under 255 bytes.
        expect(utf8Length(`${suffixedStem(stem, 'ABCDEFGH')} (conflict 2026-11-21 093005 99).md`)).toBeLessThan(255);
        expect(fileStem(stem)).toBe(stem);
      }),
      { numRuns: 500 },
    );
  });
});

describe('helpers', () => {
  it('capBytes keeps short strings and cuts long ones', () => {
    expect(capBytes('abc', 10)).toBe('abc');
    expect(capBytes('abcdef', 3)).toBe('abc');
  });

  it('suffixedStem keeps the suffix whole under the cap', () => {
    expect(suffixedStem('Roadmap', '1a2b3c4d')).toBe('Roadmap (1a2b3c4d)');
    const s = suffixedStem('x'.repeat(400), 'abcdefgh');
    expect(s.endsWith(' (abcdefgh)')).toBe(true);
    expect(utf8Length(s)).toBeLessThanOrEqual(MAX_STEM_BYTES);
  });

  it('collisionKey folds case and normalisation', () => {
    expect(collisionKey('Roadmap.md')).toBe(collisionKey('ROADMAP.MD'));
    expect(collisionKey('Cafe\u0301')).toBe(collisionKey('CAF\u00c9'));
    expect(collisionKey('a')).not.toBe(collisionKey('b'));
  });

  it('splits paths', () => {
    expect(stemOfPath('Projects/Sub/Roadmap.md')).toBe('Roadmap');
    expect(dirOfPath('Projects/Sub/Roadmap.md')).toBe('Projects/Sub');
    expect(dirOfPath('Roadmap.md')).toBe('');
  });
});
