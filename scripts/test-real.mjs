// `npm run test:real`: the integration suites against a real MongoDB instead of
// the embedded server — MONGO_URL (a replica set, for transactions), or
// MONGO_BACKEND=memory-server (downloads a mongod on first use; needs network).
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Jest path patterns of the suites that take their MongoDB from
 * `startTestMongo` (directly, through the conformance fixture or through the
 * sample app's test app), i.e. every suite that runs against MONGO_URL.
 * test/test-real.spec.ts checks that each matches a spec and that no such
 * spec is left out.
 */
export const TEST_REAL_SUITES = [
  'packages/mongo-server/src/conformance-',
  'packages/mongo-server/src/start-test-mongo',
  'src/sequence/',
  'src/pagination/',
  'sample-app/orders/',
  'test/sequence',
  'test/sample-app/',
];

/**
 * What in a suite's source marks it as using server-wide state, so that it
 * runs alone: the `failCommand` fail point (one per server: a neighbour's
 * `mode: 'off'` clears it, its `failCommands: ['insert']` fires on a
 * neighbour's inserts), change streams (which see a neighbour's writes) and
 * the server's list of sessions. Each database of the other suites is their
 * own (startTestMongo names one per suite), so they run side by side.
 */
export const SERVER_WIDE =
  /configureFailPoint|supportsFailPoints|\.watch\(|listLocalSessions|setParameter|killAllSessions/;

/** `files` split into those that may run side by side and those that must run alone. */
export function partitionSuites(files, read = (file) => readFileSync(file, 'utf8')) {
  const alone = files.filter((file) => SERVER_WIDE.test(read(file)));
  return { together: files.filter((file) => !alone.includes(file)), alone };
}

// Run as a script, not imported by test/test-real.spec.ts. argv[1] is the path as typed, which a
// symlinked checkout makes differ from the module's own (real) path.
const main = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (main) {
  if (!process.env.MONGO_URL && process.env.MONGO_BACKEND !== 'memory-server') {
    console.error(
      'test:real needs a real MongoDB: set MONGO_URL=mongodb://host:27017/?replicaSet=rs0 (transactions need a replica set),\n' +
        'or MONGO_BACKEND=memory-server to let mongodb-memory-server download and start one.',
    );
    process.exit(2);
  }
  const extra = process.argv.slice(2);
  const listed = spawnSync('npx', ['jest', '--listTests', ...TEST_REAL_SUITES, ...extra], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules --no-warnings=ExperimentalWarning' },
  });
  if (listed.status !== 0) {
    process.stderr.write(listed.stderr);
    process.exit(listed.status ?? 1);
  }
  const { together, alone } = partitionSuites(listed.stdout.split('\n').filter(Boolean));
  // Each suite of `npm test` has an embedded server of its own; here all share one MongoDB, so the
  // suites that use its server-wide state (SERVER_WIDE) run one at a time, after the others.
  const runs = [
    [...together, ...extra],
    ['--runInBand', ...alone, ...extra],
  ];
  let status = 0;
  for (const [i, args] of runs.entries()) {
    if ((i === 0 ? together : alone).length === 0) continue;
    const result = spawnSync('npm', ['test', '--', ...args], { stdio: 'inherit' });
    status ||= result.status ?? 1;
  }
  process.exit(status);
}
