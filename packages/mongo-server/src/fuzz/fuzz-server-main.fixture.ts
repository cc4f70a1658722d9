/**
 * The embedded server in a process of its own, for the fuzzer: a hang or a
 * crash there is observed and reported by the test instead of freezing or
 * killing it. Prints `READY <port>`; exits when its parent closes stdin.
 */
import { EmbeddedMongoServer } from '../embedded-mongo-server.js';

// A write outside transactions waits for a transaction's lock as in MongoDB; a fuzzed
// transaction left open must end well within the fuzzer's 5 s per request.
const server = await EmbeddedMongoServer.start({ transactionLifetimeLimitSeconds: 2 });
process.stdin.on('end', () => process.exit(0));

// A command that writes through a prototype (`$inc` of '__proto__.x' did) changes no reply: the
// process checks its built-in prototypes instead, and ends naming what it found (the fuzzer reports it).
const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
const baseline = new Map(Object.entries(PROTOTYPES).map(([name, proto]) => [name, Reflect.ownKeys(proto).length]));
setInterval(() => {
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    if (Reflect.ownKeys(proto).length === baseline.get(name)) continue;
    process.stderr.write(`${name}.prototype was written: ${Reflect.ownKeys(proto).map(String).join(', ')}\n`);
    process.exit(70);
  }
}, 10).unref();
process.stdin.resume();
process.stdout.write(`READY ${server.port}\n`);
