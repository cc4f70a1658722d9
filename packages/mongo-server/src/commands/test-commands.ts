import type { CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';

/**
 * `configureFailPoint`, which mongod only offers with `enableTestCommands=1`;
 * the embedded server is a test server, so it is always on. The
 * `failCommand` and `onPrimaryTransactionalWrite` fail points exist here.
 */
const configureFailPoint: CommandHandler = (cmd, ctx) => {
  if (ctx.db !== 'admin') {
    throw new CommandError('Unauthorized', 'configureFailPoint may only be run against the admin database.');
  }
  const name: unknown = cmd.configureFailPoint;
  if (name === 'failCommand') return ctx.failPoint.configure(cmd);
  if (name === 'onPrimaryTransactionalWrite') return ctx.transactionalWriteFailPoint.configure(cmd);
  throw new CommandError(
    'BadValue',
    `Cannot find fail point ${String(name)}: the embedded test server implements only 'failCommand' and 'onPrimaryTransactionalWrite'; use a real MongoDB (MONGO_URL) for others`,
  );
};

/** Test-only commands (`configureFailPoint`). */
export const TEST_COMMANDS: Record<string, CommandHandler> = {
  configureFailPoint,
};
