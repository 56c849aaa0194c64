// The mirror's public surface: the local tree's I/O for the sync shell.
export { assertRoot, assertRootSync, rootKind } from './assertRoot.js';
export { acquireLock, lockPath, type AcquireLockOptions, type Lock, type LockInfo } from './acquireLock.js';
export { CONFLICT_COPY_GLOB, conflictCopyName, freeConflictCopyPath, isConflictCopy } from './conflictCopyName.js';
export { createIgnore, isBuiltinIgnored, type Ignore } from './createIgnore.js';
export { globToRegExp } from './globToRegExp.js';
export { hashText } from './hashText.js';
export { moveFileAtomic, type MoveFileOptions, type MoveResult } from './moveFileAtomic.js';
export { OwnWrites, type OwnWritesOptions } from './OwnWrites.js';
export { decodeStrict, readableHead, undecodableMessage, type UndecodableFile } from './decodeStrict.js';
export { readMirrorFile, type MirrorFileContent } from './readMirrorFile.js';
export { removeEmptyDirs } from './removeEmptyDirs.js';
export { removeTempFiles } from './removeTempFiles.js';
export { linkOnTheWay, linksHolding, relativeToRoot, resolveForWrite, resolveInRoot, symlinkError } from './resolveInRoot.js';
export { isDocumentFile, scanMirror, type MirrorFile, type MirrorScan } from './scanMirror.js';
export { isTempFileName, tempFileName } from './tempFileName.js';
export { watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from './watchMirror.js';
export { writeFileAtomic, writeFileIfUnchanged, type WriteFileOptions } from './writeFileAtomic.js';
