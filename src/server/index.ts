// The Space API server: start one (tests, the demo, `spacesync server`), its fixture format,
// and the generator of large spaces for benchmarks.
export { startServer, readFixtureFile, type StartServerOptions, type RunningServer } from './startServer.js';
export type { Clock } from './clock.js';
export type { FaultSpec, FaultKind } from './faults.js';
export type { LoggedRequest } from './requestLog.js';
export type {
  SpaceFixture,
  FixtureFolder,
  FixtureDocument,
  FixtureBlock,
  FixtureComment,
  FixtureCollection,
  FixtureWhiteboard,
  FixtureReminder,
  FixtureAsset,
} from './fixture/types.js';
export { generateSpace, type GenerateSpaceOptions } from './fixture/generateSpace.js';
