// The stat cache's rule, as git's index has it: a file whose size, mtime, ctime and inode are the
// ones recorded when its content was hashed still holds that content — unless its timestamps were
// too close to the moment of recording (the "racy" case): a write in the same timestamp tick, right
// after the hash, would leave the stat unchanged. Such an entry is not trusted; the file is read.

/** The file system's timestamp granularity when it is not known (FAT's 2 s, the coarsest in use). */
export const UNKNOWN_GRANULARITY_NS = 2_000_000_000n;

export interface StatKey {
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

export interface RecordedStat extends StatKey {
  /** Wall clock (ns) when the stat was taken, before the content was read. */
  recordedNs: bigint;
}

/** Whether `now` (the file's stat this time) lets the recorded hash stand without reading the file. */
export function statTrusted(recorded: RecordedStat, now: StatKey, granularityNs: bigint = UNKNOWN_GRANULARITY_NS): boolean {
  if (recorded.size !== now.size || recorded.mtimeNs !== now.mtimeNs || recorded.ctimeNs !== now.ctimeNs || recorded.ino !== now.ino) return false;
  const newest = recorded.mtimeNs > recorded.ctimeNs ? recorded.mtimeNs : recorded.ctimeNs;
  return recorded.recordedNs - newest >= granularityNs;
}
