import { KeysetPaginationError } from './keyset-pagination.error.js';
import { formatKeysetSort, parseKeysetSort } from './keyset-sort.js';

const FIELDS = { price: 'number', name: ['string', 'null'] } as const;
const CHOICES = '_id, -_id, price, -price, name, -name';

describe('parseKeysetSort', () => {
  describe('when the sort is offered', () => {
    it.each([
      ['_id', { field: '_id', direction: 1, types: ['objectId'] }],
      ['-_id', { field: '_id', direction: -1, types: ['objectId'] }],
      ['price', { field: 'price', direction: 1, types: ['number'] }],
      ['-name', { field: 'name', direction: -1, types: ['string', 'null'] }],
    ])('should read %s', (text, expected) => {
      expect(parseKeysetSort(text, FIELDS)).toEqual(expected);
      expect(formatKeysetSort(parseKeysetSort(text, FIELDS))).toBe(text);
    });
  });

  describe('when it is not', () => {
    it.each([
      ['weight', `sort must be one of ${CHOICES}; got "weight"`],
      ['--price', `sort must be one of ${CHOICES}; got "--price"`],
      ['+price', `sort must be one of ${CHOICES}; got "+price"`],
      ['Price', `sort must be one of ${CHOICES}; got "Price"`],
      ['', `sort must be one of ${CHOICES}; got ""`],
      ['__proto__', `sort must be one of ${CHOICES}; got "__proto__"`],
      ['constructor', `sort must be one of ${CHOICES}; got "constructor"`],
      ['-toString', `sort must be one of ${CHOICES}; got "-toString"`],
      ['x'.repeat(100), `sort must be one of ${CHOICES}; got "${'x'.repeat(40)}…"`],
      [['price', 'name'], `sort is given 2 times; send it once, one of ${CHOICES}`],
      [{ $gt: '' }, `sort must be one of ${CHOICES}`],
      [undefined, `sort must be one of ${CHOICES}`],
    ])('should refuse %j', (text, message) => {
      expect(() => parseKeysetSort(text, FIELDS)).toThrow(new KeysetPaginationError('sort', message));
    });

    it('should refuse to offer a field that is not a plain path', () => {
      expect(() => parseKeysetSort('_id', { 'price.$gt': 'number' })).toThrow(
        'parseKeysetSort: "price.$gt" is not a field path (letters, digits, _ and dots)',
      );
    });
  });
});
