// What one version of a document differs by from the version that replaced it, in blocks: texts
// only in the old one were removed, texts only in the new one added, and as many of each as pair up
// are counted as edits. Counts only (for `spacesync history`); the versions themselves are kept whole.

export interface VersionSummary {
  added: number;
  removed: number;
  edited: number;
}

export function versionSummary(before: readonly string[], after: readonly string[]): VersionSummary {
  const left = new Map<string, number>();
  for (const m of before) left.set(m, (left.get(m) ?? 0) + 1);
  let onlyAfter = 0;
  for (const m of after) {
    const n = left.get(m) ?? 0;
    if (n > 0) left.set(m, n - 1);
    else onlyAfter++;
  }
  let onlyBefore = 0;
  for (const n of left.values()) onlyBefore += n;
  const edited = Math.min(onlyBefore, onlyAfter);
  return { added: onlyAfter - edited, removed: onlyBefore - edited, edited };
}
