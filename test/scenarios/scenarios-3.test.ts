// Every acceptance scenario of scenarios.md, one folder each (space.json, steps.json, expect.json),
// run against the real server and the real spacesync by harness.ts, the oracles O1–O6 after each:
// part 3 of 3 (defineScenarios deals the folders).
import { defineScenarios } from './defineScenarios.js';

defineScenarios(2, 3);
