// A Jest reporter that prints, after a run, the suites that took longest (wall
// time of each suite in its worker) and their share of the sum: where to look
// first when `npm test` gets slow. SLOWEST_SUITES sets how many (default 10).
// It ends with the run's own wall time and, for a run of the whole suite,
// whether that is within the target (reporter option `targetSeconds`, #14),
// with the machine's load average: a busy machine explains a missed target.
import { availableParallelism, loadavg } from 'node:os';

import { bundleMembers, memberTimes } from './spec-bundle-sequencer.mjs';

/** Prints the slowest test suites and the run's wall time at the end of a run. */
export default class SlowestSuitesReporter {
  /**
   * @param {import('@jest/types').Config.GlobalConfig} globalConfig
   * @param {{ targetSeconds?: number }} [options]
   */
  constructor(globalConfig, options = {}) {
    this.globalConfig = globalConfig;
    this.targetSeconds = options.targetSeconds;
  }

  /** Whether this run is the whole suite: no path pattern, no test name pattern, no changed-files filter. */
  wholeSuite() {
    const { testPathPatterns, testNamePattern, onlyChanged, onlyFailures, findRelatedTests } = this.globalConfig;
    const paths = typeof testPathPatterns?.isSet === 'function' ? testPathPatterns.isSet() : testPathPatterns?.length;
    return !paths && !testNamePattern && !onlyChanged && !onlyFailures && !findRelatedTests;
  }

  onRunComplete(_contexts, results) {
    const count = Number(process.env.SLOWEST_SUITES ?? 10);
    const root = `${process.cwd()}/`;
    // A bundle (scripts/spec-bundle-sequencer.mjs) is named with the count and folder of its specs.
    const bundles = bundleMembers();
    const label = (path) => {
      const members = bundles[path]?.map((member) => member.replace(root, ''));
      if (!members?.length) return path.replace(root, '');
      // The folder all its members are in.
      let folder = members[0].split('/').slice(0, -1);
      for (const member of members) {
        const parts = member.split('/');
        let same = 0;
        while (same < folder.length && folder[same] === parts[same]) same += 1;
        folder = folder.slice(0, same);
      }
      const count = `${members.length} spec${members.length === 1 ? '' : 's'}`;
      return `${path.replace(root, '')} (${count} in ${folder.join('/') || '.'}/)`;
    };
    const suites = results.testResults
      .map((suite) => ({
        path: label(suite.testFilePath),
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
    // Inside bundles: each spec's share of its bundle's time (see memberTimes).
    const members = results.testResults
      .flatMap((suite) =>
        (bundles[suite.testFilePath] ? memberTimes(suite, bundles[suite.testFilePath]) : []).map((member, i) => ({
          ...member,
          first: i === 0,
        })),
      )
      .sort((a, b) => b.ms - a.ms)
      .slice(0, count)
      .map(
        (member) =>
          `  ${(member.ms / 1000).toFixed(1).padStart(6)} s  ${member.path.replace(root, '')}${member.first ? ' (first: with the loading)' : ''}`,
      );
    const inBundles = members.length
      ? `Slowest specs inside the bundles (each from the end of the spec before it; the first of a bundle also loads its modules):\n${members.join('\n')}\n`
      : '';
    const wall = (Date.now() - results.startTime) / 1000;
    let verdict = '';
    if (this.targetSeconds && this.wholeSuite()) {
      verdict =
        wall <= this.targetSeconds
          ? ` — within the ${this.targetSeconds} s target`
          : ` — OVER the ${this.targetSeconds} s target by ${(wall - this.targetSeconds).toFixed(0)} s`;
    }
    process.stderr.write(
      `\nSlowest suites (${(total / 1000).toFixed(0)} s of suite time in all):\n${lines.join('\n')}\n${inBundles}` +
        `Wall time: ${wall.toFixed(1)} s for ${suites.length} suite(s), maxWorkers ${this.globalConfig.maxWorkers}${verdict} ` +
        `(load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)\n`,
    );
  }
}
