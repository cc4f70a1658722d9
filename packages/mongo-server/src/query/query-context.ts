import type { Document } from 'bson';
import { Context, ProcessingMode } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { Query } from 'mingo/query';
import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import { evalExpr } from 'mingo/core';

import {
  bsonEquals,
  bsonTypeRank,
  compareBson,
  compareStrings,
  isNaNNumber,
  MAX_KEY_RANK,
  MIN_KEY_RANK,
  NUMBER_RANK,
  toExactNumber,
} from '../bson/bson-compare.js';
import { BSONRegExp, ObjectId, Timestamp } from '../bson/bson-library.cjs';
import { formatValue } from '../bson/format-key-value.js';
import { timestampOf } from '../changes/change-log.js';
import { CommandError } from '../commands/command-error.js';
import { BSON_ACCUMULATOR_OPERATORS, bsonGroup } from './bson-group.js';
import { checkExpression } from './expression-check.js';
import { checkVariables, forEachFilterExpression, NO_VARIABLES, type Scope } from './expression-variables.js';
import { $bitsAllClear, $bitsAllSet, $bitsAnyClear, $bitsAnySet } from './bit-test-operators.js';
import { $mod, $size, $type, typeAlias } from './element-operators.js';
import { isOperatorObject } from './index-bounds.js';
import { isPlainDocument, MISSING, pathElements, queryPath } from './path-elements.js';
import { $elemMatch, allElemMatches, isElemMatchEntry } from './elem-match-operator.js';
import { PATH_OPERATORS } from './path-operators.js';
import { ARITHMETIC_OPERATORS } from './arithmetic-expressions.js';
import { arrayExpressionOperators } from './array-expressions.js';
import {
  aggregationPathAccumulators,
  aggregationPathOperators,
  aggregationPathStages,
  pathsAsOperators,
} from './aggregation-paths.js';
import { BOUNDED_EXPRESSION_OPERATORS, budgetedExpressionOperators } from './bounded-expressions.js';
import { NUMERIC_ACCUMULATOR_OPERATORS, NUMERIC_EXPRESSION_OPERATORS } from './numeric-expressions.js';
import { budgetedAccumulatorOperators, budgetedPipelineOperators, budgetedQueryOperators } from './bounded-stages.js';
import { sampleStage } from './sample-stage.js';
import { unwindStage } from './unwind-stage.js';
import { regexTest } from './linear-regex.js';
import { GEO_OPERATORS } from './geo-query-operators.js';
import { sampleRateCondition } from './sample-rate-operator.js';
import { compileSchema } from './json-schema.js';
import { graphLookupStage } from './graph-lookup-stage.js';
import { lookupByFields } from './lookup-fields.js';
import { lookupByPipeline } from './lookup-pipeline.js';
import { ARRAY_ACCUMULATOR_OPERATORS } from './array-accumulators.js';
import { windowFieldsStage } from './window-fields-stage.js';
import { bucketStage } from './bucket-stage.js';
import { bucketAutoStage } from './bucket-auto-stage.js';
import { densifyStage } from './densify-stage.js';
import { fillStage } from './fill-stage.js';
import { documentsStage, replaceRootStage } from './replace-root-stage.js';
import { mongodExpressionOperators } from './mongod-expressions.js';
import { stringExpressionOperators } from './string-expressions.js';
import { arrayToObject, mergeObjects, setField, unsetField } from './object-expressions.js';
import { operandListOperators } from './operand-lists.js';
import { PERCENTILE_ACCUMULATOR_OPERATORS, PERCENTILE_EXPRESSION_OPERATORS } from './percentile-operators.js';
import { refuseProtoFields } from './proto-paths.js';
import { conditionForMingo } from './mingo-values.js';
import { DB_REF_OPERATOR, DB_REF_SELECTOR, dbRefEqualities } from './db-ref-fields.js';
import { REGEX_EXPRESSION_OPERATORS } from './regex-expressions.js';
import { refuseWhere, SERVER_SCRIPT_OPERATORS } from './server-script-operators.js';
import { SINGLE_NUMERIC_EXPRESSION_OPERATORS } from './single-numeric-expressions.js';
import { ProjectionTree } from './projection-tree.js';
import { sortDocuments, type SortSpec } from './sort-documents.js';
import { exprCondition, truthOperators } from './truthiness.js';
import { clonedEach } from './update-paths.js';

type Predicate = (doc: unknown) => boolean;

function equalsMatch(values: unknown[], rhs: unknown): boolean {
  // Before MongoDB 8, null equals a missing field, null and undefined alike.
  if (rhs === null || rhs === undefined) return values.some((v) => v === null || v === undefined);
  return values.some((v) => bsonEquals(v, rhs));
}

function rangeMatch(values: unknown[], rhs: unknown, test: (c: number) => boolean): boolean {
  const rank = bsonTypeRank(rhs);
  if (rank === MIN_KEY_RANK || rank === MAX_KEY_RANK) {
    // The one exception to type bracketing (mongod's ComparisonMatchExpression): every value of
    // another type, a missing field included, is below MaxKey and above MinKey.
    const otherType = rank === MAX_KEY_RANK ? -1 : 1;
    return values.some((v) => test(bsonTypeRank(v) === rank ? 0 : otherType));
  }
  // Type bracketing: `$gt: 5` only ever matches numbers, `$lt: 'b'` only strings.
  if (rank !== NUMBER_RANK) {
    return values.some((v) => bsonTypeRank(v) === rank && test(compareBson(v, rhs)));
  }
  // NaN sorts below every number, but mongod's range operators never match it against a number, nor a
  // number against it: NaN is only `$gte`/`$lte` NaN (its ComparisonMatchExpression's special case).
  const nan = isNaNNumber(rhs);
  return values.some((v) => bsonTypeRank(v) === rank && isNaNNumber(v) === nan && test(compareBson(v, rhs)));
}

/** mongod's RegexMatchExpression: a string the pattern matches, or a stored regex with the same pattern and flags. */
function regexMatches(regex: RegExp, value: unknown): boolean {
  if (typeof value === 'string') return regexTest(regex, value);
  return value instanceof RegExp && value.source === regex.source && value.flags === regex.flags;
}

function inMatch(values: unknown[], operands: unknown): boolean {
  if (!Array.isArray(operands)) throw new CommandError('BadValue', '$in needs an array');
  return operands.some((operand) =>
    operand instanceof RegExp ? values.some((v) => regexMatches(operand, v)) : equalsMatch(values, operand),
  );
}

function allMatch(values: unknown[], operands: unknown[]): boolean {
  // `$all: []` matches nothing; `$elemMatch` entries are elem-match-operator.ts's.
  return operands.length > 0 && operands.every((operand) => inMatch(values, [operand]));
}

/** `$all` of values and regexes; an operator among them (`{ $gt: 1 }`, a later `$elemMatch`) is refused as by mongod's parser. */
function allOperator(selector: string, operands: unknown): Predicate {
  if (!Array.isArray(operands)) throw new CommandError('BadValue', '$all needs an array');
  for (const operand of operands) {
    const first = typeAlias(operand) === 'object' ? Object.keys(operand as Document)[0] : undefined;
    if (first !== undefined && PATH_OPERATORS.has(first)) {
      throw new CommandError('BadValue', 'no $ expressions in $all');
    }
  }
  return queryOperator((values) => allMatch(values, operands))(selector, operands);
}

/**
 * A query operator over the elements its path reaches (path-elements.ts, mongod's
 * matcher walk), a document's missing field compared as `undefined`. A path that
 * reaches nothing (an array on the way holding no document) matches no operator,
 * so their negations (`$ne`, `$nin`) match it.
 */
function queryOperator(match: (values: unknown[], rhs: unknown) => boolean) {
  return (selector: string, value: unknown): Predicate => {
    const path = queryPath(selector);
    return (doc) => {
      const values = pathElements(doc, path, true);
      for (let i = 0; i < values.length; i++) if (values[i] === MISSING) values[i] = undefined;
      return match(values, value);
    };
  };
}

/**
 * `$in` and `$nin` as mongod's parseInExpression takes their array: a
 * document in it whose first field is an operator is refused (a DBRef's
 * `{ $ref, $id }` is a document to compare with).
 */
function inOperator(match: (values: unknown[], rhs: unknown) => boolean) {
  const build = queryOperator(match);
  return (selector: string, value: unknown): Predicate => {
    if (Array.isArray(value) && value.some(isOperatorObject)) {
      throw new CommandError('BadValue', 'cannot nest $ under $in');
    }
    return build(selector, value);
  };
}

/** BSON's truth of an operand (`$exists: 0` and `$exists: null` ask for a missing field). */
function trueValue(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  const exact = toExactNumber(value);
  return !(exact.kind === 'finite' && exact.num === 0n);
}

/** `{ field: { $exists: bool } }`: whether the path reaches anything but a missing field. */
function $exists(selector: string, value: unknown): Predicate {
  const path = queryPath(selector);
  const wanted = trueValue(value);
  return (doc) => pathElements(doc, path, true).some((element) => element !== MISSING) === wanted;
}

function expressionComparison(test: (c: number) => boolean) {
  return (obj: unknown, expr: unknown, options: Options): boolean => {
    const [a, b] = evalExpr(obj, expr, options) as [unknown, unknown];
    return test(compareBson(a, b));
  };
}

/** `$gt`, `$gte`, `$lt`, `$lte` in BSON order; a regex operand is refused as mongod's ComparisonMatchExpression refuses it. */
function rangeOperator(test: (c: number) => boolean) {
  const build = queryOperator((values, rhs) => rangeMatch(values, rhs, test));
  return (selector: string, value: unknown): Predicate => {
    if (value instanceof RegExp || value instanceof BSONRegExp) {
      throw new CommandError('BadValue', `Can't have RegEx as arg to predicate over field '${selector}'.`);
    }
    return build(selector, value);
  };
}

/**
 * mingo's operators that only a filter's top level takes (mingo calls them with
 * their own name as the selector there), refused under a field as mongod's
 * parser refuses them: `{ v: { $expr: … } }` is "unknown operator: $expr".
 */
const TOP_LEVEL_QUERY_OPERATORS = Object.fromEntries(
  (['$and', '$or', '$nor', '$expr', '$jsonSchema'] as const).map((name) => {
    const operator = queryOperators[name] as unknown as (
      selector: string,
      value: unknown,
      options: Options,
    ) => Predicate;
    return [
      name,
      (selector: string, value: unknown, options: Options): Predicate => {
        if (selector !== name) throw new CommandError('BadValue', `unknown operator: ${name}`);
        // `$expr`'s value is true as mongod takes it (an integral double 0.0 is false), not as JavaScript does.
        return operator(selector, name === '$expr' ? exprCondition(value) : value, options);
      },
    ];
  }),
);

/**
 * mongod's pathless `$id`, `$ref` and `$db` (its parseDBRef), as dbRefEqualities
 * hands them over: an equality on the field of that name, `$id` under the
 * collation, the other two binary. Refused as unknown anywhere else.
 */
function dbRefFieldEquality(selector: string, operand: unknown): Predicate {
  if (selector !== DB_REF_SELECTOR) throw new CommandError('BadValue', `unknown operator: ${DB_REF_OPERATOR}`);
  const { name, value } = operand as { name: string; value: unknown };
  const binary = (values: unknown[], rhs: unknown): boolean =>
    rhs === null || rhs === undefined
      ? equalsMatch(values, rhs)
      : values.some((v) => bsonEquals(v, rhs, compareStrings));
  return queryOperator(name === '$id' ? equalsMatch : binary)(name, value);
}

/** A filter (or `$match`, or `$elemMatch` criteria) as mingo takes it: see dbRefEqualities and conditionForMingo. */
function filterForMingo<T>(filter: T): T {
  return conditionForMingo(isPlainDocument(filter) ? (dbRefEqualities(filter) as T) : filter);
}

/** Comparison operators with MongoDB's BSON order (mingo's compare numbers as text). */
const BSON_QUERY_OPERATORS = {
  ...TOP_LEVEL_QUERY_OPERATORS,
  $eq: queryOperator(equalsMatch),
  $ne: queryOperator((values, rhs) => !equalsMatch(values, rhs)),
  $gt: rangeOperator((c) => c > 0),
  $gte: rangeOperator((c) => c >= 0),
  $lt: rangeOperator((c) => c < 0),
  $lte: rangeOperator((c) => c <= 0),
  $in: inOperator(inMatch),
  $nin: inOperator((values, rhs) => !inMatch(values, rhs)),
  $all: (selector: string, value: unknown, options: Options): Predicate =>
    Array.isArray(value) && isElemMatchEntry(value[0])
      ? allElemMatches(selector, value, options)
      : allOperator(selector, value),
  $elemMatch,
  // Linear-time matching (mingo normalizes `{ f: /re/ }` and `$options` into this operator).
  $regex: queryOperator((values, rhs) => {
    if (!(rhs instanceof RegExp)) throw new CommandError('BadValue', '$regex has to be a string');
    return values.some((v) => regexMatches(rhs, v));
  }),
  // Along the path as mongod walks it (mingo's resolve read nested arrays as values).
  $exists,
  // BSON types and Int64-aware arithmetic (mingo knows only JavaScript types).
  $type,
  $mod,
  $size,
  $bitsAllSet,
  $bitsAllClear,
  $bitsAnySet,
  $bitsAnyClear,
  ...GEO_OPERATORS,
  [DB_REF_OPERATOR]: dbRefFieldEquality,
};

type QueryOperator = (selector: string, value: unknown, options: Options) => Predicate;
type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;
type ProjectionOperator = (obj: unknown, expr: unknown, field: string, options: Options) => unknown;
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

const BSON_EXPRESSION_OPERATORS = {
  $eq: expressionComparison((c) => c === 0),
  $ne: expressionComparison((c) => c !== 0),
  $gt: expressionComparison((c) => c > 0),
  $gte: expressionComparison((c) => c >= 0),
  $lt: expressionComparison((c) => c < 0),
  $lte: expressionComparison((c) => c <= 0),
  $cmp: (obj: unknown, expr: unknown, options: Options): number => {
    const [a, b] = evalExpr(obj, expr, options) as [unknown, unknown];
    return compareBson(a, b);
  },
  $type: (obj: unknown, expr: unknown, options: Options): string => typeAlias(evalExpr(obj, expr, options)),
  $arrayToObject: arrayToObject,
  $mergeObjects: mergeObjects,
  $setField: setField,
  // mongod's other name of `$literal` (its own serializations use it), which mingo lacks.
  $const: (_obj: unknown, expr: unknown): unknown => expr,
  $unsetField: unsetField,
};

/** What `$redact`'s expression may give: keep the document, look into its subdocuments, or drop it. */
const REDACT_ACTIONS = new Set(['$$KEEP', '$$DESCEND', '$$PRUNE']);

/**
 * `$redact` as mongod runs it: mingo's gave back whatever else the expression
 * returned in place of the document (`{ $redact: 'x' }` answered `['x', 'x']`)
 * where mongod fails with 17053.
 */
function redact(doc: Document, expr: unknown, options: Options): Document | undefined {
  // Evaluated with `doc` as $$ROOT, each subdocument in turn, as mingo's own $redact does.
  const action: unknown = evalExpr(doc, expr, options);
  if (typeof action !== 'string' || !REDACT_ACTIONS.has(action)) {
    throw new CommandError(
      'Location17053',
      "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, " +
        `but returned ${formatValue(action)}`,
    );
  }
  if (action === '$$PRUNE') return undefined;
  if (action === '$$KEEP') return doc;
  const output: Document = {};
  for (const key of Object.keys(doc)) {
    const value: unknown = doc[key];
    if (Array.isArray(value)) {
      const kept: unknown[] = [];
      for (const item of value) {
        const next = isPlainSpec(item) ? redact(item, expr, options) : item;
        if (next !== undefined) kept.push(next);
      }
      output[key] = kept;
    } else {
      const next = isPlainSpec(value) ? redact(value, expr, options) : value;
      if (next !== undefined) output[key] = next;
    }
  }
  return output;
}

/** `$addFields`/`$set` as mongod's projection executor applies them (projection-tree.ts). */
function addFields(collection: Iterator, expr: Document, options: Options): Iterator {
  const tree = ProjectionTree.addingFields(expr, (value) => (root) => evalExpr(root, pathsAsOperators(value), options));
  return collection.map((doc: Document) => tree.apply(doc));
}

const BSON_PIPELINE_OPERATORS: Record<string, unknown> = {
  $lookup: lookupByPipeline(lookupByFields(pipelineOperators.$lookup as PipelineOperator)),
  $graphLookup: graphLookupStage(pipelineOperators.$graphLookup as PipelineOperator),
  $setWindowFields: windowFieldsStage(pipelineOperators.$setWindowFields as PipelineOperator),
  $sample: sampleStage,
  $replaceRoot: replaceRootStage('$replaceRoot'),
  $replaceWith: replaceRootStage('$replaceWith'),
  $documents: documentsStage(pipelineOperators.$documents as PipelineOperator),
  $unwind: unwindStage(pipelineOperators.$unwind as PipelineOperator),
  // mingo's emits `{ count: 0 }` for no documents; mongod's $count is a $group, which emits none.
  $count: (collection: Iterator, expr: string, options: Options): Iterator =>
    (pipelineOperators.$count as PipelineOperator)(collection, expr, options).filter(
      (doc: Document) => doc[expr] !== 0,
    ),
  $redact: (collection: Iterator, expr: unknown, options: Options): Iterator =>
    collection.map((doc: Document) => redact(doc, expr, options)).filter((doc: unknown) => doc !== undefined),
  $sort: (collection: Iterator, spec: SortSpec): Iterator =>
    collection.transform((docs: Document[]) => Lazy(sortDocuments(docs, spec))),
  // Any $match (not only a leading one, also inside $lookup/$facet) builds a mingo Query.
  $match: (collection: Iterator, expr: unknown, options: Options): Iterator => {
    refuseWhere(expr);
    return (pipelineOperators.$match as PipelineOperator)(collection, filterForMingo(expr), options);
  },
  // mingo's copies the input of each sub-pipeline with `cloneDeep`, which drops fields named `__proto__`.
  $facet: (collection: Iterator, expr: Document, options: Options): Iterator =>
    collection.transform((docs: Document[]) => {
      const output: Document = {};
      for (const name of Object.keys(expr)) {
        output[name] = new Aggregator(expr[name] as Document[], options).run(clonedEach(docs));
      }
      return Lazy([output]);
    }),
  $group: (collection: Iterator, expr: Document, options: Options): Iterator =>
    bsonGroup(collection, expr, options, pipelineOperators.$group as PipelineOperator),
  // mongod's projection executor (projection-tree.ts): mingo built an inclusion's output from its sorted paths, read
  // `a.2` as an index and set a computed `a.b` on an array as one sub-document.
  $project: (collection: Iterator, expr: Document, options: Options): Iterator => {
    const tree = ProjectionTree.of(expr, (value) => (root) => evalExpr(root, pathsAsOperators(value), options));
    return collection.map((doc: Document) => tree.apply(doc));
  },
  // mingo's $addFields set nothing for `a.b` when `a` was an array, and replaced `a` for `{a: {b: 1}}`.
  $addFields: (collection: Iterator, expr: Document, options: Options): Iterator =>
    addFields(collection, expr, options),
  $set: (collection: Iterator, expr: Document, options: Options): Iterator => addFields(collection, expr, options),
  $unset: (collection: Iterator, expr: string | string[], options: Options): Iterator => {
    const paths = Array.isArray(expr) ? expr : [expr];
    return (BSON_PIPELINE_OPERATORS.$project as PipelineOperator)(
      collection,
      Object.fromEntries(paths.map((path) => [path, 0])),
      options,
    );
  },
};
// mongod's own rewrite of $bucket into a $group and a $sort, through the server's two stages.
BSON_PIPELINE_OPERATORS.$bucket = bucketStage(
  BSON_PIPELINE_OPERATORS.$group as PipelineOperator,
  BSON_PIPELINE_OPERATORS.$sort as PipelineOperator,
);
// mongod's own rewrite of $sortByCount: mingo's grouped 1, NumberLong(1) and NumberDecimal('1.0') apart.
BSON_PIPELINE_OPERATORS.$sortByCount = (collection: Iterator, expr: unknown, options: Options): Iterator =>
  (BSON_PIPELINE_OPERATORS.$sort as PipelineOperator)(
    (BSON_PIPELINE_OPERATORS.$group as PipelineOperator)(collection, { _id: expr, count: { $sum: 1 } }, options),
    { count: -1 },
    options,
  );
// mongod's $densify: a $sort through the server's stage, then its own state machine.
BSON_PIPELINE_OPERATORS.$densify = densifyStage(BSON_PIPELINE_OPERATORS.$sort as PipelineOperator);
// mongod's own rewrite of $fill into $setWindowFields ($locf, $linearFill) and $addFields ($ifNull).
BSON_PIPELINE_OPERATORS.$fill = fillStage(
  BSON_PIPELINE_OPERATORS.$setWindowFields as PipelineOperator,
  BSON_PIPELINE_OPERATORS.$addFields as PipelineOperator,
);
BSON_PIPELINE_OPERATORS.$bucketAuto = bucketAutoStage(
  pipelineOperators.$bucketAuto as PipelineOperator,
  BSON_PIPELINE_OPERATORS.$group as PipelineOperator,
);

const BSON_PROJECTION_OPERATORS = {
  $elemMatch: (obj: unknown, expr: unknown, field: string, options: Options): unknown =>
    (projectionOperators.$elemMatch as ProjectionOperator)(obj, filterForMingo(expr), field, options),
};

/** The accumulators of {@link MONGO_CONTEXT}. */
const ACCUMULATOR_OPERATORS = budgetedAccumulatorOperators(
  aggregationPathAccumulators({
    ...accumulatorOperators,
    ...BSON_ACCUMULATOR_OPERATORS,
    ...NUMERIC_ACCUMULATOR_OPERATORS,
    ...PERCENTILE_ACCUMULATOR_OPERATORS,
    ...ARRAY_ACCUMULATOR_OPERATORS,
    // Both forms in one (object-expressions.ts); mingo's accumulator merged the whole documents.
    $mergeObjects: mergeObjects,
    ...SERVER_SCRIPT_OPERATORS.accumulator,
  } as unknown as Record<string, AccumulatorOperator>),
);

/**
 * The expression operators that are accumulators too (`$first`, `$last`,
 * `$firstN`, …): mingo tries a `$group`'s operator as an expression first,
 * with the group's documents (an array) as the object; such a call goes to
 * the accumulator. (No expression is otherwise evaluated on an array: the
 * object is always a document.) The expression `$first: '$v'` had answered
 * the first of the group's present values, skipping a missing one.
 */
function accumulatorOnGroups(expressions: Record<string, ExpressionOperator>): Record<string, ExpressionOperator> {
  const out: Record<string, ExpressionOperator> = { ...expressions };
  for (const [name, expression] of Object.entries(expressions)) {
    const accumulator = ACCUMULATOR_OPERATORS[name];
    if (accumulator === undefined) continue;
    out[name] = (obj, expr, options) =>
      Array.isArray(obj) ? accumulator(obj, expr, options) : expression(obj, expr, options);
  }
  return out;
}

/**
 * mingo operators with the BSON-order, linear-regex, bounded and
 * no-script overrides taking precedence, each made to tick the command's
 * clock (maxTimeMS) and count what it builds (see {@link OperationBudget}).
 */
export const MONGO_CONTEXT: Context = Context.init({
  accumulator: ACCUMULATOR_OPERATORS,
  expression: accumulatorOnGroups(
    budgetedExpressionOperators(
      aggregationPathOperators(
        truthOperators(
          operandListOperators(
            arrayExpressionOperators(
              stringExpressionOperators(
                mongodExpressionOperators({
                  ...expressionOperators,
                  ...BSON_EXPRESSION_OPERATORS,
                  ...NUMERIC_EXPRESSION_OPERATORS,
                  ...SINGLE_NUMERIC_EXPRESSION_OPERATORS,
                  ...ARITHMETIC_OPERATORS,
                  ...REGEX_EXPRESSION_OPERATORS,
                  ...BOUNDED_EXPRESSION_OPERATORS,
                  ...PERCENTILE_EXPRESSION_OPERATORS,
                  ...SERVER_SCRIPT_OPERATORS.expression,
                } as unknown as Record<string, ExpressionOperator>),
              ),
            ),
          ),
        ),
      ),
    ),
  ),
  pipeline: budgetedPipelineOperators(
    aggregationPathStages({
      ...pipelineOperators,
      ...BSON_PIPELINE_OPERATORS,
    } as unknown as Record<string, PipelineOperator>),
  ),
  projection: { ...projectionOperators, ...BSON_PROJECTION_OPERATORS },
  query: budgetedQueryOperators({
    ...queryOperators,
    ...BSON_QUERY_OPERATORS,
  } as unknown as Record<string, QueryOperator>),
  window: { ...windowOperators },
} as unknown as Parameters<typeof Context.init>[0]);

/**
 * The system variables mingo does not define itself: `$$CLUSTER_TIME`, which
 * a replica set member (as this server presents itself) gives as the
 * cluster time when the command began, a Timestamp.
 */
const SYSTEM_VARIABLES: Record<string, unknown> = Object.defineProperty({}, 'CLUSTER_TIME', {
  enumerable: true,
  get: clusterTime,
});

/** The cluster time of the command running now, as the change log counts it, and as a Timestamp once read. */
let commandTime = 0n;
let commandTimestamp: Timestamp | undefined;

/**
 * Sets the time `$$CLUSTER_TIME` gives while a command runs: the server's
 * cluster time as the command began (the command router calls it), one
 * value for the whole command, as mongod's expression context holds it.
 * A command runs from its start to its reply without yielding, so one value
 * serves every server in the process. A cursor's results are computed by the
 * command that opens it; only a change stream's stages run in each getMore,
 * with that getMore's time.
 */
export function setCommandClusterTime(time: bigint): void {
  if (time === commandTime) return;
  commandTime = time;
  commandTimestamp = undefined;
}

/** Made once per time: mingo reads every variable (`$$this` in a `$map` too) for each access. */
function clusterTime(): Timestamp {
  return (commandTimestamp ??= timestampOf(commandTime));
}

/** mingo options for the embedded server: strict MongoDB mode, no `$where` scripts. */
export function mingoOptions(extra: Partial<Options> = {}): Partial<Options> {
  return {
    context: MONGO_CONTEXT,
    idKey: '_id',
    useStrictMode: true,
    scriptEnabled: false,
    processingMode: ProcessingMode.CLONE_OFF,
    // A filter's `$jsonSchema` (find, $match, count) is checked as a collection validator's is.
    jsonSchemaValidator: compileSchema,
    variables: SYSTEM_VARIABLES,
    ...extra,
  };
}

/**
 * {@link mingoOptions}`()` as the `ComputeOptions` object mingo makes of it,
 * made once. From a plain options object, mingo copies every operator table of
 * its `context` (some 250 operators) each time a query, pipeline or
 * expression is set up: 40% of a find by an indexed field, 10 µs. A
 * `ComputeOptions` it takes as it is, copying only its per-run values. mingo
 * does not export the class; it hands an instance to the operators it runs,
 * which is where this one comes from. Undefined, and plain options used, if a
 * mingo version no longer behaves so (checked here with a query).
 */
const PREPARED_OPTIONS = ((): Options | undefined => {
  let given: unknown;
  const probe = Context.init({
    expression: {
      $probe: (_obj: unknown, _expr: unknown, options: unknown) => {
        given = options;
        return null;
      },
    },
  } as unknown as Parameters<typeof Context.init>[0]);
  evalExpr({}, { $probe: 1 }, { context: probe } as Options);
  const init = (given as { constructor?: { init?: unknown } } | undefined)?.constructor?.init;
  if (typeof init !== 'function') return undefined;
  const prepared = (init as (options: Partial<Options>) => Options).call(given!.constructor, mingoOptions());
  try {
    // A mingo that took it for plain options would find no `$gt` in an empty context.
    const query = new Query({ a: { $gt: 1 } }, prepared);
    return query.test({ a: 2 }) && !query.test({ a: 1 }) ? prepared : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * mingo options for running a query, pipeline or expression without options
 * of its own: {@link mingoOptions}`()`, prepared once (see PREPARED_OPTIONS).
 */
export function preparedMingoOptions(): Options {
  return PREPARED_OPTIONS ?? (mingoOptions() as Options);
}

/** Runs `fn`, turning mingo's errors into MongoDB's BadValue error. */
export function withMingoErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // mongod's code for a variable nothing defines, met while running (parsing refuses most before).
    if (/^Use of undefined variable: /.test(message)) throw new CommandError('Location17276', message);
    // mongod's wording, which clients and tests match on.
    throw new CommandError('BadValue', message.replace(/^unknown query operator (\$\w+)$/, 'unknown operator: $1'));
  }
}

/**
 * Compiles a query filter into a predicate (throws BadValue on a bad filter;
 * on its `$expr`s, what mongod's expression parser throws: 168 for an
 * unknown operator, 16020/28667 for a wrong argument count, 17276 for a
 * variable that nothing in `scope` defines).
 */
export function compileFilter(filter: Document | undefined, scope: Scope = NO_VARIABLES): (doc: Document) => boolean {
  if (filter === undefined || filter === null) return () => true;
  // The type first: Object.keys() of a 4 MB string makes 4 million keys.
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    throw new CommandError('TypeMismatch', "BSON field 'filter' is the wrong type, expected type 'object'");
  }
  if (Object.keys(filter).length === 0) return () => true;
  const id: unknown = filter._id;
  if (id instanceof ObjectId && Object.keys(filter).length === 1) {
    // `{ _id: <ObjectId> }`, most look-ups by far: only an equal ObjectId matches, so compiling a matcher
    // (about half of such a find's time in the server) buys nothing.
    const equal = (value: unknown): boolean => value instanceof ObjectId && id.equals(value);
    return (doc) => {
      const value: unknown = (doc as Document | null)?._id;
      return equal(value) || (Array.isArray(value) && value.some(equal));
    };
  }
  refuseWhere(filter);
  refuseProtoFields(filter, 'a query filter');
  forEachFilterExpression(filter, (expr) => {
    checkExpression(expr, MONGO_CONTEXT);
    checkVariables(expr, scope);
  });
  // `$text` is checked here but matched through the text index (text-search.ts runs such queries).
  const query = withMingoErrors(() => new Query(filterForMingo(matchedPart(filter)), preparedMingoOptions()));
  return (doc) => withMingoErrors(() => query.test(doc));
}

const LOGICAL = new Set(['$and', '$or', '$nor']);

/**
 * The clauses the matcher leaves out: `$text`, run against the text index by
 * `runTextQuery`, and `$comment`, a note for the logs that mongod's parser
 * takes wherever a top-level operator may be (and matches everything), which
 * mingo refuses as an unknown top-level operator.
 */
const NOT_MATCHED = new Set(['$text', '$comment']);

/**
 * `filter` without its `$text` and `$comment` clauses, at its top level and
 * in `$and`, `$or`, `$nor`, and with a `$sampleRate` there as the `$expr`
 * mongod's parser makes of it (mingo knows no such top-level operator).
 */
function matchedPart(filter: Document): Document {
  const keys = Object.keys(filter);
  if (!keys.some((key) => NOT_MATCHED.has(key) || LOGICAL.has(key) || key === '$sampleRate')) return filter;
  const out: Document = {};
  let sampled: { $expr: unknown } | undefined;
  for (const key of keys) {
    if (NOT_MATCHED.has(key)) continue;
    if (key === '$sampleRate') {
      sampled = { $expr: sampleRateCondition(filter[key]) };
      continue;
    }
    const value: unknown = filter[key];
    // Defined, not assigned: a field named "__proto__" stays a field.
    Object.defineProperty(out, key, {
      value:
        LOGICAL.has(key) && Array.isArray(value)
          ? value.map((branch: unknown) => (typeAlias(branch) === 'object' ? matchedPart(branch as Document) : branch))
          : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  // Beside the other clauses, whatever they are (an `$expr` or `$and` of the filter's own included).
  return sampled ? { $and: [out, sampled] } : out;
}

function isPlainSpec(value: unknown): value is Document {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}
