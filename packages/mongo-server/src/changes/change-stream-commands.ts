import type { Document } from 'bson';

import {
  aggregateCursor,
  cursorIdArray,
  optionalCount,
  optionalMaxTimeMS,
  wrongType,
} from '../commands/command-arguments.js';
import type { CommandContext } from '../commands/command-context.js';
import { CommandError } from '../commands/command-error.js';
import type { CommandLimits, CommandOutcome } from '../commands/command-router.js';
import { typeAlias } from '../query/element-operators.js';
import { OperationBudget } from '../query/operation-budget.js';
import { ChangeStreamCursors } from './change-stream-cursors.js';
import { parseChangeStream } from './change-stream.js';

function hasChangeStream(pipeline: unknown): pipeline is Document[] {
  return (
    Array.isArray(pipeline) &&
    pipeline.some((stage) => typeAlias(stage) === 'object' && Object.hasOwn(stage as Document, '$changeStream'))
  );
}

/**
 * Runs an `aggregate` whose pipeline has a `$changeStream` stage: opens a
 * change stream cursor (on a collection, a database with `aggregate: 1`, or
 * the deployment with `allChangesForCluster`). Undefined for any other command.
 */
export function runChangeStream(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (name !== 'aggregate' || !hasChangeStream(cmd.pipeline)) return undefined;
  if (ctx.transaction) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      'Operation not permitted in transaction :: caused by :: $changeStream cannot run in a multi-document transaction',
    );
  }
  const cursor = aggregateCursor(cmd);
  if (cmd.explain !== undefined) throw notSupportedExplain();
  if (!cursor) {
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  const { batchSize } = cursor;
  const target: unknown = cmd.aggregate;
  if (typeof target === 'string' && ctx.store.collection(ctx.db, target)?.options.viewOn !== undefined) {
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${ctx.db}.${target} is a view, not a collection`);
  }
  const definition = parseChangeStream(ctx.db, target, cmd.pipeline as Document[], ctx.store.changes);
  const ns = typeof target === 'string' ? `${ctx.db}.${target}` : `${ctx.db}.$cmd.aggregate`;
  return ctx.cursors.changeStreams.open(ns, definition, batchSize ?? 101, ctx.store);
}

function notSupportedExplain(): CommandError {
  return new CommandError(
    'CommandNotSupported',
    'explain of a $changeStream is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it',
  );
}

/**
 * getMore and killCursors on change stream cursors (undefined for other
 * commands and cursors). A getMore with no event to return waits for one,
 * up to its `maxTimeMS`, without holding other connections.
 */
export function runChangeStreamCursorCommand(
  name: string,
  cmd: Document,
  ctx: CommandContext,
  limits: CommandLimits,
): CommandOutcome | undefined {
  const streams = ctx.cursors.changeStreams;
  if (name === 'killCursors') {
    if (!Array.isArray(cmd.cursors) || !cmd.cursors.some((id) => ChangeStreamCursors.isStreamId(id))) return undefined;
    const ids = cursorIdArray(cmd.cursors, 'killCursors.cursors');
    const killed: bigint[] = [];
    const notFound: bigint[] = [];
    for (const id of ids) (streams.kill(id) || ctx.cursors.kill(id) ? killed : notFound).push(id);
    return {
      reply: { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 },
    };
  }
  if (name !== 'getMore' || !ChangeStreamCursors.isStreamId(cmd.getMore)) return undefined;
  try {
    const collection: unknown = cmd.collection;
    if (typeof collection !== 'string') {
      throw wrongType('getMore.collection', collection, 'string');
    }
    const request = {
      ns: `${ctx.db}.${collection}`,
      batchSize: optionalCount(cmd, 'batchSize'),
      awaitMS: optionalMaxTimeMS(cmd),
    };
    // Reading runs under the server's limit on any command; maxTimeMS is how long to wait for events.
    const run = <T>(fn: () => T): T =>
      OperationBudget.run(new OperationBudget({ clock: limits.clock, serverLimitMS: limits.maxCommandTimeMS }), fn);
    const outcome = streams.getMore(cmd.getMore, request, ctx.store, ctx.server, run, () =>
      ctx.failPoints.failGetMoreAfterCursorCheckout.check(true),
    );
    return outcome instanceof Promise ? { later: outcome } : outcome;
  } catch (error) {
    if (error instanceof CommandError) return { reply: error.toReply() };
    throw error;
  }
}
