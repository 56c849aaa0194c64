// The dialect on a large document: segmenting a 10,000-block file and rendering it, ms per operation.
import type { Figure } from './figure.js';
import type { Block } from '../src/dialect/types.js';
import { renderBlockMarkdown, renderFileBody, segmentFile } from '../src/dialect/index.js';

/** A deterministic document of `count` blocks: every text style, lists 0..5, code, tables, lines, media, cards. */
function generate(count: number): Block[] {
  const blocks: Block[] = [];
  let made = 0;
  const leaf = (i: number): Block => {
    const words = `Block ${i} has **bold**, *em*, \`code\` and a [link](https://example.com/${i}).`;
    const kinds: Array<Omit<Block, 'id' | 'markdown'>> = [
      { type: 'text' },
      { type: 'text', textStyle: 'h2' },
      { type: 'text', listStyle: 'bullet', indentationLevel: i % 6 },
      { type: 'text', listStyle: 'task', taskInfo: { state: 'todo' }, indentationLevel: i % 3 },
      { type: 'text', listStyle: 'numbered' },
      { type: 'text', decorations: ['quote'] },
      { type: 'text', decorations: ['callout'] },
      { type: 'code', language: 'typescript', rawCode: `const x${i} = ${i};\nconsole.log(x${i});` },
      { type: 'line' },
      { type: 'table' },
      { type: 'image', url: `https://cdn.example.com/${i}.png?sig=${i}` },
    ];
    const f = kinds[i % kinds.length]!;
    const body = f.type === 'table' ? `| a | b |\n|---|---|\n| ${i} | x |` : words;
    return { ...f, id: `B${i}`, markdown: renderBlockMarkdown({ ...f, body }) } as Block;
  };
  while (made < count) {
    if (made % 50 === 49) {
      const children: Block[] = [];
      for (let k = 0; k < 9 && made + 1 + k < count; k++) children.push(leaf(made + 1 + k));
      blocks.push({ id: `P${made}`, type: 'page', textStyle: 'card', cardLayout: 'small', markdown: `Card ${made}`, content: children });
      made += 1 + children.length;
    } else {
      blocks.push(leaf(made));
      made++;
    }
  }
  return blocks;
}

function msPerOp(fn: () => unknown, runs: number): number {
  for (let i = 0; i < 3; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(runs / 2)]! * 100) / 100;
}

export default async function dialect(): Promise<Figure[]> {
  const blocks = generate(10_000);
  const body = renderFileBody(blocks);
  const text = `---\nid: DOC\n---\n${body}`;
  const render = msPerOp(() => renderFileBody(blocks), 15);
  const segment = msPerOp(() => segmentFile(text), 15);
  const note = `10,000 blocks, ${Math.round(text.length / 1024)} KiB, median of 15`;
  return [
    { name: 'segmentFile of a 10,000-block file', measured: segment, unit: 'ms', target: { op: '<', value: 20 }, note },
    { name: 'renderFileBody of a 10,000-block document', measured: render, unit: 'ms', target: { op: '<', value: 20 }, note },
  ];
}
