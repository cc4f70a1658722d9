// A bundle of spec files run in one module registry: see scripts/spec-bundle-sequencer.mjs.
import { runBundle } from './run-bundle.js';

await runBundle(import.meta.url);
