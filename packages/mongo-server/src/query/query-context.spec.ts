import { jest } from '@jest/globals';
import { Context } from 'mingo/core';

import { Binary, ObjectId } from '../bson/bson-library.cjs';
import { compileFilter } from './query-context.js';

const ID = '6553f1030000000000000003';

describe('compileFilter', () => {
  // `{ _id: <ObjectId> }` skips mingo; `{ _id: { $eq: … } }` still goes through it and is the reference.
  describe('when the filter is { _id: <ObjectId> }', () => {
    it.each([
      ['an equal ObjectId (another instance)', { _id: new ObjectId(ID) }, true],
      ['another ObjectId', { _id: new ObjectId('6553f1030000000000000004') }, false],
      ['the same hex as a string', { _id: ID }, false],
      ['the same bytes as a Binary', { _id: new Binary(Buffer.from(ID, 'hex')) }, false],
      ['an array holding an equal ObjectId', { _id: [1, new ObjectId(ID)] }, true],
      ['an array of other values', { _id: [ID, new ObjectId('6553f1030000000000000004')] }, false],
      ['a nested array holding it', { _id: [[new ObjectId(ID)]] }, false],
      ['a sub-document holding it', { _id: { $oid: new ObjectId(ID) } }, false],
      ['no _id', { a: 1 }, false],
      ['a null _id', { _id: null }, false],
    ])('should match a document whose _id is %s as mingo does (%#)', (_label, doc, expected) => {
      const fast = compileFilter({ _id: new ObjectId(ID) });
      const reference = compileFilter({ _id: { $eq: new ObjectId(ID) } });
      expect(fast(doc)).toBe(expected);
      expect(reference(doc)).toBe(expected);
    });

    it('should match nothing when the element is not a document (a $pull condition on scalars)', () => {
      const fast = compileFilter({ _id: new ObjectId(ID) });
      expect(fast(null as never)).toBe(false);
      expect(fast(5 as never)).toBe(false);
    });
  });

  it('should still compile other filters on _id through mingo', () => {
    const matches = compileFilter({ _id: new ObjectId(ID), a: 1 });
    expect(matches({ _id: new ObjectId(ID), a: 1 })).toBe(true);
    expect(matches({ _id: new ObjectId(ID), a: 2 })).toBe(false);
  });

  describe('other filters (through mingo)', () => {
    it.each([
      [{ slug: 'a' }, { slug: 'a' }, { slug: 'b' }],
      [{ n: { $gt: 1, $lte: 3 } }, { n: 3 }, { n: 4 }],
      [{ $or: [{ a: 1 }, { b: { $in: [2, 3] } }] }, { b: 3 }, { b: 4 }],
      [{ $expr: { $eq: ['$a', '$b'] } }, { a: 1, b: 1 }, { a: 1, b: 2 }],
      [{ tags: { $elemMatch: { $regex: '^x' } } }, { tags: ['y', 'xa'] }, { tags: ['y'] }],
    ])('should match %j as MongoDB does', (filter, matching, other) => {
      const matches = compileFilter(filter);
      expect([matches(matching), matches(other)]).toEqual([true, false]);
    });

    it("should not copy the server's operator tables for each filter (10 µs a query)", () => {
      const from = jest.spyOn(Context, 'from');
      const init = jest.spyOn(Context, 'init');
      try {
        expect(compileFilter({ slug: 'a', n: { $gt: 1 } })({ slug: 'a', n: 2 })).toBe(true);
        expect([from.mock.calls.length, init.mock.calls.length]).toEqual([0, 0]);
      } finally {
        from.mockRestore();
        init.mockRestore();
      }
    });
  });
});
