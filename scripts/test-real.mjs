// `npm run test:real`: the integration suites against a real MongoDB instead of
// the embedded server — MONGO_URL (a replica set, for transactions), or
// MONGO_BACKEND=memory-server (downloads a mongod on first use; needs network).
import { spawnSync } from 'node:child_process';

if (!process.env.MONGO_URL && process.env.MONGO_BACKEND !== 'memory-server') {
  console.error(
    'test:real needs a real MongoDB: set MONGO_URL=mongodb://host:27017/?replicaSet=rs0 (transactions need a replica set),\n' +
      'or MONGO_BACKEND=memory-server to let mongodb-memory-server download and start one.',
  );
  process.exit(2);
}
const suites = ['src/testing', 'src/sequence', 'test/sequence', 'test/sample-app'];
const result = spawnSync('npm', ['test', '--', ...suites, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
