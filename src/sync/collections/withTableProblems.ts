// What the tables' push (pushCollections) said about a file replaces what the blocks' push said of
// the same file's "output-only content": the table was the tables' push's to send.
import type { CollectionPushResult } from './pushCollections.js';
import type { PushResult } from '../documents/push/pushLocal.js';

export function withTableProblems(push: PushResult, tables: CollectionPushResult): PushResult {
  if (tables.problems.length === 0) return push;
  const said = new Set(tables.problems.map((p) => p.path));
  const others = push.plan.problems.filter((p) => !(said.has(p.path) && p.message.includes('output-only content')));
  return { ...push, plan: { ...push.plan, problems: [...tables.problems, ...others] } };
}
