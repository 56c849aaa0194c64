import { describe, expect, it } from 'vitest';
import { headingSlug, headingText } from './headingText.js';

describe('the plain text of a heading', () => {
  it('drops inline markup: emphasis, code, links, tags, escapes', () => {
    expect(headingText('# Goals for **2026**')).toBe('Goals for 2026');
    expect(headingText('## a_b _c_ `x` [see](../R.md) <highlight color="red">hot</highlight> \\#1')).toBe('a_b c x see hot #1');
    expect(headingText('<callout>### In a callout</callout>')).toBe('In a callout');
  });
  it('is null for blocks that are no heading', () => {
    for (const md of ['Goals', '- # not', '```\n# code\n```', '<caption>c</caption>']) expect(headingText(md)).toBeNull();
  });
  it('slugs as GitHub and VS Code do', () => {
    expect(headingSlug('Goals for 2026')).toBe('goals-for-2026');
    expect(headingSlug('Café: été & co.')).toBe('café-été--co');
  });
});
