// `npm start`: runs the sample catalog app (sample-app/main.ts) on the TypeScript
// sources, with the library resolved by its package name (see source-alias.mjs).
import { spawn } from 'node:child_process';

const entry = new URL('../sample-app/main.ts', import.meta.url);
const alias = new URL('./source-alias.mjs', import.meta.url).pathname;
const child = spawn(
  process.execPath,
  ['--import', '@swc-node/register/esm-register', '--import', alias, ...process.argv.slice(2), entry.pathname],
  { stdio: 'inherit' },
);
let forwarded;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    forwarded = signal;
    child.kill(signal);
  });
}
// Nest re-raises the signal after a graceful shutdown; a signal we forwarded
// ourselves is a normal stop (exit 0), any other signal death is a failure.
child.on('exit', (code, signal) => process.exit(code ?? (signal && signal === forwarded ? 0 : 1)));
