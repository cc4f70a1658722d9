// Lets the sample app import the library by its package name ('nestjs-objectid',
// 'nestjs-objectid/testing', …) exactly as a user would, while running the
// TypeScript sources instead of a possibly stale dist/ build.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      const root = ${JSON.stringify(new URL('../src/', import.meta.url).href)};
      export async function resolve(specifier, context, next) {
        if (specifier === 'nestjs-objectid') return next(root + 'index.ts', context);
        if (specifier.startsWith('nestjs-objectid/')) return next(root + specifier.slice(16) + '/index.ts', context);
        return next(specifier, context);
      }
    `),
);
