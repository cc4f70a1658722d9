import type { CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';

/**
 * `configureFailPoint`, which mongod only offers with `enableTestCommands=1`;
 * the embedded server is a test server, so it is always on. The fail points
 * the drivers' spec suites use exist here (`FailPoints`).
 */
const configureFailPoint: CommandHandler = (cmd, ctx) => {
  if (ctx.db !== 'admin') {
    throw new CommandError('Unauthorized', 'configureFailPoint may only be run against the admin database.');
  }
  return ctx.failPoints.configure(cmd);
};

/** Test-only commands (`configureFailPoint`). */
export const TEST_COMMANDS: Record<string, CommandHandler> = {
  configureFailPoint,
};
