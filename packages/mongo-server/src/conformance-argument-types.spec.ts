/**
 * Arguments of the wrong BSON type are refused with MongoDB's TypeMismatch
 * (code 14) and its message, never answered with an internal error or a
 * JavaScript exception text. Written from mongod's IDL messages; runs against
 * MONGO_URL too.
 */
import { Long, MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

async function refusal(
  command: Record<string, unknown>,
): Promise<{ code: unknown; codeName: unknown; message: string }> {
  try {
    await fixture.db.command(command);
  } catch (error) {
    if (!(error instanceof MongoServerError)) throw error;
    return { code: error.code, codeName: error.codeName, message: error.message };
  }
  throw new Error(`${JSON.stringify(command)} was accepted`);
}

describe('argument types', () => {
  beforeAll(async () => {
    await (await fixture.fresh('things')).insertOne({ _id: 1, list: [1, 2] } as never);
  });

  it.each([
    [
      { killCursors: 'things', cursors: 'x' },
      "BSON field 'killCursors.cursors' is the wrong type 'string', expected type 'array'",
    ],
    [
      { killCursors: 'things', cursors: ['x'] },
      "BSON field 'killCursors.cursors.0' is the wrong type 'string', expected type 'long'",
    ],
    // An int32 is no cursor id either (the case another compatible server's suite asserts against MongoDB).
    [
      { killCursors: 'things', cursors: [Long.fromNumber(1), 100500] },
      "BSON field 'killCursors.cursors.1' is the wrong type 'int', expected type 'long'",
    ],
    [
      { update: 'things', updates: [{ q: {}, u: { $set: { 'list.$[e]': 0 } }, arrayFilters: 'x' }] },
      "BSON field 'update.updates.arrayFilters' is the wrong type 'string', expected type 'array'",
    ],
    [
      { findAndModify: 'things', query: {}, update: { $set: { 'list.$[e]': 0 } }, arrayFilters: 'x' },
      "BSON field 'findAndModify.arrayFilters' is the wrong type 'string', expected type 'array'",
    ],
    // A statement or document that is not a document (the server read its fields and failed).
    [
      { update: 'things', updates: [null] },
      "BSON field 'update.updates.0' is the wrong type 'null', expected type 'object'",
    ],
    [
      { delete: 'things', deletes: [{ q: { _id: 3 }, limit: 0 }, 5] },
      "BSON field 'delete.deletes.1' is the wrong type 'int', expected type 'object'",
    ],
    [
      { insert: 'things', documents: ['x'] },
      "BSON field 'insert.documents.0' is the wrong type 'string', expected type 'object'",
    ],
    [
      { getMore: 1.5, collection: 'things' },
      "BSON field 'getMore.getMore' is the wrong type 'double', expected type 'long'",
    ],
    // Session fields are parsed for every command before it runs (the server converted them and failed).
    [
      { ping: 1, txnNumber: 'x' },
      "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'string', expected type 'long'",
    ],
    [
      { ping: 1, txnNumber: 1.5 },
      "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'double', expected type 'long'",
    ],
    [
      { ping: 1, autocommit: 1 },
      "BSON field 'OperationSessionInfo.autocommit' is the wrong type 'int', expected type 'bool'",
    ],
    [
      { ping: 1, startTransaction: 'yes' },
      "BSON field 'OperationSessionInfo.startTransaction' is the wrong type 'string', expected type 'bool'",
    ],
    [
      { endSessions: [{ id: 'x' }] },
      "BSON field 'endSessions.endSessionsFromClient.id' is the wrong type 'string', expected type 'binData'",
    ],
    [{ endSessions: false }, "BSON field 'endSessions.endSessions' is the wrong type 'bool', expected type 'array'"],
  ])('should refuse %j with TypeMismatch', async (command, message) => {
    expect(await refusal(command)).toEqual({ code: 14, codeName: 'TypeMismatch', message });
  });

  // JSON.stringify() threw on the Int64 while wording the error, which became an InternalError.
  it('should name an index key holding an Int64 when it finds no such index', async () => {
    expect(await refusal({ dropIndexes: 'things', index: { list: 2n ** 40n } })).toEqual({
      code: 27,
      codeName: 'IndexNotFound',
      message: "can't find index with key: { list: 1099511627776 }",
    });
  });

  it.each([
    [
      { endSessions: [{ id: null }] },
      40414,
      "BSON field 'endSessions.endSessionsFromClient.id' is missing but a required field",
    ],
  ])('should refuse %j with its numbered assertion', async (command, code, message) => {
    expect(await refusal(command)).toEqual({ code, codeName: `Location${code}`, message });
  });

  // The JavaScript that applied them threw on such updates, which became InternalError.
  it.each([
    [
      { $set: 'x' },
      9,
      'Modifiers operate on fields but we found type string instead. For example: {$mod: {<field>: ...}} not {$set: "x"}',
    ],
    [
      { $inc: null },
      9,
      'Modifiers operate on fields but we found type null instead. For example: {$mod: {<field>: ...}} not {$inc: null}',
    ],
    [[{ $count: 'n' }], 72, '$count is not allowed to be used within an update'],
    [[{ $set: { x: 1 } }, { $unwind: '$list' }], 72, '$unwind is not allowed to be used within an update'],
  ])('should refuse the update %j with a write error, changing nothing', async (u, code, errmsg) => {
    // Updating the document, and upserting one that does not exist.
    for (const [_id, upsert] of [
      [1, false],
      [2, true],
    ]) {
      const reply = await fixture.db.command({ update: 'things', updates: [{ q: { _id }, u, upsert }] });
      expect(reply.writeErrors).toEqual([{ index: 0, code, errmsg }]);
    }
    expect(await fixture.db.collection('things').find().toArray()).toEqual([{ _id: 1, list: [1, 2] }]);
  });

  // Number() read these as limits, and threw on the last (InternalError, found by the server fuzzer).
  it.each([['1'], [true], [[1]], [{ toString: 0 }]])(
    'should refuse a delete whose limit is %j, deleting nothing',
    async (limit) => {
      const refused = await refusal({ delete: 'things', deletes: [{ q: {}, limit }] });
      expect([refused.code, refused.codeName]).toEqual([14, 'TypeMismatch']);
      expect(refused.message).toContain("BSON field 'delete.deletes.limit' is the wrong type");
      expect(await fixture.db.collection('things').countDocuments()).toBe(1);
    },
  );
});

// A string (or array) where mongod expects a document is refused by its type. The server
// enumerated such a string as an object, one key per character: 4 MB cost it 2.5–40 s.
describe('a value of another type where a document is expected', () => {
  beforeAll(async () => {
    await (await fixture.fresh('shapes')).insertMany([{ _id: 1, a: [{ b: 1 }] }, { _id: 2 }] as never[]);
  });
  const aggregate = (stage: Record<string, unknown>) => ({ aggregate: 'shapes', pipeline: [stage], cursor: {} });

  it.each([
    [aggregate({ $addFields: 'x' }), 40272, '$addFields specification stage must be an object, got string'],
    [aggregate({ $set: 'x' }), 40272, '$set specification stage must be an object, got string'],
    [aggregate({ $project: 'x' }), 15969, '$project specification must be an object'],
    [aggregate({ $group: 'x' }), 15947, "a group's fields must be specified in an object"],
    [aggregate({ $match: 'x' }), 15959, 'the match filter must be an expression in an object'],
    [aggregate({ $sort: 'x' }), 15973, 'the $sort key specification must be an object'],
    [aggregate({ $sample: 'x' }), 28745, 'the $sample stage specification must be an object'],
    [aggregate({ $bucket: 'x' }), 40201, 'Argument to $bucket stage must be an object, but found type: string.'],
    [aggregate({ $bucketAuto: 'x' }), 40240, 'The argument to $bucketAuto must be an object, but found type: string.'],
    [aggregate({ $replaceRoot: 'x' }), 40229, 'expected an object as specification for $replaceRoot stage, got string'],
    [{ find: 'shapes', filter: { a: { $elemMatch: 'x' } } }, 2, '$elemMatch needs an Object'],
    [{ dropIndexes: 'shapes' }, 40414, "BSON field 'dropIndexes.index' is missing but a required field"],
  ])('should refuse %j with its code and message', async (command, code, message) => {
    expect(await refusal(command)).toMatchObject({ code, message });
  });

  it.each([
    aggregate({ $facet: 'x' }),
    aggregate({ $lookup: 'x' }),
    aggregate({ $graphLookup: 'x' }),
    aggregate({ $setWindowFields: 'x' }),
    aggregate({ $project: { x: { $percentile: 'x' } } }),
    aggregate({ $project: { x: { $unsetField: 'x' } } }),
    aggregate({ $group: { _id: null, x: { $top: 'x' } } }),
    aggregate({ $redact: 'x' }),
    { dropIndexes: 'shapes', index: 5 },
    { dropIndexes: 'shapes', index: [1] },
    { createIndexes: 'shapes', indexes: [{ key: ['a'], name: 'bad' }] },
    { createIndexes: 'shapes', indexes: [{ key: { a: [1] }, name: 'bad' }] },
    { create: 'shapes_schema', validator: { $jsonSchema: { properties: 'x' } } },
  ])('should refuse %j', async (command) => {
    expect((await refusal(command)).codeName).not.toBe('InternalError');
  });

  it.each([
    [[{ $set: 'x' }], 40272],
    [['x'], 14],
  ])('should refuse the pipeline update %j, changing nothing', async (u, code) => {
    const outcome = await fixture.db.command({ update: 'shapes', updates: [{ q: { _id: 1 }, u }] }).then(
      (reply) => reply.writeErrors?.[0]?.code,
      (error: MongoServerError) => error.code,
    );
    expect(outcome).toBe(code);
    expect(await fixture.db.collection('shapes').findOne({ _id: 1 } as never)).toEqual({ _id: 1, a: [{ b: 1 }] });
  });
});
