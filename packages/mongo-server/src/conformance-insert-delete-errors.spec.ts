/**
 * Conformance: the errors mongod 7 answers for malformed `insert` and `delete`
 * commands. A command that cannot parse (`ordered` of a wrong type, a
 * non-document in `documents`, a delete statement without `q` or `limit`, a
 * `limit` other than 0 or 1) fails as a whole; a document that cannot be
 * inserted (a duplicate `_id`, an array or regex `_id`, a document naming
 * `_id` twice, sent over a raw socket) gets a `writeErrors` entry inside an
 * `ok: 1` reply. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against a
 * real MongoDB; its shared data is replaced by the few documents the
 * duplicate-key cases collide with. Passes against MONGO_URL too.
 */
import { connect } from 'node:net';

import { BSON, type Document, Double, Int32, Long } from 'mongodb';

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
    // The drivers' CRUD spec (insertOne-dots_and_dollars): mongod's validIdField, DollarPrefixedFieldName.
    [
      'an _id document with a $-prefixed field',
      { documents: [{ _id: { $a: 1 } }] },
      0,
      52,
      "_id fields may not contain '$'-prefixed fields: $a is not valid for storage.",
    ],
    [
      'an _id with a $-prefixed field deeper in it',
      { documents: [{ _id: 'fine' }, { _id: { k: [{ $b: 1 }] } }] },
      1,
      52,
      "_id fields may not contain '$'-prefixed fields: $b is not valid for storage.",
    ],
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

/**
 * A document naming `_id` twice, which no JavaScript object can hold: the
 * insert goes over a raw socket as an OP_MSG whose `documents` sequence holds
 * the hand-made bytes, as the drivers of other languages send it.
 */
describe('insert of a document naming _id twice', () => {
  /** `{ _id: first, _id: second, v: 1 }` as BSON: two string `_id` elements, then an int32. */
  function twoIds(first: string, second: string): Buffer {
    const string = (name: string, value: string): Buffer => {
      const text = Buffer.from(`${value}\0`, 'utf8');
      const length = Buffer.alloc(4);
      length.writeInt32LE(text.length);
      return Buffer.concat([Buffer.from([0x02]), Buffer.from(`${name}\0`), length, text]);
    };
    const v = Buffer.from([0x10, 0x76, 0x00, 1, 0, 0, 0]);
    const body = Buffer.concat([string('_id', first), string('_id', second), v, Buffer.from([0])]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(body.length + 4);
    return Buffer.concat([size, body]);
  }

  /** Sends one OP_MSG (`body`, then a `documents` sequence of `docs`) and resolves with its reply's body. */
  async function insertRaw(body: Document, docs: Buffer[]): Promise<Document> {
    const { hostname, port } = new URL(fx.mongo.uri.replace(/^mongodb:/, 'http:'));
    const bodyBytes = Buffer.from(BSON.serialize(body));
    const identifier = Buffer.from('documents\0');
    const sequenceSize = Buffer.alloc(4);
    sequenceSize.writeInt32LE(4 + identifier.length + docs.reduce((n, d) => n + d.length, 0));
    const payload = Buffer.concat([
      Buffer.alloc(4), // flags
      Buffer.from([0]),
      bodyBytes,
      Buffer.from([1]),
      sequenceSize,
      identifier,
      ...docs,
    ]);
    const header = Buffer.alloc(16);
    header.writeInt32LE(16 + payload.length, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(2013, 12);
    const socket = connect(Number(port), hostname);
    try {
      const reply = await new Promise<Buffer>((resolve, reject) => {
        let received = Buffer.alloc(0);
        socket.on('error', reject);
        socket.on('data', (data: Buffer) => {
          received = Buffer.concat([received, data]);
          if (received.length >= 4 && received.length >= received.readInt32LE(0)) resolve(received);
        });
        socket.write(Buffer.concat([header, payload]));
      });
      return BSON.deserialize(reply.subarray(21));
    } finally {
      socket.destroy();
    }
  }

  it("should refuse it with a write error, BadValue can't have multiple _id fields, and insert the others", async () => {
    const collection = await fx.fresh('insert_two_ids');
    const reply = await insertRaw({ insert: 'insert_two_ids', ordered: false, $db: fx.db.databaseName }, [
      twoIds('foo', 'bar'),
      Buffer.from(BSON.serialize({ _id: 'single', v: 2 })),
    ]);
    expect(reply).toMatchObject({
      n: 1,
      writeErrors: [{ index: 0, code: 2, errmsg: "can't have multiple _id fields in one document" }],
      ok: 1,
    });
    expect(await collection.find().toArray()).toEqual([{ _id: 'single', v: 2 }]);
  });

  it('should take an _id inside an embedded document as no second _id', async () => {
    const collection = await fx.fresh('insert_nested_id');
    const doc = Buffer.from(BSON.serialize({ _id: 1, sub: { _id: 2 }, list: [{ _id: 3 }] }));
    const reply = await insertRaw({ insert: 'insert_nested_id', $db: fx.db.databaseName }, [doc]);
    // With the cluster time a replica-set member adds to every reply.
    expect(reply).toEqual({ n: 1, ok: 1, $clusterTime: expect.anything(), operationTime: expect.anything() });
    expect(await collection.countDocuments()).toBe(1);
  });
});
