// Refs name what a plan creates until the service answers with ids: the shell reads them from
// each answer (readYields) and puts them into the later steps (resolveStep) before sending them.
import { REF, docRef, type PlanStep } from './plan.js';

/** A link to a document this plan creates, inside a block's markdown (docLinkRef). */
const DOC_LINK = /block:\/\/@ref:doc:([A-Za-z0-9%._-]+)/g;

/** The step with every ref in its body, query and path replaced by its id; the refs still unknown when some are. */
export function resolveStep(step: PlanStep, ids: ReadonlyMap<string, string>): { ok: true; step: PlanStep } | { ok: false; missing: string[] } {
  const missing = new Set<string>();
  // Links to documents created in this plan, inside markdown.
  const linked = (text: string) =>
    text.replace(DOC_LINK, (link, key: string) => {
      const ref = docRef(decodeURIComponent(key));
      const id = ids.get(ref);
      if (id === undefined) missing.add(ref);
      return id === undefined ? link : `block://${id}`;
    });
  const swap = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!v.startsWith(REF)) return v.includes(`block://${REF}doc:`) ? linked(v) : v;
      const id = ids.get(v);
      if (id === undefined) missing.add(v);
      return id ?? v;
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  const out: PlanStep = { ...step, path: swap(step.path) as string, docs: step.docs.map((d) => ids.get(d) ?? d) };
  if (step.body !== undefined) out.body = swap(step.body);
  if (step.query) out.query = swap(step.query) as Record<string, string>;
  if (missing.size > 0) return { ok: false, missing: [...missing] };
  return { ok: true, step: out };
}

/**
 * The ids an answer gives for the step's refs. A ref the answer does not hold (the service split
 * or merged what it was sent) is listed as missing: the shell then re-reads that document.
 */
export function readYields(step: PlanStep, answer: unknown): { ids: Map<string, string>; missing: string[] } {
  const ids = new Map<string, string>();
  const missing: string[] = [];
  const items = (answer as { items?: unknown[] } | null)?.items;
  for (const y of step.yields ?? []) {
    let node: unknown = answer;
    if (y.at.length > 0) {
      node = items?.[y.at[0]!];
      for (const i of y.at.slice(1)) node = (node as { content?: unknown[] } | undefined)?.content?.[i];
    }
    const id = (node as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string' && id !== '') ids.set(y.ref, id);
    else missing.push(y.ref);
  }
  // Created blocks must come back as many as were sent: otherwise positions do not name them.
  if (step.method === 'POST' && step.path === '/blocks' && Array.isArray(items)) {
    const sent = (step.body as { blocks?: unknown[] } | undefined)?.blocks?.length;
    if (sent !== undefined && sent !== items.length) return { ids: new Map(), missing: (step.yields ?? []).map((y) => y.ref) };
  }
  return { ids, missing };
}
