// Compiles the sample app (sample-app/) with the library's and the server
// package's sources (src/, packages/mongo-server/src/) from TypeScript to
// plain JavaScript, so that `npm start` and the specs that start the app in a
// process of its own run it on plain `node`, with no loader hooks.
//
// Why not `node --import @swc-node/register/esm-register`, as before: its hooks
// pass each of the ~2000 modules the app imports (all but ~250 of them from
// node_modules) through a loader thread and load TypeScript's compiler into it,
// which made each start cost twice the CPU of the same app as JavaScript
// (6.5–8.3 s against 3.3–3.9 s, measured on a busy 2-core machine): swc-node's
// transform cache spares only the compilation itself. Compiling all ~260 files
// with @swc/core takes a fraction of a second.
//
// The output is one folder per content: its name is a hash of every source
// file and of the compiler's version and options. A start whose sources have
// not changed reuses it (every process of a test run, and each `npm start`),
// a change gives a new one, and the folders of earlier contents are removed
// once nothing has used them for PRUNE_AFTER_MS. The folder lies in
// node_modules/.cache/, where the app's imports of its dependencies
// ('@nestjs/core', 'mongoose', …) find the repository's node_modules, and the
// package names it imports ('nestjs-objectid', 'nestjs-objectid/sequence',
// 'nestjs-objectid-mongo-server', …) are rewritten to the compiled sources, as
// scripts/source-alias.mjs maps them for the TypeScript ones.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where the compiled folders live, one per content. */
export const CACHE_DIR = join(ROOT, 'node_modules/.cache/nestjs-objectid-sample');
/** The folders compiled, relative to the repository: the app and the sources it imports by package name. */
const SOURCE_DIRS = ['sample-app', 'src', 'packages/mongo-server/src'];
/** Test-only files, left out as tsconfig.sample.json leaves them out. */
const TEST_ONLY = /\.(spec|fixture)\.ts$/;
/**
 * A compiled folder nothing has started from for this long is removed by the next
 * compilation (an app loads all of its files within seconds of its start; each
 * edit under `npm run start:dev` makes a new folder of a few MB).
 */
const PRUNE_AFTER_MS = 10 * 60 * 1000;
/** Part of the folder's name; @swc/core itself is loaded only to compile (it takes 0.1 s of CPU). */
const SWC_VERSION = createRequire(import.meta.url)('@swc/core/package.json').version;

/**
 * How swc compiles the TypeScript sources, here and in Jest's transform
 * (jest.config.js imports it): legacy decorators with their metadata, which
 * Nest's dependency injection needs.
 */
export const SWC_TYPESCRIPT = {
  parser: { syntax: 'typescript', decorators: true },
  transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
  target: 'es2022',
  keepClassNames: true,
};

/**
 * The compiler options for one file. Source maps are inline, as swc-node
 * wrote them: `npm start -- --enable-source-maps` uses them.
 */
function swcOptions(filename, commonJs) {
  return {
    filename,
    jsc: {
      ...SWC_TYPESCRIPT,
      // The package names, as tsconfig.json's "paths" has them; resolveFully writes `…/index.js`.
      baseUrl: ROOT,
      paths: {
        'nestjs-objectid': ['./src/index.ts'],
        'nestjs-objectid/*': ['./src/*/index.ts'],
        'nestjs-objectid-mongo-server': ['./packages/mongo-server/src/index.ts'],
      },
    },
    // `*.cts` files stay CommonJS (src/core/bson.cts must `require('bson')`), as the build makes them;
    // the annotation lets Node's cjs-module-lexer see each of their named exports.
    module: commonJs
      ? { type: 'commonjs', exportInteropAnnotation: true, resolveFully: true }
      : { type: 'es6', resolveFully: true },
    sourceMaps: 'inline',
  };
}

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && !TEST_ONLY.test(entry.name)) yield path;
  }
}

/** Every source file (absolute path, sorted) with its content. */
async function readSources() {
  const paths = [];
  for (const dir of SOURCE_DIRS) for await (const path of walk(join(ROOT, dir))) paths.push(path);
  paths.sort();
  return Promise.all(paths.map(async (path) => ({ path, content: await readFile(path) })));
}

/** `x.ts` → `x.js`, `x.cts` → `x.cjs`; any other file keeps its name. */
function outputName(path) {
  return relative(ROOT, path)
    .replace(/\.ts$/, '.js')
    .replace(/\.cts$/, '.cjs');
}

async function compileInto(dir, sources) {
  const { transform } = await import('@swc/core');
  await Promise.all(
    sources.map(async ({ path, content }) => {
      const target = join(dir, outputName(path));
      await mkdir(dirname(target), { recursive: true });
      if (!/\.c?ts$/.test(path)) return writeFile(target, content);
      const { code } = await transform(content.toString('utf8'), swcOptions(path, path.endsWith('.cts')));
      await writeFile(target, code);
    }),
  );
  // Its `.js` files are ES modules, as in the repository (whose package.json this folder cannot see).
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
}

/** Removes the compiled folders of other contents that nothing started from for PRUNE_AFTER_MS. */
async function pruneOthers(keep) {
  const now = Date.now();
  for (const name of await readdir(CACHE_DIR)) {
    if (name === keep) continue;
    const path = join(CACHE_DIR, name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > PRUNE_AFTER_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * Compiles the sample app and the sources it imports, unless a folder of the
 * same content is there already, and returns the path of its compiled
 * `sample-app/main.js`. Safe to call from several processes at once: each
 * compiles into a folder of its own and the first to rename it into place wins.
 */
export async function compileSample() {
  const sources = await readSources();
  const hash = createHash('sha256').update(`swc ${SWC_VERSION}\0${JSON.stringify(swcOptions('', false))}\0`);
  for (const { path, content } of sources) hash.update(`${relative(ROOT, path)}\0${content.length}\0`).update(content);
  const name = hash.digest('hex').slice(0, 16);
  const dir = join(CACHE_DIR, name);
  const main = join(dir, 'sample-app/main.js');

  const found = await stat(join(dir, 'package.json')).then(
    () => true,
    () => false,
  );
  if (found) {
    // Marks it as used, so that pruning leaves it alone.
    const now = new Date();
    await utimes(dir, now, now).catch(() => undefined);
    return main;
  }
  const building = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await compileInto(building, sources);
    await rename(building, dir);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    // Another process renamed the same content into place first.
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
  }
  await pruneOthers(name);
  return main;
}

// `node scripts/compile-sample.mjs` prints the path of the compiled main.js
// (test/sample-app/catalog-process.ts starts the app from it).
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await compileSample());
