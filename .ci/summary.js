// Prints "N passed, N failed" (and skipped) from vitest's JSON results; exits 1 when unreadable.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`could not read the test results ${file}: ${e.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = results.numPassedTests ?? 0;
// A file that failed to load counts as a failure even though it ran no test.
const failedSuites = (results.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
const failed = (results.numFailedTests ?? 0) + failedSuites;
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
