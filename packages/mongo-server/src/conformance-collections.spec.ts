/**
 * Conformance: collection-level features — read-only views, document
 * validators (`$jsonSchema` and query validators, validationLevel and
 * validationAction), collMod, renameCollection, collStats and dbStats,
 * options MongoDB 7.0 does not know, and the filters of listCollections and
 * listDatabases. Written from MongoDB 7's manual;
 * passes against MONGO_URL too.
 */
import { type Document, MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

async function failure(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

async function drop(...names: string[]): Promise<void> {
  for (const name of names) await fx.db.dropCollection(name).catch(() => undefined);
}

describe('views', () => {
  beforeEach(async () => {
    await drop('cheap', 'cheapest', 'items');
    await fx.db.collection('items').insertMany([
      { _id: 1, name: 'a', price: 5, tags: ['x'] },
      { _id: 2, name: 'b', price: 50, tags: ['y'] },
      { _id: 3, name: 'c', price: 8, tags: ['x', 'z'] },
    ] as never[]);
    await fx.db.createCollection('cheap', { viewOn: 'items', pipeline: [{ $match: { price: { $lt: 10 } } }] });
  });

  it('should run reads through the view pipeline', async () => {
    const cheap = fx.db.collection('cheap');
    expect(await cheap.find({}, { sort: { price: -1 } }).toArray()).toEqual([
      { _id: 3, name: 'c', price: 8, tags: ['x', 'z'] },
      { _id: 1, name: 'a', price: 5, tags: ['x'] },
    ]);
    expect(await cheap.find({ name: 'a' }, { projection: { _id: 0, name: 1 } }).toArray()).toEqual([{ name: 'a' }]);
    expect(await cheap.find().sort({ price: 1 }).skip(1).limit(1).toArray()).toMatchObject([{ _id: 3 }]);
    expect(await cheap.countDocuments()).toBe(2);
    expect(await cheap.distinct('tags')).toEqual(['x', 'z']);
    expect(await cheap.aggregate([{ $group: { _id: null, total: { $sum: '$price' } } }]).toArray()).toEqual([
      { _id: null, total: 13 },
    ]);
  });

  it('should follow a view defined on a view', async () => {
    await fx.db.createCollection('cheapest', { viewOn: 'cheap', pipeline: [{ $match: { price: { $lt: 6 } } }] });
    expect(await fx.db.collection('cheapest').find().toArray()).toMatchObject([{ _id: 1 }]);
  });

  it('should list a view as a view', async () => {
    const [info] = await fx.db.listCollections({ name: 'cheap' }).toArray();
    expect(info).toMatchObject({ name: 'cheap', type: 'view', options: { viewOn: 'items' } });
  });

  it.each([
    ['insertOne', () => fx.db.collection('cheap').insertOne({ a: 1 })],
    ['updateOne', () => fx.db.collection('cheap').updateOne({}, { $set: { a: 1 } })],
    ['deleteMany', () => fx.db.collection('cheap').deleteMany({})],
    ['createIndex', () => fx.db.collection('cheap').createIndex({ a: 1 })],
  ])('should refuse %s (CommandNotSupportedOnView)', async (_label, write) => {
    const error = await failure(write());
    expect(error.code).toBe(166);
    expect(error.message).toBe(`Namespace ${fx.db.databaseName}.cheap is a view, not a collection`);
  });

  // mongod parses a command's arguments before it looks at what the namespace is: a read on a
  // view refuses a wrongly typed argument with the error the same read on a collection gives.
  it.each<[string, Document]>([
    ['aggregate, pipeline a document', { aggregate: '?', pipeline: {}, cursor: {} }],
    ['aggregate, pipeline a number', { aggregate: '?', pipeline: 1, cursor: {} }],
    ['aggregate, a stage that is a number', { aggregate: '?', pipeline: [1], cursor: {} }],
    ['aggregate, an unknown stage', { aggregate: '?', pipeline: [{ $bogus: 1 }], cursor: {} }],
    ['aggregate, no cursor option', { aggregate: '?', pipeline: [] }],
    ['aggregate, cursor a number', { aggregate: '?', pipeline: [], cursor: 1 }],
    ['find, filter a number', { find: '?', filter: 1 }],
    ['find, filter a string', { find: '?', filter: 'price' }],
    ['find, sort a string', { find: '?', sort: 'price' }],
    ['find, projection a number', { find: '?', projection: 5 }],
    ['find, negative skip', { find: '?', skip: -1 }],
    ['find, limit a string', { find: '?', limit: 'x' }],
    ['find, negative batchSize', { find: '?', batchSize: -1 }],
    ['count, query a number', { count: '?', query: 1 }],
    ['count, skip a string', { count: '?', skip: 'x' }],
    ['count, limit a document', { count: '?', limit: {} }],
    ['distinct, no key', { distinct: '?' }],
    ['distinct, key a number', { distinct: '?', key: 1 }],
    ['distinct, query a number', { distinct: '?', key: 'name', query: 1 }],
  ])('should refuse %s as it does on a collection', async (_label, command) => {
    const on = (name: string) => {
      const [verb] = Object.keys(command);
      return fx.db.command({ ...command, [verb!]: name });
    };
    const onCollection = await failure(on('items'));
    const onView = await failure(on('cheap'));
    expect(onCollection.codeName).not.toBe('InternalError');
    expect([onView.code, onView.codeName]).toEqual([onCollection.code, onCollection.codeName]);
  });
});

describe('validators', () => {
  const SCHEMA = {
    $jsonSchema: {
      bsonType: 'object',
      required: ['name', 'price'],
      properties: {
        name: { bsonType: 'string', minLength: 1 },
        price: { bsonType: ['int', 'double'], minimum: 0 },
        tags: { bsonType: 'array', items: { bsonType: 'string' }, maxItems: 3 },
      },
    },
  };

  beforeEach(() => drop('validated'));

  it.each([
    ['a missing required field', { name: 'a' }],
    ['a wrong type', { name: 'a', price: '5' }],
    ['a value under the minimum', { name: 'a', price: -1 }],
    ['an empty string under minLength', { name: '', price: 1 }],
    ['a wrong item type', { name: 'a', price: 1, tags: [1] }],
    ['too many items', { name: 'a', price: 1, tags: ['a', 'b', 'c', 'd'] }],
  ])('should refuse to insert a document with %s (DocumentValidationFailure)', async (_label, doc) => {
    const c = await fx.db.createCollection('validated', { validator: SCHEMA });
    const error = await failure(c.insertOne(doc));
    expect(error.code).toBe(121);
    expect(error.message).toBe('Document failed validation');
    expect(await c.countDocuments()).toBe(0);
  });

  it('should accept a valid document and refuse an update that breaks it', async () => {
    const c = await fx.db.createCollection('validated', { validator: SCHEMA });
    await c.insertOne({ _id: 1, name: 'a', price: 5, tags: ['x'] } as never);
    expect((await failure(c.updateOne({ _id: 1 } as never, { $unset: { price: '' } }))).code).toBe(121);
    expect((await failure(c.findOneAndUpdate({ _id: 1 } as never, { $set: { price: -5 } }))).code).toBe(121);
    await c.updateOne({ _id: 1 } as never, { $unset: { price: '' } }, { bypassDocumentValidation: true });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, name: 'a', tags: ['x'] });
  });

  it('should enforce a query validator', async () => {
    const c = await fx.db.createCollection('validated', {
      validator: { $or: [{ qty: { $gte: 0 } }, { kind: 'note' }] },
    });
    await c.insertMany([{ qty: 1 }, { kind: 'note' }]);
    expect((await failure(c.insertOne({ qty: -1 }))).code).toBe(121);
  });

  it("should only warn with validationAction 'warn', and skip invalid documents with validationLevel 'moderate'", async () => {
    const c = await fx.db.createCollection('validated');
    await c.insertOne({ _id: 1, name: 'no price' } as never);
    await fx.db.command({ collMod: 'validated', validator: SCHEMA, validationAction: 'warn' });
    await c.insertOne({ _id: 2 } as never);
    await fx.db.command({ collMod: 'validated', validationAction: 'error', validationLevel: 'moderate' });
    // Already invalid: moderate lets updates through.
    await c.updateOne({ _id: 1 } as never, { $set: { note: 1 } });
    expect((await failure(c.insertOne({ _id: 3 } as never))).code).toBe(121);
    await fx.db.command({ collMod: 'validated', validationLevel: 'strict' });
    expect((await failure(c.updateOne({ _id: 1 } as never, { $set: { note: 2 } }))).code).toBe(121);
    const [info] = await fx.db.listCollections({ name: 'validated' }).toArray();
    expect((info as Document | undefined)?.options).toMatchObject({
      validator: SCHEMA,
      validationLevel: 'strict',
      validationAction: 'error',
    });
  });

  it.each([
    ['an unknown keyword', { $jsonSchema: { bsonType: 'object', foo: 1 } }, 9, 'Unknown $jsonSchema keyword: foo'],
    [
      'an unsupported keyword',
      { $jsonSchema: { format: 'email' } },
      9,
      "$jsonSchema keyword 'format' is not currently supported",
    ],
  ])('should refuse a validator with %s', async (_label, validator, code, message) => {
    const error = await failure(fx.db.createCollection('validated', { validator }));
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
  });

  // Type names are looked up as names, not as properties: 'toString' and '__proto__' are unknown types.
  it.each(['toString', '__proto__', 'constructor'])(
    "should refuse the type '%s' as it refuses any unknown type",
    async (name) => {
      const refusal = async (type: string) => {
        const error = await failure(fx.db.createCollection('validated', { validator: { $jsonSchema: { type } } }));
        return { code: error.code, message: error.message.replace(type, '<type>') };
      };
      expect(await refusal(name)).toEqual(await refusal('nosuchtype'));
    },
  );

  it('should refuse an unknown validationLevel', async () => {
    await fx.db.createCollection('validated');
    const error = await failure(fx.db.command({ collMod: 'validated', validationLevel: 'sometimes' }));
    expect(error.code).toBe(2);
  });
});

describe('collMod, renameCollection and statistics', () => {
  beforeEach(() => drop('source', 'target', 'other'));

  it('should refuse collMod on a missing collection (NamespaceNotFound)', async () => {
    expect((await failure(fx.db.command({ collMod: 'other', validator: {} }))).code).toBe(26);
  });

  it("should change a TTL index's expireAfterSeconds with collMod", async () => {
    const c = fx.db.collection('source');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
    const reply = await fx.db.command({ collMod: 'source', index: { keyPattern: { at: 1 }, expireAfterSeconds: 120 } });
    expect(reply).toMatchObject({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 120, ok: 1 });
    expect((await c.indexes()).find((i) => i.name === 'at_1')?.expireAfterSeconds).toBe(120);
  });

  it('should rename a collection with its documents and indexes', async () => {
    const source = fx.db.collection('source');
    await source.insertMany([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ] as never[]);
    await source.createIndex({ slug: 1 }, { unique: true });
    await source.rename('target');
    const target = fx.db.collection('target');
    expect(await target.find().toArray()).toEqual([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ]);
    expect((await target.indexes()).map((i: Document) => i.name)).toEqual(['_id_', 'slug_1']);
    expect((await failure(target.insertOne({ slug: 'a' }))).code).toBe(11000);
    expect(await fx.db.listCollections({ name: 'source' }).toArray()).toEqual([]);
  });

  it('should refuse to rename onto an existing collection unless dropTarget', async () => {
    await fx.db.collection('source').insertOne({ _id: 1 } as never);
    await fx.db.collection('target').insertOne({ _id: 2 } as never);
    expect((await failure(fx.db.collection('source').rename('target'))).code).toBe(48);
    await fx.db.collection('source').rename('target', { dropTarget: true });
    expect(await fx.db.collection('target').find().toArray()).toEqual([{ _id: 1 }]);
  });

  it('should refuse to rename a missing collection (NamespaceNotFound)', async () => {
    expect((await failure(fx.db.collection('other').rename('target'))).code).toBe(26);
  });

  it('should count documents and sizes in collStats, $collStats and dbStats', async () => {
    const c = fx.db.collection('source');
    await c.insertMany([{ a: 'x' }, { a: 'y' }, { a: 'z' }]);
    const stats = await fx.db.command({ collStats: 'source' });
    expect(stats).toMatchObject({ ns: `${fx.db.databaseName}.source`, count: 3, nindexes: 1 });
    expect(stats.size).toBeGreaterThan(0);
    const [stage] = await c.aggregate([{ $collStats: { storageStats: {} } }]).toArray();
    expect(stage).toMatchObject({ ns: `${fx.db.databaseName}.source`, storageStats: { count: 3, size: stats.size } });
    const db = await fx.db.command({ dbStats: 1 });
    expect(db.objects).toBeGreaterThanOrEqual(3);
    expect(db.collections).toBeGreaterThanOrEqual(1);
  });
});

describe('options MongoDB 7.0 does not have', () => {
  it("should refuse 'sort' on an update statement (added in 8.0)", async () => {
    await drop('source');
    const error = await failure(
      fx.db.command({ update: 'source', updates: [{ q: {}, u: { $set: { a: 1 } }, sort: { _id: 1 } }] }),
    );
    expect(error.code).toBe(40415);
    expect(error.message).toBe("BSON field 'update.updates.sort' is an unknown field.");
  });
});

describe('listCollections and listDatabases filters', () => {
  beforeAll(async () => {
    await drop('filtered_plain', 'filtered_validated', 'filtered_view');
    await fx.db.createCollection('filtered_plain');
    await fx.db.createCollection('filtered_validated', { validator: { a: { $exists: true } } });
    await fx.db.createCollection('filtered_view', { viewOn: 'filtered_plain', pipeline: [] });
  });

  const names = async (filter: Document, nameOnly = false): Promise<string[]> =>
    (await fx.db.listCollections(filter, { nameOnly }).toArray())
      .map((info) => info.name as string)
      .filter((name) => name.startsWith('filtered_'))
      .sort();

  it.each<[string, Document, string[]]>([
    ['a name by regex', { name: /^filtered_v/ }, ['filtered_validated', 'filtered_view']],
    ['names by $in', { name: { $in: ['filtered_plain', 'filtered_view'] } }, ['filtered_plain', 'filtered_view']],
    ['the type', { type: 'view' }, ['filtered_view']],
    ['an option', { 'options.validator': { $exists: true } }, ['filtered_validated']],
    ['the read-only flag', { 'info.readOnly': false }, ['filtered_plain', 'filtered_validated']],
    ['an $or of both', { $or: [{ type: 'view' }, { name: 'filtered_plain' }] }, ['filtered_plain', 'filtered_view']],
  ])('should list the collections matching %s', async (_label, filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it('should filter by type with nameOnly, answering names and types', async () => {
    expect(await names({ type: 'view' }, true)).toEqual(['filtered_view']);
    const [info] = await fx.db.listCollections({ name: 'filtered_view' }, { nameOnly: true }).toArray();
    expect(info).toEqual({ name: 'filtered_view', type: 'view' });
  });

  it('should refuse a filter that is not a document, and a bad operator in it', async () => {
    expect((await failure(fx.db.command({ listCollections: 1, filter: 'x' }))).code).toBe(14);
    expect((await failure(fx.db.command({ listCollections: 1, filter: { name: { $bad: 1 } } }))).code).toBe(2);
  });

  it('should list this database alone by its name, with a size, and none by a name no database has', async () => {
    const admin = fx.client.db('admin');
    const mine = await admin.command({ listDatabases: 1, filter: { name: fx.db.databaseName } });
    expect(mine.databases.map((db: Document) => db.name)).toEqual([fx.db.databaseName]);
    const none = await admin.command({ listDatabases: 1, filter: { name: 'no_such_database' }, nameOnly: true });
    expect(none.databases).toEqual([]);
  });
});
