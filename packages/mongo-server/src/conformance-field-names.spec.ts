/**
 * Conformance: field names JavaScript treats specially (`__proto__`) are
 * ordinary field names to MongoDB, through updates too. Passes against
 * MONGO_URL too.
 */
import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** A document with `__proto__` as an own field, as the driver decodes one. */
function withProto(): Record<string, unknown> {
  return JSON.parse('{"_id":1,"__proto__":{"p":1},"o":{"__proto__":2}}') as Record<string, unknown>;
}

describe('a field named __proto__', () => {
  it.each([
    ['$set inside it', { $set: { '__proto__.q': 1 } }, { p: 1, q: 1 }, 2],
    ['$inc of a nested one', { $inc: { 'o.__proto__': 1 } }, { p: 1 }, 3],
    ['$set of another field', { $set: { x: 1 } }, { p: 1 }, 2],
    ['$inc inside it', { $inc: { '__proto__.q': 1 } }, { p: 1, q: 1 }, 2],
  ])('should be kept as a field by %s', async (_label, update, proto, nested) => {
    const c = await fx.fresh('proto');
    await c.insertOne(withProto() as never);
    await c.updateOne({ _id: 1 } as never, update as never);
    const doc = (await c.findOne({ _id: 1 } as never))!;
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual(proto);
    expect(Object.getOwnPropertyDescriptor(doc.o, '__proto__')?.value).toBe(nested);
  });
});

/** JSON with `__proto__` keys, parsed so that they are own fields (as the driver decodes them). */
const own = <T = Record<string, unknown>>(json: string) => JSON.parse(json) as T;

/**
 * The answer `run` gives, or the embedded server's refusal, which must name the field: the server
 * may refuse what it cannot do, but never answer it wrongly. A real MongoDB answers every one.
 */
async function answerOrRefusal<T>(run: () => Promise<T>): Promise<T | 'refused'> {
  try {
    return await run();
  } catch (error) {
    if (fx.mongo.backend !== 'embedded') throw error;
    expect(error).toMatchObject({
      codeName: 'BadValue',
      message: expect.stringMatching(/^a field named __proto__ in .+ is not supported by the embedded test server/),
    });
    return 'refused';
  }
}

describe('updates through field names that objects inherit', () => {
  // `$inc` walked the path by plain property access: `__proto__.polluted` reached Object.prototype of the
  // process hosting the server (every object then had `polluted`), and `toString` met the inherited method.
  it.each([
    ['$inc', { $inc: { '__proto__.polluted': 1 } }, '{"_id":1,"__proto__":{"polluted":1}}'],
    ['$inc', { $inc: { 'constructor.prototype.polluted': 1 } }, '{"_id":1,"constructor":{"prototype":{"polluted":1}}}'],
    ['$inc', { $inc: { 'toString.polluted': 1 } }, '{"_id":1,"toString":{"polluted":1}}'],
    ['$max', { $max: { '__proto__.polluted': 1 } }, '{"_id":1,"__proto__":{"polluted":1}}'],
    ['$set', { $set: { 'valueOf.polluted': 1 } }, '{"_id":1,"valueOf":{"polluted":1}}'],
  ])('should create the fields %s names (%j)', async (_op, update, expected) => {
    const c = await fx.fresh('inherited');
    for (const upsert of [false, true]) {
      if (!upsert) await c.insertOne({ _id: 1 } as never);
      else await c.deleteMany({});
      await c.updateOne({ _id: 1 } as never, update as never, { upsert });
      expect(await c.findOne({ _id: 1 } as never)).toEqual(JSON.parse(expected));
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    }
  });
});

describe('reads naming a field __proto__', () => {
  beforeEach(async () => {
    const c = await fx.fresh('proto_reads');
    await c.insertMany([
      own('{"_id":1,"__proto__":5,"a":{"__proto__":2}}'),
      own('{"_id":2,"__proto__":3,"a":{"__proto__":9}}'),
      own('{"_id":3,"b":1}'),
    ] as never[]);
  });
  const reads = () => fx.db.collection<{ _id: number }>('proto_reads');
  const ids = (docs: { _id?: unknown }[]) => docs.map((doc) => doc._id);

  it.each([
    ['__proto__', 1, [3, 2, 1]],
    ['__proto__', -1, [1, 2, 3]],
    ['a.__proto__', -1, [2, 1, 3]],
  ] as const)('should sort by %s (%d) as by any field', async (path, direction, expected) => {
    expect(
      ids(
        await reads()
          .find({}, { sort: { [path]: direction } })
          .toArray(),
      ),
    ).toEqual(expected);
  });

  it('should match only the document whose field equals the value', async () => {
    const found = await answerOrRefusal(() => reads().find(own('{"__proto__":3}')).toArray());
    if (found !== 'refused') expect(ids(found)).toEqual([2]);
  });

  // With `let`, binding the variables copied the filter by assignment, which made the field the copy's
  // prototype: the filter matched every document.
  it.each([
    ['', {}],
    [' when the command has let', { let: { v: 1 } }],
  ])('should delete only the documents the filter matches%s', async (_label, options) => {
    const deleted = await answerOrRefusal(() => reads().deleteMany(own('{"__proto__":{"$gt":4}}'), options));
    expect(
      ids(
        await reads()
          .find({}, { sort: { _id: 1 } })
          .toArray(),
      ),
    ).toEqual(deleted === 'refused' ? [1, 2, 3] : [2, 3]);
  });

  it('should match only the document whose field equals the value when the command has let', async () => {
    const found = await answerOrRefusal(() =>
      reads()
        .find(own('{"__proto__":3}'), { let: { v: 1 } })
        .toArray(),
    );
    if (found !== 'refused') expect(ids(found)).toEqual([2]);
  });

  it('should project only the field named', async () => {
    const projected = await answerOrRefusal(() =>
      reads()
        .find({ _id: 1 }, { projection: own('{"__proto__":1}') })
        .toArray(),
    );
    if (projected !== 'refused') expect(projected.map((doc) => Object.keys(doc))).toEqual([['_id', '__proto__']]);
  });

  it('should read it in a pipeline-style update', async () => {
    const reply = await fx.db.command({
      update: 'proto_reads',
      updates: [{ q: { _id: 1 }, u: [{ $set: { copy: '$__proto__' } }] }],
    });
    const [error] = (reply.writeErrors ?? []) as { errmsg: string }[];
    if (error && fx.mongo.backend === 'embedded') {
      expect(error.errmsg).toMatch(/^a field named __proto__ in an aggregation pipeline is not supported/);
      expect(await reads().findOne({ _id: 1 })).not.toHaveProperty('copy');
    } else {
      expect(error).toBeUndefined();
      expect(await reads().findOne({ _id: 1 })).toMatchObject({ copy: 5 });
    }
  });

  it('should group and sort by it in a pipeline', async () => {
    const grouped = await answerOrRefusal(() =>
      reads()
        .aggregate([{ $group: { _id: '$__proto__', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
        .toArray(),
    );
    if (grouped !== 'refused') {
      expect(grouped).toEqual([
        { _id: null, n: 1 },
        { _id: 3, n: 1 },
        { _id: 5, n: 1 },
      ]);
    }
    const sorted = await answerOrRefusal(() =>
      reads()
        .aggregate([{ $sort: own('{"__proto__":-1}') }])
        .toArray(),
    );
    if (sorted !== 'refused') expect(ids(sorted)).toEqual([1, 2, 3]);
  });
});

// mingo copied each document with an assignment per field before the pipeline ran, so a stored field named
// `__proto__` became the copy's prototype and left every aggregation's output; `$facet`, `$mergeObjects`
// and `$arrayToObject` dropped it the same way.
describe('stored fields named __proto__ through pipeline stages', () => {
  beforeAll(async () => {
    const c = await fx.fresh('proto_stages');
    await c.insertOne(own('{"_id":1,"a":1,"__proto__":{"p":1},"o":{"__proto__":2}}') as never);
  });
  const stages = () => fx.db.collection<{ _id: number; o?: object }>('proto_stages');
  /** The fields named `__proto__` that `doc` owns, at the top and in `o`. */
  const protoFields = (doc: Record<string, unknown>) => ({
    top: Object.getOwnPropertyDescriptor(doc, '__proto__')?.value as unknown,
    nested: Object.getOwnPropertyDescriptor(doc.o ?? {}, '__proto__')?.value as unknown,
  });

  it.each<[string, object[]]>([
    ['$match', [{ $match: { a: 1 } }]],
    ['$addFields', [{ $addFields: { b: 1 } }]],
    ['$sort', [{ $sort: { a: 1 } }]],
    ['$replaceWith $mergeObjects', [{ $replaceWith: { $mergeObjects: ['$$ROOT', { z: 1 }] } }]],
    [
      '$group $push of $$ROOT then $unwind',
      [{ $group: { _id: null, d: { $push: '$$ROOT' } } }, { $unwind: '$d' }, { $replaceWith: '$d' }],
    ],
    ['$facet', [{ $facet: { all: [{ $match: {} }] } }, { $unwind: '$all' }, { $replaceWith: '$all' }]],
  ])('should keep them through %s', async (_label, pipeline) => {
    const [doc] = await stages().aggregate(pipeline).toArray();
    expect(protoFields(doc!)).toEqual({ top: { p: 1 }, nested: 2 });
  });

  it('should leave the stored document as it was after stages that change a copy', async () => {
    await stages()
      .aggregate([{ $addFields: { 'o.y': 1 } }, { $unset: 'a' }])
      .toArray();
    const stored = (await stages().findOne({ _id: 1 }))!;
    expect(stored).toMatchObject({ a: 1 });
    expect(stored.o).not.toHaveProperty('y');
    expect(protoFields(stored)).toEqual({ top: { p: 1 }, nested: 2 });
  });

  it('should list it in $objectToArray', async () => {
    const [doc] = await stages()
      .aggregate([{ $project: { _id: 0, kv: { $objectToArray: '$$ROOT' } } }])
      .toArray();
    expect(doc!.kv).toContainEqual({ k: '__proto__', v: { p: 1 } });
  });

  it.each<[string, object]>([
    ['$arrayToObject of pairs', { $arrayToObject: { $literal: [['__proto__', 1]] } }],
    ['$arrayToObject of { k, v }', { $arrayToObject: { $literal: [{ k: '__proto__', v: 1 }] } }],
    ['$setField', { $setField: { field: '__proto__', input: {}, value: 1 } }],
    [
      '$mergeObjects of such a document',
      { $mergeObjects: [{ x: 0 }, { $arrayToObject: { $literal: [['__proto__', 1]] } }] },
    ],
  ])('should build a field named __proto__ with %s', async (_label, expression) => {
    const [doc] = await stages()
      .aggregate([{ $project: { _id: 0, out: expression } }])
      .toArray();
    expect(Object.getOwnPropertyDescriptor(doc!.out, '__proto__')?.value).toBe(1);
    expect(({} as { p?: unknown }).p).toBeUndefined();
  });
});
