// Jest globalSetup: names this run, so that the packed-package specs, in
// whichever workers they run, share one build and pack of the packages per run
// (test/packed-package.fixture.ts) and never reuse one from an earlier run.
// Set before Jest starts its workers, the variable reaches each of them.
import { randomUUID } from 'node:crypto';

/** Gives this Jest run its id, unless the caller chose one. */
export default function packedPackageRunId() {
  process.env.PACKED_RUN_ID ||= `${process.pid}-${randomUUID().slice(0, 8)}`;
}
