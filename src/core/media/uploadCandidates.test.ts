import { describe, expect, it } from 'vitest';
import type { Block } from '../../dialect/index.js';
import { uploadCandidates } from './uploadCandidates.js';

const img = (id: string, type: 'image' | 'video' | 'file' = 'image'): Block => ({
  id,
  type,
  markdown: type === 'file' ? `[a.pdf](https://s/${id}?sig=1)` : `![Image](https://s/${id}?sig=1)`,
});
const text = (id: string): Block => ({ id, type: 'text', markdown: id });

const doc: Block = {
  id: 'D',
  type: 'page',
  content: [img('I0'), text('T1'), img('I2'), text('T3'), { id: 'P', type: 'page', markdown: 'sub', content: [img('I4'), img('F5', 'file')] }, img('I6')],
};

describe('uploadCandidates', () => {
  it('lists the media blocks the base does not know, nearest to where the upload was aimed first', () => {
    const ids = (known: string[], target: Parameters<typeof uploadCandidates>[2], type?: string) =>
      uploadCandidates(doc, new Set(known), target, type).map((c) => c.id);
    expect(ids(['T1', 'T3'], { position: 'after', siblingId: 'T3' })).toEqual(['I4', 'F5', 'I2', 'I6', 'I0']);
    expect(ids(['T1', 'T3', 'I2'], { position: 'after', siblingId: 'T1' })).toEqual(['I0', 'I4', 'F5', 'I6']);
    expect(ids([], { position: 'start', pageId: 'P' })).toEqual(['I4', 'F5', 'I6', 'I2', 'I0']);
    // A block first in the document: aimed at the document itself, before the first block.
    expect(ids([], { position: 'start', pageId: 'D' })).toEqual(['I0', 'I2', 'I4', 'F5', 'I6']);
    expect(ids([], { position: 'start', pageId: 'P' }, 'file')).toEqual(['F5']);
  });

  it('gives the URL the service put on the block, and skips blocks with none', () => {
    const withUrl: Block = {
      id: 'D',
      type: 'page',
      content: [
        { id: 'V', type: 'video', url: 'https://s/v?sig=2', markdown: '![Image](https://s/v?sig=2)' },
        { id: 'X', type: 'image', markdown: '![Image](asset.png)' },
      ],
    };
    expect(uploadCandidates(withUrl, new Set(), { position: 'start', pageId: 'D' })).toEqual([{ id: 'V', type: 'video', url: 'https://s/v?sig=2' }]);
  });
});
