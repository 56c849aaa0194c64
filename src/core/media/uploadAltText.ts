// An image's alt text on its way up. `POST /upload` takes the bytes and a place only (its `fileName`
// is ignored for images, the contract says), so the service makes the block with its default alt
// text, `![Image](…)`. The alt text the file's line gives is then sent as an edit of the block's
// markdown, the field the contract documents for it (an image's alt text is its markdown's `![…]`),
// so the space shows what the file says and a later pull gives the line back as it is.

/** The alt text the service gives an image made without one. */
const DEFAULT_ALT = 'Image';
const ALT = /^(\s*!\[)([^\]\n]*)(\])/;

/** The alt text `markdown` (the file's line) gives a new block of `type` that its upload cannot carry; undefined when there is none to send. */
export function altTextToSend(markdown: string, type: string): string | undefined {
  // Only an image keeps an alt text: a video's markdown is derived by the service, a file's text is its name (sent with the upload).
  if (type !== 'image') return undefined;
  const alt = ALT.exec(markdown)?.[2];
  return alt === undefined || alt.trim() === '' || alt === DEFAULT_ALT ? undefined : alt;
}

/** The line as the block holds it while its alt text is not sent: the service's default in its place. */
export const withDefaultAlt = (markdown: string): string => markdown.replace(ALT, `$1${DEFAULT_ALT}$3`);
