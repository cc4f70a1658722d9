import { Types } from 'mongoose';
import { dayRange } from '../time/object-id-time.js';
import { keysetQuery, toKeysetPage } from './keyset-pagination.js';

const A = new Types.ObjectId('6553f1003f2a91c8d4003039');
const B = new Types.ObjectId('6553f1003f2a91c8d400303a');

describe('keysetQuery', () => {
  it('should page from the start without an _id condition', () => {
    expect(keysetQuery({ categoryId: A })).toEqual({ filter: { categoryId: A }, sort: { _id: 1 }, limit: 21 });
  });

  it('should seek after the cursor instead of skipping', () => {
    expect(keysetQuery({}, { after: A, limit: 5 })).toEqual({
      filter: { _id: { $gt: A } },
      sort: { _id: 1 },
      limit: 6,
    });
  });

  it('should merge the cursor into a time range on _id', () => {
    const range = dayRange('2023-11-14');
    expect(keysetQuery({ _id: range }, { after: A }).filter).toEqual({
      _id: { $gte: range.$gte, $lt: range.$lt, $gt: A },
    });
  });

  it('should keep the stricter of two $gt bounds', () => {
    expect(keysetQuery({ _id: { $gt: B } }, { after: A }).filter).toEqual({ _id: { $gt: B } });
    expect(keysetQuery({ _id: { $gt: A } }, { after: B }).filter).toEqual({ _id: { $gt: B } });
  });

  it('should combine with $and when _id is not an operator object', () => {
    expect(keysetQuery({ _id: A }, { after: B }).filter).toEqual({ $and: [{ _id: A }, { _id: { $gt: B } }] });
  });

  it.each([0, -1, 101, 1.5, Number.NaN])('should refuse limit %p', (limit) => {
    expect(() => keysetQuery({}, { limit })).toThrow(/limit must be an integer from 1 to 100/);
  });
});

describe('toKeysetPage', () => {
  it('should return the next cursor when one more document was fetched', () => {
    expect(toKeysetPage([{ _id: A }, { _id: B }], 1)).toEqual({ items: [{ _id: A }], nextCursor: A });
  });

  it('should return a null cursor on the last page', () => {
    expect(toKeysetPage([{ _id: A }, { _id: B }], 2)).toEqual({ items: [{ _id: A }, { _id: B }], nextCursor: null });
    expect(toKeysetPage([], 20)).toEqual({ items: [], nextCursor: null });
  });
});
