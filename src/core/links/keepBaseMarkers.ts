// A block of the service's that differs from base only by the marker the sync puts on blocks other
// files link to (added or removed since base was recorded, while its file was being edited) is no
// change there: the merge takes base's form for it, so the marker never makes a conflict. The marker
// follows later, when the file is rewritten to the anchors.
import { markerOf, withoutMarker } from '../../dialect/index.js';
import type { BaseBlock, RemoteBlock } from '../types.js';

/** `remote` with base's markdown for each block that differs from it only by one of its own markers (`owned`); the same array when none does. */
export function keepBaseMarkers(remote: RemoteBlock[], base: readonly BaseBlock[], owned: (blockId: string) => ReadonlySet<string>): RemoteBlock[] {
  const byId = new Map(base.map((b) => [b.id, b]));
  const bare = (id: string, markdown: string) => {
    const marker = markerOf(markdown);
    return marker !== undefined && owned(id).has(marker) ? withoutMarker(markdown, marker) : markdown;
  };
  let changed = false;
  const out = remote.map((r) => {
    const b = byId.get(r.id);
    if (!b || b.markdown === r.markdown || bare(r.id, r.markdown) !== bare(r.id, b.markdown)) return r;
    changed = true;
    return { ...r, markdown: b.markdown };
  });
  return changed ? out : remote;
}
