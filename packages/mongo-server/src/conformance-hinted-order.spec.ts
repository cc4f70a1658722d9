/**
 * Conformance: documents come in the order of the index a `hint` names
 * (MongoDB's `cursor.hint()` and aggregate `hint` pages: the query uses that
 * index, and an index scan returns its keys in order; equal keys in the order
 * of their record ids, which is insertion order here). mongoose's own suite
 * asserts it (aggregate "adds hint option"). A `$natural` hint, or no hint,
 * leaves the order unspecified. Runs against a real MongoDB via MONGO_URL.
 */
import type { Document } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
const names = (docs: Document[]) => docs.map((doc) => doc.name as string);

beforeAll(async () => {
  const c = await fx.fresh('hinted');
  await c.createIndex({ qty: -1, name: -1 });
  await c.createIndex({ qty: 1 }, { name: 'by_qty' });
  await c.insertMany([
    { name: 'Andrew', qty: 4 },
    { name: 'Betty', qty: 5 },
    { name: 'Charlie', qty: 4 },
    { name: 'Dora', qty: 3 },
  ]);
});

describe('a hinted index gives its order', () => {
  const c = () => fx.db.collection('hinted');

  it.each<[string, Document | string, string[]]>([
    ['a compound descending key pattern', { qty: -1, name: -1 }, ['Betty', 'Charlie', 'Andrew', 'Dora']],
    ['an index named by its name, equal keys in insertion order', 'by_qty', ['Dora', 'Andrew', 'Charlie', 'Betty']],
  ])('to a find, by %s', async (_label, hint, expected) => {
    expect(names(await c().find({}, { hint }).toArray())).toEqual(expected);
    expect(
      names(
        await c()
          .find({ name: { $ne: 'Dora' } }, { hint })
          .toArray(),
      ),
    ).toEqual(expected.filter((name) => name !== 'Dora'));
    expect(names(await c().find({}, { hint, limit: 2 }).toArray())).toEqual(expected.slice(0, 2));
    expect(names(await c().find({}, { hint, skip: 1, limit: 2 }).toArray())).toEqual(expected.slice(1, 3));
  });

  it('to an aggregate, with or without a leading $match (mongoose: aggregate "adds hint option")', async () => {
    const hint = { qty: -1, name: -1 };
    expect(
      names(
        await c()
          .aggregate([{ $match: {} }], { hint })
          .toArray(),
      ),
    ).toEqual(['Betty', 'Charlie', 'Andrew', 'Dora']);
    expect(
      names(
        await c()
          .aggregate([{ $match: { qty: { $gte: 4 } } }], { hint })
          .toArray(),
      ),
    ).toEqual(['Betty', 'Charlie', 'Andrew']);
    expect(
      names(
        await c()
          .aggregate([{ $project: { _id: 0, name: 1 } }], { hint: 'by_qty' })
          .toArray(),
      ),
    ).toEqual(['Dora', 'Andrew', 'Charlie', 'Betty']);
  });

  it('counts through a hinted aggregate as a find would', async () => {
    expect(await c().countDocuments({ qty: 4 }, { hint: 'by_qty' })).toBe(2);
    expect(await c().countDocuments({}, { hint: { qty: -1, name: -1 } })).toBe(4);
  });

  it('a sort still decides the order of a hinted query', async () => {
    expect(names(await c().find({}, { hint: 'by_qty' }).sort({ name: -1 }).toArray())).toEqual([
      'Dora',
      'Charlie',
      'Betty',
      'Andrew',
    ]);
  });

  it.each<[string, () => Promise<unknown>]>([
    [
      'an aggregate',
      () =>
        c()
          .aggregate([{ $match: {} }], { hint: 'no_such_index' })
          .toArray(),
    ],
    ['a counting aggregate', () => c().countDocuments({}, { hint: { nope: 1 } })],
  ])('refuses a hint naming no index in %s, as a find does', async (_label, send) => {
    const error = await rejection(send());
    expect(error.codeName).toBe('BadValue');
    expect(error.message).toContain('hint provided does not correspond to an existing index');
  });
});
