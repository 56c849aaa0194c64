// Chaos operations on media up: a user drops a small PNG into a document's .assets folder and links
// it from the file (local.addImage), or gives such a file new bytes (local.replaceImage). Once
// quiet, every image a document's file links from its .assets folder is an image block of that
// document in the space, holding the file's bytes (checkImages).
import fs from 'node:fs';
import path from 'node:path';
import { isConflictCopy } from '../../src/mirror/index.js';
import type { World } from '../scenarios/world.js';
import type { ChaosOp } from './chaos.js';

/** A link line of an image the chaos added: `![](<Doc.assets/img-7.png>)`. */
const IMAGE_LINE = /^!\[[^\]]*\]\(<?([^()<>\n]*\.assets\/img-\d+\.png)>?\)$/;

/** A small PNG (the signature and a header chunk) whose tail makes it unique in the run. */
const pngOf = (text: string) => Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.from(text)]);

const at = <T>(list: readonly T[], r: number): T => list[Math.min(list.length - 1, Math.floor(r * list.length))]!;

/** The image files the chaos linked from the user's files, with the file that links each. */
function linkedImages(w: World, files: readonly string[]): Array<{ doc: string; file: string }> {
  return files.flatMap((doc) =>
    // By block (lines between blank lines), as the sync cuts a file: an image line with text on the
    // next line (a fix that appended a word) is a paragraph with an inline image, not an image block.
    (w.readOrNull(doc) ?? '').split(/\n[ \t]*\n/).flatMap((block) => {
      const m = IMAGE_LINE.exec(block.trim());
      const dir = path.posix.dirname(doc);
      return m ? [{ doc, file: dir === '.' ? m[1]! : `${dir}/${m[1]!}` }] : [];
    }),
  );
}

/** `save`: writes the file the way the op's editor does and records the change. */
export function imageOp(w: World, op: ChaosOp, files: readonly string[], save: (rel: string, before: string, after: string) => void): string {
  const [r0, r1] = op.r;
  if (op.kind === 'local.replaceImage') {
    const there = linkedImages(w, files).filter((i) => fs.existsSync(w.file(i.file)));
    if (there.length === 0) return 'skipped: no image linked';
    const { file } = at(there, r0);
    fs.writeFileSync(w.file(file), pngOf(op.text));
    w.note(`local.replaceImage: ${file} has new bytes`);
    return file;
  }
  if (files.length === 0) return 'skipped: no file';
  const rel = at(files, r0);
  const stem = path.posix.basename(rel).replace(/\.md$/, '');
  const dir = path.posix.dirname(rel);
  const name = `${stem}.assets/img-${op.n}.png`;
  const file = dir === '.' ? name : `${dir}/${name}`;
  fs.mkdirSync(path.dirname(w.file(file)), { recursive: true });
  fs.writeFileSync(w.file(file), pngOf(op.text));
  const before = w.read(rel);
  const lines = before.split('\n');
  // After the front matter, at a place of the body the seed picks.
  const bodyStart = before.startsWith('---\n') ? lines.indexOf('---', 1) + 1 : 0;
  const i = bodyStart + Math.floor(r1 * (lines.length - bodyStart));
  const link = `![](<${name}>)`;
  const next = [...lines.slice(0, i), '', link, '', ...lines.slice(i)].join('\n');
  save(rel, before, next);
  return `${rel}: ${link}`;
}

/** Once quiet: each image a document's file links (that the chaos added) is an image block of the document holding the file's bytes. */
export async function checkImages(w: World): Promise<string[]> {
  const failures: string[] = [];
  const snap = await w.snapshot();
  const assets = new Map((snap.assets ?? []).map((a) => [a.id, Buffer.from(a.base64 ?? '', 'base64')]));
  const files = w.mdFiles().filter((p) => !isConflictCopy(p) && !p.startsWith('Trash/'));
  for (const { doc, file } of linkedImages(w, files)) {
    const id = /^---\n(?:[\s\S]*?\n)?id: (.+)\n/.exec(w.read(doc))?.[1]?.trim();
    const d = (snap.documents ?? []).find((x) => x.id === id);
    if (!d) continue; // not a document of the space (yet): nothing to compare
    const bytes = fs.existsSync(w.file(file)) ? fs.readFileSync(w.file(file)) : null;
    if (bytes === null) {
      failures.push(`${doc} links ${file}, which is not there`);
      continue;
    }
    const images: Array<{ type?: string; url?: string; content?: unknown[] }> = [];
    const walk = (list: readonly unknown[] | undefined) =>
      (list ?? []).forEach((b) => {
        const block = b as { type?: string; url?: string; content?: unknown[] };
        if (block.type === 'image') images.push(block);
        walk(block.content);
      });
    walk(d.content);
    const held = images.filter((b) => b.url?.startsWith('asset:') && assets.get(b.url.slice(6))?.equals(bytes));
    if (held.length !== 1)
      failures.push(`${doc} links ${file} (${bytes.length} bytes): the space's document holds ${held.length} image blocks with those bytes`);
  }
  return failures.map((f) => `images: ${f}`);
}
