// Local versions of a file (.spacesync/versions/): saved before a pull or merge overwrites it,
// pruned by age and count, listed and restored by `spacesync history` / `restore`.
export { pruneVersions } from './pruneVersions.js';
export { restoreVersion, versionsOf } from './restoreVersion.js';
export { renderVersion } from './restoreVersion.js';
