/**
 * The Nest CLI setup (nest-cli.json, tsconfig.sample.json, scripts/nest-sample/):
 * `nest build` builds the sample app, with the library and server sources it
 * imports by package name, into its own output folder, leaves dist/ and
 * packages/mongo-server/dist/ alone, and the built app serves without loading
 * anything from them. It starts the entry file the way `nest start` picks it,
 * with node directly (the CLI would only compile everything a second time and
 * put a shell in between).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const nestBin = join(root, 'node_modules/@nestjs/cli/bin/nest.js');
// No --experimental-vm-modules (Jest's) in the processes this spec starts.
const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' };
delete env.MONGO_URL; // the app then starts its embedded in-memory MongoDB

const nestConfig = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
const tsconfigPath = join(root, nestConfig.compilerOptions.tsConfigPath);
// As the CLI reads it, 'dist' being its default.
const outDir = join(root, ts.readConfigFile(tsconfigPath, ts.sys.readFile).config.compilerOptions?.outDir ?? 'dist');

/** Every file and folder below `dir` with its inode, size and mtime; `absent` if there is no `dir`. */
function snapshot(dir: string): Record<string, string> | 'absent' {
  if (!existsSync(dir)) return 'absent';
  const stamp = (path: string) => {
    const stats = statSync(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  };
  const entries: Record<string, string> = { '.': stamp(dir) };
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) entries[name] = stamp(join(dir, name));
  return entries;
}

const jsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.c?js$/.test(name))
    .map((name) => join(dir, name));

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pid ${child.pid} still runs after ${ms} ms`)), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const protectedDirs = [join(root, 'dist'), join(root, 'packages/mongo-server/dist')];

/**
 * Writes a module for `node --import` that registers a resolve hook failing every
 * import that ends up in dist/ or packages/mongo-server/dist/. Registered before
 * the app's own hooks, it runs after them and sees where each import really goes.
 */
function writeDistGuard(dir: string): string {
  const hooks = join(dir, 'dist-guard-hooks.mjs');
  const forbidden = protectedDirs.map((path) => `${pathToFileURL(path).href}/`);
  writeFileSync(
    hooks,
    `const forbidden = ${JSON.stringify(forbidden)};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (forbidden.some((prefix) => resolved.url.startsWith(prefix))) {
    throw new Error('"' + specifier + '" resolved into a dist/ build: ' + resolved.url);
  }
  return resolved;
}
`,
  );
  const guard = join(dir, 'dist-guard.mjs');
  writeFileSync(
    guard,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return pathToFileURL(guard).href;
}

describe('nest build / nest start (nest-cli.json)', () => {
  let before: ReturnType<typeof snapshot>[];

  beforeAll(() => {
    before = protectedDirs.map(snapshot);
    execFileSync(process.execPath, [nestBin, 'build'], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  }, 130_000);

  it('should build into its own output folder', () => {
    expect(relative(root, outDir)).toBe('dist-sample');
    for (const file of [
      'sample-app/main.js',
      'src/index.js',
      'src/sequence/index.js',
      'src/serialization/index.js',
      'src/swagger/index.js',
      'packages/mongo-server/src/index.js',
    ]) {
      expect(existsSync(join(outDir, file))).toBe(true);
    }
  });

  it('should leave dist/ and packages/mongo-server/dist/ untouched', () => {
    expect(protectedDirs.map(snapshot)).toEqual(before);
  });

  it('should emit src/core/bson.cts as CommonJS bson.cjs', () => {
    const bson = readFileSync(join(outDir, 'src/core/bson.cjs'), 'utf8');
    expect(bson).toContain("require('mongodb/lib/bson')");
    expect(bson).toMatch(/^exports\.ObjectId = /m);
    expect(bson).not.toMatch(/^\s*(import|export) /m);
  });

  it('should not import anything from a dist/ build', () => {
    const fromDist = jsFiles(outDir).filter((file) =>
      /(from|import\(|require\()\s*["'][^"']*\/dist\//.test(readFileSync(file, 'utf8')),
    );
    expect(fromDist).toEqual([]);
  });

  it('should resolve the package names to the built copies in the output folder', () => {
    const names = [
      'nestjs-objectid',
      'nestjs-objectid/sequence',
      'nestjs-objectid/serialization',
      'nestjs-objectid/swagger',
      'nestjs-objectid-mongo-server',
    ];
    const script = `
      import { register } from 'node:module';
      register(${JSON.stringify(new URL(`file://${join(outDir, 'scripts/nest-sample/resolve-hooks.js')}`).href)});
      console.log(JSON.stringify(${JSON.stringify(names)}.map((name) => import.meta.resolve(name))));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 20_000,
    });
    const resolved = (JSON.parse(output) as string[]).map((url) => relative(outDir, new URL(url).pathname));
    expect(resolved).toEqual([
      'src/index.js',
      'src/sequence/index.js',
      'src/serialization/index.js',
      'src/swagger/index.js',
      'packages/mongo-server/src/index.js',
    ]);
  });

  describe('the built app', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'nestjs-objectid-nest-cli-'));
    let app: ChildProcess | undefined;
    let log = '';

    afterAll(async () => {
      if (app && app.exitCode === null && app.signalCode === null) {
        app.kill('SIGKILL');
        await waitForExit(app, 5_000);
      }
      rmSync(tmp, { recursive: true, force: true });
    });

    it('should answer GET /health with 200, load nothing from a dist/ build and stop on SIGINT', async () => {
      // Where `nest start` looks: <outDir>/<sourceRoot>/<entryFile>.js, else <outDir>/<entryFile>.js.
      const entry = [join(outDir, nestConfig.sourceRoot, nestConfig.entryFile), join(outDir, nestConfig.entryFile)]
        .map((file) => `${file}.js`)
        .find((file) => existsSync(file));
      expect(entry).toBe(join(outDir, 'scripts/nest-sample/main.js'));

      const child = spawn(process.execPath, ['--import', writeDistGuard(tmp), '--enable-source-maps', entry!], {
        cwd: root,
        env: { ...env, PORT: '0', PLATFORM: 'express' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      app = child;
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));

      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not ready after 30 s:\n${log}`)), 30_000);
        const check = () => {
          const ready = /Ready in \d+ ms: (http:\/\/\S+) /.exec(log);
          if (ready) {
            clearTimeout(timer);
            resolve(ready[1]);
          }
        };
        child.stdout!.on('data', check);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`exited (${code ?? signal}) before it was ready:\n${log}`));
        });
      });

      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', dependencies: { database: 'up' } });

      // The app closes HTTP, mongoose and the database, then Nest re-raises the signal.
      child.kill('SIGINT');
      await waitForExit(child, 10_000);
      const exit = { code: child.exitCode, signal: child.signalCode };
      expect(exit).toEqual(exit.signal ? { code: null, signal: 'SIGINT' } : { code: 0, signal: null });
    }, 45_000);
  });
});
