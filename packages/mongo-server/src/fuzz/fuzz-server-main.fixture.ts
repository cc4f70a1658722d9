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
process.stdin.resume();
process.stdout.write(`READY ${server.port}\n`);
