import { Types } from 'mongoose';
import { mergeIdConditions } from './merge-id-conditions.js';

const id = (n: number) => new Types.ObjectId(n.toString(16).padStart(24, '0'));

describe('mergeIdConditions', () => {
  it('should keep every operator of two time ranges and an id list in one condition', () => {
    expect(mergeIdConditions({ $gte: id(10), $lt: id(20) }, { $gte: id(12) }, { $in: [id(15)] })).toEqual({
      $gte: id(12),
      $lt: id(20),
      $in: [id(15)],
    });
  });

  it.each([
    ['$gt', [id(3), id(7), id(5)], id(7)],
    ['$gte', [id(3), id(7), id(5)], id(7)],
    ['$lt', [id(9), id(4), id(6)], id(4)],
    ['$lte', [id(9), id(4), id(6)], id(4)],
  ] as const)('should keep the tightest %s bound', (operator, values, expected) => {
    expect(mergeIdConditions(...values.map((value) => ({ [operator]: value })))).toEqual({ [operator]: expected });
  });

  it('should order ids as MongoDB does (by their bytes)', () => {
    expect(mergeIdConditions({ $gt: id(0xff) }, { $gt: id(0x100) })).toEqual({ $gt: id(0x100) });
    const [a, b] = [new Types.ObjectId('0a' + '0'.repeat(22)), new Types.ObjectId('a0' + '0'.repeat(22))];
    expect(mergeIdConditions({ $lt: b }, { $lt: a })).toEqual({ $lt: a });
  });

  it('should intersect $in lists', () => {
    expect(mergeIdConditions({ $in: [id(1), id(2), id(3)] }, { $in: [id(3), id(1), id(9)] })).toEqual({
      $in: [id(3), id(1)],
    });
  });

  it('should not modify the conditions it was given', () => {
    const first = { $gte: id(1), $in: [id(1), id(2)] };
    mergeIdConditions(first, { $gte: id(2), $in: [id(2)] });
    expect(first).toEqual({ $gte: id(1), $in: [id(1), id(2)] });
  });

  it('should give undefined when there is nothing to merge', () => {
    expect(mergeIdConditions(undefined, undefined)).toBeUndefined();
  });
});
