// Lets the sample app import the library and the server package by their
// package names ('nestjs-objectid', 'nestjs-objectid/sequence',
// 'nestjs-objectid-mongo-server', …) exactly as a user would, while running the
// TypeScript sources instead of a possibly stale dist/ build. It also runs the
// CommonJS source files (`*.cts`: src/core/bson.cts, so that `require('bson')`
// there gives mongoose's bson, and the server's deferred loaders) as CommonJS,
// as the build does.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { readFile } from 'node:fs/promises';
      import { createRequire } from 'node:module';
      const root = ${JSON.stringify(new URL('../src/', import.meta.url).href)};
      const server = ${JSON.stringify(new URL('../packages/mongo-server/src/index.ts', import.meta.url).href)};
      const serverRoot = ${JSON.stringify(new URL('../packages/mongo-server/src/', import.meta.url).href)};
      const ours = (url) => url?.startsWith(root) || url?.startsWith(serverRoot);
      const swc = createRequire(${JSON.stringify(import.meta.url)})('@swc/core');
      export async function resolve(specifier, context, next) {
        if (specifier === 'nestjs-objectid') return next(root + 'index.ts', context);
        if (specifier === 'nestjs-objectid-mongo-server') return next(server, context);
        if (specifier.startsWith('nestjs-objectid/')) return next(root + specifier.slice(16) + '/index.ts', context);
        // Sources import a CommonJS file by its built name (./bson.cjs, ../bson/bson-library.cjs); here it is still .cts.
        if ((specifier.startsWith('./') || specifier.startsWith('../')) && specifier.endsWith('.cjs') && ours(context.parentURL)) {
          return { url: new URL(specifier.slice(0, -4) + '.cts', context.parentURL).href, format: 'commonjs', shortCircuit: true };
        }
        return next(specifier, context);
      }
      export async function load(url, context, next) {
        if (!ours(url) || !url.endsWith('.cts')) return next(url, context);
        const source = await readFile(new URL(url), 'utf8');
        const { code } = await swc.transform(source, {
          filename: url,
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          // The annotation lets Node's cjs-module-lexer see every named export of the file.
          module: { type: 'commonjs', exportInteropAnnotation: true },
        });
        return { format: 'commonjs', source: code, shortCircuit: true };
      }
    `),
);
