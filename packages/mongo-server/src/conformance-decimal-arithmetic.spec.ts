/**
 * Conformance: arithmetic over Decimal128 values, the type apps keep prices
 * and amounts in. `$sum` and `$avg` in a `$group`, `$add`, `$subtract`,
 * `$multiply`, `$divide` in a `$project`, and the `$inc` and `$mul` update
 * operators answer a Decimal128 once an operand is one, computed in decimal
 * (34 digits, half to even): an int converts exactly, a double at 15
 * significant digits. Results are read
 * as text with their exponent, so `2.20` and `2.2` differ as they do in
 * MongoDB. Written to hold against a real MongoDB 7 (MONGO_URL) too.
 */
import { type Collection, Decimal128, type Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const dec = (text: string) => Decimal128.fromString(text);

/** A result's fields as their type and text: `decimal 3.305`, `int 4`, `null`. */
function asText(doc: Document): Document {
  return Object.fromEntries(
    Object.entries(doc).map(([key, value]) => [
      key,
      value instanceof Decimal128 ? `decimal ${value.toString()}` : value === null ? null : `${typeof value} ${value}`,
    ]),
  );
}

describe('Decimal128 arithmetic', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('decimal_arithmetic');
    await c.insertMany([
      { _id: 1, price: dec('1.10'), qty: 2, rate: 2.5, group: 'a' },
      { _id: 2, price: dec('2.205'), qty: 3, rate: 0.5, group: 'a' },
      { _id: 3, price: 'n/a', qty: 1, rate: 1.5, group: 'b' },
    ] as never);
  });

  it('sums and averages prices in a $group, skipping non-numbers', async () => {
    const groups = await c
      .aggregate([
        { $group: { _id: '$group', total: { $sum: '$price' }, mean: { $avg: '$price' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(groups.map(asText)).toEqual([
      { _id: 'string a', total: 'decimal 3.305', mean: 'decimal 1.6525' },
      { _id: 'string b', total: 'number 0', mean: null },
    ]);
  });

  it('sums ints and decimals to a decimal', async () => {
    const [sum] = await c
      .aggregate([
        { $match: { _id: { $lt: 3 } } },
        { $group: { _id: null, s: { $sum: { $add: ['$qty', '$price'] } } } },
      ])
      .toArray();
    expect(asText(sum!)).toEqual({ _id: null, s: 'decimal 8.305' });
  });

  it.each<[string, Document, string]>([
    ['$add with an int', { $add: ['$price', 1] }, 'decimal 2.10'],
    ['$add with a double at 15 digits', { $add: ['$price', '$rate'] }, 'decimal 3.60000000000000'],
    ['$subtract of an int', { $subtract: ['$price', '$qty'] }, 'decimal -0.90'],
    ['$multiply by an int', { $multiply: ['$price', '$qty'] }, 'decimal 2.20'],
    ['$divide by an int, exact', { $divide: ['$price', 4] }, 'decimal 0.275'],
    ['$divide to 34 digits', { $divide: ['$price', 3] }, 'decimal 0.3666666666666666666666666666666667'],
  ])('computes %s', async (_label, expr, expected) => {
    const [doc] = await c.aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, v: expr } }]).toArray();
    expect(asText(doc!)).toEqual({ v: expected });
  });

  it('refuses a decimal $divide by zero', async () => {
    await expect(
      c.aggregate([{ $match: { _id: 1 } }, { $project: { v: { $divide: ['$price', 0] } } }]).toArray(),
    ).rejects.toMatchObject({ code: 2, message: expect.stringContaining("can't $divide by zero") });
  });
});

describe('Decimal128 in $inc and $mul', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('decimal_updates');
  });

  it.each<[string, Document, Document, string]>([
    ['$inc a decimal by a decimal', { v: dec('1.10') }, { $inc: { v: dec('2.205') } }, 'decimal 3.305'],
    ['$inc a decimal by an int', { v: dec('1.10') }, { $inc: { v: 1 } }, 'decimal 2.10'],
    ['$inc an int by a decimal', { v: 1 }, { $inc: { v: dec('0.5') } }, 'decimal 1.5'],
    ['$inc a decimal by a double', { v: dec('1.10') }, { $inc: { v: 2.5 } }, 'decimal 3.60000000000000'],
    ['$inc a missing field by a decimal', {}, { $inc: { v: dec('0.5') } }, 'decimal 0.5'],
    ['$mul a decimal by an int', { v: dec('1.10') }, { $mul: { v: 3 } }, 'decimal 3.30'],
    ['$mul an int by a decimal', { v: 3 }, { $mul: { v: dec('1.10') } }, 'decimal 3.30'],
    ['$mul a missing field by a decimal (a decimal zero)', {}, { $mul: { v: dec('1.10') } }, 'decimal 0.00'],
  ])('%s', async (_label, doc, update, expected) => {
    const { insertedId } = await c.insertOne(doc);
    await c.updateOne({ _id: insertedId }, update);
    const { v } = (await c.findOne({ _id: insertedId }))!;
    expect(asText({ v })).toEqual({ v: expected });
  });
});
