// Clickable links into the client app: `{app_scheme}://open?spaceId=<space>&documentId=<doc>`.

export const APP_SCHEME = 'spacesync';

export function clickableLink(spaceId: string, documentId: string, blockId?: string): string {
  const base = `${APP_SCHEME}://open?spaceId=${encodeURIComponent(spaceId)}&documentId=${encodeURIComponent(documentId)}`;
  return blockId === undefined || blockId === documentId ? base : `${base}&blockId=${encodeURIComponent(blockId)}`;
}

export function appUrlTemplate(): string {
  return `${APP_SCHEME}://open?spaceId={spaceId}&documentId={documentId}`;
}
