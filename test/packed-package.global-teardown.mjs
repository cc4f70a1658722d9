// Jest globalTeardown: removes the tarballs this run's packed-package specs
// shared (test/packed-package.fixture.ts), unless PACKED_KEEP asks to keep them.
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Removes this run's shared pack folders from the temporary directory. */
export default function removePackedPackages() {
  const runId = process.env.PACKED_RUN_ID;
  if (!runId || process.env.PACKED_KEEP) return;
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith('nestjs-objectid-pack-') && name.endsWith(`-${runId}`)) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}
