/**
 * Conformance: the `$listLocalSessions` aggregation stage on `aggregate: 1`
 * (the server's logical sessions as `{ _id: { id, uid }, lastUse }`), with
 * mongod 7's errors. Written for a server without authentication, which is
 * what the embedded server is; a real MongoDB via MONGO_URL passes it too.
 */
import { createHash } from 'node:crypto';

import { Binary, type ClientSession, type Document } from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

function listLocalSessions(spec: unknown, rest: Document[] = []): Promise<Document[]> {
  return fx.client
    .db('admin')
    .aggregate([{ $listLocalSessions: spec }, ...rest])
    .toArray();
}

/** The session's id as the server holds it (the driver's `session.id.id`). */
function idOf(session: ClientSession): Binary {
  return session.id!.id as Binary;
}

function hex(binary: unknown): string {
  return Buffer.from((binary as Binary).buffer).toString('hex');
}

describe('$listLocalSessions', () => {
  it('lists a session the server has seen, as { _id: { id, uid }, lastUse }', async () => {
    const session = fx.client.startSession();
    try {
      const before = Date.now();
      await fx.db.collection('sessions_seen').findOne({}, { session });
      const all = await listLocalSessions({ allUsers: true });
      const mine = all.find((doc) => hex((doc._id as Document).id) === hex(idOf(session)));
      expect(mine).toBeDefined();
      expect(Object.keys(mine!).sort()).toEqual(['_id', 'lastUse']);
      expect(Object.keys(mine!._id as Document)).toEqual(['id', 'uid']);
      expect(((mine!._id as Document).id as Binary).sub_type).toBe(4);
      // No authentication: every session belongs to the empty user, SHA-256 of nothing.
      expect(hex((mine!._id as Document).uid)).toBe(createHash('sha256').update('').digest('hex'));
      expect(mine!.lastUse).toBeInstanceOf(Date);
      expect((mine!.lastUse as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    } finally {
      await session.endSession();
    }
  });

  it("lists the caller's own sessions for {}, and none of another user", async () => {
    const session = fx.client.startSession();
    try {
      await fx.db.collection('sessions_seen').findOne({}, { session });
      const own = await listLocalSessions({});
      expect(own.some((doc) => hex((doc._id as Document).id) === hex(idOf(session)))).toBe(true);
      expect(await listLocalSessions({ users: [{ user: 'nobody', db: 'admin' }] })).toEqual([]);
    } finally {
      await session.endSession();
    }
  });

  it('runs the stages after it', async () => {
    const session = fx.client.startSession();
    try {
      await fx.db.collection('sessions_seen').findOne({}, { session });
      const found = await listLocalSessions({ allUsers: true }, [
        { $match: { '_id.id': idOf(session) } },
        { $project: { _id: 0, used: { $type: '$lastUse' } } },
      ]);
      expect(found).toEqual([{ used: 'date' }]);
    } finally {
      await session.endSession();
    }
  });

  it.each([
    [
      'a non-object spec',
      'admin',
      1,
      [{ $listLocalSessions: 'all' }],
      14,
      '$listLocalSessions options must be specified in an object, but found: string',
    ],
    [
      'allUsers with users',
      'admin',
      1,
      [{ $listLocalSessions: { allUsers: true, users: [{ user: 'a', db: 'b' }] } }],
      51,
      '$listLocalSessions may not specify {allUsers:true} and {users:[...]} at the same time',
    ],
    [
      'an unknown option',
      'admin',
      1,
      [{ $listLocalSessions: { everyone: true } }],
      40415,
      "BSON field '$listLocalSessions.everyone' is an unknown field.",
    ],
    [
      'a collection',
      'admin',
      'coll',
      [{ $listLocalSessions: {} }],
      73,
      '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection',
    ],
    [
      'a later stage',
      'admin',
      1,
      [{ $listLocalSessions: {} }, { $listLocalSessions: {} }],
      40602,
      '$listLocalSessions is only valid as the first stage in a pipeline',
    ],
  ])('refuses %s', async (_label, db, aggregate, pipeline, code, message) => {
    const error = await rejection(fx.client.db(db).command({ aggregate, pipeline, cursor: {} }));
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
  });
});
