/**
 * (a) of the packed-package specs (see packed-package.e2e-spec.ts): the packed
 * packages in an ES module NestJS 12 + mongoose 9 app, compiled by tsc with
 * NodeNext resolution, checking the shipped .d.ts files too.
 */
import { join } from 'node:path';
import { expectedResults } from './packed-consumer/expected.js';
import {
  consumer,
  consumersFolder,
  installed,
  lastJsonLine,
  packedPackages,
  run,
  type PackedPackages,
} from './packed-package.fixture.js';

describe('the packed packages in an ES module app', () => {
  const folder = consumersFolder('esm');
  let packed: PackedPackages;

  beforeAll(async () => {
    packed = await packedPackages();
  }, 300_000);
  afterAll(() => folder.remove());

  it('(a) should run in an ES module NestJS 12 + mongoose 9 app compiled by tsc', () => {
    const app = join(folder.dir, 'esm');
    const deps = [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/mongoose',
      '@nestjs/platform-express',
      '@nestjs/swagger',
      'class-transformer',
      'class-validator',
      'mongoose',
      'reflect-metadata',
      'rxjs',
    ];
    consumer(
      app,
      {
        type: 'module',
        dependencies: {
          'nestjs-objectid': `file:${packed.library.tarball}`,
          'nestjs-objectid-mongo-server': `file:${packed.server.tarball}`,
          ...Object.fromEntries(deps.map((name) => [name, installed(name)])),
        },
        devDependencies: { typescript: installed('typescript'), '@types/node': installed('@types/node') },
      },
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          // Check the shipped .d.ts files too, not only the consumer's code.
          skipLibCheck: false,
          types: ['node'],
          outDir: 'out',
        },
        files: ['main.ts'],
      },
      ['main.ts', 'app.ts', 'expected.ts'],
    );
    run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
    const results = lastJsonLine(run(process.execPath, ['out/main.js'], app));
    expect(results).toEqual(expectedResults(results.sentId as string));
  }, 300_000);
});
