// The texts either side held during a scenario, for oracle O1 (nothing lost): every line a step
// wrote is recorded, and a line a later step on the same side removed on purpose (an edit or a
// block delete of text that side could see) is retired. At the end every recorded line that was
// not retired must be somewhere: a file of the mirror, a conflict copy, the trash, or purged/.

/** A line as compared: markup that the service normalises or the file shows differently is dropped. */
export function normalizeLine(line: string): string {
  return (
    line
      .replace(/\r/g, '')
      // A link to a document, a day or a block inside a document (its anchor, `#^a1b2c3d4` or `#Heading`) is
      // one link whether the file shows it relatively or the space holds `block://` / `date://`.
      .replace(/\]\((?:<[^<>\n]*\.md(?:#[^<>\n]*)?>|[^\s()<>]*\.md(?:#[^\s()<>]*)?|block:\/\/[^\s()]*|date:\/\/[^\s()]*)\)/g, '](→)')
      // The marker a file puts at the end of a block other files link to (` ^a1b2c3d4`) is no text.
      .replace(/[ \t]\^[A-Za-z0-9-]+(?=(?:<\/caption>)?(?:<\/callout>)?[ \t]*$)/, '')
      .replace(/<\/?highlight[^>]*>/g, '')
      .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+\[[ xX]\]\s+|[-*+]\s+|\d+[.)]\s+|>\s*)+/, '')
      // A task's dates are fields, not text (O2 checks them): the signifiers at the end of a line are dropped.
      .replace(/(?:\s+(?:⏳|📅)\s+\d{4}-\d{2}-\d{2})+\s*$/u, '')
      .replace(/[*_=~`\\]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const MARKUP_ONLY = /^(?:-{3,}|`{3,}.*|~{3,}.*|<\/?[a-zA-Z][^>]*>)$/;
/** A whiteboard's link to its scene file: named after the document's file, so it follows a rename (not a text anyone wrote). */
const SCENE_LINK = /^!\[[^\]]*\]\(<?[^)]*\.excalidraw>?\)$/;
/** A link to an asset in a document's .assets folder: named after the document's file too. */
const ASSET_LINK = /^!?\[[^\]]*\]\(<?[^)]*\.assets\/[^)]*>?\)$/;

/** The lines of a document file's body (front matter left out) worth tracking, normalised. */
export function textLines(fileText: string): string[] {
  let body = fileText;
  const fm = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(body);
  if (fm) body = body.slice(fm[0].length);
  const out: string[] = [];
  for (const raw of body.split('\n')) {
    const t = raw.trim();
    if (t === '' || MARKUP_ONLY.test(t) || SCENE_LINK.test(t) || ASSET_LINK.test(t)) continue;
    if (t.startsWith('|')) {
      // A table row: each cell is a text of its own (a cell edited on the other side changes the row, not the cell).
      for (const cell of t.replace(/^\||\|$/g, '').split(/(?<!\\)\|/)) {
        const n = normalizeLine(cell);
        if (n.length >= 3 && !/^:?-{3,}:?$/.test(n)) out.push(n);
      }
      continue;
    }
    const n = normalizeLine(t);
    if (n.length >= 3) out.push(n);
  }
  return out;
}

/** Lines of a block's markdown (a paragraph may span lines), normalised. */
export function markdownLines(markdown: string): string[] {
  return textLines(markdown);
}

export interface Entry {
  line: string;
  origin: string;
  /** For a write made through the API: when it was sent and answered (ms since the epoch). */
  window?: { from: number; to: number };
}

export class TextLedger {
  private readonly live = new Map<string, Entry>();
  private readonly retired = new Set<string>();

  record(lines: readonly string[], origin: string, window?: Entry['window']): void {
    for (const line of lines) {
      this.retired.delete(line);
      if (!this.live.has(line)) this.live.set(line, { line, origin, ...(window ? { window } : {}) });
    }
  }

  /** The side that removed these lines could see them: their loss is the user's choice. */
  retire(lines: readonly string[]): void {
    for (const line of lines) {
      if (this.live.delete(line)) this.retired.add(line);
    }
  }

  /** A step replaced `before` by `after` on one side: new lines are recorded, removed ones retired. */
  change(before: string | null, after: string | null, origin: string): void {
    const b = new Set(before === null ? [] : textLines(before));
    const a = new Set(after === null ? [] : textLines(after));
    this.record(
      [...a].filter((l) => !b.has(l)),
      origin,
    );
    this.retire([...b].filter((l) => !a.has(l)));
  }

  size(): number {
    return this.live.size;
  }

  /** The recorded lines found nowhere in `haystack` (the normalised text of every place a text may be). */
  missing(haystack: string): Entry[] {
    return [...this.live.values()].filter((e) => !haystack.includes(e.line));
  }
}
