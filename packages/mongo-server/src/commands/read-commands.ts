import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { resolve } from 'mingo/util';

import { bsonEquals, bsonTag, compareBson } from '../bson/bson-compare.js';
import type { CursorBatch } from '../cursor/cursor-registry.js';
import { OperationBudget } from '../query/operation-budget.js';
import { compileFilter, mingoOptions, projectDocuments, withMingoErrors } from '../query/query-context.js';
import { typeAlias } from '../query/element-operators.js';
import { sortDocuments } from '../query/sort-documents.js';
import type { CollectionView } from '../store/collection-view.js';
import { collectionName, cursorIdArray, optionalCount, optionalDocument } from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';

/** Visible documents of `view` matching `filter`, in natural order. */
export function matchingDocuments(view: CollectionView | undefined, filter: Document | undefined): Document[] {
  if (!view) return [];
  const matches = compileFilter(filter);
  const result: Document[] = [];
  for (const doc of view.documents()) {
    OperationBudget.tick();
    if (matches(doc)) result.push(doc);
  }
  return result;
}

function cursorReply(cursor: CursorBatch, first: boolean): Document {
  return {
    cursor: { [first ? 'firstBatch' : 'nextBatch']: cursor.batch, id: cursor.id, ns: cursor.ns },
    ok: 1,
  };
}

/** Opens a cursor over `docs` honouring `cursor.batchSize` / `batchSize` / `singleBatch`. */
export function openCursor(
  ctx: CommandContext,
  ns: string,
  docs: Document[],
  batchSize?: number,
  singleBatch = false,
): Document {
  if (batchSize !== undefined && batchSize < 0) {
    throw new CommandError('BadValue', `BSON field 'batchSize' value must be >= 0, actual value '${batchSize}'`);
  }
  const maxTimeMSLeft = OperationBudget.current()?.remainingMaxTimeMS();
  return cursorReply(ctx.cursors.open(ns, docs, batchSize, singleBatch, maxTimeMSLeft), true);
}

const find: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'find');
  const view = ctx.view(name);
  const filter = optionalDocument(cmd, 'filter');
  const sort = optionalDocument(cmd, 'sort');
  const skip = optionalCount(cmd, 'skip') ?? 0;
  let limit = optionalCount(cmd, 'limit') ?? 0;
  let singleBatch = cmd.singleBatch === true;
  if (skip < 0) throw new CommandError('BadValue', `BSON field 'skip' value must be >= 0, actual value '${skip}'`);
  if (limit < 0) {
    // Legacy negative limit: one batch of |limit| documents.
    limit = -limit;
    singleBatch = true;
  }
  let docs = matchingDocuments(view, filter);
  if (sort && Object.keys(sort).length > 0) docs = sortDocuments(docs, sort);
  if (skip > 0 || limit > 0) docs = docs.slice(skip, limit > 0 ? skip + limit : undefined);
  docs = projectDocuments(docs, optionalDocument(cmd, 'projection'));
  const batchSize = optionalCount(cmd, 'batchSize');
  return openCursor(
    ctx,
    `${ctx.db}.${name}`,
    docs,
    limit > 0 && batchSize === undefined ? limit : batchSize,
    singleBatch,
  );
};

const getMore: CommandHandler = (cmd, ctx) => {
  const raw: unknown = cmd.getMore;
  // A non-integral double is no cursor id (BigInt() would throw a RangeError on it).
  if (typeof raw !== 'bigint' && !(typeof raw === 'number' && Number.isInteger(raw))) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'getMore.getMore' is the wrong type '${typeAlias(raw)}', expected type 'long'`,
    );
  }
  const id = BigInt(raw);
  // Every cursor here is a plain one: maxTimeMS on getMore is only for tailable awaitData cursors.
  if (cmd.maxTimeMS !== undefined) {
    throw new CommandError('BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor');
  }
  const batchSize = optionalCount(cmd, 'batchSize');
  const left = ctx.cursors.maxTimeMSLeft(id);
  const budget = OperationBudget.current();
  if (left === undefined || budget === undefined) return cursorReply(ctx.cursors.next(id, batchSize), false);
  // The rest of the find's or aggregate's maxTimeMS, as mongod carries it across getMores.
  if (left <= 0) throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
  const started = budget.elapsedMS();
  const batch = OperationBudget.run(budget.withMaxTimeMS(left), () => ctx.cursors.next(id, batchSize));
  ctx.cursors.spend(id, budget.elapsedMS() - started);
  return cursorReply(batch, false);
};

const killCursors: CommandHandler = (cmd, ctx) => {
  collectionName(cmd, 'killCursors');
  const ids = cursorIdArray(cmd.cursors, 'killCursors.cursors');
  const killed: bigint[] = [];
  const notFound: bigint[] = [];
  for (const id of ids) (ctx.cursors.kill(id) ? killed : notFound).push(id);
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

const count: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'count');
  const skip = optionalCount(cmd, 'skip') ?? 0;
  const limit = Math.abs(optionalCount(cmd, 'limit') ?? 0);
  let n = matchingDocuments(ctx.view(name), optionalDocument(cmd, 'query')).length;
  n = Math.max(0, n - skip);
  if (limit > 0) n = Math.min(n, limit);
  return { n, ok: 1 };
};

/** Whether `value` is a document to descend into (not an array, a Date or a BSON value such as ObjectId). */
function isSubDocument(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    bsonTag(value) === undefined
  );
}

/**
 * The values at `path` in `doc`, descending through arrays, by own properties
 * only. For paths with a `__proto__` part, which mingo's `resolve` refuses
 * (for its own safety) although MongoDB serves them like any field name.
 */
function ownPathValue(doc: unknown, segments: string[]): unknown {
  const values: unknown[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth === segments.length) {
      values.push(value);
      return;
    }
    const segment = segments[depth]!;
    if (Array.isArray(value)) {
      for (const item of value) if (isSubDocument(item)) walk(item, depth);
    } else if (isSubDocument(value) && Object.hasOwn(value, segment)) {
      walk(value[segment], depth + 1);
    }
  };
  walk(doc, 0);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
}

const distinct: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'distinct');
  const key: unknown = cmd.key;
  if (typeof key !== 'string')
    throw new CommandError('TypeMismatch', "BSON field 'distinct.key' is missing or not a string");
  const values: unknown[] = [];
  const segments = key.split('.');
  const valueOf = segments.includes('__proto__')
    ? (doc: Document) => ownPathValue(doc, segments)
    : (doc: Document) => resolve(doc, key);
  for (const doc of matchingDocuments(ctx.view(name), optionalDocument(cmd, 'query'))) {
    const value: unknown = valueOf(doc);
    const candidates = Array.isArray(value) ? value.flat() : [value];
    for (const v of candidates) {
      OperationBudget.tick();
      if (v !== undefined && !values.some((seen) => bsonEquals(seen, v))) values.push(v);
    }
  }
  values.sort(compareBson);
  return { values, ok: 1 };
};

const UNSUPPORTED_STAGES = new Set(['$out', '$merge', '$changeStream', '$currentOp', '$collStats', '$indexStats']);

const aggregate: CommandHandler = (cmd, ctx) => {
  const target: unknown = cmd.aggregate;
  const pipeline: unknown = cmd.pipeline;
  if (!Array.isArray(pipeline))
    throw new CommandError('TypeMismatch', "BSON field 'pipeline' must be an array of stages");
  const cursorOptions = optionalDocument(cmd, 'cursor');
  if (!cursorOptions && cmd.explain !== true) {
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  for (const stage of pipeline as Document[]) {
    const op = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op)) {
      throw new CommandError(
        'BadValue',
        `${op} is not supported by the embedded test server; use a real MongoDB (MONGO_URL) for it`,
      );
    }
  }
  let stages = pipeline as Document[];
  let input: Document[] = [];
  let ns = `${ctx.db}.$cmd.aggregate`;
  if (typeof target === 'string') {
    const name = collectionName(cmd, 'aggregate');
    ns = `${ctx.db}.${name}`;
    const first = stages[0];
    // A leading $match filters before cloning, which keeps countDocuments cheap.
    if (first && '$match' in first) {
      input = matchingDocuments(ctx.view(name), first.$match as Document);
      stages = stages.slice(1);
    } else {
      input = matchingDocuments(ctx.view(name), undefined);
    }
  } else if (target !== 1) {
    throw new CommandError('FailedToParse', "BSON field 'aggregate' must be a collection name or 1");
  }
  const options = mingoOptions({
    processingMode: ProcessingMode.CLONE_INPUT,
    collectionResolver: (name: string) => matchingDocuments(ctx.view(name), undefined),
  });
  const docs = withMingoErrors(() => new Aggregator(stages, options).run(input) as Document[]);
  return openCursor(ctx, ns, docs, optionalCount(cursorOptions ?? {}, 'batchSize'));
};

/** find, getMore, killCursors, count, distinct, aggregate. */
export const READ_COMMANDS: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
  aggregate,
};
