import type { Document } from 'bson';

import { bsonEquals, compareBson } from '../bson/bson-compare.js';
import { checkPipeline } from '../query/pipeline-check.js';
import type { QueryRequest } from '../query/plan-executor.js';
import { optionalCount, optionalDocument } from './command-arguments.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { aggregateRequest, countRequest, distinctRequest, findRequest, READ_COMMANDS } from './read-commands.js';

/** mongod's limit on views defined on views. */
const MAX_VIEW_DEPTH = 20;

/** Commands that only read, and so run on a view through its pipeline. */
const READS = new Set(['find', 'aggregate', 'count', 'distinct']);
/** Commands that name a collection and would change it or its indexes: refused on a view. */
const WRITES = new Set([
  ...['insert', 'update', 'delete', 'findAndModify', 'findandmodify', 'createIndexes', 'dropIndexes'],
  ...['deleteIndexes', 'collMod', 'collStats', 'listIndexes'],
]);

/** Checks `create`'s `viewOn` and `pipeline`: the view's definition. */
export function checkViewDefinition(options: Document): void {
  if (typeof options.viewOn !== 'string' || options.viewOn.length === 0) {
    throw new CommandError('TypeMismatch', "BSON field 'create.viewOn' is the wrong type, expected type 'string'");
  }
  const pipeline: unknown = options.pipeline ?? [];
  if (!Array.isArray(pipeline)) {
    throw new CommandError('TypeMismatch', "BSON field 'create.pipeline' is the wrong type, expected type 'array'");
  }
  checkPipeline(pipeline);
  options.pipeline = pipeline;
}

/** The collection under a view and the whole pipeline from it (views on views included). */
function resolve(ctx: CommandContext, name: string): { source: string; pipeline: Document[] } | undefined {
  let pipeline: Document[] = [];
  let current = name;
  for (let depth = 0; ; depth++) {
    const options = ctx.store.collection(ctx.db, current)?.options;
    if (options?.viewOn === undefined) return depth === 0 ? undefined : { source: current, pipeline };
    if (depth >= MAX_VIEW_DEPTH) {
      throw new CommandError(
        'ViewDepthLimitExceeded',
        `View depth too deep or view cycle detected. Maximum depth is ${MAX_VIEW_DEPTH}`,
      );
    }
    pipeline = [...(options.pipeline as Document[]), ...pipeline];
    current = options.viewOn as string;
  }
}

function aggregateOn(ctx: CommandContext, cmd: Document, source: string, pipeline: Document[]): Document {
  const { cursor = {}, $db } = cmd as { cursor?: Document; $db: string };
  return READ_COMMANDS.aggregate!({ aggregate: source, pipeline, cursor, $db }, ctx);
}

function allDocuments(ctx: CommandContext, cmd: Document, source: string, pipeline: Document[]): Document[] {
  const reply = aggregateOn(ctx, { $db: cmd.$db, cursor: { batchSize: Number.MAX_SAFE_INTEGER } }, source, pipeline);
  const cursor = reply.cursor as { firstBatch: Document[]; id: bigint | number };
  if (Number(cursor.id) !== 0) ctx.cursors.kill(BigInt(cursor.id));
  return cursor.firstBatch;
}

/** The stages of a find's (or count's) query part on a view, as the aggregation mongod runs for it. */
function queryStages({ filter, sort, skip = 0, limit = 0 }: QueryRequest, projection?: Document): Document[] {
  const stages: Document[] = [];
  if (filter && Object.keys(filter).length > 0) stages.push({ $match: filter });
  if (sort && Object.keys(sort).length > 0) stages.push({ $sort: sort });
  if (skip > 0) stages.push({ $skip: skip });
  if (limit !== 0) stages.push({ $limit: Math.abs(limit) });
  if (projection && Object.keys(projection).length > 0) stages.push({ $project: projection });
  return stages;
}

/**
 * Runs `cmd` on a view when it names one (views are read-only: reads run
 * the view's pipeline on its source, writes fail with
 * CommandNotSupportedOnView); undefined when it names no view.
 */
export function runOnView(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (!READS.has(name) && !WRITES.has(name)) return undefined;
  const target: unknown = cmd[name];
  if (typeof target !== 'string') return undefined;
  const view = resolve(ctx, target);
  if (!view) return undefined;
  if (WRITES.has(name)) {
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${ctx.db}.${target} is a view, not a collection`);
  }
  const { source, pipeline } = view;
  // Arguments are checked as on a collection, before the view's pipeline runs: mongod parses them first.
  switch (name) {
    case 'aggregate':
      return aggregateOn(ctx, cmd, source, [...pipeline, ...aggregateRequest(cmd).pipeline]);
    case 'find': {
      const request = findRequest(cmd);
      const stages = queryStages(request, optionalDocument(cmd, 'projection'));
      const batchSize = optionalCount(cmd, 'batchSize') ?? (request.limit ? request.limit : undefined);
      const cursor = batchSize === undefined ? {} : { batchSize };
      return aggregateOn(ctx, { ...cmd, cursor }, source, [...pipeline, ...stages]);
    }
    case 'count':
      return { n: allDocuments(ctx, cmd, source, [...pipeline, ...queryStages(countRequest(cmd))]).length, ok: 1 };
    default: {
      const { key, query } = distinctRequest(cmd);
      const docs = allDocuments(ctx, cmd, source, [
        ...pipeline,
        ...queryStages({ filter: query }),
        { $project: { _id: 0, value: `$${key}` } },
      ]);
      const values: unknown[] = [];
      for (const { value } of docs) {
        for (const v of Array.isArray(value) ? value : [value]) {
          if (v !== undefined && !values.some((seen) => bsonEquals(seen, v))) values.push(v);
        }
      }
      return { values: values.sort(compareBson), ok: 1 };
    }
  }
}
