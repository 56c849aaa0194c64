// The file hash recorded for a document whose file holds changes that were not sent.
/** The file hash recorded when a file holds changes that were not sent: never a real hash, so the file stays pending. */
export const UNSENT = 'unsent';
