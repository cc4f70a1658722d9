/**
 * Conformance: the errors mongod 7 answers for malformed `insert` and `delete`
 * commands. A command that cannot parse (`ordered` of a wrong type, a
 * non-document in `documents`, a delete statement without `q` or `limit`, a
 * `limit` other than 0 or 1) fails as a whole; a document that cannot be
 * inserted (a duplicate `_id`, an array or regex `_id`) gets a `writeErrors`
 * entry inside an `ok: 1` reply. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against a
 * real MongoDB; its shared data is replaced by the few documents the
 * duplicate-key cases collide with. Passes against MONGO_URL too.
 */
import { type Document, Double, Int32, Long } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

const INSERT = 'insert_errors';
const DELETE = 'delete_errors';

/** mongod's duplicate key message for `_id` in the insert collection. */
const dupId =
  (key: string) =>
  (namespace: string): string =>
    `E11000 duplicate key error collection: ${namespace} index: _id_ dup key: { _id: ${key} }`;

describe('insert command errors', () => {
  it.each<[label: string, command: Document, code: number, message: string]>([
    [
      'a string ordered',
      { documents: [{ _id: 'foo' }], ordered: 'foo' },
      14,
      "BSON field 'insert.ordered' is the wrong type 'string', expected type 'bool'",
    ],
    [
      'an array among the documents',
      { documents: [{ a: 1 }, []], ordered: true },
      14,
      "BSON field 'insert.documents.1' is the wrong type 'array', expected type 'object'",
    ],
  ])('should refuse %s', async (_label, command, code, message) => {
    await fx.fresh(INSERT);
    const error = await rejection(fx.db.command({ insert: INSERT, ...command }));
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

/** An insert answered with one write error; a message naming the collection is built from its namespace. */
type WriteErrorCase = [
  label: string,
  command: Document,
  index: number,
  code: number,
  message: string | ((namespace: string) => string),
];

describe('insert write errors', () => {
  it.each<WriteErrorCase>([
    ['an existing string _id', { documents: [{ _id: 'double' }], ordered: false }, 0, 11000, dupId('"double"')],
    [
      'an existing string _id after a new document, ordered',
      { documents: [{ foo: 'bar' }, { _id: 'double' }], ordered: true },
      1,
      11000,
      dupId('"double"'),
    ],
    ['an int32 _id equal to an Int64 one', { documents: [{ _id: new Int32(1), v: 'foo1' }] }, 0, 11000, dupId('1')],
    ['a double _id equal to an Int64 one', { documents: [{ _id: new Double(1), v: 'foo3' }] }, 0, 11000, dupId('1.0')],
    [
      'an array _id',
      { documents: [{ _id: [42, 42] }], ordered: false },
      0,
      53,
      "The '_id' value cannot be of type array",
    ],
    ['a regex _id', { documents: [{ _id: /foo/i }], ordered: false }, 0, 53, "The '_id' value cannot be of type regex"],
  ])('should answer a write error for %s', async (_label, command, index, code, message) => {
    const collection = await fx.fresh(INSERT);
    await collection.insertMany([
      { _id: 'double', v: 42.13 },
      { _id: Long.fromNumber(1), v: 'foo2' },
    ] as Document[]);
    const reply = await fx.db.command({ insert: INSERT, ...command });
    const errmsg = typeof message === 'string' ? message : message(`${fx.db.databaseName}.${INSERT}`);
    expect(reply.ok).toBe(1);
    expect(
      ((reply.writeErrors ?? []) as Document[]).map((error) => ({
        index: error.index as unknown,
        code: error.code as unknown,
        errmsg: error.errmsg as unknown,
      })),
    ).toEqual([{ index, code, errmsg }]);
  });
});

describe('delete command errors', () => {
  it.each<[label: string, command: Document, code: number, message: string]>([
    [
      'a statement without q',
      { deletes: [{}] },
      40414,
      "BSON field 'delete.deletes.q' is missing but a required field",
    ],
    [
      'a statement without limit',
      { deletes: [{ q: { v: 'foo' } }] },
      40414,
      "BSON field 'delete.deletes.limit' is missing but a required field",
    ],
    [
      'a fractional limit',
      { deletes: [{ q: { v: 'foo' }, limit: 42.13 }] },
      9,
      'The limit field in delete objects must be 0 or 1. Got 42.13',
    ],
    [
      'an integer limit other than 0 or 1',
      { deletes: [{ q: { v: 'foo' }, limit: 100 }] },
      9,
      'The limit field in delete objects must be 0 or 1. Got 100',
    ],
  ])('should refuse %s', async (_label, command, code, message) => {
    await fx.fresh(DELETE);
    const error = await rejection(fx.db.command({ delete: DELETE, ...command }));
    expect([error.code, error.message]).toEqual([code, message]);
  });
});
