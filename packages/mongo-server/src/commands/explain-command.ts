import type { Document } from 'bson';

import { countScanKeys } from '../query/count-scan-keys.js';
import { formatBounds } from '../query/index-bounds.js';
import { checkPipeline } from '../query/pipeline-check.js';
import {
  countOutcome,
  countQuery,
  type IndexCount,
  runQuery,
  type QueryRequest,
  type QueryResult,
} from '../query/plan-executor.js';
import type { IndexScanPlan, QueryPlan } from '../query/query-planner.js';
import { textPlanStages, wantsTextScore } from '../query/text-query-plan.js';
import { collectionName, optionalDocument } from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { bindLetVariables } from './let-variables.js';
import { aggregatePipeline, countRequest, distinctRequest, findRequest } from './read-commands.js';

/** The verbosities `explain` takes. */
export const VERBOSITIES: ReadonlySet<string> = new Set(['queryPlanner', 'executionStats', 'allPlansExecution']);
const SORT_MEMORY_LIMIT = 100 * 1024 * 1024;

/** The fields every index stage shows (IXSCAN, COUNT_SCAN). */
function indexStageFields(plan: IndexScanPlan): Document {
  const { index } = plan;
  return {
    keyPattern: { ...index.keyPattern },
    indexName: index.name,
    isMultiKey: index.ordered.isMultikeyOnAnyField(),
    multiKeyPaths: index.ordered.multiKeyPaths(),
    isUnique: index.unique,
    isSparse: index.sparse,
    isPartial: false,
    indexVersion: 2,
  };
}

/** The FETCH(IXSCAN) / IDHACK / COLLSCAN stage of a plan, with stats when `result` is given. */
function accessStage(plan: QueryPlan, filter: Document | undefined, result?: QueryResult): Document {
  const stats = result?.stats;
  if (plan.kind === 'TEXT') return textPlanStages(plan, stats);
  if (plan.kind === 'COLLSCAN') {
    return {
      stage: 'COLLSCAN',
      ...(filter && Object.keys(filter).length > 0 && { filter }),
      direction: 'forward',
      ...(stats && { docsExamined: stats.docsExamined }),
    };
  }
  if (plan.kind === 'IDHACK') {
    return { stage: 'IDHACK', ...(stats && { keysExamined: stats.keysExamined, docsExamined: stats.docsExamined }) };
  }
  const { index, direction, bounds } = plan;
  const ixscan: Document = {
    stage: 'IXSCAN',
    ...indexStageFields(plan),
    direction: direction === 1 ? 'forward' : 'backward',
    indexBounds: Object.fromEntries(
      index.ordered.fields.map((field, i) => [
        field.path,
        formatBounds(bounds[i]!, (field.direction * direction) as 1 | -1),
      ]),
    ),
    ...(stats && { keysExamined: stats.keysExamined }),
  };
  return { stage: 'FETCH', ...(stats && { docsExamined: stats.docsExamined }), inputStage: ixscan };
}

/** The winning plan of a find-like query: SORT, SKIP and LIMIT over the access stage, as mongod's classic engine shows it. */
function queryStages(request: QueryRequest, plan: QueryPlan, result?: QueryResult): Document {
  let stage = accessStage(plan, request.filter, result);
  const sorted = request.sort && Object.keys(request.sort).length > 0;
  const providesSort = plan.kind === 'IXSCAN' && plan.providesSort;
  const limit = request.limit ?? 0;
  const skip = request.skip ?? 0;
  if (sorted && !providesSort) {
    stage = {
      stage: 'SORT',
      sortPattern: { ...request.sort },
      memLimit: SORT_MEMORY_LIMIT,
      ...(limit > 0 && { limitAmount: skip + limit }),
      type: 'simple',
      inputStage: stage,
    };
  }
  if (skip > 0) stage = { stage: 'SKIP', skipAmount: skip, inputStage: stage };
  if (limit > 0 && (!sorted || providesSort)) stage = { stage: 'LIMIT', limitAmount: limit, inputStage: stage };
  return stage;
}

/** Puts the query's nReturned on each stage of executionStats (exact at the top, an upper bound below). */
function withNReturned(stage: Document, nReturned: number): Document {
  return {
    ...stage,
    nReturned,
    ...(stage.inputStage && { inputStage: withNReturned(stage.inputStage as Document, nReturned) }),
  };
}

interface Explained {
  readonly ns: string;
  readonly request: QueryRequest;
  readonly result: QueryResult;
  /** Wraps the query's stages, e.g. in UPDATE or DELETE. */
  readonly wrap?: (stage: Document) => Document;
  /** The whole plan, when it is not the query's stages (a count): the planner's view, or with stats. */
  readonly tree?: (withStats: boolean) => Document;
  /** executionStats' nReturned, when it is not the query's (a count returns no document). */
  readonly nReturned?: number;
}

function explainFind(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'find');
  const request = findRequest(cmd);
  return { ns: `${ctx.db}.${name}`, request, result: runQuery(ctx.view(name), request) };
}

/**
 * A count's plan, as mongod's count command plans it: RECORD_STORE_FAST_COUNT
 * for no query and no hint, COUNT over EOF for a missing collection, COUNT
 * over COUNT_SCAN when an index's entries alone answer it in one interval,
 * else COUNT over the query's access stage. COUNT returns no document; it
 * reports `nCounted` and `nSkipped`.
 */
function explainCount(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'count');
  const ns = `${ctx.db}.${name}`;
  const request = countRequest(cmd);
  const view = ctx.view(name);
  const outcome = countOutcome(view, request);
  const skip = request.skip ?? 0;
  const nCounted = outcome.n;
  /** An explained count whose stages report their own figures. */
  const explained = (result: QueryResult, tree: (withStats: boolean) => Document): Explained => ({
    ns,
    request,
    result,
    nReturned: 0,
    tree,
  });
  const noFilter = !request.filter || Object.keys(request.filter).length === 0;
  if (view && noFilter && request.hint === undefined) {
    // mongod reports the skip asked for here, not the documents skipped.
    const fast = { stage: 'RECORD_STORE_FAST_COUNT' };
    return explained(countedResult(COLLSCAN), (withStats) =>
      withStats ? { ...fast, nReturned: 0, nCounted, nSkipped: skip } : fast,
    );
  }
  // How many matched before skip and limit, for nSkipped: counted again only when nothing was counted.
  const matched = !view
    ? 0
    : nCounted > 0 || skip === 0
      ? skip + nCounted
      : countQuery(view, { ...request, skip: 0, limit: 0 });
  const counts = { nCounted, nSkipped: Math.min(skip, matched) };
  const count = (input: Document, withStats: boolean): Document =>
    withStats ? { stage: 'COUNT', nReturned: 0, ...counts, inputStage: input } : { stage: 'COUNT', inputStage: input };
  if (!view) {
    return explained(countedResult(COLLSCAN), (withStats) =>
      count(withStats ? { stage: 'EOF', nReturned: 0 } : { stage: 'EOF' }, withStats),
    );
  }
  const scan = outcome.indexCount && countScanStage(outcome.indexCount, skip, request.limit ?? 0);
  if (scan) {
    return explained(countedResult(scan.plan, scan.keysExamined), (withStats) =>
      count(withStats ? scan.withStats : scan.stage, withStats),
    );
  }
  // Counted by fetching, or from an index in more than one interval (mongod fetches for those too).
  const result = outcome.result ?? runQuery(view, request);
  return explained(result, (withStats) =>
    count(
      withStats
        ? withNReturned(accessStage(result.plan, request.filter, result), counts.nSkipped + nCounted)
        : accessStage(result.plan, request.filter),
      withStats,
    ),
  );
}

const COLLSCAN: QueryPlan = { kind: 'COLLSCAN' };

/** A result of no document, for a count whose stages report its figures. */
function countedResult(plan: QueryPlan, keysExamined = 0): QueryResult {
  return { docs: [], plan, stats: { keysExamined, docsExamined: 0, nReturned: 0 } };
}

/**
 * COUNT_SCAN over one interval of `indexCount`'s index, or undefined when
 * its bounds are not one interval. It returns each document once (a
 * multikey index's duplicates are examined, not returned), until COUNT has
 * counted `skip + limit`.
 */
function countScanStage(
  indexCount: IndexCount,
  skip: number,
  limit: number,
): { plan: IndexScanPlan; stage: Document; withStats: Document; keysExamined: number } | undefined {
  const keys = countScanKeys(indexCount.plan);
  if (!keys) return undefined;
  const { entries, keysExamined } = indexCount;
  const stage: Document = {
    stage: 'COUNT_SCAN',
    ...indexStageFields(indexCount.plan),
    indexBounds: { ...keys },
  };
  const nReturned = limit > 0 ? Math.min(entries, skip + limit) : entries;
  return { plan: indexCount.plan, stage, withStats: { ...stage, nReturned, keysExamined }, keysExamined };
}

function explainDistinct(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'distinct');
  const request = { filter: distinctRequest(cmd).query, collation: optionalDocument(cmd, 'collation') };
  return { ns: `${ctx.db}.${name}`, request, result: runQuery(ctx.view(name), request) };
}

function explainAggregate(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'aggregate');
  const pipeline = aggregatePipeline(cmd);
  checkPipeline(pipeline);
  const first = pipeline[0];
  const request = {
    filter: first && '$match' in first ? (first.$match as Document) : undefined,
    collation: optionalDocument(cmd, 'collation'),
  };
  return { ns: `${ctx.db}.${name}`, request, result: runQuery(ctx.view(name), request) };
}

function explainWrite(kind: 'UPDATE' | 'DELETE', request: QueryRequest, name: string, ctx: CommandContext): Explained {
  const result = runQuery(ctx.view(name), request);
  return {
    ns: `${ctx.db}.${name}`,
    request,
    result,
    wrap: (stage) => ({
      stage: kind,
      ...(kind === 'UPDATE' ? { nMatched: result.docs.length, nWouldModify: result.docs.length } : {}),
      ...(kind === 'DELETE' ? { nWouldDelete: result.docs.length } : {}),
      inputStage: stage,
    }),
  };
}

function explainUpdate(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'update');
  const statement = (Array.isArray(cmd.updates) ? cmd.updates[0] : undefined) as Document | undefined;
  if (!statement) throw new CommandError('BadValue', 'explained write batches must be of size 1');
  const request = {
    filter: statement.q as Document,
    limit: statement.multi ? 0 : 1,
    collation: optionalDocument(statement, 'collation'),
  };
  return explainWrite('UPDATE', request, name, ctx);
}

function explainDelete(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, 'delete');
  const statement = (Array.isArray(cmd.deletes) ? cmd.deletes[0] : undefined) as Document | undefined;
  if (!statement) throw new CommandError('BadValue', 'explained write batches must be of size 1');
  const request = {
    filter: statement.q as Document,
    limit: Number(statement.limit ?? 0),
    collation: optionalDocument(statement, 'collation'),
  };
  return explainWrite('DELETE', request, name, ctx);
}

function explainFindAndModify(cmd: Document, ctx: CommandContext): Explained {
  const name = collectionName(cmd, Object.keys(cmd)[0]!);
  const request = {
    filter: optionalDocument(cmd, 'query'),
    sort: optionalDocument(cmd, 'sort'),
    limit: 1,
    collation: optionalDocument(cmd, 'collation'),
  };
  return explainWrite(cmd.remove === true ? 'DELETE' : 'UPDATE', request, name, ctx);
}

/** A Map, not an object: the command's name is the client's, and may be `__proto__` or `toString`. */
const EXPLAINABLE = new Map<string, (cmd: Document, ctx: CommandContext) => Explained>([
  ['find', explainFind],
  ['count', explainCount],
  ['distinct', explainDistinct],
  ['aggregate', explainAggregate],
  ['update', explainUpdate],
  ['delete', explainDelete],
  ['findAndModify', explainFindAndModify],
  ['findandmodify', explainFindAndModify],
]);

/**
 * MongoDB's explain output for one query: `queryPlanner.winningPlan`
 * (IXSCAN under FETCH, IDHACK or COLLSCAN, with SORT/SKIP/LIMIT and the
 * write's stage above) and, unless the verbosity is `queryPlanner`,
 * `executionStats` with the keys and documents examined. Nothing is written.
 */
export function explainReply(command: Document, verbosity: string, ctx: CommandContext): Document {
  const name = Object.keys(command)[0] ?? '';
  // `let`'s variables bound as when the command runs; the reply shows the command as sent.
  const inner = bindLetVariables(name, command);
  const explain = EXPLAINABLE.get(name);
  if (!explain) throw new CommandError('CommandNotFound', `Explain failed due to unknown command: ${name}`);
  const { ns, request, result, wrap = (stage: Document) => stage, tree, nReturned } = explain(inner, ctx);
  // A textScore asked of the projection, sort or later stages makes mongod score the union (TEXT_OR).
  const plan = result.plan.kind === 'TEXT' ? { ...result.plan, wantTextScore: wantsTextScore(inner) } : result.plan;
  const planned = tree ? tree(false) : wrap(queryStages(request, plan));
  const queryPlanner: Document = {
    namespace: ns,
    indexFilterSet: false,
    parsedQuery: request.filter ?? {},
    maxIndexedOrSolutionsReached: false,
    maxIndexedAndSolutionsReached: false,
    maxScansToExplodeReached: false,
    winningPlan: planned,
    rejectedPlans: [],
  };
  const reply: Document = { explainVersion: '1', queryPlanner };
  if (verbosity !== 'queryPlanner') {
    const { stats } = result;
    reply.executionStats = {
      executionSuccess: true,
      nReturned: nReturned ?? stats.nReturned,
      executionTimeMillis: 0,
      totalKeysExamined: stats.keysExamined,
      totalDocsExamined: stats.docsExamined,
      executionStages: tree ? tree(true) : withNReturned(wrap(queryStages(request, plan, result)), stats.nReturned),
    };
    if (verbosity === 'allPlansExecution') (reply.executionStats as Document).allPlansExecution = [];
  }
  if (name === 'aggregate') {
    const stages = (inner.pipeline as Document[]).slice(request.filter ? 1 : 0);
    if (stages.length > 0) {
      const { explainVersion, ...cursor } = reply;
      return { explainVersion, stages: [{ $cursor: cursor }, ...stages], ...serverParts(command, ctx) };
    }
  }
  return { ...reply, ...serverParts(command, ctx) };
}

function serverParts(inner: Document, ctx: CommandContext): Document {
  return {
    command: { ...inner, $db: ctx.db },
    serverInfo: { host: ctx.server.host, port: ctx.server.port, version: '7.0.0', gitVersion: 'embedded' },
    serverParameters: {
      internalQueryFacetBufferSizeBytes: 104857600,
      internalQueryFacetMaxOutputDocSizeBytes: 104857600,
      internalLookupStageIntermediateDocumentMaxSizeBytes: 104857600,
      internalDocumentSourceGroupMaxMemoryBytes: 104857600,
      internalQueryMaxBlockingSortMemoryUsageBytes: 104857600,
      internalQueryProhibitBlockingMergeOnMongoS: 0,
      internalQueryMaxAddToSetBytes: 104857600,
      internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 104857600,
    },
    ok: 1,
  };
}

const explain: CommandHandler = (cmd, ctx) => {
  const inner: unknown = cmd.explain;
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
    throw new CommandError('TypeMismatch', "BSON field 'explain' is the wrong type, expected type 'object'");
  }
  const verbosity = cmd.verbosity ?? 'allPlansExecution';
  if (typeof verbosity !== 'string' || !VERBOSITIES.has(verbosity)) {
    throw new CommandError(
      'BadValue',
      `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`,
    );
  }
  return explainReply(inner as Document, verbosity, ctx);
};

/** explain. */
export const EXPLAIN_COMMANDS: Record<string, CommandHandler> = { explain };
