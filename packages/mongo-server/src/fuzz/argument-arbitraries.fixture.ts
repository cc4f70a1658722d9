/**
 * fast-check arbitraries of command arguments for the server fuzzer, shaped
 * like real ones most of the time (filters with query operators, aggregation
 * expressions and pipelines, sorts, projections, updates, index
 * specifications) and any BSON value otherwise.
 */
import type { Document } from 'bson';
import fc from 'fast-check';

import {
  bsonDocument,
  bsonRegex,
  bsonScalar,
  bsonValue,
  documentOf,
  EXPRESSION_OPERATORS,
  fieldName,
  operatorDocument,
  PIPELINE_STAGES,
  QUERY_OPERATORS,
  UPDATE_OPERATORS,
} from './bson-arbitraries.fixture.js';

/** Usually `structured`, sometimes any BSON value: type confusion on every argument. */
export const arg = <T>(structured: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 6, arbitrary: structured }, { weight: 1, arbitrary: bsonValue });

/** Counts and sizes: small integers, and now and then an edge of int32, Int64 or a fraction. */
export const count = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -2, max: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31), 1.5, NaN, 2n ** 62n, -1n, 0n) },
);
/** Booleans, and now and then another scalar. */
export const flag = fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: bsonScalar });
/** The fuzzer's two collections, odd names and non-strings. */
export const collection = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('fuzz', 'items') },
  { weight: 1, arbitrary: fc.constantFrom('', 'system.views', 'a.b', '$cmd', 'a$b', '.a', 'x'.repeat(300)) },
  { weight: 1, arbitrary: bsonScalar },
);
/** The fuzzer's database, a few others, odd names and non-strings. */
export const database = fc.oneof(
  { weight: 12, arbitrary: fc.constant('fuzz') },
  { weight: 2, arbitrary: fc.constantFrom('admin', 'other', 'local', 'config') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a.b', 'a$b', 'a b', 'x'.repeat(100)) },
  { weight: 1, arbitrary: bsonScalar },
);
/** `$`-prefixed field paths. */
export const fieldPath = fieldName.map((name) => `$${name}`);

/** Aggregation expressions: field paths, literals, operator calls with argument lists or documents. */
export const { expression } = fc.letrec<{ expression: unknown }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: fc.oneof(fieldPath, bsonScalar) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...EXPRESSION_OPERATORS), fc.array(tie('expression'), { maxLength: 4 }))
        .map(([op, args]) => documentOf([[op, args]])),
    },
    { weight: 2, arbitrary: operatorDocument(tie('expression'), EXPRESSION_OPERATORS) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...EXPRESSION_OPERATORS),
          fc.array(
            fc.tuple(
              fc.constantFrom('input', 'as', 'in', 'cond', 'regex', 'find', 'n', 'to', 'initialValue'),
              tie('expression'),
            ),
            { maxLength: 3 },
          ),
        )
        .map(([op, named]) => documentOf([[op, documentOf(named)]])),
    },
  ),
}));

/** Query filters: equality, operator conditions, logical operators, `$expr`, `$where`. */
export const { filter } = fc.letrec<{ filter: Document; condition: unknown }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: bsonScalar },
    { weight: 1, arbitrary: bsonRegex },
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom(...QUERY_OPERATORS),
            fc.oneof(bsonScalar, fc.array(bsonScalar, { maxLength: 4 }), tie('filter'), tie('condition')),
          ),
          {
            minLength: 1,
            maxLength: 3,
          },
        )
        .map(documentOf),
    },
    { weight: 1, arbitrary: bsonValue },
  ),
  filter: fc
    .array(
      fc.oneof(
        { weight: 5, arbitrary: fc.tuple(fieldName, tie('condition')) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom('$and', '$or', '$nor'), fc.array(tie('filter'), { maxLength: 3 })),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constant('$expr'), expression) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom('$where', '$text', '$jsonSchema', '$comment', '$alwaysTrue'), bsonValue),
        },
      ),
      { maxLength: 3 },
    )
    .map(documentOf),
}));

/** Sort specifications. */
export const sort = fc
  .array(
    fc.tuple(
      fieldName,
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(1, -1) }, { weight: 1, arbitrary: bsonValue }),
    ),
    { maxLength: 3 },
  )
  .map(documentOf);

/** Find projections: inclusion, exclusion, expressions, `$elemMatch`, `$slice`. */
export const projection = fc
  .array(
    fc.tuple(
      fieldName,
      fc.oneof(
        fc.constantFrom(0, 1, true, false),
        expression,
        filter.map((f) => ({ $elemMatch: f })),
        fc.integer({ min: -3, max: 3 }).map((n) => ({ $slice: n })),
      ),
    ),
    { maxLength: 3 },
  )
  .map(documentOf);

/** Update modifier documents. */
const updateOperators = fc
  .array(
    fc.tuple(
      fc.constantFrom(...UPDATE_OPERATORS),
      arg(fc.array(fc.tuple(fieldName, bsonValue), { maxLength: 3 }).map(documentOf)),
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map(documentOf);

/** Aggregation stages with arguments shaped like real ones. */
export const { pipeline } = fc.letrec<{ pipeline: Document[]; stage: Document }>((tie) => {
  const fields = (value: fc.Arbitrary<unknown>) =>
    fc.array(fc.tuple(fieldName, value), { maxLength: 3 }).map(documentOf);
  const stageArgument: Record<string, fc.Arbitrary<unknown>> = {
    $match: filter,
    $project: projection,
    $addFields: fields(expression),
    $set: fields(expression),
    $group: fc
      .tuple(expression, fields(operatorDocument(expression, EXPRESSION_OPERATORS)))
      .map(([id, rest]) => ({ _id: id, ...rest })),
    $sort: sort,
    $limit: count,
    $skip: count,
    $unwind: fc.oneof(
      fieldPath,
      fc.record({ path: fieldPath, preserveNullAndEmptyArrays: flag }, { requiredKeys: ['path'] }),
    ),
    $lookup: fc.record(
      { from: collection, localField: fieldName, foreignField: fieldName, as: fieldName, pipeline: tie('pipeline') },
      { requiredKeys: ['as'] },
    ),
    $facet: fields(tie('pipeline')),
    $unionWith: fc.oneof(collection, fc.record({ coll: collection, pipeline: tie('pipeline') })),
    $replaceRoot: fc.record({ newRoot: expression }),
    $replaceWith: expression,
    $count: fc.oneof(fieldName, bsonScalar),
    $bucket: fc.record({
      groupBy: expression,
      boundaries: fc.array(bsonScalar, { maxLength: 4 }),
      default: bsonScalar,
    }),
    $sortByCount: expression,
    $unset: fc.oneof(fieldName, fc.array(fieldName, { maxLength: 3 })),
  };
  return {
    stage: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      {
        weight: 4,
        arbitrary: fc
          .constantFrom(...Object.keys(stageArgument))
          .chain((op) => arg(stageArgument[op]!).map((a) => documentOf([[op, a]]))),
      },
      { weight: 1, arbitrary: operatorDocument(bsonValue, PIPELINE_STAGES) },
      { weight: 1, arbitrary: bsonDocument },
    ),
    pipeline: fc.array(tie('stage'), { maxLength: 4 }),
  };
});

/** An update statement's `u`: modifiers, a replacement or a pipeline. */
export const update = fc.oneof(
  { weight: 4, arbitrary: updateOperators },
  { weight: 2, arbitrary: bsonDocument },
  { weight: 1, arbitrary: pipeline },
);

/** createIndexes specifications. */
export const indexSpec = fc.record(
  {
    key: arg(
      fc
        .array(fc.tuple(fieldName, fc.oneof(fc.constantFrom(1, -1, 'text', '2dsphere', 'hashed', '2d'), bsonScalar)), {
          minLength: 1,
          maxLength: 3,
        })
        .map(documentOf),
    ),
    name: arg(fc.oneof(fc.constantFrom('a_1', 'b_-1', '_id_', 'idx'), fc.string({ maxLength: 8 }))),
    unique: flag,
    sparse: flag,
    partialFilterExpression: arg(filter),
    expireAfterSeconds: count,
    collation: arg(fc.record({ locale: fc.constantFrom('en', 'simple', 'fr'), strength: count })),
    background: flag,
  },
  { requiredKeys: [] },
);
