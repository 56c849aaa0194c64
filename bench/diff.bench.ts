// How long the pure decisions take for one large document: diff base→file, merge (no remote
// change), change set and plan, for a 10,000-block document with 1 and with 100 scattered changes.
import type { Figure } from './figure.js';
import { changeSetOf } from '../src/core/merge/changeSet.js';
import { coreDialect } from '../src/core/merge/mergeFile.js';
import { diffDocument } from '../src/core/merge/diff.js';
import { hashBlock } from '../src/core/merge/hashBlock.js';
import { mergeDocument } from '../src/core/merge/merge.js';
import { planSync, type PlanStep } from '../src/core/push/plan.js';
import type { BaseBlock, LocalBlock } from '../src/core/types.js';

const N = 10_000;

/** A document of N blocks: paragraphs, headings, list items, tasks, code, and a card every 500 blocks. */
function document(): { base: BaseBlock[]; local: LocalBlock[] } {
  const base: BaseBlock[] = [];
  const local: LocalBlock[] = [];
  let position = 0;
  let card: { id: string; block: LocalBlock; n: number } | null = null;
  for (let i = 0; base.length < N; i++) {
    if (i % 500 === 250) {
      const id = `CARD-${i}`;
      const block: LocalBlock = { markdown: `Card ${i}`, kind: 'card', children: [] };
      base.push({ id, parentId: null, position: position++, level: 0, kind: 'card', type: 'page', markdown: block.markdown, hash: '' });
      local.push(block);
      card = { id, block, n: 0 };
      continue;
    }
    const md =
      i % 10 === 0
        ? `## Section ${i}`
        : i % 7 === 0
          ? `- item ${i} with **bold** text`
          : i % 13 === 0
            ? `- [ ] task ${i} for [someone](https://example.test/${i})`
            : i % 97 === 0
              ? `\`\`\`ts\nconst x${i} = ${i};\n\`\`\``
              : `Paragraph ${i}: a sentence of ordinary note text, with *emphasis* and a [link](https://example.test/p/${i}).`;
    const inCard = card !== null && card.n < 20;
    const parentId = inCard ? card!.id : null;
    base.push({
      id: `B-${i}`,
      parentId,
      position: inCard ? card!.n : position++,
      level: 0,
      kind: 'block',
      type: md.startsWith('```') ? 'code' : 'text',
      markdown: md,
      hash: '',
    });
    const block: LocalBlock = { markdown: md, kind: 'block', children: [] };
    if (inCard) {
      card!.block.children.push(block);
      card!.n++;
    } else local.push(block);
  }
  for (const b of base) b.hash = hashBlock(b.markdown, b.kind);
  return { base, local };
}

/** The file with `changes` scattered edits (and one insert and one delete in every ten). */
function edited(local: LocalBlock[], changes: number): LocalBlock[] {
  const out = local.map((b) => ({ ...b, children: [...b.children] }));
  const step = Math.floor(out.length / changes);
  for (let k = 0; k < changes; k++) {
    const at = k * step + 3;
    const b = out[at]!;
    if (b.kind !== 'block') continue;
    if (k % 10 === 4) out.splice(at, 0, { markdown: `A new paragraph ${k}`, kind: 'block', children: [] });
    else if (k % 10 === 7) out.splice(at, 1);
    else out[at] = { ...b, markdown: `${b.markdown} (edited ${k})` };
  }
  return out;
}

function decide(base: BaseBlock[], local: LocalBlock[]): PlanStep[] {
  const diff = diffDocument(base, local, { equals: coreDialect.equals });
  const merged = mergeDocument({ base, diff, dialect: coreDialect });
  const cs = changeSetOf(merged.nodes, base, coreDialect.equals);
  return planSync({ documents: [{ doc: 'DOC', name: 'Big', changes: cs }] });
}

function median(run: () => void, times = 25): number {
  for (let i = 0; i < 5; i++) run();
  const t: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)]!;
}

export default async function diffBench(): Promise<Figure[]> {
  const { base, local } = document();
  const figures: Figure[] = [];
  for (const changes of [1, 100]) {
    const file = edited(local, changes);
    const steps = decide(base, file);
    const ms = median(() => decide(base, file));
    figures.push({
      name: `diff + merge + plan, ${N.toLocaleString('en')} blocks, ${changes} scattered change${changes > 1 ? 's' : ''}, median`,
      measured: Math.round(ms * 10) / 10,
      unit: 'ms',
      target: { op: '<', value: 20 },
    });
    figures.push({
      name: `requests planned for ${changes} scattered change${changes > 1 ? 's' : ''}`,
      measured: steps.length,
      unit: 'requests',
      note: steps.map((s) => `${s.method} ${s.path} (${s.blocks})`).join(', '),
    });
  }
  // A rewrite of every block: past the work bound the diff pairs by position; shown for context.
  const rewritten = local.map((b) => ({
    ...b,
    markdown: `${b.markdown} rewritten`,
    children: b.children.map((c) => ({ ...c, markdown: `${c.markdown} rewritten` })),
  }));
  const ms = median(() => decide(base, rewritten), 5);
  figures.push({
    name: `diff + merge + plan, every one of ${N.toLocaleString('en')} blocks rewritten, median`,
    measured: Math.round(ms),
    unit: 'ms',
    note: 'context: the bounded diff falls back to pairing by position',
  });
  return figures;
}
