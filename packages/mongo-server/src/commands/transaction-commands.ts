import type { CommandHandler } from './command-context.js';

const commitTransaction: CommandHandler = (cmd, ctx) => {
  ctx.sessions.commit(cmd);
  return { ok: 1 };
};

const abortTransaction: CommandHandler = (cmd, ctx) => {
  ctx.sessions.abort(cmd);
  return { ok: 1 };
};

/** commitTransaction, abortTransaction (both run against `admin`). */
export const TRANSACTION_COMMANDS: Record<string, CommandHandler> = {
  commitTransaction,
  abortTransaction,
};
