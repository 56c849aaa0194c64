import { describe, expect, it } from 'vitest';
import { applyUpdate, markdownOf, prepareMarkdown, prepareNewBlock } from './blockInput.js';
import { MediaSigner } from './mediaUrls.js';

const urls = new MediaSigner();
import { ApiError } from '../http/apiError.js';

const now = Date.parse('2026-09-05T10:00:00Z');
const row = (type: string, data: object) => {
  const d = data as Parameters<typeof markdownOf>[1];
  return { id: 'B', type, data: JSON.stringify(d), markdown: markdownOf(type as never, d) };
};

describe('block input', () => {
  it('a markdown insert is split and normalised, pages nesting their content', () => {
    const out = prepareMarkdown('a _b_\n\n<page>\n<pageTitle>P</pageTitle>\n<content>\nin\n</content>\n</page>', urls);
    expect(out).toEqual([
      { type: 'text', data: { body: 'a *b*' }, children: [] },
      { type: 'page', data: { body: 'P' }, children: [{ type: 'text', data: { body: 'in' }, children: [] }] },
    ]);
  });

  it("explicit fields layer over a new block's markdown, defaults dropped", () => {
    const [b] = prepareNewBlock({ type: 'text', markdown: '- x', font: 'system', color: '#000000', indentationLevel: 2 }, now, 'UTC', urls);
    expect(b!.data).toEqual({ body: 'x', listStyle: 'bullet', indentationLevel: 2, color: '#000000' });
    expect(markdownOf('text', b!.data)).toBe('    - x');
  });

  it('an update that echoes stored fields does not undo its new markdown', () => {
    const r = row('text', { body: 'old', textStyle: 'h2', font: 'serif' });
    const data = applyUpdate(r, { id: 'B', markdown: 'new text', textStyle: 'h2', font: 'serif' }, now, 'UTC', urls);
    expect(data).toEqual({ body: 'new text', font: 'serif' });
  });

  it('an update field that differs from the stored value wins', () => {
    const r = row('text', { body: 'x' });
    expect(applyUpdate(r, { id: 'B', markdown: '# x', textStyle: 'h3' }, now, 'UTC', urls)).toEqual({ body: 'x', textStyle: 'h3' });
  });

  it("a page's markdown and title are its title", () => {
    const r = row('page', { body: 'Old' });
    expect(applyUpdate(r, { id: 'B', markdown: 'New', title: 'Old' }, now, 'UTC', urls)).toEqual({ body: 'New' });
    expect(applyUpdate(r, { id: 'B', title: 'Newer' }, now, 'UTC', urls)).toEqual({ body: 'Newer' });
  });

  it('leaving done clears completedAt; a canceled task gets canceledAt', () => {
    const r = row('text', { body: 'x', listStyle: 'task', taskInfo: { state: 'done', completedAt: '2026-01-01T00:00:00.000Z' } });
    expect(applyUpdate(r, { id: 'B', markdown: '- [ ] x' }, now, 'UTC', urls).taskInfo).toEqual({ state: 'todo' });
    expect(applyUpdate(r, { id: 'B', markdown: '- [x] x' }, now, 'UTC', urls).taskInfo).toEqual({ state: 'done', completedAt: '2026-01-01T00:00:00.000Z' });
    expect(applyUpdate(r, { id: 'B', taskInfo: { state: 'canceled' } }, now, 'UTC', urls).taskInfo).toEqual({
      state: 'canceled',
      canceledAt: '2026-09-05T10:00:00.000Z',
    });
  });

  it('a null task date clears it', () => {
    const r = row('text', { body: 'x', listStyle: 'task', taskInfo: { state: 'todo', scheduleDate: '2026-09-01' } });
    expect(applyUpdate(r, { id: 'B', taskInfo: { scheduleDate: null } }, now, 'UTC', urls).taskInfo).toEqual({ state: 'todo' });
  });

  it('refuses a type change and markdown of derived-markdown blocks', () => {
    expect(() => applyUpdate(row('text', { body: 'x' }), { id: 'B', type: 'code' }, now, 'UTC', urls)).toThrow(ApiError);
    expect(() => applyUpdate(row('file', { body: '', url: 'asset:A', fileName: 'f' }), { id: 'B', markdown: '[g](asset:A)' }, now, 'UTC', urls)).toThrow(
      /cannot be edited/,
    );
  });

  it('collections, items and whiteboards are not created through POST /blocks', () => {
    for (const type of ['collection', 'collectionItem', 'whiteboard'] as const)
      expect(() => prepareNewBlock({ type }, now, 'UTC', urls)).toThrow(/created with/);
  });
});
