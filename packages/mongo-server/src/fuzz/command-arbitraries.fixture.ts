/**
 * fast-check arbitraries of whole commands for the server fuzzer: every
 * command the router knows, each with its own arguments built like real ones
 * (filters, updates, pipelines, index specs, fail point data, session
 * fields) most of the time and any BSON value otherwise, plus unknown
 * fields, odd databases and commands the router does not know.
 */
import type { Document } from 'bson';
import fc from 'fast-check';

import { Binary } from '../bson/bson-library.cjs';
import { CommandRouter } from '../commands/command-router.js';
import {
  arg,
  collection,
  count,
  database,
  filter,
  flag,
  indexSpec,
  pipeline,
  projection,
  sort,
  update,
} from './argument-arbitraries.fixture.js';
import { bsonDocument, bsonScalar, bsonValue, documentOf, fieldName } from './bson-arbitraries.fixture.js';

/** Stands for the id of the last cursor a reply on the same connection opened (substituted when sent). */
export const LAST_CURSOR_ID = Symbol('last cursor id');

const sessionId = (n: number) => ({ id: new Binary(Buffer.alloc(16, n), Binary.SUBTYPE_UUID) });
/** The few sessions the fuzzer's commands share, so that transactions meet each other. */
export const FUZZ_SESSION_IDS = [1, 2, 3].map(sessionId);

const failPointData = fc.record(
  {
    failCommands: arg(fc.array(fc.constantFrom(...CommandRouter.commandNames()), { maxLength: 3 })),
    errorCode: arg(fc.constantFrom(2, 11600, 91, 112, 251, 10107, 50, 0, -1)),
    closeConnection: flag,
    blockConnection: flag,
    // Short: the commands after it in the same sequence must still be answered in time.
    blockTimeMS: fc.integer({ min: 0, max: 100 }),
    writeConcernError: arg(fc.record({ code: bsonScalar, errmsg: bsonScalar, errInfo: bsonDocument })),
    errorLabels: arg(fc.array(bsonScalar, { maxLength: 2 })),
    appName: arg(fc.string({ maxLength: 4 })),
    namespace: arg(fc.constantFrom('fuzz.fuzz', 'fuzz.items')),
  },
  { requiredKeys: [] },
);

/** Each command's own arguments, after its name (which the first entry gives). */
const ARGUMENTS: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  find: {
    filter,
    sort,
    projection,
    skip: count,
    limit: count,
    batchSize: count,
    singleBatch: flag,
    hint: bsonValue,
    maxTimeMS: count,
  },
  aggregate: {
    pipeline,
    cursor: fc.record({ batchSize: count }, { requiredKeys: [] }),
    explain: flag,
    allowDiskUse: flag,
    let: bsonDocument,
  },
  count: { query: filter, limit: count, skip: count },
  distinct: { key: fieldName, query: filter },
  getMore: { collection, batchSize: count },
  killCursors: { cursors: fc.array(fc.oneof(fc.bigInt({ min: 0n, max: 3n }), bsonScalar), { maxLength: 3 }) },
  insert: { documents: fc.array(bsonDocument, { maxLength: 4 }), ordered: flag },
  update: {
    updates: fc.array(
      fc.record(
        {
          q: arg(filter),
          u: arg(update),
          multi: flag,
          upsert: flag,
          arrayFilters: arg(fc.array(filter, { maxLength: 2 })),
        },
        { requiredKeys: ['q', 'u'] },
      ),
      { maxLength: 3 },
    ),
    ordered: flag,
  },
  delete: {
    deletes: fc.array(fc.record({ q: arg(filter), limit: arg(fc.constantFrom(0, 1, 2)) }, { requiredKeys: ['q'] }), {
      maxLength: 3,
    }),
  },
  findAndModify: {
    query: filter,
    sort,
    update,
    remove: flag,
    new: flag,
    fields: projection,
    upsert: flag,
    arrayFilters: fc.array(filter, { maxLength: 2 }),
  },
  createIndexes: { indexes: fc.array(indexSpec, { maxLength: 3 }) },
  dropIndexes: {
    index: fc.oneof(
      fc.constantFrom('*', 'a_1', '_id_'),
      fc.array(fc.constantFrom('a_1', 'idx'), { maxLength: 2 }),
      bsonDocument,
    ),
  },
  create: {
    capped: flag,
    size: count,
    validator: filter,
    viewOn: collection,
    pipeline,
    timeseries: bsonDocument,
    clusteredIndex: bsonDocument,
  },
  listCollections: { filter, nameOnly: flag, cursor: fc.record({ batchSize: count }, { requiredKeys: [] }) },
  listIndexes: { cursor: fc.record({ batchSize: count }, { requiredKeys: [] }) },
  listDatabases: { filter, nameOnly: flag },
  hello: {
    client: fc.record({ application: fc.record({ name: arg(fc.string({ maxLength: 6 })) }) }),
    helloOk: flag,
    compression: fc.array(bsonScalar, { maxLength: 2 }),
  },
  getParameter: { featureCompatibilityVersion: bsonScalar },
  endSessions: {},
  configureFailPoint: {
    mode: fc.oneof(
      fc.constantFrom('off', 'alwaysOn'),
      fc.record({ times: count }),
      fc.record({ skip: count }),
      fc.record({ activationProbability: fc.double() }),
    ),
    data: failPointData,
  },
};
ARGUMENTS.findandmodify = ARGUMENTS.findAndModify!;
ARGUMENTS.deleteIndexes = ARGUMENTS.dropIndexes!;
ARGUMENTS.isMaster = ARGUMENTS.ismaster = ARGUMENTS.hello!;

/** What each command names first (its collection, or 1). */
const FIRST: Record<string, fc.Arbitrary<unknown>> = {
  aggregate: fc.oneof(collection, fc.constant(1)),
  getMore: fc.oneof(
    { weight: 3, arbitrary: fc.constant(LAST_CURSOR_ID) },
    { weight: 1, arbitrary: fc.oneof(fc.bigInt(), bsonScalar) },
  ),
  configureFailPoint: fc.oneof(
    { weight: 5, arbitrary: fc.constant('failCommand') },
    { weight: 1, arbitrary: bsonScalar },
  ),
  getParameter: fc.oneof(fc.constantFrom('*', 1), bsonScalar),
  endSessions: fc.array(fc.oneof(fc.constantFrom(...FUZZ_SESSION_IDS), bsonValue), { maxLength: 3 }),
};
const COLLECTION_FIRST = new Set([
  'find',
  'count',
  'distinct',
  'killCursors',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'createIndexes',
  'dropIndexes',
  'deleteIndexes',
  'create',
  'drop',
  'listIndexes',
]);

const sessionFields: [string, fc.Arbitrary<unknown>][] = [
  [
    'lsid',
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FUZZ_SESSION_IDS) }, { weight: 1, arbitrary: bsonValue }),
  ],
  [
    'txnNumber',
    fc.oneof({ weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 4n }) }, { weight: 1, arbitrary: bsonScalar }),
  ],
  ['autocommit', fc.oneof(fc.constant(false), bsonScalar)],
  ['startTransaction', fc.oneof(fc.constant(true), bsonScalar)],
  ['readConcern', arg(fc.record({ level: fc.constantFrom('local', 'majority', 'snapshot', 'linearizable', 'x') }))],
  [
    'writeConcern',
    arg(
      fc.record(
        { w: fc.oneof(fc.constantFrom(0, 1, 'majority'), bsonScalar), j: flag, wtimeout: count },
        { requiredKeys: [] },
      ),
    ),
  ],
  ['maxTimeMS', count],
  ['comment', bsonValue],
];

/** Picks each `[field, arbitrary]` with probability about 1/2. */
function someOf(fields: [string, fc.Arbitrary<unknown>][]): fc.Arbitrary<[string, unknown][]> {
  return fc
    .tuple(
      ...fields.map(([field, value]) =>
        fc.option(
          value.map((v): [string, unknown] => [field, v]),
          { freq: 2, nil: undefined },
        ),
      ),
    )
    .map((entries) => entries.filter((entry): entry is [string, unknown] => entry !== undefined));
}

/** A command of the router named `name`, with its own arguments, session fields, extra fields and `$db`. */
export function commandNamed(name: string): fc.Arbitrary<Document> {
  const first = FIRST[name] ?? (COLLECTION_FIRST.has(name) ? collection : fc.oneof(fc.constant(1), bsonScalar));
  const own = Object.entries(ARGUMENTS[name] ?? {}).map(([field, value]): [string, fc.Arbitrary<unknown>] => [
    field,
    arg(value),
  ]);
  return fc
    .record({
      first: arg(first),
      own: someOf(own),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: someOf(sessionFields) }),
      extra: fc.array(fc.tuple(fieldName, bsonValue), { maxLength: 2 }),
      db: database,
    })
    .map(({ first, own, session, extra, db }) =>
      documentOf([[name, first], ...own, ...session, ...extra, ['$db', db]]),
    );
}

/** Any command: one the router knows (most of the time) or an unknown name, or fields in any order. */
export const anyCommand: fc.Arbitrary<Document> = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...CommandRouter.commandNames()).chain(commandNamed) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom('noSuchCommand', 'eval', 'mapReduce', 'shutdown', '$db', ''), fieldName),
        bsonDocument,
        database,
      )
      .map(([name, rest, db]) => documentOf([[name, 1], ...Object.entries(rest), ['$db', db]])),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...CommandRouter.commandNames()).chain(commandNamed), fc.boolean())
      .map(([cmd, reverse]) => {
        const entries = Object.entries(cmd);
        return documentOf(reverse ? entries.reverse() : [...entries.slice(1), entries[0]!]);
      }),
  },
);
