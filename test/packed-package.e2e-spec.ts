/**
 * The packed packages, used as users would: the library and the embedded
 * server package are built and `npm pack`ed (in a staging folder, never the
 * repository's dist/) once per Jest run and shared by the packed-package specs
 * (test/packed-package.fixture.ts), each of which installs both tarballs into a
 * consumer app outside the repository and runs it. Jest runs them in parallel:
 * - this spec: what the two tarballs hold;
 * - packed-package-production: (c) a production install (`npm ci --omit=dev`)
 *   holds the library and its required peers only;
 * - packed-package-esm: (a) NestJS 12 + mongoose 9 as ES modules, compiled by
 *   tsc (NodeNext, checking the shipped .d.ts files too);
 * - packed-package-cjs: (b) NestJS 11 + mongoose 8 as CommonJS, compiled by tsc
 *   with Nest's default CommonJS tsconfig, run by node without require(esm) (as
 *   Node 20.0–20.18 would), and tested with Jest 29 and Jest 30 + ts-jest as
 *   `nest new` sets them up.
 * Installs from the npm cache where it can (the first run downloads (b)'s packages).
 * PACKED_KEEP=1 keeps the consumer apps (their folder is in the test's output).
 */
import { packedPackages, type PackedPackages } from './packed-package.fixture.js';

describe('the packed packages', () => {
  let packed: PackedPackages;

  beforeAll(async () => {
    packed = await packedPackages();
  }, 300_000);

  describe('nestjs-objectid', () => {
    it('should contain only dist/, README, LICENSE and package.json, with both builds', () => {
      const files = packed.library.files;
      const outside = files.filter(
        (f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f),
      );
      expect(outside).toEqual([]);
      expect(files).toEqual(
        expect.arrayContaining([
          'dist/esm/index.js',
          'dist/esm/index.d.ts',
          'dist/cjs/index.js',
          'dist/cjs/index.d.ts',
          'dist/cjs/package.json',
          'dist/esm/sequence/index.js',
          'dist/cjs/serialization/index.js',
          'dist/cjs/swagger/index.d.ts',
          'dist/esm/graphql/index.js',
          'dist/cjs/graphql/index.d.ts',
        ]),
      );
      expect(files.filter((f) => /\.(spec|fixture)\.|\.map$/.test(f))).toEqual([]);
    });

    it('should hold no emulator code and no dependencies', () => {
      expect(packed.library.files.filter((f) => /testing|embedded|wire|mingo/.test(f))).toEqual([]);
      expect(packed.library.manifest.dependencies).toBeUndefined();
    });
  });

  describe('nestjs-objectid-mongo-server', () => {
    it('should contain both builds and depend on bson, mingo, re2js, snowball-stemmers and sorted-btree', () => {
      expect(packed.server.files).toEqual(
        expect.arrayContaining(['dist/esm/index.js', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'LICENSE']),
      );
      expect(Object.keys(packed.server.manifest.dependencies ?? {}).sort()).toEqual([
        'bson',
        'mingo',
        're2js',
        'snowball-stemmers',
        'sorted-btree',
      ]);
    });
  });
});
