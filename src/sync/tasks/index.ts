// The task inbox and its logbook as two files under Tasks/ (core/tasks/taskFiles.ts).
export { syncTaskFiles, type TaskFilesResult } from './syncTaskFiles.js';
export { readTaskFilesState, writeTaskFilesState } from './taskFilesState.js';
export { tasksPart, tasksPlan } from './report.js';
export { entryOf } from './syncTaskFiles.js';
