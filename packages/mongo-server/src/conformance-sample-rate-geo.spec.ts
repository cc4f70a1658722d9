/**
 * Conformance: two kinds of query operators mingo lacks. `$sampleRate`
 * (MongoDB's "$sampleRate" page and mongod's parseSampleRate: a number in
 * [0, 1] at a filter's top level, each document matched with that
 * probability) runs against a real MongoDB via MONGO_URL too. The geospatial
 * operators (`$geoWithin`, `$geoIntersects`, `$near`, `$nearSphere`) are out
 * of the embedded server's reach: it refuses them with CommandNotSupported
 * naming them rather than as an unknown operator (those cases are skipped on
 * a real MongoDB, which answers them).
 */
import { Decimal128, type Document, Int32, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
const embedded = !process.env.MONGO_URL;
const DOCS = 1000;

beforeAll(async () => {
  const c = await fx.fresh('sampled');
  await c.insertMany(Array.from({ length: DOCS }, (_, i) => ({ i, loc: { type: 'Point', coordinates: [i % 10, 0] } })));
});

describe('$sampleRate', () => {
  it.each<[string, unknown, number]>([
    ['0 matches no document', 0, 0],
    ['1 matches every document', 1, DOCS],
    ['an Int32 1', new Int32(1), DOCS],
    ['an Int64 0', Long.fromNumber(0), 0],
  ])('%s', async (_label, rate, expected) => {
    const c = fx.db.collection('sampled');
    expect(await c.countDocuments({ $sampleRate: rate })).toBe(expected);
    expect(await c.find({ $sampleRate: rate }).toArray()).toHaveLength(expected);
  });

  // 1,000 draws of probability 0.5: a count outside 350–650 is more than 9 standard deviations off.
  it.each<[string, unknown]>([
    ['a double', 0.5],
    ['a Decimal128', Decimal128.fromString('0.5')],
  ])('a rate in between (%s) matches about that share, in find, count and $match', async (_label, rate) => {
    const c = fx.db.collection('sampled');
    const counts = [
      (await c.find({ $sampleRate: rate }).toArray()).length,
      await c.countDocuments({ $sampleRate: rate }),
      (await c.aggregate([{ $match: { $sampleRate: rate } }]).toArray()).length,
    ];
    for (const n of counts) {
      expect(n).toBeGreaterThan(350);
      expect(n).toBeLessThan(650);
    }
  });

  it('combines with the other conditions of the filter', async () => {
    const rows = await fx.db
      .collection('sampled')
      .find({ $sampleRate: 1, i: { $lt: 5 } })
      .toArray();
    expect(rows.map((row) => row.i)).toEqual([0, 1, 2, 3, 4]);
  });

  it.each<[string, Document, string]>([
    ['a string', { $sampleRate: 'x' }, 'argument to $sampleRate must be a numeric type'],
    ['null', { $sampleRate: null }, 'argument to $sampleRate must be a numeric type'],
    ['above 1', { $sampleRate: 1.5 }, 'numeric argument to $sampleRate must be in [0, 1]'],
    ['below 0', { $sampleRate: -0.1 }, 'numeric argument to $sampleRate must be in [0, 1]'],
    ['NaN', { $sampleRate: Number.NaN }, 'numeric argument to $sampleRate must be in [0, 1]'],
    ['under a field', { i: { $sampleRate: 0.5 } }, 'unknown operator: $sampleRate'],
  ])('refuses %s with BadValue', async (_label, filter, message) => {
    const error = await rejection(fx.db.collection('sampled').find(filter).toArray());
    expect([error.code, error.codeName]).toEqual([2, 'BadValue']);
    expect(error.message).toBe(message);
  });
});

describe('geospatial query operators', () => {
  const within = {
    $geoWithin: {
      $box: [
        [0, -1],
        [3, 1],
      ],
    },
  };
  const intersects = { $geoIntersects: { $geometry: { type: 'Point', coordinates: [1, 0] } } };

  it.each<[string, Document]>([
    ['$geoWithin', { loc: within }],
    [
      '$within',
      {
        loc: {
          $within: {
            $box: [
              [0, -1],
              [3, 1],
            ],
          },
        },
      },
    ],
    ['$geoIntersects', { loc: intersects }],
    ['$near', { loc: { $near: [0, 0] } }],
    ['$nearSphere', { loc: { $nearSphere: [0, 0] } }],
    ['$geoWithin in $and', { $and: [{ i: 1 }, { loc: within }] }],
    ['$geoWithin in $elemMatch', { locs: { $elemMatch: { loc: within } } }],
  ])('%s is refused with CommandNotSupported naming it', async (operator, filter) => {
    if (!embedded) return;
    const c = fx.db.collection('sampled');
    const name = operator.split(' ')[0]!;
    for (const refused of [
      rejection(c.find(filter).toArray()),
      rejection(c.countDocuments(filter)),
      rejection(c.aggregate([{ $match: filter }]).toArray()),
      rejection(c.updateMany(filter, { $set: { x: 1 } })),
      rejection(c.deleteMany(filter)),
    ]) {
      const error = await refused;
      expect(error.code).toBe(115);
      expect(error.message).toContain(`The ${name} query operator (geospatial queries) is not supported`);
    }
    expect(await c.countDocuments({ x: 1 })).toBe(0);
    expect(await c.countDocuments({})).toBe(DOCS);
  });

  it.each(['$near', '$geoWithin'])('%s at the top level is an unknown top level operator', async (name) => {
    const error = await rejection(
      fx.db
        .collection('sampled')
        .find({ [name]: [0, 0] })
        .toArray(),
    );
    expect([error.code, error.message]).toEqual([2, `unknown top level operator: ${name}`]);
  });
});
