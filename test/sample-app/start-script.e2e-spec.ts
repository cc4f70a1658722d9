/**
 * `npm start` → `sh -c "node scripts/start.mjs"` → the app (sample-app/main.ts):
 * it serves within 15 s on the embedded database and logs what it runs on; one
 * signal to start.mjs, or to npm itself, stops the app gracefully, frees its
 * port and leaves no process behind; start.mjs ends as the app ended, also
 * when the app fails to start. Each start costs seconds of CPU, so each test
 * checks all it can on the one process it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Starting compiles the app's TypeScript: several seconds on a busy machine. */
const READY_MS = 60_000;
const GONE_MS = 15_000;

interface Launched {
  child: ChildProcess;
  output(): string;
  /** How the launched process ended. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * When its stdout and stderr are closed: the processes it started inherit them,
   * so this is when every one of them has exited (or closed them).
   */
  closed: Promise<unknown>;
}

/** Runs `command` in the repository with PORT=0 and the embedded database, collecting what it prints. */
function launch(command: string, args: string[], env: Record<string, string> = {}): Launched {
  // No MONGO_URL (the app starts its embedded database) and none of Jest's NODE_OPTIONS.
  const { MONGO_URL: _mongo, NODE_OPTIONS: _jest, ...inherited } = process.env;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...inherited, NO_COLOR: '1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // (A stream error is left to `gone()`'s look at each pid.)
  const closed = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]).catch(() => undefined);
  return { child, output: () => text, ended, closed };
}

/** The app's process id (from Nest's log prefix) and URL, once it logs "Ready in N ms: URL —". */
function ready(run: Launched): Promise<{ appPid: number; url: string }> {
  const pattern = /\[Nest\] (\d+) .*\[Catalog\] Ready in \d+ ms: (http:\/\/\S+) —/;
  return new Promise((resolve, reject) => {
    const stdout = run.child.stdout!;
    const done = (error?: Error, value?: { appPid: number; url: string }) => {
      clearTimeout(timer);
      stdout.off('data', check);
      run.child.off('exit', exited);
      if (error) reject(error);
      else resolve(value!);
    };
    // Checked on each chunk it prints (this listener runs after the one that collects the output).
    const check = () => {
      const match = pattern.exec(run.output());
      if (match) done(undefined, { appPid: Number(match[1]), url: match[2]! });
    };
    const exited = () => done(new Error(`exited before it was ready:\n${run.output()}`));
    const timer = setTimeout(() => done(new Error(`not ready within ${READY_MS} ms:\n${run.output()}`)), READY_MS);
    stdout.on('data', check);
    run.child.once('exit', exited);
    check();
  });
}

/** The process state letter in /proc (`Z` for a zombie), or undefined once the process is gone. */
function processState(pid: number): string | undefined {
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  try {
    // "pid (comm) S ppid …": comm may hold spaces, so read after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined; // gone between the two looks
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * Waits until none of `pids` runs (a zombie no longer runs), for at most GONE_MS:
 * first for `run`'s output pipes to close (the event of the last of its processes
 * exiting), then looks at each pid, again briefly if one is still on its way out.
 */
async function gone(run: Launched, pids: number[]): Promise<void> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([run.closed, new Promise((resolve) => (timer = setTimeout(resolve, GONE_MS)))]);
  clearTimeout(timer);
  for (;;) {
    const running = pids.filter((pid) => ![undefined, 'Z'].includes(processState(pid)));
    if (running.length === 0) return;
    if (Date.now() - started > GONE_MS) throw new Error(`still running after ${GONE_MS} ms: ${running.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Why GET /health at `url` got no answer (`ECONNREFUSED` once nothing listens there), or undefined if it got one. */
async function unanswered(url: string): Promise<string | undefined> {
  try {
    await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
}

/** Status and JSON body of a request to the app. */
async function call(url: string, path: string, body?: unknown): Promise<[number, unknown]> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return [res.status, await res.json()];
}

describe('npm start and scripts/start.mjs', () => {
  const started: number[] = [];
  afterEach(() => {
    // A failed test must not leave an app serving.
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'should serve on the embedded database (within 15 s), log what it runs on, then stop the app gracefully on %s to start.mjs, free its port and end of the same signal',
    async (signal) => {
      const launched = Date.now();
      const run = launch(process.execPath, ['scripts/start.mjs']);
      started.push(run.child.pid!);
      const { appPid, url } = await ready(run);
      started.push(appPid);
      // The start's time bound is checked on one of the three starts: on a busy machine three
      // starts of seconds of CPU each would make a clock bound flaky, and one proves the point.
      if (signal === 'SIGTERM') expect(Date.now() - launched).toBeLessThan(15_000);
      expect(parentOf(appPid)).toBe(run.child.pid);
      const [first, second] = run
        .output()
        .split('\n')
        .filter((line) => line.includes('[Catalog]'));
      expect(first).toMatch(
        /Database: embedded in-memory MongoDB at mongodb:\/\/127\.0\.0\.1:\d+\/\?directConnection=true — data lives in memory and is lost on exit/,
      );
      expect(second).toContain('HTTP: express on port 0; API docs at');
      expect(await call(url, '/health')).toEqual([200, { status: 'ok', dependencies: { database: 'up' } }]);
      expect(await call(url, '/categories', { name: 'Smoke' })).toEqual([
        201,
        expect.objectContaining({ name: 'Smoke' }),
      ]);

      run.child.kill(signal);
      // Nest re-raises the signal after shutting down; start.mjs dies of it too, as a shell expects.
      expect(await run.ended).toEqual({ code: null, signal });
      await gone(run, [run.child.pid!, appPid]);
      expect(await unanswered(url)).toBe('ECONNREFUSED');
      expect(run.output()).toContain(`${signal}: HTTP server, mongoose connection and database closed`);
    },
    READY_MS + 2 * GONE_MS,
  );

  it(
    'should stop everything on SIGTERM to npm itself, though the shell npm puts in between does not pass it on',
    async () => {
      const run = launch('npm', ['start', '--silent']);
      started.push(run.child.pid!);
      const { appPid, url } = await ready(run);
      started.push(appPid);
      const startScript = parentOf(appPid);
      started.push(startScript);
      expect(startScript).not.toBe(run.child.pid); // npm → sh → node scripts/start.mjs → the app

      expect(await unanswered(url)).toBeUndefined();

      run.child.kill('SIGTERM');
      await run.ended;
      await gone(run, [run.child.pid!, startScript, appPid]);
      expect(await unanswered(url)).toBe('ECONNREFUSED');
      expect(run.output()).toContain('SIGTERM: HTTP server, mongoose connection and database closed');
    },
    READY_MS + 2 * GONE_MS,
  );

  it(
    'should end with the exit code of an app that fails to start',
    async () => {
      const run = launch(process.execPath, ['scripts/start.mjs'], { PORT: 'eighty' });
      started.push(run.child.pid!);
      expect(await run.ended).toEqual({ code: 1, signal: null });
      expect(run.output()).toContain('Could not start: PORT must be a port number (0-65535), got "eighty"');
    },
    READY_MS,
  );

  it(
    'should exit with a hint, in one line and without the password, when MONGO_URL points nowhere',
    async () => {
      const run = launch(process.execPath, ['scripts/start.mjs'], {
        MONGO_URL: 'mongodb://user:secret@127.0.0.1:1/catalog',
      });
      started.push(run.child.pid!);
      expect(await run.ended).toEqual({ code: 1, signal: null });
      expect(run.output()).toContain(
        'Could not start: MongoDB at mongodb://127.0.0.1:1/catalog does not answer (connect ECONNREFUSED 127.0.0.1:1). ' +
          'With MONGO_URL set, check that MongoDB runs there; unset it to use the embedded in-memory server.',
      );
      expect(run.output()).not.toContain('secret');
      expect(run.output()).not.toContain('    at '); // one line, no stack trace
    },
    READY_MS,
  );
});
