/**
 * The packed package, used as a user would: `npm pack`, install the tarball
 * into a consumer app outside the repository, compile it with tsc against the
 * shipped .d.ts files and run it. Needs `npm run build` first (CI does it);
 * installs from the npm cache where it can.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const installed = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });

describe('the packed package', () => {
  let dir: string;
  let tarball: string;
  let packedFiles: string[];

  beforeAll(() => {
    if (!existsSync(join(root, 'dist/index.js'))) {
      throw new Error('dist/ is missing: run `npm run build` before this spec (CI does)');
    }
    dir = mkdtempSync(join(tmpdir(), 'nestjs-objectid-consumer-'));
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], root));
    tarball = join(dir, packed.filename);
    packedFiles = packed.files.map((f: { path: string }) => f.path);
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('should contain only dist/, README, LICENSE and package.json', () => {
    const outside = packedFiles.filter(
      (f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f),
    );
    expect(outside).toEqual([]);
    expect(packedFiles).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'README.md', 'LICENSE']),
    );
    expect(packedFiles.filter((f) => /\.(spec|fixture)\.(js|d\.ts)$/.test(f))).toEqual([]);
  });

  it('should install, compile with tsc and run in a consumer app', () => {
    const peers = [
      '@nestjs/common',
      '@nestjs/core',
      '@nestjs/platform-express',
      'mongoose',
      'class-validator',
      'class-transformer',
      'reflect-metadata',
      'rxjs',
    ];
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: {
          'nestjs-objectid': `file:${tarball}`,
          ...Object.fromEntries(peers.map((name) => [name, installed(name)])),
          '@nestjs/mongoose': installed('@nestjs/mongoose'),
        },
        devDependencies: { typescript: installed('typescript'), '@types/node': installed('@types/node') },
      }),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
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
      }),
    );
    copyFileSync(join(root, 'test/packed-consumer/main.ts'), join(dir, 'main.ts'));
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
    expect(readFileSync(join(dir, 'node_modules/nestjs-objectid/package.json'), 'utf8')).toContain(
      `"version": "${manifest.version}"`,
    );
    run(join(dir, 'node_modules/.bin/tsc'), ['-p', '.'], dir);
    const output = JSON.parse(run(process.execPath, ['out/main.js'], dir).trim().split('\n').pop()!);
    const id = output.sentId;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(output).toEqual({
      storedId: true,
      sentId: id,
      param: { status: 200, body: { _id: id, price: '9.99', isObjectId: true } },
      badParam: {
        status: 422,
        body: {
          statusCode: 422,
          message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
          error: 'Unprocessable Entity',
        },
      },
      body: { status: 201, body: { customerId: id, isObjectId: true, number: 'ORD-0001' } },
      secondBody: { status: 201, body: { customerId: id, isObjectId: true, number: 'ORD-0002' } },
      badBody: {
        status: 400,
        body: { statusCode: 400, message: ['customerId must be a 24-character hex ObjectId'], error: 'Bad Request' },
      },
    });
  }, 240_000);
});
