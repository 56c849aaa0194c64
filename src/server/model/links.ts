// Clickable links into the client app: `{app_scheme}://open?spaceId=<space>&documentId=<doc>`.
// The scheme is the one the service's own clients and the desktop app expect (docs/server.md,
// "Where the server differs from the live service": this value is kept, not ours).

export const APP_SCHEME = 'craftdocs';

export function clickableLink(spaceId: string, documentId: string, blockId?: string): string {
  const base = `${APP_SCHEME}://open?spaceId=${encodeURIComponent(spaceId)}&documentId=${encodeURIComponent(documentId)}`;
  return blockId === undefined || blockId === documentId ? base : `${base}&blockId=${encodeURIComponent(blockId)}`;
}

/** `urlTemplates.app`: the space filled in, one `{blockId}` placeholder (a document's id is its root block's). */
export function appUrlTemplate(spaceId: string): string {
  return `${APP_SCHEME}://open?spaceId=${encodeURIComponent(spaceId)}&blockId={blockId}`;
}
