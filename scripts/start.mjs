// `npm start`: runs the sample catalog app (sample-app/) once it exists.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';

const entry = new URL('../sample-app/main.ts', import.meta.url);
if (!existsSync(entry)) {
  console.log('The sample catalog app (sample-app/) is not part of this version yet.');
  console.log('When it is, `npm start` runs it on port 3000 on an embedded in-memory MongoDB (or MONGO_URL).');
  console.log('Meanwhile: `npm test` runs the library tests, `npm run bench` the benchmarks.');
  process.exit(0);
}
const alias = new URL('./source-alias.mjs', import.meta.url).pathname;
const child = spawn(
  process.execPath,
  ['--import', '@swc-node/register/esm-register', '--import', alias, ...process.argv.slice(2), entry.pathname],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
