import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';

import { runQuery } from '../query/plan-executor.js';
import { checkPipeline } from '../query/pipeline-check.js';
import { mingoOptions, withMingoErrors } from '../query/query-context.js';
import { clonedEach } from '../query/update-paths.js';
import { hasText } from '../query/text-filter.js';
import { isTextScoreMeta, textScoreOf, textScoreUnavailable } from '../query/text-search.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { lookupCollation, openCursor } from './read-commands.js';
import { checkInvolvedViews } from './view-graph.js';
import { aggregateCursor } from './command-arguments.js';

/** Where the score rides through the later stages (mingo has no document metadata); removed from the results. */
const SCORE_FIELD = '__embeddedTextScore';

/** Deeper than this a pipeline is not searched for `$meta` (BSON nesting is limited well below it). */
const MAX_DEPTH = 200;

function isPlainObject(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `$text` anywhere in a `$match`, as mongod's `DocumentSourceMatch::isTextQuery` looks for it. */
function isTextMatch(stage: unknown): boolean {
  return isPlainObject(stage) && isPlainObject(stage.$match) && hasText(stage.$match);
}

/** Whether a `$project` keeps only what it names: some field but `_id`, none of them excluded (0 or false). */
function isInclusion(spec: Document): boolean {
  const fields = Object.entries(spec).filter(([key]) => key !== '_id');
  return fields.length > 0 && !fields.some(([, value]) => value === 0 || value === false);
}

/**
 * The stages with each exclusion `$project` that adds a text score split in
 * two, the exclusion then an `$addFields` of the score (mongod adds it as
 * metadata; to mingo a computed field in an exclusion is an error).
 */
function splitExclusionScores(stages: unknown[]): unknown[] {
  return stages.flatMap((stage) => {
    const spec = isPlainObject(stage) && Object.keys(stage).length === 1 ? stage.$project : undefined;
    if (!isPlainObject(spec) || isInclusion(spec)) return [stage];
    const scores = Object.entries(spec).filter(([, value]) => isTextScoreMeta(value));
    const rest = Object.entries(spec).filter(([, value]) => !isTextScoreMeta(value));
    if (scores.length === 0 || rest.length === 0) return [stage];
    return [{ $project: Object.fromEntries(rest) }, { $addFields: Object.fromEntries(scores) }];
  });
}

/** The pipeline with `{ $meta: 'textScore' }` read from {@link SCORE_FIELD}; `used` tells whether any was met. */
function withScoreField(value: unknown, used: { found: boolean }, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (isTextScoreMeta(value)) {
    used.found = true;
    return `$${SCORE_FIELD}`;
  }
  if (Array.isArray(value)) return value.map((item) => withScoreField(item, used, depth + 1));
  if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Document = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$project' && isPlainObject(inner) && isInclusion(inner)) {
      // An inclusion $project would drop the score for the stages after it (mongod keeps it as metadata).
      out[key] = { ...(withScoreField(inner, used, depth + 1) as Document), [SCORE_FIELD]: 1 };
    } else if (key === '$sort' && isPlainObject(inner)) {
      out[key] = Object.fromEntries(
        Object.entries(inner).map(([path, direction]) => {
          if (!isTextScoreMeta(direction)) return [path, direction];
          used.found = true;
          return [SCORE_FIELD, -1];
        }),
      );
    } else out[key] = withScoreField(inner, used, depth + 1);
  }
  return out;
}

/**
 * Runs an `aggregate` whose first stage is a `$match` with `$text`: the
 * match through the collection's text index, then the rest of the pipeline
 * with `{ $meta: 'textScore' }` (in `$project`, `$addFields`, `$sort`, …)
 * reading each document's score. A `$text` in a later `$match` is mongod's
 * error 17313. Undefined for any other command.
 */
export function runTextAggregate(name: string, cmd: Document, ctx: CommandContext): Document | undefined {
  if (name !== 'aggregate' || !Array.isArray(cmd.pipeline)) return undefined;
  const stages = cmd.pipeline as unknown[];
  const at = stages.findIndex(isTextMatch);
  if (at < 0) {
    // mongod's error for a score no stage can give (rather than the refusal of `$meta` as such).
    const used = { found: false };
    withScoreField(stages, used);
    if (used.found) throw textScoreUnavailable();
    return undefined;
  }
  if (at > 0) throw new CommandError('Location17313', '$match with $text is only allowed as the first pipeline stage');
  if (typeof cmd.aggregate !== 'string' || cmd.explain === true || !isPlainObject(cmd.cursor)) return undefined;
  const collection = cmd.aggregate;
  const used = { found: false };
  const rest = withScoreField(splitExclusionScores(stages.slice(1)), used) as Document[];
  checkPipeline(rest);
  checkInvolvedViews(ctx, rest);
  const matched = runQuery(ctx.view(collection), {
    filter: (stages[0] as Document).$match as Document,
    collation: isPlainObject(cmd.collation) ? cmd.collation : undefined,
  }).docs;
  const input = used.found ? matched.map((doc) => ({ ...doc, [SCORE_FIELD]: textScoreOf(doc) })) : matched;
  const joinCollation = lookupCollation(ctx, collection, isPlainObject(cmd.collation) ? cmd.collation : undefined);
  const options = mingoOptions({ collectionResolver: (other: string) => ctx.lookupDocuments(other, joinCollation) });
  const docs = withMingoErrors(() => new Aggregator(rest, options).run(clonedEach(input)) as Document[]);
  if (used.found) for (const doc of docs) delete doc[SCORE_FIELD];
  const batchSize = aggregateCursor(cmd)?.batchSize;
  return openCursor(ctx, `${ctx.db}.${collection}`, docs, batchSize);
}
