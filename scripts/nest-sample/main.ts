// Entry point of the built sample app: `nest start` runs this file, compiled to
// dist-sample/scripts/nest-sample/main.js (nest-cli.json's "entryFile" is
// relative to its "sourceRoot", sample-app/). It registers the resolution hooks
// that point the package names at dist-sample/ (see resolve-hooks.ts and
// tsconfig.sample.json), then runs the sample app's own main.ts, as built.
import { register } from 'node:module';

register('./resolve-hooks.js', import.meta.url);
await import('../../sample-app/main.js');
