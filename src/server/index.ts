// The Space API server: start one (tests, the demo, `spacesync server`), its fixture format,
// and the generator of large spaces for benchmarks.
export { startServer, readFixtureFile, type StartServerOptions, type RunningServer } from './startServer.js';
export type { FaultSpec } from './faults.js';
export type { LoggedRequest } from './ServerState.js';
export type { SpaceFixture } from './fixture/types.js';
export { generateSpace } from './fixture/generateSpace.js';
