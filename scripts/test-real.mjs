// `npm run test:real`: the integration suites against a real MongoDB instead of
// the embedded server — MONGO_URL (a replica set, for transactions), or
// MONGO_BACKEND=memory-server (downloads a mongod on first use; needs network).
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
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
  // One suite at a time: on one MongoDB, state is server-wide (there is one `failCommand` fail point,
  // which another suite's `mode: 'off'` would clear or its `failCommands: ['insert']` would fire on a
  // neighbour's inserts), where each suite of `npm test` has an embedded server of its own.
  const result = spawnSync('npm', ['test', '--', '--runInBand', ...TEST_REAL_SUITES, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}
