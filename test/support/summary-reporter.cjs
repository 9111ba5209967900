// Prints one plain closing line after jest's own summary, `tests: N passed, M failed`, which CI
// tooling reads the same way in every language. CommonJS: jest loads reporters with require().
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : '');
    process.stdout.write(`${line}\n`);
  }
}
module.exports = SummaryReporter;
