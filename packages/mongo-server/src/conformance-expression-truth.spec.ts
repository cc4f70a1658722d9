/**
 * Conformance: what aggregation expressions take as true (mongod's
 * Value::coerceToBool: false, null, missing and a zero of any numeric type
 * are false; "" and [] are true), in `$cond`, `$and`, `$or`, `$not`,
 * `$switch`, `$filter`, `$allElementsTrue`, `$anyElementTrue` and a filter's
 * `$expr`, with zeros stored as an integral double (`0.0`), a Decimal128
 * (`0.00`) and an Int64; and the null answers and errors of `$slice`,
 * `$first`/`$last` and the set operators (mongod's jstests slice.js,
 * first_last.js and set.js state them). Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import { type Collection, Decimal128, type Document, Double, Long } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('truth in expressions', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('expression_truth');
    await c.insertOne({
      _id: 1,
      dbl0: new Double(0),
      dec0: Decimal128.fromString('0.00'),
      long0: Long.fromNumber(0),
      dbl1: new Double(1),
      nan: Number.NaN,
      empty: '',
      none: [],
      zeros: [new Double(0), Decimal128.fromString('0'), Long.fromNumber(0), 0],
      mixed: [new Double(0), 1],
    } as never);
  });

  async function value(expr: unknown): Promise<unknown> {
    const [doc] = await c.aggregate([{ $project: { _id: 0, v: expr } }]).toArray();
    return doc && 'v' in doc ? (doc as Document).v : 'missing';
  }

  it.each<[string, unknown, unknown]>([
    ['$cond of a double 0.0', { $cond: ['$dbl0', 'T', 'F'] }, 'F'],
    ['$cond of a decimal 0.00', { $cond: { if: '$dec0', then: 'T', else: 'F' } }, 'F'],
    ['$cond of an Int64 0', { $cond: ['$long0', 'T', 'F'] }, 'F'],
    ['$cond of NaN', { $cond: ['$nan', 'T', 'F'] }, 'T'],
    ['$cond of ""', { $cond: ['$empty', 'T', 'F'] }, 'T'],
    ['$cond of []', { $cond: ['$none', 'T', 'F'] }, 'T'],
    ['$cond of a missing field', { $cond: ['$nothing', 'T', 'F'] }, 'F'],
    ['$and of 1.0 and 0.0', { $and: ['$dbl1', '$dbl0'] }, false],
    ['$or of 0.0 and 0.00', { $or: ['$dbl0', '$dec0'] }, false],
    ['$not of 0.0', { $not: ['$dbl0'] }, true],
    ['$not of a decimal 0.00 alone', { $not: '$dec0' }, true],
    [
      '$switch past a 0.0 case',
      {
        $switch: {
          branches: [
            { case: '$dbl0', then: 'zero' },
            { case: '$dbl1', then: 'one' },
          ],
        },
      },
      'one',
    ],
    ['$filter keeping what is true', { $filter: { input: '$mixed', cond: '$$this' } }, [1]],
    ['$allElementsTrue of zeros of each type', { $allElementsTrue: ['$zeros'] }, false],
    ['$anyElementTrue of zeros of each type', { $anyElementTrue: ['$zeros'] }, false],
    ['$anyElementTrue with a 1', { $anyElementTrue: ['$mixed'] }, true],
  ])('takes %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, number]>([
    ['a double 0.0', '$dbl0', 0],
    ['a decimal 0.00', '$dec0', 0],
    ['a double 1.0', '$dbl1', 1],
  ])('matches $expr of %s as mongod takes it', async (_label, expr, count) => {
    expect(await c.countDocuments({ $expr: expr })).toBe(count);
  });

  it.each<[string, unknown, unknown]>([
    ['$slice of a null array', { $slice: [null, -10] }, null],
    ['$slice by a null count', { $slice: [[0, 1, 2, 3, 4], null] }, null],
    ['$slice with a null third argument', { $slice: [[0, 1, 2, 3, 4], -1, null] }, null],
    ['$slice from a position', { $slice: [[0, 1, 2, 3, 4], -2, 5] }, [3, 4]],
    ['$first of []', { $first: [[]] }, 'missing'],
    ['$last of []', { $last: [[]] }, 'missing'],
    ['$last of a missing field', { $last: '$nothing' }, null],
    ['$setUnion with a missing operand', { $setUnion: [[1], '$nothing'] }, null],
    ['$setDifference with a null operand', { $setDifference: [[1], null] }, null],
    ['$firstN with a double n', { $firstN: { n: new Double(2), input: [5, 4, 3] } }, [5, 4]],
  ])('answers %s', async (_label, expr, expected) => {
    expect(await value(expr)).toEqual(expected);
  });

  it.each<[string, unknown, number]>([
    ['$slice of a string', { $slice: ['one', 2] }, 28724],
    ['$slice by a string', { $slice: [[1, 2], '2'] }, 28725],
    ['$slice by 1.5', { $slice: [[1, 2], 1.5] }, 28726],
    ['$slice of a string count', { $slice: [[1, 2], 0, '2'] }, 28727],
    ['$slice of a count past 32 bits', { $slice: [[1, 2], 0, 4294967296] }, 28728],
    ['$slice of a count of 0', { $slice: [[1, 2], 0, 0] }, 28729],
  ])('refuses %s', async (_label, expr, code) => {
    await expect(c.aggregate([{ $project: { v: expr } }]).toArray()).rejects.toMatchObject({ code });
  });
});
