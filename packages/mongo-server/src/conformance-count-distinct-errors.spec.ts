/**
 * Conformance: the errors mongod 7 answers for malformed `count` and
 * `distinct` commands: a collection name of the wrong type or empty, and a
 * `key` or `query` of the wrong type. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against a
 * real MongoDB (without authentication; with it, mongod refuses a
 * non-string collection name earlier, with "Failed to parse namespace
 * element"). Every command fails while it is parsed, before a document is
 * read. Passes against MONGO_URL too.
 */
import { Binary, BSONRegExp, type Document, Long, ObjectId, Timestamp } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const NAME = 'count_distinct_errors';

/** The collection with two documents, standing in for the other suite's shared data. */
async function populated(): Promise<void> {
  const collection = await fx.fresh(NAME);
  await collection.insertMany([
    { _id: 1, v: 'some', a: 1 },
    { _id: 2, v: [1, 'some'], a: { b: 2 } },
  ] as never[]);
}

type Case = [label: string, command: Document, code: number, message: string];

/** `<db>` in a message stands for the test database's name. */
const DB = '<db>';

const badName = (label: string, name: unknown, type: string): Case => [
  `a collection name that is ${label}`,
  { count: name, query: { v: 'some' } },
  73,
  `collection name has invalid type ${type}`,
];

describe('count errors', () => {
  it.each<Case>([
    badName('a document', {}, 'object'),
    badName('an array', [], 'array'),
    badName('a double', 3.14, 'double'),
    badName('a binary', new Binary(), 'binData'),
    badName('an ObjectId', new ObjectId('000000000000000000000000'), 'objectId'),
    badName('a boolean', true, 'bool'),
    badName('a date', new Date(), 'date'),
    badName('null', null, 'null'),
    badName('a regular expression', new BSONRegExp('/foo/'), 'regex'),
    badName('an int', 42, 'int'),
    badName('a timestamp', new Timestamp({ t: 0, i: 0 }), 'timestamp'),
    badName('a long', Long.fromNumber(42), 'long'),
  ])('should refuse %s', async (_label, command, code, message) => {
    await populated();
    const error = await rejection(fx.db.command(command));
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('distinct errors', () => {
  it.each<Case>([
    [
      'a string query',
      { distinct: NAME, key: 'a', query: 'a' },
      14,
      "BSON field 'distinct.query' is the wrong type 'string', expected type 'object'",
    ],
    ['an empty collection name', { distinct: '', key: 'a', query: {} }, 73, `Invalid namespace specified '${DB}.'`],
    [
      'a document as collection name',
      { distinct: {}, key: 'a', query: {} },
      73,
      'collection name has invalid type object',
    ],
    [
      'a document key',
      { distinct: NAME, key: {}, query: {} },
      14,
      "BSON field 'distinct.key' is the wrong type 'object', expected type 'string'",
    ],
    [
      'an array key',
      { distinct: NAME, key: [], query: {} },
      14,
      "BSON field 'distinct.key' is the wrong type 'array', expected type 'string'",
    ],
    [
      'an int key',
      { distinct: NAME, key: 1, query: {} },
      14,
      "BSON field 'distinct.key' is the wrong type 'int', expected type 'string'",
    ],
  ])('should refuse %s', async (_label, command, code, message) => {
    await populated();
    const error = await rejection(fx.db.command(command));
    expect([error.code, error.message]).toEqual([code, message.replace(DB, fx.db.databaseName)]);
  });
});
