// Which blocks a mirror file marks with a block id (` ^a1b2c3d4`) when another file links to them:
// text blocks with text. A code block, a table, media, a page's title or an empty paragraph cannot
// carry one at the end of its line without changing what it is; a link to such a block still names
// it with `#^<short id>`, which opens its file.

export const carriesMarker = (kind: string, type: string, markdown: string): boolean => kind === 'block' && type === 'text' && markdown.trim() !== '';
