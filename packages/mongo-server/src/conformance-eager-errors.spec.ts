/**
 * Conformance: a bad filter, pipeline or update fails as mongod parses it,
 * before any document is read, so it fails on an empty or missing collection
 * too. Codes from MongoDB 7; passes against MONGO_URL too.
 */
import { type Collection, MongoServerError } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

type Operation = (c: Collection) => Promise<unknown>;

const CASES: [string, Operation, number, RegExp][] = [
  ['find with an unknown operator', (c) => c.findOne({ a: { $foo: 1 } }), 2, /^unknown operator: \$foo$/],
  [
    'find with an unknown top-level operator',
    (c) => c.findOne({ $foo: 1 } as never),
    2,
    /^unknown top level operator: \$foo/,
  ],
  [
    'countDocuments with an unknown operator',
    (c) => c.countDocuments({ a: { $foo: 1 } }),
    2,
    /^unknown operator: \$foo$/,
  ],
  ['deleteMany with an unknown operator', (c) => c.deleteMany({ a: { $foo: 1 } }), 2, /^unknown operator: \$foo$/],
  [
    'updateMany with an unknown operator',
    (c) => c.updateMany({ a: { $foo: 1 } }, { $set: { b: 1 } }),
    2,
    /^unknown operator: \$foo$/,
  ],
  [
    'updateOne with an unknown modifier',
    (c) => c.updateOne({}, { $foo: { a: 1 } } as never),
    9,
    /^Unknown modifier: \$foo/,
  ],
  [
    'findOneAndUpdate with a bad $inc',
    (c) => c.findOneAndUpdate({}, { $inc: { a: 'x' } } as never),
    14,
    /^Cannot increment with non-numeric argument/,
  ],
  [
    'aggregate with an unknown stage',
    (c) => c.aggregate([{ $foo: {} }]).toArray(),
    40324,
    /^Unrecognized pipeline stage name: '\$foo'$/,
  ],
  [
    'aggregate with an unknown operator in $match',
    (c) => c.aggregate([{ $match: { a: { $foo: 1 } } }]).toArray(),
    2,
    /^unknown operator: \$foo$/,
  ],
  [
    'aggregate with an unknown operator in a later $match',
    (c) => c.aggregate([{ $skip: 1 }, { $match: { a: { $foo: 1 } } }]).toArray(),
    2,
    /^unknown operator: \$foo$/,
  ],
  [
    'aggregate with an unknown expression',
    (c) => c.aggregate([{ $project: { x: { $foo: 1 } } }]).toArray(),
    168,
    /Unrecognized expression '\$foo'/,
  ],
  [
    'aggregate with an unknown expression in $addFields',
    (c) => c.aggregate([{ $addFields: { x: { $foo: 1 } } }]).toArray(),
    168,
    /Unrecognized expression '\$foo'/,
  ],
  [
    'aggregate with an unknown accumulator',
    (c) => c.aggregate([{ $group: { _id: null, x: { $foo: 1 } } }]).toArray(),
    15952,
    /^unknown group operator '\$foo'$/,
  ],
  [
    'aggregate with a stage of two fields',
    (c) => c.aggregate([{ $skip: 1, $limit: 1 }]).toArray(),
    40323,
    /^A pipeline stage specification object must contain exactly one field\.$/,
  ],
];

describe('errors raised before reading', () => {
  describe.each([
    ['an empty collection', true],
    ['a missing collection', false],
  ])('on %s', (_label, create) => {
    it.each(CASES)('should refuse %s', async (_name, operation, code, message) => {
      const c = await fx.fresh('eager');
      if (create) await fx.db.createCollection('eager');
      const error = await operation(c).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(code);
      expect((error as MongoServerError).message).toMatch(message);
    });
  });
});
