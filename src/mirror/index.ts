// The mirror's public surface: the local tree's I/O for the sync shell.
export { assertRoot, rootKind } from './assertRoot.js';
export { acquireLock, lockPath, type Lock } from './acquireLock.js';
export { CONFLICT_COPY_GLOB, freeConflictCopyPath, isConflictCopy } from './conflictCopyName.js';
export { createIgnore, isBuiltinIgnored, type Ignore } from './createIgnore.js';
export { OwnWrites } from './OwnWrites.js';
export { hashText, readableHead, undecodableMessage, readMirrorFile, type UndecodableFile, type MirrorFileContent } from './readMirrorFile.js';
export { removeEmptyDirs } from './removeEmptyDirs.js';
export { linkOnTheWay, linksHolding, resolveForWrite, resolveInRoot } from './resolveInRoot.js';
export { isDocumentFile, scanMirror } from './scanMirror.js';
export { isTempFileName, tempFileName, moveFileAtomic, removeTempFiles, writeFileAtomic, writeFileIfUnchanged } from './atomicWrites.js';
export { watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from './watchMirror.js';
