// Golden pairs fixtures/dialect/<case>.md ⇄ <case>.blocks.json: the insert split into blocks, the
// markdown of each block, and the file those blocks render to. A task line's date signifiers are read
// as a file's (taskDates.ts): into taskInfo, off the markdown. UPDATE=1 rewrites the JSON files.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitMarkdown, parseBlockMarkdown } from './parseBlockMarkdown.js';
import { renderBlockMarkdown, renderFileBody } from './renderBlocks.js';
import { segmentFile } from './segmentFile.js';
import { joinSegments } from '../../test/support/joinSegments.js';
import { markdownEquals } from './canonicalMarkdown.js';
import { splitTaskDates } from './taskDates.js';
import { isSpacesyncError } from '../errors.js';
import type { Block, ParsedBlockNode, Segment } from './types.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/dialect');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .map((f) => f.slice(0, -3))
  .sort();

type Golden = { error: string } | { blocks: Array<ParsedBlockNode & { markdown: string }>; file: string };

let n = 0;
function toBlocks(nodes: ParsedBlockNode[]): Block[] {
  return nodes.map((node) => {
    const { children, body: _body, ...fields } = node;
    const block: Block = { ...fields, id: `N${n++}`, markdown: renderBlockMarkdown(node) };
    if (children) block.content = toBlocks(children);
    return block;
  });
}

function withMarkdown(nodes: ParsedBlockNode[]): Array<ParsedBlockNode & { markdown: string }> {
  return nodes.map((node) => {
    const { children, ...rest } = node;
    return { ...rest, markdown: renderBlockMarkdown(node), ...(children ? { children: withMarkdown(children) } : {}) };
  });
}

/** A file's blocks: the dates at the end of a task line are the task's, not its text. */
function fileDates(nodes: ParsedBlockNode[]): ParsedBlockNode[] {
  return nodes.map((node) => {
    const children = node.children ? { children: fileDates(node.children) } : {};
    if (node.listStyle !== 'task') return { ...node, ...children };
    const { markdown, ...dates } = splitTaskDates(renderBlockMarkdown(node));
    if (Object.keys(dates).length === 0) return { ...node, ...children };
    return { ...node, body: parseBlockMarkdown(markdown).body, taskInfo: { state: node.taskInfo!.state, ...dates }, ...children };
  });
}

function golden(md: string): Golden {
  try {
    const nodes = fileDates(splitMarkdown(md));
    return { blocks: withMarkdown(nodes), file: renderFileBody(toBlocks(nodes)) };
  } catch (e) {
    if (!isSpacesyncError(e, 'dialect_input')) throw e;
    return { error: e.message };
  }
}

const flat = (segs: Segment[]): Segment[] => segs.flatMap((s) => [s, ...flat(s.children)]);

describe('golden dialect fixtures', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', (name) => {
    const md = readFileSync(path.join(dir, `${name}.md`), 'utf8');
    const jsonPath = path.join(dir, `${name}.blocks.json`);
    const actual = golden(md);
    if (process.env.UPDATE === '1') writeFileSync(jsonPath, `${JSON.stringify(actual, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(jsonPath, 'utf8')) as Golden;
    expect(actual).toEqual(expected);
    // The input file itself: byte-faithful segmentation, whatever the case.
    expect(joinSegments(segmentFile(md))).toBe(md);
    if ('blocks' in actual) {
      // The rendered file reads back to the same blocks, and the input agrees with it block by block.
      expect(fileDates(splitMarkdown(actual.file)).map((b) => renderBlockMarkdown(b))).toEqual(actual.blocks.map((b) => b.markdown));
      const fromInput = flat(segmentFile(md).segments).map((s) => s.markdown);
      const fromFile = flat(segmentFile(actual.file).segments).map((s) => s.markdown);
      expect(fromInput.length).toBe(fromFile.length);
      fromInput.forEach((m, i) => expect(markdownEquals(m, fromFile[i]!), `${m} ≡ ${fromFile[i]}`).toBe(true));
    }
  });
});
