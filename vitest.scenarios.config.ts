// `npm run scenarios`: every acceptance scenario against the real server and processes (docs/testing.md).
import { defineConfig } from 'vitest/config';
import { SCENARIOS, shared } from './vitest.config.js';

export default defineConfig({ test: { ...shared, include: [SCENARIOS] } });
