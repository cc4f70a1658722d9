import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';

const root = new URL('../../', import.meta.url).pathname;
let compiled: Promise<string> | undefined;

/**
 * The path of the app's compiled main.js (scripts/compile-sample.mjs): looked up
 * once for every process a spec starts, compiled by the first spec of a run (or
 * by `npm start`) and reused while the sources do not change. It runs in a
 * process of its own, so that @swc/core is not loaded into Jest's module registry.
 */
function compiledMain(): Promise<string> {
  compiled ??= promisify(execFile)(process.execPath, ['scripts/compile-sample.mjs'], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
  }).then(({ stdout }) => stdout.trim());
  return compiled;
}

/** A sample catalog running in a process of its own, as `npm start` runs it. */
export interface CatalogProcess {
  readonly url: string;
  /** Everything it logged so far, for a failure's message. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts `sample-app/main.ts` in a child process, compiled to JavaScript as
 * `npm start` runs it (without the wrapper, scripts/start.mjs), and resolves
 * with its URL once it logs that it is ready.
 */
export async function startCatalogProcess(
  env: Record<string, string>,
  readyWithinMs = 60_000,
): Promise<CatalogProcess> {
  const child: ChildProcess = spawn(process.execPath, [await compiledMain()], {
    cwd: root,
    // NODE_OPTIONS of the test runner (--experimental-vm-modules) are not the app's.
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${readyWithinMs} ms:\n${log}`)), readyWithinMs);
    const onData = () => {
      const ready = /Ready in \d+ ms: (http:\/\/\S+?) —/.exec(log);
      if (ready) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(ready[1]);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`exited (${String(code)}) before it was ready:\n${log}`));
    });
  });
  return {
    url,
    output: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}
