import { describe, expect, it } from 'vitest';
import { renderBlockMarkdown } from './renderBlockMarkdown.js';

describe('renderBlockMarkdown', () => {
  it.each([
    [{ type: 'text', body: 'x', listStyle: 'bullet', indentationLevel: 2 }, '    - x'],
    [{ type: 'text', body: 'x', listStyle: 'task', taskInfo: { state: 'canceled' } }, '- [-] x'],
    [{ type: 'text', body: 'x', listStyle: 'numbered', textStyle: 'h2' }, '1. ## x'],
    [{ type: 'text', body: 'a\nb', decorations: ['quote'], indentationLevel: 1 }, '  > a\n  > b'],
    [{ type: 'text', body: 'x', decorations: ['callout', 'quote'], listStyle: 'toggle' }, '<callout>> + x</callout>'],
    [{ type: 'text', body: 'x', textStyle: 'caption', indentationLevel: 1 }, '  <caption>x</caption>'],
    [{ type: 'line', lineStyle: 'strong' }, '******'],
    [{ type: 'line' }, '*****'],
    [{ type: 'code', rawCode: 'a\n```\nb', language: 'markdown' }, '````markdown\na\n```\nb\n````'],
    [{ type: 'code', rawCode: '' }, '```\n```'],
    [{ type: 'code', rawCode: 'x\n\ny', language: 'go', indentationLevel: 1 }, '  ```go\n  x\n\n  y\n  ```'],
    [{ type: 'image', url: 'https://u/a.png' }, '![Image](https://u/a.png)'],
    [{ type: 'video', url: 'https://u/v.mp4' }, '![Image](https://u/v.mp4)'],
    [{ type: 'whiteboard', url: 'https://u/w.png' }, '![Whiteboard](https://u/w.png)'],
    [{ type: 'file', fileName: 'report.pdf', url: 'https://u/r.pdf' }, '[report.pdf](https://u/r.pdf)'],
    [{ type: 'richUrl', title: 'Example', url: 'https://example.com' }, '[Example](https://example.com)'],
    [{ type: 'page', body: 'Title' }, 'Title'],
    [{ type: 'page', textStyle: 'card', title: 'Card title' }, 'Card title'],
    [{ type: 'text', markdown: '* _x_', listStyle: 'bullet' }, '- *x*'],
  ] as const)('%j → %j', (fields, md) => {
    expect(renderBlockMarkdown(fields as never)).toBe(md);
  });

  it('renders a collection read without its items as a preview', () => {
    expect(renderBlockMarkdown({ type: 'collection', title: 'T' })).toBe(
      '<collection>\n  <title>T</title>\n  <properties></properties>\n  <itemsPreview></itemsPreview>\n</collection>',
    );
  });
});
