// A Jest reporter that prints, after a run, the suites that took longest (wall
// time of each suite in its worker) and their share of the sum: where to look
// first when `npm test` gets slow. SLOWEST_SUITES sets how many (default 10).

/** Prints the slowest test suites at the end of a run. */
export default class SlowestSuitesReporter {
  onRunComplete(_contexts, results) {
    const count = Number(process.env.SLOWEST_SUITES ?? 10);
    const root = `${process.cwd()}/`;
    const suites = results.testResults
      .map((suite) => ({
        path: suite.testFilePath.replace(root, ''),
        ms: suite.perfStats.end - suite.perfStats.start,
      }))
      .sort((a, b) => b.ms - a.ms);
    const total = suites.reduce((sum, suite) => sum + suite.ms, 0);
    if (count <= 0 || total <= 0) return;
    const lines = suites
      .slice(0, count)
      .map(
        (suite) =>
          `  ${(suite.ms / 1000).toFixed(1).padStart(6)} s  ${((100 * suite.ms) / total).toFixed(0).padStart(3)}%  ${suite.path}`,
      );
    process.stderr.write(
      `\nSlowest suites (${(total / 1000).toFixed(0)} s of suite time in all):\n${lines.join('\n')}\n`,
    );
  }
}
