import { describe, expect, it } from 'vitest';
import { markdownEquals } from '../../dialect/index.js';
import { sameContent, similarity, withoutSignatures } from './blockContent.js';

describe('sameContent', () => {
  it('compares canonically', () => {
    expect(sameContent('text', '_x_', '*x*', markdownEquals)).toBe(true);
    expect(sameContent('text', 'a  ', 'a', markdownEquals)).toBe(true);
    expect(sameContent('text', 'a', 'b', markdownEquals)).toBe(false);
  });

  it('ignores the signed part of a media URL, and only for media blocks', () => {
    const v1 = '![Image](https://cdn.example/a/cat.png?X-Sig=abc&exp=1)';
    const v2 = '![Image](https://cdn.example/a/cat.png?X-Sig=def&exp=2)';
    expect(sameContent('image', v1, v2, markdownEquals)).toBe(true);
    expect(sameContent('file', '[a.pdf](https://x/a.pdf?s=1)', '[a.pdf](https://x/a.pdf#s=2)', markdownEquals)).toBe(true);
    expect(sameContent('image', v1, '![Image](https://cdn.example/a/dog.png?X-Sig=abc)', markdownEquals)).toBe(false);
    expect(sameContent('image', v1, '![Cat](https://cdn.example/a/cat.png?X-Sig=zzz)', markdownEquals)).toBe(false);
    // In text a query is the user's: a changed one is an edit.
    expect(sameContent('text', '[q](https://x/?q=1)', '[q](https://x/?q=2)', markdownEquals)).toBe(false);
    expect(sameContent(undefined, v1, v2, markdownEquals)).toBe(false);
  });

  it('strips queries and fragments of link destinations only', () => {
    expect(withoutSignatures('a?b [x](u?1) ![y](v#2) (w?3)')).toBe('a?b [x](u) ![y](v) (w?3)');
  });
});

describe('similarity', () => {
  it('is 1 for equal texts, high for an edit, low for unrelated ones', () => {
    expect(similarity('abc', 'abc')).toBe(1);
    expect(similarity('The quick brown fox jumps', 'The quick brown cat jumps')).toBeGreaterThan(0.7);
    expect(similarity('The quick brown fox', 'Lorem ipsum dolor sit')).toBeLessThan(0.3);
    expect(similarity('', 'x')).toBe(0);
    expect(similarity('brown fox quick', 'quick brown fox')).toBeGreaterThan(0.5);
  });
});

describe('similarity of a text kept whole inside its edit', () => {
  it('rates words added at one end as an edit, but not a mere shared letter', () => {
    expect(similarity('page 0', 'page 0 with many words added at the end')).toBeGreaterThanOrEqual(0.5);
    expect(similarity('Beta', 'a')).toBeLessThan(0.5);
  });
});
