import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { checkPipeline, allowStage } from '../query/pipeline-check.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { runListLocalSessions } from './list-local-sessions.js';
import { storageScale, storageStats } from './namespace-commands.js';
import { openCursor } from './read-commands.js';
import { runTextAggregate } from './text-aggregate.js';
import { aggregateCursor } from './command-arguments.js';

allowStage('$collStats');

/** Why `$collStats` cannot read a collection that does not exist, in mongod's words for the part asked. */
function collStatsMissing(part: string, ns: string): CommandError {
  return new CommandError(
    'NamespaceNotFound',
    `PlanExecutor error during aggregation :: caused by :: Unable to retrieve ${part} in $collStats stage :: caused by :: Collection [${ns}] not found.`,
  );
}

/**
 * `$collStats`' document: `count` and `storageStats` (in memory: sizes of the
 * BSON documents, no index sizes), its scale checked as mongod's IDL checks
 * it before the collection is looked at.
 */
function collStatsDocument(ctx: CommandContext, name: string, spec: unknown): Document {
  const options = (spec ?? {}) as Document;
  for (const key of Object.keys(options)) {
    if (key !== 'storageStats' && key !== 'count') {
      throw new CommandError(
        'CommandNotSupported',
        `$collStats '${key}' is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
      );
    }
  }
  const storage = options.storageStats as Document | undefined;
  const scale = storageScale(storage?.scale, '$collStats.storageStats.scale');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw collStatsMissing(storage !== undefined ? 'storageStats' : 'count', `${ctx.db}.${name}`);
  const doc: Document = { ns: collection.ns, host: `${ctx.server.host}:${ctx.server.port}`, localTime: new Date() };
  const stats = storageStats(collection, scale);
  if (storage !== undefined) doc.storageStats = stats;
  if (options.count !== undefined) doc.count = stats.count;
  return doc;
}

/**
 * Runs an `aggregate` that starts with a stage producing its own documents
 * rather than reading the collection (`$collStats`, `$listLocalSessions`) or
 * with a `$text` search first; undefined for any other command.
 */
export function runSourceStage(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  const own = runListLocalSessions(name, cmd, ctx) ?? runTextAggregate(name, cmd, ctx);
  if (own) return own;
  if (name !== 'aggregate' || !Array.isArray(cmd.pipeline)) return undefined;
  const stages = cmd.pipeline as Document[];
  const position = stages.findIndex((stage) => stage !== null && typeof stage === 'object' && '$collStats' in stage);
  if (position < 0) return undefined;
  checkPipeline(stages);
  if (position > 0) {
    throw new CommandError('Location40602', '$collStats is only valid as the first stage in a pipeline');
  }
  if (typeof cmd.aggregate !== 'string') {
    throw new CommandError('InvalidNamespace', '$collStats must be run against a collection namespace');
  }
  const source = collStatsDocument(ctx, cmd.aggregate, stages[0]!.$collStats);
  const docs = withMingoErrors(() => new Aggregator(stages.slice(1), mingoOptions()).run([source]) as Document[]);
  return openCursor(ctx, `${ctx.db}.${cmd.aggregate}`, docs, aggregateCursor(cmd)?.batchSize);
}
