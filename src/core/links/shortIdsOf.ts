// The short id of each block of a document, what its block-id marker and the links to it say
// (`#^a1b2c3d4`): the first 8 letters and digits of its id, lower case; the whole id's letters and
// digits when another block of the document starts alike (the rule the asset file names follow). The
// same document gives the same short ids on every machine.

const alnum = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/** Block id → short id, for the blocks of one document. */
export function shortIdsOf(ids: Iterable<string>): Map<string, string> {
  const all = [...ids];
  const count = new Map<string, number>();
  for (const id of all) {
    const head = alnum(id).slice(0, 8);
    count.set(head, (count.get(head) ?? 0) + 1);
  }
  return new Map(
    all.map((id) => {
      const head = alnum(id).slice(0, 8);
      return [id, count.get(head)! > 1 ? alnum(id) : head];
    }),
  );
}
