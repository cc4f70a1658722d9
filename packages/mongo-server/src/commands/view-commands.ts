import type { Document } from 'bson';

import { bsonEquals, compareBson } from '../bson/bson-compare.js';
import { Collation } from '../bson/collation.js';
import { typeAlias } from '../query/element-operators.js';
import { OperationBudget } from '../query/operation-budget.js';
import { checkPipeline } from '../query/pipeline-check.js';
import type { QueryRequest } from '../query/plan-executor.js';
import { optionalDocument } from './command-arguments.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { explainReply, VERBOSITIES } from './explain-command.js';
import {
  aggregateRequest,
  countRequest,
  distinctRequest,
  findCount,
  findRequest,
  matchingDocuments,
  READ_COMMANDS,
} from './read-commands.js';
import { MAX_VIEW_DEPTH, readDepthExceeded } from './view-graph.js';

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

/** A view resolved down to the collection it reads. */
interface ResolvedView {
  source: string;
  /** The pipelines of the views on the way, innermost first. */
  pipeline: Document[];
  /** The view's default collation, `{ locale: 'simple' }` when it has none: a view never takes its source's. */
  collation: Document;
}

const SIMPLE = Object.freeze({ locale: 'simple' });

/** The collection under a view and the whole pipeline from it (views on views included). */
function resolve(ctx: CommandContext, name: string): ResolvedView | undefined {
  let pipeline: Document[] = [];
  let current = name;
  let collation: Document = SIMPLE;
  for (let depth = 0; ; depth++) {
    const options = ctx.store.collection(ctx.db, current)?.options;
    if (options?.viewOn === undefined) return depth === 0 ? undefined : { source: current, pipeline, collation };
    // mongod resolves at most MAX_VIEW_DEPTH - 1 views on views in a read (its create allows one more).
    if (depth >= MAX_VIEW_DEPTH - 1) throw readDepthExceeded();
    if (depth === 0) collation = (options.collation as Document | undefined) ?? SIMPLE;
    pipeline = [...(options.pipeline as Document[]), ...pipeline];
    current = options.viewOn as string;
  }
}

/**
 * Refuses a command collation other than the view's default, as mongod does
 * (a view's collation may be part of what it hides, so it is never overridden).
 */
function checkCollation(requested: Document | undefined, view: ResolvedView, ns: string): void {
  if (requested === undefined || Object.keys(requested).length === 0) return;
  if (!Collation.same(Collation.parse(requested), Collation.parse(view.collation))) {
    throw new CommandError('OptionNotSupportedOnView', `Cannot override a view's default collation ${ns}`);
  }
}

/** Views being read for a `$lookup`, `$graphLookup` or `$unionWith`, nested. */
let lookupNesting = 0;
/**
 * The documents of each view a command's lookups have read, by command (its
 * context): a view whose stages each look up the next view (mongod allows 20
 * such levels) is then read once per command, not once per path (three
 * stages a level gave 3^19 reads). One command reads one state of the data.
 */
const lookedUpViews = new WeakMap<CommandContext, Map<string, Document[]>>();

/**
 * What a `$lookup`, `$graphLookup` or `$unionWith` reads from `name`: a
 * collection's documents, or a view's, its pipeline run on its source as
 * mongod resolves it. `collation` is the operation's (its own, else its
 * collection's default; undefined: simple), which a view's must equal. The
 * view graph is checked at `create` (view-graph.ts); the nesting bound is a
 * second guard, against recursion whatever the stored definitions.
 */
export function lookupDocuments(ctx: CommandContext, name: string, collation?: Document): Document[] {
  const view = resolve(ctx, name);
  if (!view) return matchingDocuments(ctx.view(name), undefined, 0, collation);
  checkCollation(collation ?? SIMPLE, view, `${ctx.db}.${name}`);
  let read = lookedUpViews.get(ctx);
  if (!read) lookedUpViews.set(ctx, (read = new Map()));
  const known = read.get(name);
  if (known) return known;
  // A read of an empty view ticks nothing else; many of them must still meet the command's time limit.
  OperationBudget.tick();
  if (lookupNesting >= MAX_VIEW_DEPTH) {
    throw new CommandError('ViewDepthLimitExceeded', `View depth limit exceeded; maximum depth is ${MAX_VIEW_DEPTH}`);
  }
  lookupNesting++;
  try {
    const docs = allDocuments(ctx, { $db: ctx.db }, view, []);
    read.set(name, docs);
    return docs;
  } finally {
    lookupNesting--;
  }
}

/** The aggregate on the view's source that a read adding `stages` to the view runs. */
function onSource(view: ResolvedView, stages: Document[]): Document {
  return { aggregate: view.source, pipeline: [...view.pipeline, ...stages], cursor: {}, collation: view.collation };
}

/** Runs the view's pipeline and then `stages` on the view's source, under the view's collation. */
function aggregateOn(ctx: CommandContext, cmd: Document, view: ResolvedView, stages: Document[]): Document {
  const { cursor = {}, $db } = cmd as { cursor?: Document; $db: string };
  return READ_COMMANDS.aggregate!({ ...onSource(view, stages), cursor, $db }, ctx);
}

function allDocuments(ctx: CommandContext, cmd: Document, view: ResolvedView, stages: Document[]): Document[] {
  const reply = aggregateOn(ctx, { $db: cmd.$db, cursor: { batchSize: Number.MAX_SAFE_INTEGER } }, view, stages);
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
 * What a read on a view adds after the view's pipeline, its arguments checked
 * as on a collection (mongod parses them before it looks at the view); for a
 * find, also the batch size of its first reply.
 */
function readStages(name: string, cmd: Document): { stages: Document[]; batchSize?: number } {
  switch (name) {
    case 'aggregate':
      return { stages: aggregateRequest(cmd).pipeline };
    case 'find': {
      const request = findRequest(cmd);
      const stages = queryStages(request, optionalDocument(cmd, 'projection'));
      return { stages, batchSize: findCount(cmd, 'batchSize') ?? (request.limit ? request.limit : undefined) };
    }
    case 'count':
      return { stages: queryStages(countRequest(cmd)) };
    default: {
      const { key, query } = distinctRequest(cmd);
      return { stages: [...queryStages({ filter: query }), { $project: { _id: 0, value: `$${key}` } }] };
    }
  }
}

/**
 * `explain` of a read on a view: the explain of the aggregate on the view's
 * source that the read runs, as mongod explains it (the source's namespace,
 * the view's stages). Undefined for anything else, which the explain command
 * answers (or refuses) itself.
 */
function explainOnView(cmd: Document, ctx: CommandContext): Document | undefined {
  const inner: unknown = cmd.explain;
  const verbosity: unknown = cmd.verbosity ?? 'allPlansExecution';
  if (typeAlias(inner) !== 'object' || typeof verbosity !== 'string' || !VERBOSITIES.has(verbosity)) return undefined;
  const read = inner as Document;
  const name = Object.keys(read)[0] ?? '';
  const target: unknown = read[name];
  if (!READS.has(name) || typeof target !== 'string') return undefined;
  const view = resolve(ctx, target);
  if (!view) return undefined;
  const { stages } = readStages(name, read);
  checkCollation(optionalDocument(read, 'collation'), view, `${ctx.db}.${target}`);
  return explainReply(onSource(view, stages), verbosity, ctx);
}

/**
 * Runs `cmd` on a view when it names one (views are read-only: reads run
 * the view's pipeline on its source, writes fail with
 * CommandNotSupportedOnView); undefined when it names no view.
 */
export function runOnView(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (name === 'explain') return explainOnView(cmd, ctx);
  if (!READS.has(name) && !WRITES.has(name)) return undefined;
  const target: unknown = cmd[name];
  if (typeof target !== 'string') return undefined;
  const view = resolve(ctx, target);
  if (!view) return undefined;
  if (WRITES.has(name)) {
    throw new CommandError('CommandNotSupportedOnView', `Namespace ${ctx.db}.${target} is a view, not a collection`);
  }
  const { stages, batchSize } = readStages(name, cmd);
  checkCollation(optionalDocument(cmd, 'collation'), view, `${ctx.db}.${target}`);
  switch (name) {
    case 'aggregate':
      if (cmd.explain === true) return explainReply(onSource(view, stages), 'queryPlanner', ctx);
      return aggregateOn(ctx, cmd, view, stages);
    case 'find':
      return aggregateOn(ctx, { ...cmd, cursor: batchSize === undefined ? {} : { batchSize } }, view, stages);
    case 'count':
      return { n: allDocuments(ctx, cmd, view, stages).length, ok: 1 };
    default: {
      const docs = allDocuments(ctx, cmd, view, stages);
      // Values equal under the view's collation are one value, and they sort by it.
      return Collation.run(Collation.parse(view.collation), () => {
        const values: unknown[] = [];
        for (const { value } of docs) {
          for (const v of Array.isArray(value) ? value : [value]) {
            if (v !== undefined && !values.some((seen) => bsonEquals(seen, v))) values.push(v);
          }
        }
        return { values: values.sort(compareBson), ok: 1 };
      });
    }
  }
}
