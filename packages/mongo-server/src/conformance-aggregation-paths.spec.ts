/**
 * Conformance: aggregation field paths and the stages that set fields by
 * path, where paths meet arrays. A path expression (`$x.y`, `$$v.y`) reads
 * through sub-documents and the sub-documents in an array, skipping other
 * elements (inner arrays too), and reads `0` as a field name; `$addFields`
 * and `$set` set a dotted path in each element of an array on the way (a
 * scalar element becomes a document) and merge a nested document into the
 * existing one; `$unset` removes through arrays. As mongod's
 * ExpressionFieldPath and projection executor do; written to hold against a
 * real MongoDB 7 (MONGO_URL) too.
 */
import { type Collection, type Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

describe('aggregation paths through arrays', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('aggregation_paths');
    await c.insertOne({
      _id: 1,
      x: [[{ y: 1 }], { y: 2 }, 3, { z: 4 }, { y: [5, 6] }],
      a: ['s', { b: 1, c: 1 }, [{ c: 2, d: 2 }]],
      d: { e: 1 },
      arr: [{ 0: 'zero' }, 'first'],
      items: [{ tags: [{ n: 't1' }, [{ n: 'inner' }]] }],
    } as never);
  });

  const one = async (pipeline: Document[]): Promise<Document[]> => c.aggregate(pipeline).toArray();

  it.each<[string, unknown, unknown]>([
    ['$x.y, skipping an inner array, a scalar and a document without y', '$x.y', [2, [5, 6]]],
    ['$arr.0 as the field "0"', '$arr.0', ['zero']],
    ['$$CURRENT.x.y', '$$CURRENT.x.y', [2, [5, 6]]],
    ['a $let variable', { $let: { vars: { v: '$x' }, in: '$$v.y' } }, [2, [5, 6]]],
    ['$$this in $map', { $map: { input: '$items', in: '$$this.tags.n' } }, [['t1']]],
    ['an operator argument', { $size: '$x.y' }, 2],
    ['a $switch branch', { $switch: { branches: [{ case: true, then: '$x.y' }] } }, [2, [5, 6]]],
    ['a $literal, not a path', { $literal: '$x.y' }, '$x.y'],
  ])('reads %s', async (_label, expr, expected) => {
    expect(await one([{ $project: { _id: 0, v: expr } }])).toEqual([{ v: expected }]);
  });

  it.each<[string, Document, Document[]]>([
    ['a $group key', { $group: { _id: '$x.y' } }, [{ _id: [2, [5, 6]] }]],
    ['an accumulator', { $group: { _id: null, all: { $push: '$x.y' } } }, [{ _id: null, all: [[2, [5, 6]]] }]],
    ['$replaceWith', { $replaceWith: { r: '$x.y' } }, [{ r: [2, [5, 6]] }]],
    ['$sortByCount', { $sortByCount: '$x.y' }, [{ _id: [2, [5, 6]], count: 1 }]],
    ['$addFields', { $addFields: { v: '$x.y' } }, [expect.objectContaining({ v: [2, [5, 6]] })]],
  ])('reads a path in %s', async (_label, stage, expected) => {
    expect(await one([stage])).toEqual(expected);
  });

  it.each<[string, Document, Document]>([
    [
      'a dotted path in each element, a scalar made a document, an inner array too',
      { $addFields: { 'a.b': 'v' } },
      { a: [{ b: 'v' }, { b: 'v', c: 1 }, [{ c: 2, d: 2, b: 'v' }]] },
    ],
    ['a nested document merged into the existing one', { $set: { d: { g: 1 } } }, { d: { e: 1, g: 1 } }],
    ['a dotted path under a document', { $set: { 'd.f': 2 } }, { d: { e: 1, f: 2 } }],
    ['an empty document as a value', { $set: { z: {} } }, { z: {} }],
  ])('sets %s', async (_label, stage, expected) => {
    const [doc] = await one([stage]);
    expect(doc).toMatchObject(expected);
  });

  it('removes a dotted path through arrays with $unset', async () => {
    const [doc] = await one([{ $unset: ['a.c', 'x', 'arr', 'items', 'd.e'] }]);
    expect(doc).toEqual({ _id: 1, a: ['s', { b: 1 }, [{ d: 2 }]], d: {} });
  });

  it('refuses the operator a path becomes inside the embedded server, as any unknown one', async () => {
    await expect(one([{ $project: { v: { $__fieldPath: '$x.y' } } }])).rejects.toMatchObject({ code: 168 });
  });
});
