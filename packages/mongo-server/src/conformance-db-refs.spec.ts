/**
 * Conformance: DBRefs (MongoDB's "Database References" page; mongod's
 * jstests dbref2.js, dbref3.js and server1470.js; its expression_parser.cpp,
 * where `$ref`, `$id` and `$db` are pathless operators and a `{ $ref, $id }`
 * document is a value). To mongod a DBRef is a plain document whose fields
 * are named `$ref`, `$id` and `$db`: paths reach into it, it is stored and
 * returned in its own field order, and it is compared as a document. The
 * drivers alone make a class of it. Runs against a real MongoDB via MONGO_URL.
 */
import { DBRef, type Document, ObjectId } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';
import { accessPath, winningPlan } from './explain-plan.fixture.js';

const fx = useDriverFixture();

/** Rows with a numeric `_id` (the driver's default schema wants an ObjectId). */
type Row = Document & { _id: number };

/** A DBRef to an id of any type (the driver's types want an ObjectId). */
const dbRef = (collection: string, id: unknown, db?: string, fields?: Document) =>
  new DBRef(collection, id as ObjectId, db, fields);
const collection = (name: string) => fx.db.collection<Row>(name);
const fresh = async (name: string) => {
  await fx.fresh(name);
  return collection(name);
};

/** The field names of `sub` as the server holds them (the driver would make a DBRef of some). */
async function serverFieldNames(name: string, filter: Document = {}): Promise<string[][]> {
  const rows = await collection(name)
    .aggregate([
      { $match: filter },
      { $sort: { _id: 1 } },
      { $project: { _id: 0, names: { $map: { input: { $objectToArray: '$sub' }, in: '$$this.k' } } } },
    ])
    .toArray();
  return rows.map((row) => row.names as string[]);
}

describe('dbref3.js: DBRef-shaped sub-documents', () => {
  const oid = new ObjectId('4c48d04cd33a5a92628c9af6');
  // [sub, whether a driver reads it back as a DBRef]
  const docs: [Document, boolean][] = [
    [{ $ref: 'foo', $id: 'bar' }, true],
    [{ $ref: 'foo', $id: 'bar', $db: 'baz' }, true],
    [{ $ref: 'foo', $id: 'bar', db: 'baz' }, true],
    [{ $ref: 'foo', $id: oid }, true],
    [{ $ref: 'foo', $id: 1 }, true],
    [{ $ref: 123, $id: 'bar' }, false],
    [{ $id: 'bar', $ref: 'foo' }, true],
    [{ $ref: 'foo' }, false],
    [{ $id: 'foo' }, false],
    [{ other: 1, $ref: 'foo', $id: 'bar' }, true],
  ];

  beforeAll(async () => {
    const c = await fresh('dbref3');
    await c.insertMany(docs.map(([sub], i) => ({ _id: i, sub })));
  });

  it('keeps each sub-document whole and in its own field order', async () => {
    expect(await serverFieldNames('dbref3')).toEqual(docs.map(([sub]) => Object.keys(sub)));
    const read = await collection('dbref3').find().sort({ _id: 1 }).toArray();
    expect(read.map((doc) => doc.sub instanceof DBRef)).toEqual(docs.map(([, isRef]) => isRef));
    expect(read[1]!.sub).toEqual(dbRef('foo', 'bar', 'baz'));
    expect(read[3]!.sub).toEqual(new DBRef('foo', oid));
  });

  it.each<[string, unknown[]]>([
    ['sub.$ref', [123, 'foo']],
    ['sub.$id', [1, 'bar', 'foo', oid]],
    ['sub.$db', ['baz']],
  ])('distinct(%s) reads the DBRef field', async (path, expected) => {
    const values = await collection('dbref3').distinct(path);
    expect(values).toHaveLength(expected.length);
    expect(values).toEqual(expect.arrayContaining(expected));
  });

  it('projects the positional element of an array $id', async () => {
    const c = collection('dbref3');
    await c.insertOne({
      _id: 100,
      sub: {
        $ref: 'foo',
        $id: [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
          { x: 3, y: 3 },
        ],
      },
    });
    try {
      const doc = await c.findOne({ 'sub.$id': { $elemMatch: { x: 2 } } }, { projection: { _id: 0, 'sub.$id.$': 1 } });
      expect(doc).toEqual({ sub: { $id: [{ x: 2, y: 2 }] } });
    } finally {
      await c.deleteOne({ _id: 100 });
    }
  });
});

describe('queries through DBRef fields', () => {
  const user = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

  beforeAll(async () => {
    const c = await fresh('posts');
    await c.insertMany([
      { _id: 1, author: new DBRef('users', user(1)), readers: [new DBRef('users', user(2), 'app')] },
      {
        _id: 2,
        author: new DBRef('users', user(2)),
        readers: [new DBRef('users', user(1)), { $ref: 'bots', $id: 7, x: 1 }],
      },
      { _id: 3, author: new DBRef('admins', user(1)), readers: [] },
    ]);
    const users = await fx.fresh('users');
    await users.insertMany([
      { _id: user(1), name: 'ann' },
      { _id: user(2), name: 'bob' },
    ]);
  });

  const ids = async (filter: Document) =>
    (await collection('posts').find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc._id as number);

  it.each<[string, Document, number[]]>([
    ["a DBRef's $id by path", { 'author.$id': user(1) }, [1, 3]],
    ["a DBRef's $ref by path", { 'author.$ref': 'admins' }, [3]],
    ['a path through an array of DBRefs', { 'readers.$id': user(1) }, [2]],
    ['$db, present in one DBRef only', { 'readers.$db': 'app' }, [1]],
    ['a whole DBRef, as a document', { author: new DBRef('users', user(2)) }, [2]],
    [
      'a DBRef document in $in',
      { author: { $in: [new DBRef('admins', user(1)), new DBRef('users', user(2))] } },
      [2, 3],
    ],
    ['$elemMatch on $ref and $id', { readers: { $elemMatch: { $ref: 'users', $id: user(1) } } }, [2]],
    ['$elemMatch on $id alone', { readers: { $elemMatch: { $id: user(2) } } }, [1]],
    ['$elemMatch on $db alone', { readers: { $elemMatch: { $db: 'app' } } }, [1]],
    ['$elemMatch on $id and another field', { readers: { $elemMatch: { $id: 7, x: 1 } } }, [2]],
    ['$elemMatch whose other field differs', { readers: { $elemMatch: { $id: 7, x: 2 } } }, []],
    ['$elemMatch on $id under $or', { readers: { $elemMatch: { $or: [{ $id: 7 }, { $id: 8 }] } } }, [2]],
    [
      'an $id operand that looks like an operator is a value',
      { readers: { $elemMatch: { $id: { $exists: true } } } },
      [],
    ],
    ['a top-level $id: the field "$id" of the document', { $id: user(1) }, []],
    ['a top-level $ref beside a field', { $or: [{ $ref: 'users' }, { _id: 3 }] }, [3]],
    ['$elemMatch on a null $db: the elements without one', { readers: { $elemMatch: { $db: null } } }, [2]],
  ])('%s', async (_label, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
    expect(await collection('posts').countDocuments(filter)).toBe(expected.length);
  });

  it('sorts, groups and joins by a DBRef field in a pipeline', async () => {
    const rows = await fx.db
      .collection('posts')
      .aggregate([
        { $match: { 'author.$ref': 'users' } },
        { $lookup: { from: 'users', localField: 'author.$id', foreignField: '_id', as: 'by' } },
        { $group: { _id: '$author.$id', names: { $push: { $first: '$by.name' } } } },
        { $sort: { _id: -1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: user(2), names: ['bob'] },
      { _id: user(1), names: ['ann'] },
    ]);
  });

  it('compares $ref binary and $id under the collation', async () => {
    const collation = { locale: 'en', strength: 2 };
    const c = collection('posts');
    expect(await c.countDocuments({ readers: { $elemMatch: { $ref: 'BOTS' } } }, { collation })).toBe(0);
    await c.insertOne({ _id: 4, readers: [{ $ref: 'bots', $id: 'Nine' }] });
    try {
      expect(await c.countDocuments({ readers: { $elemMatch: { $id: 'nine' } } }, { collation })).toBe(1);
      expect(await c.countDocuments({ readers: { $elemMatch: { $id: 'nine' } } })).toBe(0);
    } finally {
      await c.deleteOne({ _id: 4 });
    }
  });

  it.each<[string, Document, string]>([
    ['$id under a field (no $ref: no DBRef)', { author: { $id: user(1) } }, 'unknown operator: $id'],
    ['an operator document in $in', { author: { $in: [{ $gt: 1 }] } }, 'cannot nest $ under $in'],
    ['an operator document in $nin', { author: { $nin: [{ $id: 1 }] } }, 'cannot nest $ under $in'],
  ])('refuses %s with BadValue', async (_label, filter, message) => {
    const error = await rejection(collection('posts').find(filter).toArray());
    expect([error.codeName, error.message]).toEqual(['BadValue', message]);
  });

  it('uses an index on a DBRef field and on the DBRef itself', async () => {
    const c = collection('posts');
    await c.createIndex({ 'author.$id': 1 });
    await c.createIndex({ author: 1 });
    const access = async (filter: Document, hint: Document) =>
      accessPath(winningPlan(await c.find(filter).hint(hint).explain('queryPlanner')));
    expect(await access({ 'author.$id': user(1) }, { 'author.$id': 1 })).toMatchObject({
      stage: 'IXSCAN',
      indexName: 'author.$id_1',
    });
    expect(await access({ author: new DBRef('users', user(2)) }, { author: 1 })).toMatchObject({
      stage: 'IXSCAN',
      indexName: 'author_1',
    });
    expect(await ids({ 'author.$id': user(1) })).toEqual([1, 3]);
    expect(await c.countDocuments({ 'author.$id': user(1) })).toBe(2);
    expect(await c.countDocuments({ author: new DBRef('users', user(2)) })).toBe(1);
  });
});

describe('writes with DBRefs', () => {
  it('server1470.js: an upsert takes the DBRef of its filter into the new document', async () => {
    const c = await fresh('server1470');
    const pic = new DBRef('foo', new ObjectId('4c48d04cd33a5a92628c9af6'));
    await c.updateMany({ name: 'first', pic }, { $set: { x: 1 } }, { upsert: true });
    const doc = await c.findOne({}, { projection: { _id: 0 } });
    expect(doc).toEqual({ name: 'first', pic, x: 1 });
  });

  it('$pull removes by a whole DBRef and by an $id condition', async () => {
    const c = await fresh('pulled');
    await c.insertOne({ _id: 1, refs: [dbRef('a', 1), dbRef('a', 2), dbRef('b', 3)] });
    await c.updateOne({ _id: 1 }, { $pull: { refs: dbRef('a', 1) } } as Document);
    await c.updateOne({ _id: 1 }, { $pull: { refs: { $id: 3 } } } as Document);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, refs: [dbRef('a', 2)] });
  });

  it('arrayFilters reach an element by its $id', async () => {
    const c = await fresh('filtered');
    await c.insertOne({ _id: 1, refs: [dbRef('a', 1), dbRef('a', 2)] });
    await c.updateOne({ _id: 1 }, { $set: { 'refs.$[r].seen': true } }, { arrayFilters: [{ 'r.$id': 2 }] });
    const doc = await c.findOne({ _id: 1 });
    expect(doc!.refs).toEqual([dbRef('a', 1), dbRef('a', 2, undefined, { seen: true })]);
  });
});
