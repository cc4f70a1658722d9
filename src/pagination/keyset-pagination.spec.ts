import { Types } from 'mongoose';
import { dayRange } from '../time/object-id-time.js';
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor.js';
import { KeysetPaginationError } from './keyset-pagination.error.js';
import { keysetQuery, toKeysetPage } from './keyset-pagination.js';
import { parseKeysetSort } from './keyset-sort.js';

const A = new Types.ObjectId('6553f1003f2a91c8d4003039');
const B = new Types.ObjectId('6553f1003f2a91c8d400303a');
const C = new Types.ObjectId('6553f1003f2a91c8d400303b');
const PRICE = parseKeysetSort('price', { price: 'number' });
const BY_PRICE_DESC = parseKeysetSort('-price', { price: 'number' });
const NEWEST = parseKeysetSort('-_id');
const cursorAt = (sort = PRICE, value: number | null = 5, id = A) => encodeKeysetCursor({ sort, value, id });

/** What a query looks like to the code that spreads it into find(), sort() and limit(). */
const shape = (q: ReturnType<typeof keysetQuery>) => ({ filter: q.filter, sort: q.sort, limit: q.limit });

describe('keysetQuery', () => {
  describe('in _id order, as before (an ObjectId after)', () => {
    it('should page from the start without an _id condition', () => {
      expect(shape(keysetQuery({ categoryId: A }))).toEqual({ filter: { categoryId: A }, sort: { _id: 1 }, limit: 21 });
    });

    it('should seek after the cursor instead of skipping', () => {
      expect(shape(keysetQuery({}, { after: A, limit: 5 }))).toEqual({
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

  describe('in both directions', () => {
    const range = dayRange('2023-11-14');
    it.each([
      ['after, oldest first', parseKeysetSort('_id'), 'after', { $gt: A }, { _id: 1 }],
      ['before, oldest first', parseKeysetSort('_id'), 'before', { $lt: A }, { _id: -1 }],
      ['after, newest first', NEWEST, 'after', { $lt: A }, { _id: -1 }],
      ['before, newest first', NEWEST, 'before', { $gt: A }, { _id: 1 }],
    ] as const)('should seek %s within the time range, reading the right way', (_, sort, side, bound, order) => {
      const cursor = encodeKeysetCursor({ sort, value: A, id: A });
      for (const position of [A, cursor]) {
        expect(shape(keysetQuery({ _id: range }, { sort, [side]: position, limit: 3 }))).toEqual({
          filter: { _id: { ...range, ...bound } },
          sort: order,
          limit: 4,
        });
      }
    });

    it('should sort newest first from the start', () => {
      expect(shape(keysetQuery({}, { sort: NEWEST }))).toEqual({ filter: {}, sort: { _id: -1 }, limit: 21 });
    });

    it('should refuse after and before together', () => {
      expect(() => keysetQuery({}, { after: A, before: B })).toThrow(
        new KeysetPaginationError('conflict', 'after and before cannot be used together; send one of them'),
      );
    });
  });

  describe('on another field, with _id as the tie-break', () => {
    const NULLABLE = { ...PRICE, types: ['number', 'null'] as const };
    const NULLABLE_DESC = { ...BY_PRICE_DESC, types: ['number', 'null'] as const };
    const gt = [{ price: { $gt: 5 } }, { price: 5, _id: { $gt: A } }];
    const lt = [{ price: { $lt: 5 } }, { price: 5, _id: { $lt: A } }];
    it.each([
      ['after ascending', PRICE, 'after', { price: { $gte: 5 }, $or: gt }, 1],
      ['before ascending', PRICE, 'before', { price: { $lte: 5 }, $or: lt }, -1],
      ['after descending', BY_PRICE_DESC, 'after', { price: { $lte: 5 }, $or: lt }, -1],
      ['before descending', BY_PRICE_DESC, 'before', { price: { $gte: 5 }, $or: gt }, 1],
      ['after ascending, nullable', NULLABLE, 'after', { price: { $gte: 5 }, $or: gt }, 1],
      ['before ascending, nullable (nulls sort first)', NULLABLE, 'before', { $or: [...lt, { price: null }] }, -1],
      ['after descending, nullable (nulls sort last)', NULLABLE_DESC, 'after', { $or: [...lt, { price: null }] }, -1],
      ['before descending, nullable', NULLABLE_DESC, 'before', { price: { $gte: 5 }, $or: gt }, 1],
    ] as const)('should seek %s', (_, sort, side, seek, direction) => {
      const q = keysetQuery({ categoryId: B }, { sort, [side]: cursorAt(sort), limit: 2 });
      expect(shape(q)).toEqual({
        filter: { categoryId: B, ...seek },
        sort: { price: direction, _id: direction },
        limit: 3,
      });
      expect(Object.keys(q.sort)).toEqual(['price', '_id']);
    });

    it.each([
      ['after ascending', 'after', PRICE, { $or: [{ price: null, _id: { $gt: A } }, { price: { $ne: null } }] }],
      ['before ascending', 'before', PRICE, { price: null, _id: { $lt: A } }],
    ] as const)('should seek %s from a null (or missing) value', (_, side, sort, seek) => {
      const nullable = { ...sort, types: ['number', 'null'] as const };
      expect(keysetQuery({}, { sort: nullable, [side]: cursorAt(nullable, null) }).filter).toEqual(seek);
    });

    it('should keep the seek apart from filter conditions on the same keys, and leave _id ranges as they are', () => {
      const range = dayRange('2023-11-14');
      const filter = { _id: range, $or: [{ categoryId: A }, { categoryId: B }] };
      expect(keysetQuery(filter, { sort: PRICE, after: cursorAt() }).filter).toEqual({
        $and: [filter, { price: { $gte: 5 }, $or: [{ price: { $gt: 5 } }, { price: 5, _id: { $gt: A } }] }],
      });
    });

    it('should refuse an ObjectId as the position of a price order', () => {
      expect(() => keysetQuery({}, { sort: PRICE, after: A })).toThrow(
        'after: an _id is a position in _id order only; for sort=price pass a cursor string',
      );
    });

    it('should refuse a cursor of another sort, naming the parameter', () => {
      expect(() => keysetQuery({}, { sort: BY_PRICE_DESC, before: cursorAt(PRICE) })).toThrow(
        /^before was made for another sort than sort=-price; send the sort of the page it came from/,
      );
    });
  });
});

describe('toKeysetPage', () => {
  describe('given the page size (as before)', () => {
    it('should return the next cursor when one more document was fetched', () => {
      expect(toKeysetPage([{ _id: A }, { _id: B }], 1)).toEqual({ items: [{ _id: A }], nextCursor: A });
    });

    it('should return a null cursor on the last page', () => {
      expect(toKeysetPage([{ _id: A }, { _id: B }], 2)).toEqual({ items: [{ _id: A }, { _id: B }], nextCursor: null });
      expect(toKeysetPage([], 20)).toEqual({ items: [], nextCursor: null });
    });
  });

  describe('given the query', () => {
    const docs = [
      { _id: A, price: 1 },
      { _id: B, price: 2 },
      { _id: C, price: 3 },
    ];
    const at = (doc: (typeof docs)[number]) => encodeKeysetCursor({ sort: PRICE, value: doc.price, id: doc._id });
    const after = cursorAt(PRICE, 0, A);

    it.each([
      // from, fetched (in query order), page size → items, has previous, has next
      ['the start, more to come', {}, [0, 1, 2], 2, [0, 1], false, true],
      ['the start, all of it', {}, [0, 1], 2, [0, 1], false, false],
      ['after a cursor, more to come', { after }, [0, 1, 2], 2, [0, 1], true, true],
      ['after a cursor, the end', { after }, [0], 2, [0], true, false],
      ['after a cursor, past the end', { after }, [], 2, [], false, false],
      ['before a cursor, more before', { before: after }, [2, 1, 0], 2, [1, 2], true, true],
      ['before a cursor, the start', { before: after }, [1, 0], 2, [0, 1], false, true],
      ['before a cursor, before the start', { before: after }, [], 2, [], false, false],
    ] as const)('should label a page from %s', (_, position, fetched, limit, items, hasPrevious, hasNext) => {
      const q = keysetQuery({}, { sort: PRICE, limit, ...position });
      const page = toKeysetPage(
        fetched.map((i) => docs[i]),
        q,
      );
      const expectedItems = items.map((i) => docs[i]);
      expect(page).toEqual({
        items: expectedItems,
        hasPrevious,
        hasNext,
        previousCursor: hasPrevious ? at(expectedItems[0]) : null,
        nextCursor: hasNext ? at(expectedItems[expectedItems.length - 1]) : null,
      });
    });

    it('should sign the cursors it makes when the query has a secret', () => {
      const q = keysetQuery({}, { sort: PRICE, limit: 1, secret: 's3cret' });
      const { nextCursor } = toKeysetPage(docs, q);
      expect(decodeKeysetCursor(nextCursor, PRICE, { secret: 's3cret' })).toEqual({ sort: PRICE, value: 1, id: A });
      expect(() => decodeKeysetCursor(nextCursor, PRICE)).toThrow(/signed, but this list does not sign its cursors/);
    });

    it('should refuse to make a cursor of a value of a type the sort does not allow', () => {
      const q = keysetQuery({}, { sort: PRICE, limit: 1 });
      expect(() => toKeysetPage([{ _id: A, price: 'cheap' }, docs[1]], q)).toThrow(
        /keyset cursor: price holds string in a document; a cursor carries number/,
      );
    });
  });
});
