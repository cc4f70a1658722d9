// `npm start`: runs the sample catalog app (sample-app/main.ts), compiled from the
// TypeScript sources to plain JavaScript first (compile-sample.mjs: a fraction of
// a second, and nothing when the sources have not changed since the last start),
// with the library imported by its package name as a user would.
//
// This process stands for the app: SIGINT, SIGTERM and SIGHUP are passed on
// (the app shuts down gracefully on each), it ends as the app ends (the same
// exit code, or killed by the same signal, as a shell expects), and it stops
// the app when whoever started it is gone without passing a signal on.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { compileSample } from './compile-sample.mjs';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** How often to check that the parent is still there. */
const PARENT_CHECK_MS = 250;

let entry;
try {
  entry = await compileSample();
} catch (error) {
  console.error(`Could not compile the app: ${error.message}`);
  process.exit(1);
}
// Arguments after `npm start --` are Node's options for the app (`--inspect`, `--enable-source-maps`, …).
const child = spawn(process.execPath, [...process.argv.slice(2), entry], { stdio: 'inherit' });

function forward(signal) {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
for (const signal of FORWARDED) process.on(signal, forward);

// `npm start` runs this script through `sh -c`. npm passes a SIGTERM on to that
// shell, which dies of it without passing it on: this process would be left
// over (adopted by another parent) with the app still serving. A new parent
// means the one that started us is gone, which is a request to stop.
const parent = process.ppid;
const parentCheck = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(parentCheck);
  forward('SIGTERM');
}, PARENT_CHECK_MS);
parentCheck.unref();

child.on('error', (error) => {
  console.error(`Could not start the app: ${error.message}`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  clearInterval(parentCheck);
  if (signal === null) process.exit(code ?? 1);
  // Nest re-raises the signal after its graceful shutdown: die of the same one.
  for (const forwarded of FORWARDED) process.off(forwarded, forward);
  process.kill(process.pid, signal);
  // Should the signal not end this process (one Node itself handles), end it the way a shell reports it.
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 1000);
});
