import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { bsonEquals, compareBson, isSubDocument } from '../bson/bson-compare.js';
import { BSON } from '../bson/bson-library.cjs';
import { Collation } from '../bson/collation.js';
import type { CursorBatch, OpenCursorOptions } from '../cursor/cursor-registry.js';
import { OperationBudget } from '../query/operation-budget.js';
import { countQuery, recordIdsOf, runQuery, type QueryRequest, type QueryResult } from '../query/plan-executor.js';
import { projectDocuments } from '../query/find-projection.js';
import { projectWithTextScore } from '../query/text-search.js';
import { checkPipeline } from '../query/pipeline-check.js';
import { checkFieldPath } from '../query/field-path.js';
import { typeAlias } from '../query/element-operators.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import { clonedEach } from '../query/update-paths.js';
import type { CollectionView } from '../store/collection-view.js';
import {
  aggregateCursor,
  checkNonNegativeInt64,
  checkSafeInt64,
  collectionName,
  cursorIdArray,
  optionalBool,
  optionalCount,
  optionalDocument,
  wrongType,
} from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField } from './idl-fields.js';
import { explainReply } from './explain-command.js';
import { checkInvolvedViews } from './view-graph.js';

/**
 * Visible documents of `view` matching `filter`, in natural order (the
 * first `limit` of them, when given), found through an index when one fits.
 * `collation` is the command's document (absent: the collection's default).
 */
export function matchingDocuments(
  view: CollectionView | undefined,
  filter: Document | undefined,
  limit = 0,
  collation?: Document,
  hint?: unknown,
): Document[] {
  return runQuery(view, { filter, limit, collation, hint }).docs;
}

/** The collation a command on collection `name` runs under: its own `collation`, else the collection's default. */
export function commandCollation(ctx: CommandContext, name: string, cmd: Document): Collation | undefined {
  return Collation.resolve(optionalDocument(cmd, 'collation'), ctx.collection(name)?.options.collation);
}

/**
 * A find's `skip`, `limit` or `batchSize` as its IDL (FindCommandRequest)
 * reads it: a safeInt64 (a double truncated), 51024 below 0; absent or null
 * is undefined. A negative limit was a legacy OP_QUERY form: drivers send
 * `singleBatch` instead, and mongod 7 refuses it in a find command.
 */
export function findCount(cmd: Document, field: 'skip' | 'limit' | 'batchSize'): number | undefined {
  const n = checkSafeInt64(cmd[field], `FindCommandRequest.${field}`, field, 0n);
  return n === undefined ? undefined : Number(n);
}

/** The query part of a find command: filter, sort, skip, limit, hint, collation. */
export function findRequest(cmd: Document): QueryRequest & { singleBatch: boolean } {
  const filter = optionalDocument(cmd, 'filter');
  // mongod's own wording for find's sort, the missing space included.
  if (cmd.sort !== undefined && cmd.sort !== null && typeAlias(cmd.sort) !== 'object') {
    throw new CommandError('TypeMismatch', 'Expected field sortto be of type object');
  }
  const sort = optionalDocument(cmd, 'sort');
  const skip = findCount(cmd, 'skip') ?? 0;
  const limit = findCount(cmd, 'limit') ?? 0;
  const collation = optionalDocument(cmd, 'collation');
  return { filter, sort, skip, limit, hint: cmd.hint, collation, singleBatch: optionalBool(cmd, 'singleBatch') };
}

/** Runs a find command's query (for find itself and for its explain). */
export function runFind(cmd: Document, ctx: CommandContext): QueryResult {
  return runQuery(ctx.view(collectionName(cmd, 'find')), findRequest(cmd));
}

/** The query part of a count command. */
export function countRequest(cmd: Document): QueryRequest {
  const skip = Math.max(0, optionalCount(cmd, 'skip') ?? 0);
  const limit = Math.abs(optionalCount(cmd, 'limit') ?? 0);
  return {
    filter: optionalDocument(cmd, 'query'),
    skip,
    limit,
    hint: cmd.hint,
    collation: optionalDocument(cmd, 'collation'),
  };
}

function cursorReply(cursor: CursorBatch, first: boolean): Document {
  return {
    cursor: { [first ? 'firstBatch' : 'nextBatch']: cursor.batch, id: cursor.id, ns: cursor.ns },
    ok: 1,
  };
}

/**
 * Opens a cursor over `docs` honouring `cursor.batchSize` / `batchSize` /
 * `singleBatch` (and find's `noCursorTimeout`), owned by the command's
 * session; `endFoundLate` and `index` as {@link OpenCursorOptions} has them.
 */
export function openCursor(
  ctx: CommandContext,
  ns: string,
  docs: Document[],
  batchSize?: number,
  singleBatch = false,
  noTimeout = false,
  { endFoundLate = false, index }: Pick<OpenCursorOptions, 'endFoundLate' | 'index'> = {},
): Document {
  if (batchSize !== undefined && batchSize < 0) {
    throw new CommandError('Location51024', `BSON field 'batchSize' value must be >= 0, actual value '${batchSize}'`);
  }
  const maxTimeMSLeft = OperationBudget.current()?.remainingMaxTimeMS();
  return cursorReply(
    ctx.cursors.open(ns, docs, {
      batchSize,
      singleBatch,
      maxTimeMSLeft,
      noTimeout,
      owner: ctx.owner,
      endFoundLate,
      index,
    }),
    true,
  );
}

/**
 * `showRecordId`: each projected document with its stored document's record
 * id appended as `$recordId` (an Int64), as mongod adds it after projecting.
 */
function withRecordIds(projected: Document[], found: Document[], view: CollectionView | undefined): Document[] {
  const ids = recordIdsOf(view, found);
  return projected.map((doc, i) => ({ ...doc, $recordId: ids[i] }));
}

const find: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'find');
  const { limit = 0, singleBatch } = findRequest(cmd);
  const showRecordId = optionalBool(cmd, 'showRecordId');
  const { docs: found, plan } = runFind(cmd, ctx);
  let docs = projectWithTextScore(
    found,
    optionalDocument(cmd, 'projection'),
    optionalDocument(cmd, 'filter'),
    projectDocuments,
  );
  if (showRecordId) docs = withRecordIds(docs, found, ctx.view(name));
  const batchSize = findCount(cmd, 'batchSize');
  return openCursor(
    ctx,
    `${ctx.db}.${name}`,
    docs,
    limit > 0 && batchSize === undefined ? limit : batchSize,
    singleBatch,
    cmd.noCursorTimeout === true,
    {
      // A limit that ended the documents is known at once (mongod's LIMIT stage); a scan's end only when read.
      endFoundLate: limit === 0 || docs.length < limit,
      index: plan.kind === 'IXSCAN' ? plan.index.name : plan.kind === 'TEXT' ? plan.indexName : undefined,
    },
  );
};

const getMore: CommandHandler = (cmd, ctx) => {
  // A cursor id is an Int64 only: mongod's IDL refuses an int32 or a double as well.
  const id: unknown = cmd.getMore;
  if (typeof id !== 'bigint') throw wrongType('getMore.getMore', id, 'long');
  const collection: unknown = cmd.collection;
  if (collection === undefined) {
    throw missingField('getMore.collection');
  }
  if (typeof collection !== 'string') throw wrongType('getMore.collection', collection, 'string');
  const ns = `${ctx.db}.${collection}`;
  if (collection === '') throw new CommandError('InvalidNamespace', 'Collection names cannot be empty');
  if (collection.includes('\0')) throw new CommandError('InvalidNamespace', `Invalid namespace for getMore: ${ns}`);
  const batchSize = checkNonNegativeInt64(cmd.batchSize, 'getMore.batchSize', 'batchSize');
  ctx.cursors.check(id, { ns, owner: ctx.owner });
  ctx.failPoints.failGetMoreAfterCursorCheckout.check(false);
  // Every cursor here is a plain one: maxTimeMS on getMore is only for tailable awaitData cursors.
  if (cmd.maxTimeMS !== undefined) {
    throw new CommandError('BadValue', 'cannot set maxTimeMS on getMore command for a non-awaitData cursor');
  }
  const left = ctx.cursors.maxTimeMSLeft(id);
  const budget = OperationBudget.current();
  const size = batchSize === undefined ? undefined : Number(batchSize);
  if (left === undefined || budget === undefined) return cursorReply(ctx.cursors.next(id, size), false);
  // The rest of the find's or aggregate's maxTimeMS, as mongod carries it across getMores; running out closes the cursor.
  if (left <= 0) {
    ctx.cursors.kill(id);
    throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
  }
  const started = budget.elapsedMS();
  const batch = OperationBudget.run(budget.withMaxTimeMS(left), () => ctx.cursors.next(id, size));
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
  return { n: countQuery(ctx.view(name), countRequest(cmd)), ok: 1 };
};

/** A distinct command's `key` and `query`, checked as mongod parses them. */
export function distinctRequest(cmd: Document): { key: string; query?: Document } {
  const key: unknown = cmd.key;
  if (key === undefined) {
    throw missingField('distinct.key');
  }
  if (typeof key !== 'string') throw wrongType('distinct.key', key, 'string');
  if (key.includes('\0')) throw new CommandError('Location31032', 'Key field cannot contain an embedded null byte');
  // mongod reads the key as a projection's path: `a..b` and `a.` read nothing and are refused.
  checkFieldPath(key);
  return { key, query: optionalDocument(cmd, 'query', 'distinct.query') };
}

const distinct: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'distinct');
  const { key } = distinctRequest(cmd);
  // Values equal under the collation are one value (the first met), and they sort by it.
  return Collation.run(commandCollation(ctx, name, cmd), () => distinctValues(cmd, ctx, name, key));
};

/**
 * The values distinct takes from `value` at `parts`, as mongod's
 * extractAllElementsAlongPath (dotted_path_support.cpp) walks it: the
 * documents of an array on the way, or its element at a numeric component,
 * never an array inside an array there, and a trailing array's elements,
 * once (so `[1, [2]]` gives 1 and `[2]`; mingo's path flattened it to 1
 * and 2).
 */
function distinctElements(value: unknown, parts: readonly string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (!Array.isArray(value)) {
      if (value !== undefined) out.push(value);
      return;
    }
    // One push at a time: spreading a long array into push's arguments overflows the stack.
    for (const element of value as unknown[]) if (element !== undefined) out.push(element);
    return;
  }
  const part = parts[depth]!;
  if (Array.isArray(value)) {
    // A numeric component is a position in the array (and only that); any other reads its documents.
    if (/^\d+$/.test(part)) {
      if (Number(part) < (value as unknown[]).length)
        distinctElements((value as unknown[])[Number(part)], parts, depth + 1, out);
      return;
    }
    for (const element of value as unknown[]) {
      OperationBudget.tick();
      if (isSubDocument(element)) distinctElements(element, parts, depth, out);
    }
    return;
  }
  if (isSubDocument(value) && Object.hasOwn(value, part)) distinctElements(value[part], parts, depth + 1, out);
}

function distinctValues(cmd: Document, ctx: CommandContext, name: string, key: string): Document {
  const values: unknown[] = [];
  const segments = key.split('.');
  const collation = optionalDocument(cmd, 'collation');
  for (const doc of matchingDocuments(ctx.view(name), optionalDocument(cmd, 'query'), 0, collation)) {
    OperationBudget.tick();
    distinctElements(doc, segments, 0, values);
  }
  // Sorted, then equal neighbours dropped: a stable sort keeps the first met of equal values first.
  // (Comparing each value with every one kept ran past the 10 s command limit for 50,000 distinct values.)
  values.sort(compareBson);
  const distinct: unknown[] = [];
  let bytes = 0;
  for (const value of values) {
    if (distinct.length > 0 && bsonEquals(distinct[distinct.length - 1], value)) continue;
    // mongod builds the reply's array within a document's size and fails past it.
    bytes += BSON.calculateObjectSize({ [distinct.length]: value }) - 5;
    if (bytes >= DISTINCT_BYTES_LIMIT) throw new CommandError('Location17217', 'distinct too big, 16mb cap');
    distinct.push(value);
  }
  return { values: distinct, ok: 1 };
}

/** What mongod's distinct may return: a document's size less 4 KiB for the rest of the reply. */
const DISTINCT_BYTES_LIMIT = 16 * 1024 * 1024 - 4096;

/**
 * The pipeline the driver's `countDocuments()` sends: `$match`, optional
 * `$skip` and `$limit`, then `{ $group: { _id: 1, n: { $sum: 1 } } }`.
 * Returns its skip and limit, or undefined for any other pipeline.
 */
function countDocumentsShape(stages: Document[]): { skip: number; limit: number } | undefined {
  const [first, ...rest] = stages;
  const group = rest.pop()?.$group as Document | undefined;
  const sum = group?.n as Document | undefined;
  if (!first || Object.keys(first).length !== 1 || !group || !sum) return undefined;
  if (Object.keys(group).length !== 2 || group._id !== 1 || Object.keys(sum).length !== 1 || sum.$sum !== 1) {
    return undefined;
  }
  const match: unknown = first.$match;
  if (match === null || typeof match !== 'object' || Array.isArray(match)) return undefined;
  const skipStage = rest[0] && '$skip' in rest[0] ? rest.shift() : undefined;
  const limitStage = rest[0] && '$limit' in rest[0] ? rest.shift() : undefined;
  // Anything unusual (a zero or negative limit, a non-integer) goes the general way, which reports it.
  const skip: unknown = skipStage?.$skip ?? 0;
  const limit: unknown = limitStage?.$limit ?? 0;
  const isCount = (value: unknown, min: number) => typeof value === 'number' && Number.isInteger(value) && value >= min;
  if (rest.length > 0 || !isCount(skip, 0) || !isCount(limit, limitStage ? 1 : 0)) return undefined;
  return { skip: skip as number, limit: limit as number };
}

/** `countDocuments()`'s one result document, counted without copying the documents. */
function countOf(
  view: CollectionView | undefined,
  filter: Document,
  page: { skip: number; limit: number },
  collation: Document | undefined,
  hint: unknown,
): Document[] {
  const n = countQuery(view, { filter, ...page, collation, hint });
  return n > 0 ? [{ _id: 1, n }] : [];
}

const UNSUPPORTED_STAGES = new Set(['$out', '$merge', '$changeStream', '$currentOp', '$collStats', '$indexStats']);

/** aggregate, with every comparison of its stages ($match, $sort, $group, …) under its collation. */
const aggregate: CommandHandler = (cmd, ctx) => {
  const name = typeof cmd.aggregate === 'string' ? cmd.aggregate : '';
  return Collation.run(commandCollation(ctx, name, cmd), () => runAggregate(cmd, ctx));
};

/** An aggregate command's stages, checked to be an array (their contents: {@link checkPipeline}). */
export function aggregatePipeline(cmd: Document): Document[] {
  const pipeline: unknown = cmd.pipeline;
  if (!Array.isArray(pipeline))
    throw new CommandError('TypeMismatch', "BSON field 'pipeline' must be an array of stages");
  return pipeline as Document[];
}

/** An aggregate command's stages and `cursor` option, checked as mongod parses them (before the stages run). */
export function aggregateRequest(cmd: Document): { pipeline: Document[]; batchSize?: number } {
  const pipeline = aggregatePipeline(cmd);
  const cursor = aggregateCursor(cmd);
  if (!cursor && cmd.explain !== true) {
    throw new CommandError(
      'FailedToParse',
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  }
  return { pipeline, batchSize: cursor?.batchSize };
}

/**
 * The collation a pipeline's `$lookup`, `$graphLookup` and `$unionWith`
 * compare under, which a view they read must have: the command's own, else
 * the default of the collection it runs on (undefined: simple).
 */
export function lookupCollation(
  ctx: CommandContext,
  target: unknown,
  requested: Document | undefined,
): Document | undefined {
  return (
    requested ?? (typeof target === 'string' ? ctx.store.collection(ctx.db, target)?.options.collation : undefined)
  );
}

function runAggregate(cmd: Document, ctx: CommandContext): Document {
  const target: unknown = cmd.aggregate;
  const { pipeline, batchSize } = aggregateRequest(cmd);
  // The whole pipeline is parsed first, as mongod does: a bad one fails on an empty collection too.
  checkPipeline(pipeline);
  checkInvolvedViews(ctx, pipeline);
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op)) {
      throw new CommandError(
        'BadValue',
        `${op} is not supported by the embedded test server; use a real MongoDB (MONGO_URL) for it`,
      );
    }
  }
  if (cmd.explain === true && typeof target === 'string') {
    const { explain: _explain, ...inner } = cmd;
    return explainReply(inner, 'queryPlanner', ctx);
  }
  const collation = optionalDocument(cmd, 'collation');
  let stages = pipeline;
  let input: Document[] = [];
  let ns = `${ctx.db}.$cmd.aggregate`;
  if (typeof target === 'string') {
    const name = collectionName(cmd, 'aggregate');
    ns = `${ctx.db}.${name}`;
    const first = stages[0];
    // A leading $match filters before cloning (through an index when one fits), which keeps countDocuments cheap.
    if (first && '$match' in first) {
      const counted = countDocumentsShape(stages);
      if (counted) {
        return openCursor(
          ctx,
          ns,
          countOf(ctx.view(name), first.$match as Document, counted, collation, cmd.hint),
          undefined,
        );
      }
      input = matchingDocuments(ctx.view(name), first.$match as Document, 0, collation, cmd.hint);
      stages = stages.slice(1);
    } else {
      // The hint still picks the index the documents come through, in its order (or fails as a find's does).
      input = matchingDocuments(ctx.view(name), undefined, 0, collation, cmd.hint);
    }
  } else if (target !== 1) {
    throw new CommandError('FailedToParse', "BSON field 'aggregate' must be a collection name or 1");
  }
  const joinCollation = lookupCollation(ctx, target, collation);
  const options = mingoOptions({ collectionResolver: (name: string) => ctx.lookupDocuments(name, joinCollation) });
  const docs = withMingoErrors(() => new Aggregator(stages, options).run(clonedEach(input)) as Document[]);
  // A pipeline finds its end only when asked for one more document, as a find's scan does.
  return openCursor(ctx, ns, docs, batchSize, false, false, { endFoundLate: true });
}

/** find, getMore, killCursors, count, distinct, aggregate. */
export const READ_COMMANDS: Record<string, CommandHandler> = {
  find,
  getMore,
  killCursors,
  count,
  distinct,
  aggregate,
};
