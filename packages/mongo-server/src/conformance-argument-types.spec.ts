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
  ])('should refuse %j with TypeMismatch', async (command, message) => {
    expect(await refusal(command)).toEqual({ code: 14, codeName: 'TypeMismatch', message });
  });
});
