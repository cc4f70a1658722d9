/**
 * Arguments of the wrong BSON type are refused with MongoDB's TypeMismatch
 * (code 14) and its message, never answered with an internal error or a
 * JavaScript exception text. Written from mongod's IDL messages; runs against
 * MONGO_URL too.
 */
import { MongoServerError } from 'mongodb';
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
    [{ endSessions: false }, 10065, 'invalid parameter: expected an object (endSessions)'],
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
});
