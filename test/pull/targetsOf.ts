// The documents' files as link targets for the checks: id → file (from the files' front matter or a
// journal), so a relative link between documents compares with the space's `block://` link.
import type { LinkTargets } from '../../src/core/links/linkDocuments.js';

export function targetsOf(byId: ReadonlyMap<string, string>): LinkTargets {
  const byPath = new Map([...byId].map(([id, p]) => [p, id]));
  return { pathOf: (id) => byId.get(id), idOf: (p) => byPath.get(p) };
}
