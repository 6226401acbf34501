// Prints one closing line for the whole `npm test` run: "N passed, N failed, N skipped",
// summed over the vitest projects and Playwright (JSON reports in .test-reports/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.test-reports';
const total = { passed: 0, failed: 0, skipped: 0 };
for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if ('numPassedTests' in report) {
    // vitest (jest-compatible JSON)
    total.passed += report.numPassedTests;
    total.failed += report.numFailedTests;
    total.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (report.stats) {
    // Playwright
    total.passed += report.stats.expected ?? 0;
    total.failed += (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
    total.skipped += report.stats.skipped ?? 0;
  }
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exitCode = total.failed > 0 ? 1 : 0;
