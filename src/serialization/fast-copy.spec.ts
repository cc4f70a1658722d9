import fc from 'fast-check';
import mongoose, { Schema, Types } from 'mongoose';
import { LEARN_AFTER } from './document-shapes.js';
import { BAIL, copyFast } from './fast-copy.js';
import { documentPlan, type MongooseDocumentLike } from './mongoose-document.js';
import { walk, walkFrames, type WalkOptions } from './object-id-walker.js';

/**
 * The fast path (fast-copy.ts) against the full frame walk and against
 * mongoose's own `toJSON({ flattenObjectIds: true })`, over random schemas
 * (plain paths, id arrays, nested paths, subdocument arrays, single nested
 * subdocuments, Mixed; with or without virtuals, minimize, version key, `id`,
 * getters, custom virtuals, schema and path transforms) and random documents
 * (missing, null, undefined and empty values; populated references).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const connection = mongoose.createConnection();
let models = 0;

const hex = fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: 24, maxLength: 24 }).map((c) => c.join(''));
const objectId = hex.map((h) => new Types.ObjectId(h));
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> =>
  fc.oneof({ weight: 4, arbitrary: arb }, fc.constant(null), fc.constant(undefined));

interface Shape {
  virtuals: boolean | undefined;
  minimize: boolean | undefined;
  versionKey: boolean;
  id: boolean;
  getter: boolean;
  customVirtual: boolean;
  schemaTransform: boolean;
  pathTransform: boolean;
  childVirtuals: boolean | undefined;
  populated: boolean;
  /** Array paths (which have defaults, so mongoose leaves `_doc` in V8's dictionary mode): the copy reads `_doc` by `Object.keys` with them, by `for…in` without. */
  arrays: boolean;
}

/** Mostly off: each of these sends the whole document to `toJSON()`, away from the fast path. */
const rarely = fc.constantFrom(false, false, false, false, true);

const shapes: fc.Arbitrary<Shape> = fc.record({
  virtuals: fc.constantFrom(true, false, undefined),
  minimize: fc.constantFrom(true, false, undefined),
  versionKey: fc.boolean(),
  id: fc.boolean(),
  getter: fc.boolean(),
  customVirtual: rarely,
  schemaTransform: rarely,
  pathTransform: rarely,
  childVirtuals: fc.constantFrom(true, false, undefined),
  populated: fc.boolean(),
  arrays: fc.boolean(),
});

/** A schema with none of the features that send documents to `toJSON()`. */
const PLAIN_SHAPE: Shape = {
  virtuals: undefined,
  minimize: undefined,
  versionKey: true,
  id: true,
  getter: false,
  customVirtual: false,
  schemaTransform: false,
  pathTransform: false,
  childVirtuals: undefined,
  populated: false,
  arrays: true,
};

function models_(shape: Shape) {
  models += 1;
  const toJSON: Record<string, unknown> = {};
  if (shape.virtuals !== undefined) toJSON.virtuals = shape.virtuals;
  if (shape.minimize !== undefined) toJSON.minimize = shape.minimize;
  if (shape.schemaTransform) {
    toJSON.transform = (_doc: unknown, ret: Record<string, unknown>) => {
      delete ret.secret;
      return ret;
    };
  }
  const Line = new Schema(
    { productId: Schema.Types.ObjectId, qty: Number, note: { text: String, by: Schema.Types.ObjectId } },
    shape.childVirtuals === undefined ? {} : { toJSON: { virtuals: shape.childVirtuals } },
  );
  const Owner = new Schema({ name: String, groupId: Schema.Types.ObjectId });
  const definition: Record<string, unknown> = {
    name: shape.pathTransform ? { type: String, transform: (v: unknown) => `<${String(v)}>` } : String,
    secret: shape.getter ? { type: String, get: (v: unknown) => (v == null ? v : `*${String(v)}`) } : String,
    ownerId: { type: Schema.Types.ObjectId, ref: `Owner${models}` },
    ...(shape.arrays ? { relatedIds: [Schema.Types.ObjectId], tags: [String], lines: [Line] } : {}),
    at: Date,
    meta: { note: String, refId: Schema.Types.ObjectId, deep: { flag: Boolean } },
    main: Line,
    // Without _id, so that it can be empty: minimize then drops it from its parent.
    box: new Schema({ label: String }, { _id: false }),
    extras: Schema.Types.Mixed,
  };
  const schema = new Schema(definition, {
    versionKey: shape.versionKey ? '__v' : false,
    id: shape.id,
    toJSON,
    ...(shape.minimize === undefined ? {} : { minimize: shape.minimize }),
  });
  if (shape.customVirtual) {
    schema.virtual('label').get(function (this: { name?: string }) {
      return `label ${this.name ?? ''}`;
    });
  }
  const OwnerModel = connection.model(`Owner${models}`, Owner);
  const Model = connection.model(`Entity${models}`, schema);
  return { Model, OwnerModel };
}

const lines = fc.record(
  {
    _id: objectId,
    productId: maybe(objectId),
    qty: maybe(fc.integer()),
    note: maybe(
      fc.record({ text: maybe(fc.string()), by: maybe(objectId) }, { requiredKeys: [], noNullPrototype: true }),
    ),
  },
  { requiredKeys: ['_id'], noNullPrototype: true },
);

const documents = fc.record(
  {
    _id: objectId,
    name: maybe(fc.string({ maxLength: 8 })),
    secret: maybe(fc.string({ maxLength: 8 })),
    ownerId: maybe(objectId),
    relatedIds: fc.array(objectId, { maxLength: 3 }),
    tags: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    at: maybe(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })),
    meta: maybe(
      fc.record(
        {
          note: maybe(fc.string({ maxLength: 4 })),
          refId: maybe(objectId),
          deep: fc.record({}, { noNullPrototype: true }),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
    ),
    lines: fc.array(lines, { maxLength: 3 }),
    main: maybe(lines),
    box: maybe(fc.record({ label: maybe(fc.string({ maxLength: 3 })) }, { requiredKeys: [], noNullPrototype: true })),
    // A null-prototype object (fast-check's records may have one) goes to the full walk: compared too.
    extras: maybe(
      fc.oneof(
        fc.constant({}),
        fc.record({ a: objectId, b: fc.array(objectId, { maxLength: 2 }) }, { noNullPrototype: true }),
        fc.record({ a: objectId }),
      ),
    ),
    __v: fc.nat(5),
  },
  { requiredKeys: ['_id'], noNullPrototype: true },
);

const walkOptions: fc.Arbitrary<WalkOptions> = fc.record(
  { versionKey: fc.boolean() },
  { requiredKeys: [], noNullPrototype: true },
);

const json = (value: unknown): string => JSON.stringify(value);

describe('the fast copy', () => {
  it('should give the same output as the full walk and as toJSON({ flattenObjectIds: true }) on random documents', () => {
    let fastRuns = 0;
    fc.assert(
      fc.property(shapes, documents, walkOptions, (shape, data, options) => {
        const { Model, OwnerModel } = models_(shape);
        const raw: Record<string, unknown> = { ...data };
        if (shape.populated && data.ownerId != null) {
          raw.ownerId = { _id: data.ownerId, name: 'owner', groupId: data.ownerId, __v: 1 };
        }
        const doc = Model.hydrate(raw, null, { hydratedPopulatedDocs: shape.populated });
        expect(OwnerModel.modelName).toBe(`Owner${models}`);
        if (copyFast(doc, options.versionKey === true) !== BAIL) fastRuns += 1;
        const fast = walk(doc, options).value;
        const frames = walkFrames(doc, options).value;
        expect(json(fast)).toBe(json(frames));
        const reference = doc.toJSON({
          flattenObjectIds: true,
          flattenDecimals: true,
          ...(options.versionKey === true ? {} : { versionKey: false }),
        });
        expect(json(fast)).toBe(json(reference));
        // Not only the bytes: the same keys (an `undefined` kept by one path would not show in JSON).
        expect(fast).toStrictEqual(frames);
      }),
      { numRuns: RUNS, seed: 20261203 },
    );
    // The comparison means something only if the fast path took most documents.
    expect(fastRuns).toBeGreaterThan(RUNS / 2);
  });

  it('should give the same output as the full walk on plain data holding documents and BSON scalars', () => {
    const { Model } = models_({ ...PLAIN_SHAPE, virtuals: true });
    fc.assert(
      fc.property(fc.array(documents, { maxLength: 3 }), fc.bigInt(), (items, big) => {
        const page = {
          items: items.map((d) => Model.hydrate(d)),
          total: big,
          price: new mongoose.Types.Decimal128('12.50'),
          cursor: items[0]?._id ?? null,
        };
        const fast = walk(page, {}).value;
        expect(json(fast)).toBe(json(walkFrames(page, {}).value));
        expect(fast).toStrictEqual(walkFrames(page, {}).value);
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: 20261203 },
    );
  });

  it('should give the same output once the key lists of a schema are compiled, over many documents of each schema', () => {
    let compiled = 0;
    fc.assert(
      fc.property(
        shapes,
        fc.array(documents, { minLength: LEARN_AFTER + 12, maxLength: LEARN_AFTER + 30 }),
        walkOptions,
        (shape, items, options) => {
          const { Model } = models_({ ...shape, populated: false });
          // Several documents with the same keys, so that each key list is seen often enough to be compiled.
          const docs = [...items, ...items].map((data) => Model.hydrate(data));
          for (const doc of docs) {
            const fast = walk(doc, options).value;
            expect(fast).toStrictEqual(walkFrames(doc, options).value);
            const reference = doc.toJSON({
              flattenObjectIds: true,
              flattenDecimals: true,
              ...(options.versionKey === true ? {} : { versionKey: false }),
            });
            expect(json(fast)).toBe(json(reference));
          }
          const plan = documentPlan(docs[0] as unknown as MongooseDocumentLike);
          compiled += plan.shapes.shapes.filter((s) => s.copies.some((copy) => typeof copy === 'function')).length;
        },
      ),
      { numRuns: Math.ceil(RUNS / 5), seed: 20261208 },
    );
    // The comparison means something only if compiled copiers did part of it.
    expect(compiled).toBeGreaterThan(RUNS / 5);
  });

  it.each([
    ['an empty single nested subdocument under minimize', { box: {} }],
    ['an empty nested path under minimize', { meta: { deep: {} } }],
    ['an undefined value under minimize', { name: undefined }],
  ])('should copy %s right after the key list was compiled, and go on copying right', (_name, change) => {
    const { Model } = models_({ ...PLAIN_SHAPE, arrays: false });
    const data = (i: number) => ({
      _id: new Types.ObjectId(),
      name: `n${i}`,
      meta: { note: 'x', deep: { flag: true } },
      box: { label: 'l' },
    });
    const check = (raw: Record<string, unknown>) => {
      const doc = Model.hydrate(raw);
      expect(walk(doc, {}).value).toStrictEqual(walkFrames(doc, {}).value);
      expect(json(walk(doc, {}).value)).toBe(json(doc.toJSON({ flattenObjectIds: true, versionKey: false })));
      return doc;
    };
    const first = check(data(0));
    for (let i = 1; i <= LEARN_AFTER + 2; i++) check(data(i));
    const learnt = documentPlan(first as unknown as MongooseDocumentLike).shapes.shapes;
    expect(learnt.some((s) => typeof s.copies[0] === 'function')).toBe(true);
    check({ ...data(100), ...change });
    for (let i = 101; i < 105; i++) check(data(i));
  });

  it.each([
    ['an empty single nested subdocument under minimize', { _id: new Types.ObjectId(), box: {} }, undefined],
    [
      'a single nested subdocument with an undefined value',
      { _id: new Types.ObjectId(), box: { label: undefined } },
      undefined,
    ],
    ['an empty single nested subdocument without minimize', { _id: new Types.ObjectId(), box: {} }, false],
    ['an empty nested path', { _id: new Types.ObjectId(), meta: { deep: {} } }, undefined],
    ['undefined values', { _id: new Types.ObjectId(), name: undefined, meta: { note: undefined } }, undefined],
  ])('should treat %s as the full walk and mongoose do', (_name, data, minimize: boolean | undefined) => {
    const { Model } = models_({ ...PLAIN_SHAPE, minimize });
    const doc = Model.hydrate(data);
    expect(walk(doc, {}).value).toStrictEqual(walkFrames(doc, {}).value);
    expect(json(walk(doc, {}).value)).toBe(json(doc.toJSON({ flattenObjectIds: true, versionKey: false })));
  });

  it('should not copy a key that an enumerable property of Object.prototype adds to for…in', () => {
    const { Model } = models_({ ...PLAIN_SHAPE, arrays: false });
    const doc = Model.hydrate({ _id: new Types.ObjectId(), name: 'a', meta: { note: 'n' } });
    Object.defineProperty(Object.prototype, 'polluted', { value: 'yes', enumerable: true, configurable: true });
    try {
      const fast = walk(doc, {}).value as object;
      expect(Object.hasOwn(fast, 'polluted')).toBe(false);
      expect(json(fast)).toBe(json(walkFrames(doc, {}).value));
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});
