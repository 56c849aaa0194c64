import { describe, expect, it } from 'vitest';
import { snippet } from './snippet.js';

const hl = (s: string) => `<highlight color="yellow">${s}</highlight>`;

describe('snippet', () => {
  it('wraps every match in a yellow highlight', () => {
    expect(
      snippet('one two one', [
        [0, 3],
        [8, 11],
      ]),
    ).toBe(`${hl('one')} two ${hl('one')}`);
  });

  it('merges overlapping matches', () => {
    expect(
      snippet('abcdef', [
        [1, 4],
        [2, 5],
      ]),
    ).toBe(`a${hl('bcde')}f`);
  });

  it('cuts long text around the first match with ellipses', () => {
    const text = `${'x'.repeat(200)}needle${'y'.repeat(300)}`;
    const s = snippet(text, [[200, 206]]);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain(hl('needle'));
    expect(s.length).toBeLessThan(300);
  });
});
