/**
 * Helpers of the packed-package specs: build and pack the workspace packages
 * once per Jest run in a folder outside the repository, shared by every
 * packed-package spec whichever worker runs it; write and install consumer
 * apps outside the repository.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;
const consumerSources = join(root, 'test/packed-consumer');
/** Version of a package installed in this repository, so consumers test what we test. */
export const installed = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/** Flags of every consumer install: from npm's cache where it can, no audit, no install scripts. */
export const NPM_INSTALL_FLAGS = [
  '--prefer-offline',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
  '--loglevel=error',
];

function failure(error: unknown, stdout?: string, stderr?: string): Error {
  return new Error(`${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`.slice(0, 20_000), { cause: error });
}

/** Runs a command and returns its stdout; a failure's message carries the command's own output. */
export function run(cmd: string, args: string[], cwd: string, nodeOptions = ''): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: nodeOptions },
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw failure(error, stdout, stderr);
  }
}

/** `run` without blocking the test's process: lets two builds share the machine's cores. */
function runAsync(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => (error ? reject(failure(error, stdout, stderr)) : resolve(stdout)),
    );
  });
}

export interface Packed {
  tarball: string;
  files: string[];
  manifest: { dependencies?: Record<string, string> };
}

/** The library and the embedded server package, packed. */
export interface PackedPackages {
  library: Packed;
  server: Packed;
}

/**
 * Builds package `dir` into a staging folder under `destination` and packs it
 * from there, so that the tests never write the repository's own dist/ folders
 * (other specs, and a developer's build, may be using them meanwhile).
 */
async function pack(dir: string, destination: string): Promise<Packed> {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const stage = join(destination, `stage-${manifest.name}`);
  mkdirSync(stage, { recursive: true });
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(root, dir, file), join(stage, file));
  await runAsync(process.execPath, [join(root, 'scripts/build.mjs'), join(root, dir), join(stage, 'dist')], root);
  const [packed] = JSON.parse(
    await runAsync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], stage),
  );
  return {
    tarball: join(destination, packed.filename),
    files: packed.files.map((f: { path: string }) => f.path),
    manifest,
  };
}

/** What a build of the two packages is made of: their sources, manifests, tsconfigs and the build script. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (!existsSync(path)) return;
    hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const file of ['tsconfig.json', 'scripts/build.mjs', 'node_modules/typescript/package.json']) {
    add(join(root, file));
  }
  for (const dir of ['.', 'packages/mongo-server']) {
    for (const file of ['package.json', 'README.md', 'LICENSE', 'tsconfig.build.json']) add(join(root, dir, file));
    const src = join(root, dir, 'src');
    for (const name of readdirSync(src, { recursive: true, encoding: 'utf8' }).sort()) {
      if (/\.(c|m)?ts$/.test(name)) add(join(src, name));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** Resolves once `done()` holds, re-checking whenever an entry of `dir` changes: no polling interval. */
function waitInFolder<T>(dir: string, done: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir);
    const finish = (error?: Error, value?: T) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve(value!);
    };
    const check = () => {
      try {
        const value = done();
        if (value !== undefined) finish(undefined, value);
      } catch (error) {
        finish(error as Error);
      }
    };
    const timer = setTimeout(() => finish(new Error(`${what}: not within ${timeoutMs} ms (folder ${dir})`)), timeoutMs);
    watcher.on('change', check);
    watcher.on('error', (error) => finish(error));
    check(); // it may have happened before the watch began
  });
}

const PACK_TIMEOUT_MS = 240_000;

/**
 * The library and the embedded server, built and packed once per Jest run
 * (PACKED_RUN_ID, set by test/packed-package.global-setup.mjs) and per state
 * of their sources, in a folder of the temporary directory. The first spec to
 * get here creates that folder (mkdir is atomic: one creator) and builds; the
 * others wait until it writes `packed.json`, or `failed.txt` with the build's
 * error. A changed source gives a new folder, so a stale pack is never used.
 */
export async function packedPackages(): Promise<PackedPackages> {
  const runId = process.env.PACKED_RUN_ID ?? `${process.pid}`;
  const shared = join(tmpdir(), `nestjs-objectid-pack-${sourcesHash()}-${runId}`);
  const result = join(shared, 'packed.json');
  const failed = join(shared, 'failed.txt');
  let builder = true;
  try {
    mkdirSync(shared);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    builder = false;
  }
  if (!builder) {
    return waitInFolder(
      shared,
      () => {
        if (existsSync(failed)) throw new Error(`the shared build failed:\n${readFileSync(failed, 'utf8')}`);
        return existsSync(result) ? (JSON.parse(readFileSync(result, 'utf8')) as PackedPackages) : undefined;
      },
      PACK_TIMEOUT_MS,
      'the shared build and pack',
    );
  }
  try {
    const [library, server] = await Promise.all([pack('.', shared), pack('packages/mongo-server', shared)]);
    const packed: PackedPackages = { library, server };
    // Written whole, then renamed: a waiting spec never reads half a file.
    writeFileSync(`${result}.tmp`, JSON.stringify(packed));
    renameSync(`${result}.tmp`, result);
    return packed;
  } catch (error) {
    writeFileSync(failed, String((error as Error).message));
    throw error;
  }
}

/**
 * A folder for one spec's consumer apps, removed by `remove()` unless
 * PACKED_KEEP=1 asks to keep it for a look after a failure.
 */
export function consumersFolder(name: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `nestjs-objectid-packed-${name}-`));
  if (process.env.PACKED_KEEP) console.log(`packed consumers in ${dir}`);
  return {
    dir,
    remove: () => {
      if (!process.env.PACKED_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function lastJsonLine(output: string): Record<string, unknown> {
  return JSON.parse(output.trim().split('\n').pop()!);
}

/**
 * Writes a consumer app into `dir` and installs it; with `lockOnly`, only
 * resolves its package-lock.json (what `npm ci` then installs from).
 */
export function consumer(
  dir: string,
  packageJson: Record<string, unknown>,
  tsconfig: Record<string, unknown>,
  sources: string[],
  sourceDir = '.',
  { lockOnly = false } = {},
) {
  mkdirSync(join(dir, sourceDir), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, ...packageJson }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const file of sources) copyFileSync(join(consumerSources, file), join(dir, sourceDir, file));
  run('npm', ['install', ...NPM_INSTALL_FLAGS, ...(lockOnly ? ['--package-lock-only'] : [])], dir);
}
