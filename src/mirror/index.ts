// The mirror's public surface: the local tree's I/O for the sync shell.
export { assertRoot, rootKind } from './assertRoot.js';
export { acquireLock, lockPath, type Lock } from './acquireLock.js';
export { CONFLICT_COPY_GLOB, freeConflictCopyPath, isConflictCopy } from './conflictCopyName.js';
export { createIgnore, isBuiltinIgnored, type Ignore } from './createIgnore.js';
export { hashText } from './hashText.js';
export { moveFileAtomic } from './moveFileAtomic.js';
export { OwnWrites } from './OwnWrites.js';
export { readableHead, undecodableMessage, type UndecodableFile } from './decodeStrict.js';
export { readMirrorFile, type MirrorFileContent } from './readMirrorFile.js';
export { removeEmptyDirs } from './removeEmptyDirs.js';
export { removeTempFiles } from './removeTempFiles.js';
export { linkOnTheWay, linksHolding, resolveForWrite, resolveInRoot } from './resolveInRoot.js';
export { isDocumentFile, scanMirror } from './scanMirror.js';
export { isTempFileName, tempFileName } from './tempFileName.js';
export { watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from './watchMirror.js';
export { writeFileAtomic, writeFileIfUnchanged } from './writeFileAtomic.js';
