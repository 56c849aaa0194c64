// A whiteboard drawn again from a scene file that a new line of a document links
// (`![Whiteboard](<Doc.assets/board.excalidraw>)`: a mirror restored into an empty space, a scene
// copied in from elsewhere): `POST /whiteboards` at the line's place, then its elements (`POST
// …/elements`, at most 500 a request; the scene's element ids are kept). The record it returns is
// what the whiteboards step keeps for the board, with no look at the space yet, so the next cycle
// reads the board back and settles the file. A scene that cannot be read creates nothing.
import type { Position } from '../../wire/index.js';
import { readScene } from '../../core/whiteboards/readScene.js';
import type { WhiteboardElement } from '../../core/whiteboards/sceneOfWhiteboard.js';
import { readMirrorFile } from '../../mirror/index.js';
import type { SyncContext } from '../context/index.js';
import type { WhiteboardRecord } from './syncWhiteboards.js';

const MAX_PER_REQUEST = 500;

export type CreatedWhiteboard = { ok: true; blockId: string; record: WhiteboardRecord; requests: number } | { ok: false; message: string };

export async function createWhiteboard(ctx: SyncContext, input: { docId: string; file: string; position: Position }): Promise<CreatedWhiteboard> {
  const scene = await readMirrorFile(ctx.root, input.file);
  if (scene === null || scene.text === null)
    return {
      ok: false,
      message: `"${input.file}" is ${scene === null ? 'not there' : 'not UTF-8 text'}, so no whiteboard was made of it; the line stays in the file, unsent.`,
    };
  const read = readScene(scene.text, new Map());
  if (!read.ok)
    return { ok: false, message: `"${input.file}" cannot be drawn as a whiteboard: ${read.problem}. Fix the file; the line stays in it, unsent, until then.` };
  const { whiteboardBlockId } = await ctx.client.createWhiteboard({ position: input.position }, { priority: 'user' });
  let requests = 1;
  let elements: WhiteboardElement[] = [];
  for (let i = 0; i < read.elements.length; i += MAX_PER_REQUEST) {
    const answer = await ctx.client.addWhiteboardElements(whiteboardBlockId, { elements: read.elements.slice(i, i + MAX_PER_REQUEST) }, { priority: 'user' });
    elements = answer.elements as WhiteboardElement[];
    requests++;
  }
  return { ok: true, blockId: whiteboardBlockId, record: { docId: input.docId, file: input.file, fileHash: scene.hash, remoteAt: null, elements }, requests };
}
