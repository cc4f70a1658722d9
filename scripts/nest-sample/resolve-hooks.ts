// Module resolution hooks of the built sample app (`nest build`, `nest start`):
// the package names the sample app imports, exactly as a user would, resolve to
// the copies of the library and server sources compiled next to it in
// dist-sample/, never to dist/ or packages/mongo-server/dist/ (which may be
// stale or not built at all). scripts/source-alias.mjs does the same for
// `npm start`, on the TypeScript sources. See tsconfig.sample.json for why.
import type { ResolveHook } from 'node:module';

/** dist-sample/ (this file is compiled to dist-sample/scripts/nest-sample/). */
const output = new URL('../../', import.meta.url).href;

export const resolve: ResolveHook = (specifier, context, next) => {
  if (specifier === 'nestjs-objectid') return next(`${output}src/index.js`, context);
  if (specifier.startsWith('nestjs-objectid/')) {
    return next(`${output}src/${specifier.slice('nestjs-objectid/'.length)}/index.js`, context);
  }
  if (specifier === 'nestjs-objectid-mongo-server') {
    return next(`${output}packages/mongo-server/src/index.js`, context);
  }
  return next(specifier, context);
};
