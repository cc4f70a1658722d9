/**
 * (c) of the packed-package specs (see packed-package.e2e-spec.ts): a
 * production install of the packed library (`npm ci --omit=dev`) holds the
 * library and its required peers only, and both of its builds load.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  consumer,
  consumersFolder,
  installed,
  NPM_INSTALL_FLAGS,
  packedPackages,
  run,
  type PackedPackages,
} from './packed-package.fixture.js';

/** Names of every package under `nodeModules`, nested ones included. */
function installedPackages(nodeModules: string, names = new Set<string>()): Set<string> {
  if (!existsSync(nodeModules)) return names;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of dirs) {
      names.add(name);
      installedPackages(join(nodeModules, name, 'node_modules'), names);
    }
  }
  return names;
}

describe('the packed library in a production install', () => {
  const folder = consumersFolder('production');
  let packed: PackedPackages;

  beforeAll(async () => {
    packed = await packedPackages();
  }, 300_000);
  afterAll(() => folder.remove());

  it('(c) should install, with npm ci --omit=dev, the library and its required peers only', () => {
    const app = join(folder.dir, 'production');
    const peers = ['@nestjs/common', 'class-transformer', 'class-validator', 'reflect-metadata', 'rxjs', 'bson'];
    consumer(
      app,
      {
        dependencies: {
          'nestjs-objectid': `file:${packed.library.tarball}`,
          ...Object.fromEntries(peers.map((name) => [name, installed(name)])),
        },
        // The test server is a dev dependency: its own dependencies must stay out of a production install.
        devDependencies: { 'nestjs-objectid-mongo-server': `file:${packed.server.tarball}` },
      },
      {},
      [],
      '.',
      // `npm ci` below installs from the lock file: a full install first would only be thrown away.
      { lockOnly: true },
    );
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    expect(
      ['mingo', 're2js', 'snowball-stemmers', 'sorted-btree', 'nestjs-objectid-mongo-server'].map(
        (name) => lock.packages[`node_modules/${name}`]?.dev,
      ),
    ).toEqual([true, true, true, true, true]);
    run('npm', ['ci', '--omit=dev', ...NPM_INSTALL_FLAGS], app);
    const names = installedPackages(join(app, 'node_modules'));
    expect(peers.filter((name) => !names.has(name))).toEqual([]);
    expect(names.has('nestjs-objectid')).toBe(true);
    const unwanted = [
      'nestjs-objectid-mongo-server',
      'mingo',
      're2js',
      'snowball-stemmers',
      'sorted-btree',
      'mongodb',
      'mongoose',
      '@nestjs/core',
      'graphql',
    ];
    expect(unwanted.filter((name) => names.has(name))).toEqual([]);
    // What is installed is enough: both builds load and the pipe turns hex into an ObjectId.
    const check = `const { ParseObjectIdPipe } = LIB; const id = new ParseObjectIdPipe().transform('507f1f77bcf86cd799439011', { type: 'param' }); console.log(id.constructor.name + ' ' + id.toHexString());`;
    const expected = 'ObjectId 507f1f77bcf86cd799439011\n';
    const cjs = `require('reflect-metadata'); ${check.replace('LIB', "require('nestjs-objectid')")}`;
    // (NestJS 12 is ESM-only: its CommonJS users need require(esm); (b) covers Node without it on NestJS 11.)
    expect(run(process.execPath, ['-e', cjs], app)).toBe(expected);
    const esm = `import 'reflect-metadata'; import * as lib from 'nestjs-objectid'; ${check.replace('LIB', 'lib')}`;
    expect(run(process.execPath, ['--input-type=module', '-e', esm], app)).toBe(expected);
  }, 300_000);
});
