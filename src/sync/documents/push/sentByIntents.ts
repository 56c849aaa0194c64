// What the pending intents of a document say was sent: the edits of its `PUT /blocks` and the blocks
// of its `POST /blocks`, so a push that went out unrecorded is recognised in the space (confirmSentEdits,
// confirmSentInserts) rather than sent again.
import type { SentInsert } from '../../../core/push/confirmSentInserts.js';
import type { Intent } from '../../../journal/index.js';

/** Block id → markdown, as the pending `PUT /blocks` intents of a document sent them (the later one wins). */
export function sentEdits(intents: readonly Intent[], ids: readonly number[]): Map<string, string> {
  const sent = new Map<string, string>();
  const mine = new Set(ids);
  for (const i of intents) {
    if (!mine.has(i.id)) continue;
    const step = (i.payload as { step?: { method?: string; path?: string; body?: { blocks?: Array<{ id?: unknown; markdown?: unknown }> } } } | null)?.step;
    if (step?.method !== 'PUT' || step.path !== '/blocks') continue;
    for (const b of step.body?.blocks ?? []) if (typeof b.id === 'string' && typeof b.markdown === 'string') sent.set(b.id, b.markdown);
  }
  return sent;
}

/** The blocks the pending `POST /blocks` intents of a document inserted, nested content included. */
export function sentInserts(intents: readonly Intent[], ids: readonly number[]): SentInsert[] {
  interface Sent {
    type?: unknown;
    markdown?: unknown;
    textStyle?: unknown;
    content?: Sent[];
  }
  const out: SentInsert[] = [];
  const walk = (blocks: readonly Sent[]) =>
    blocks.forEach((b) => {
      if (typeof b.markdown !== 'string') return;
      out.push({ kind: b.type === 'page' ? (b.textStyle === 'card' ? 'card' : 'page') : 'block', markdown: b.markdown });
      if (Array.isArray(b.content)) walk(b.content);
    });
  const mine = new Set(ids);
  for (const i of intents) {
    if (!mine.has(i.id)) continue;
    const step = (i.payload as { step?: { method?: string; path?: string; body?: { blocks?: Sent[] } } } | null)?.step;
    if (step?.method === 'POST' && step.path === '/blocks' && Array.isArray(step.body?.blocks)) walk(step.body.blocks);
  }
  return out;
}
