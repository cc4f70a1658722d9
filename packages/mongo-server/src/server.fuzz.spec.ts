/**
 * Fuzzes the embedded server over the wire (seeded; FUZZ_RUNS runs per
 * property, 300 by default, `npm run fuzz` sets 20000; FUZZ_SEED replays):
 * every command the router knows with random BSON arguments (operators of
 * every list, all BSON types, deep nesting, big strings, prototype keys),
 * in short sequences on one connection, and byte-level mutations of such
 * frames. Each request must be answered with a MongoDB reply (ok 0 or 1,
 * no InternalError or JavaScript message) or its connection closed within
 * 5 s, and a ping on a new connection must still be answered afterwards.
 * The server runs in a child process so that a hang or a crash is reported
 * with its counterexample (see fuzz/fuzz-server.fixture.ts).
 */
import fc from 'fast-check';

import { encodeRequest, fuzzRequest, mutate, mutations } from './fuzz/fuzz-frames.fixture.js';
import { FUZZ, FuzzServer } from './fuzz/fuzz-server.fixture.js';

/** A property's Jest timeout: generous per run (a failure restarts the server while shrinking). */
const PROPERTY_TIMEOUT_MS = 60_000 + FUZZ.numRuns * 100;

let server: FuzzServer;

beforeAll(async () => {
  server = await FuzzServer.start();
}, 60_000);

afterAll(() => server?.stop());

describe('fuzz: embedded server over the wire (seeded)', () => {
  it(
    'should answer every command of the router with random arguments, or close that connection, in time',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fuzzRequest, { minLength: 1, maxLength: 4 }), (requests) =>
          server.runSequence(requests),
        ),
        FUZZ,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'should answer or close the connection for a mutated frame, in time, and keep serving others',
    async () => {
      await fc.assert(
        fc.asyncProperty(fuzzRequest, mutations, async (request, changes) => {
          let frame: Buffer;
          try {
            frame = encodeRequest(request, 42);
          } catch {
            return; // not encodable: nothing to mutate
          }
          const failPoint = Object.keys(request.body)[0] === 'configureFailPoint';
          await server.runBytes(mutate(frame, changes), failPoint);
        }),
        FUZZ,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
