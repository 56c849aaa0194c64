// fast-check generators for the dialect's property tests: canonical block trees and dialect-like text.
import fc from 'fast-check';
import type { Block, BlockFields, CardLayout, LineStyle, TextStyle } from '../../src/dialect/types.js';
import { renderBlockMarkdown } from '../../src/dialect/renderBlocks.js';

const word = fc.constantFrom(
  'alpha',
  'beta',
  '*em*',
  '**strong**',
  '`code`',
  '[link](https://x.test/a_b)',
  'snake_case',
  '<highlight color="red">hot</highlight>',
  'x|y',
  '1.5',
  '#tag',
  '$a_1$',
  'über',
  '日本',
  '😀',
  'a\\*b',
  '<b>',
  '&amp;',
);
const line = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
/** Inline text: one or two lines that never start a block of their own. */
export const inline = fc
  .tuple(line, fc.option(line, { nil: undefined }), fc.constantFrom('', '', '  '))
  .map(([a, b, trail]) => (b === undefined ? a : `${a}\n${b}`) + trail);

let ids = 0;
const id = () => `B${(ids++).toString(36).toUpperCase()}`;

const textFields: fc.Arbitrary<BlockFields> = fc
  .record({
    body: inline,
    level: fc.integer({ min: 0, max: 5 }),
    list: fc.constantFrom('none', 'bullet', 'numbered', 'toggle', 'todo', 'done', 'canceled'),
    style: fc.constantFrom<TextStyle | undefined>(undefined, undefined, 'h1', 'h2', 'h3', 'h4', 'caption'),
    quote: fc.boolean(),
    callout: fc.boolean(),
  })
  .map(({ body, level, list, style, quote, callout }) => {
    const f: BlockFields = { type: 'text', body: style && style !== 'caption' ? body.replace(/\n/g, ' ') : body };
    if (level) f.indentationLevel = level;
    if (list === 'todo' || list === 'done' || list === 'canceled') {
      f.listStyle = 'task';
      f.taskInfo = { state: list === 'todo' ? 'todo' : list };
    } else if (list !== 'none') f.listStyle = list as BlockFields['listStyle'];
    if (style) f.textStyle = style;
    const decorations: ('callout' | 'quote')[] = [];
    if (callout) decorations.push('callout');
    if (quote) decorations.push('quote');
    if (decorations.length) f.decorations = decorations;
    return f;
  });

const codeFields: fc.Arbitrary<BlockFields> = fc
  .record({
    lines: fc.array(fc.constantFrom('const a = 1;', '  indented', '', '```', '# not a heading', '- not a list', '</content>', '\tx'), {
      minLength: 0,
      maxLength: 4,
    }),
    language: fc.constantFrom(undefined, 'typescript', 'python', 'math_formula', 'other'),
    level: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ lines, language, level }) => ({
    type: 'code' as const,
    rawCode: lines.join('\n'),
    body: lines.join('\n'),
    ...(language ? { language } : {}),
    ...(level ? { indentationLevel: level } : {}),
  }));

export const leafFields: fc.Arbitrary<BlockFields> = fc.oneof(
  { weight: 6, arbitrary: textFields },
  { weight: 1, arbitrary: fc.constant<BlockFields>({ type: 'text', body: '' }) },
  { weight: 1, arbitrary: codeFields },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<LineStyle | undefined>(undefined, 'strong', 'light', 'extraLight', 'pageBreak')
      .map((s): BlockFields => ({ type: 'line', body: '', ...(s ? { lineStyle: s } : {}) })),
  },
  { weight: 1, arbitrary: fc.constant<BlockFields>({ type: 'table', body: '| a | b |\n|---|---|\n| 1 | <highlight color="yellow">2</highlight> |' }) },
  { weight: 1, arbitrary: fc.constant<BlockFields>({ type: 'image', body: '', url: 'https://cdn.test/a.png?sig=1' }) },
);

const leafBlock: fc.Arbitrary<Block> = leafFields.map((f) => {
  const { body: _b, ...rest } = f;
  return { ...rest, id: id(), type: f.type ?? 'text', markdown: renderBlockMarkdown(f) } as Block;
});

const collection: fc.Arbitrary<Block> = fc.array(line, { minLength: 0, maxLength: 2 }).map(
  (titles) =>
    ({
      id: id(),
      type: 'collection',
      title: 'Tasks',
      content: titles.map((t) => ({
        id: id(),
        type: 'collectionItem',
        title: t,
        properties: { status: 'Done' },
        content: [{ id: id(), type: 'text', markdown: 'item body' }],
      })),
    }) as Block,
);

/** A document's top-level blocks: text of every style, code, lines, tables, media, collections, nested pages and cards. */
export const blockTree: fc.Arbitrary<Block[]> = fc.letrec<{ blocks: Block[]; page: Block }>((tie) => ({
  blocks: fc.array(fc.oneof({ weight: 10, arbitrary: leafBlock }, { weight: 1, arbitrary: collection }, { weight: 2, arbitrary: tie('page') }), {
    maxLength: 8,
  }),
  page: fc
    .record({
      title: line,
      card: fc.boolean(),
      layout: fc.constantFrom<CardLayout | undefined>(undefined, 'small', 'large'),
      level: fc.integer({ min: 0, max: 2 }),
      children: fc.option(tie('blocks'), { nil: undefined, depthSize: 'small' }),
    })
    .map(
      ({ title, card, layout, level, children }) =>
        ({
          id: id(),
          type: 'page',
          markdown: title,
          ...(card ? { textStyle: 'card' } : {}),
          ...(card && layout ? { cardLayout: layout } : {}),
          ...(level ? { indentationLevel: level } : {}),
          content: children ?? [],
        }) as Block,
    ),
})).blocks;

/** Text made of the dialect's pieces in any order (unbalanced tags, fences, CRLF, tabs, junk). */
export const dialectishText: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          '<page>',
          '<page textStyle="card">',
          '<card cardLayout="small">',
          '<pageTitle>T</pageTitle>',
          '<content>',
          '</content>',
          '</page>',
          '</card>',
          '<callout>',
          '</callout>',
          '<callout>x</callout>',
          '<callout>a',
          'b</callout>',
          '- a',
          '- ',
          '1. x',
          '  - b',
          '```',
          '```js',
          '~~~',
          '$$',
          '$$x$$',
          '| a | b |',
          '|---|---|',
          '---',
          '***',
          '# h',
          '> q',
          '<collection>',
          '</collection>',
          '<title>t</title>',
          '',
          '  ',
          '\t',
          '\r',
          'text',
          '\u0000\uFFFD',
          '\uD800',
          '  \t  x',
        ),
        fc.string({ maxLength: 6 }),
      ),
      fc.constantFrom('\n', '\r\n', '\n\n', '', ' '),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.map(([a, b]) => a + b).join(''));
