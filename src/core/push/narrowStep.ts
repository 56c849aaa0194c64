// A step for several documents, sent without the ones that failed before it: a document whose
// earlier step failed must not have its later steps sent (its deletes could drop text its failed
// insert was to carry), and the others must not wait for it (they would never be sent while it fails).
import type { PlanStep } from './plan.js';

/** The body key holding the step's list of items, one per entry of `parts`. */
const LIST_KEYS = ['blocks', 'blockIds', 'documentIds', 'tasksToUpdate'] as const;

/**
 * The step without the items of `failed` documents; null when nothing of it is left, or when it
 * cannot be split (it has no `parts`): then none of its documents can go on.
 */
export function narrowStep(step: PlanStep, failed: ReadonlySet<string>): PlanStep | null {
  if (!step.docs.some((d) => failed.has(d))) return step;
  const parts = step.parts;
  const body = step.body as Record<string, unknown> | undefined;
  const key = LIST_KEYS.find((k) => Array.isArray(body?.[k]) && (body![k] as unknown[]).length === parts?.length);
  if (!parts || !body || key === undefined) return null;
  const keep = parts.map((d) => !failed.has(d));
  const kept = keep.filter(Boolean).length;
  if (kept === 0) return null;
  return {
    ...step,
    docs: step.docs.filter((d) => !failed.has(d)),
    parts: parts.filter((_, i) => keep[i]),
    body: { ...body, [key]: (body[key] as unknown[]).filter((_, i) => keep[i]) },
    blocks: step.blocks === 0 ? 0 : Math.max(1, Math.round((step.blocks * kept) / parts.length)),
  };
}
