import { parseSortSpec } from './sort-documents.js';

describe('parseSortSpec', () => {
  it('should take 1 and -1, as int32, double or Int64', () => {
    expect(parseSortSpec({ a: 1, b: -1, c: 1.0, d: -1n })).toEqual([
      ['a', 1],
      ['b', -1],
      ['c', 1],
      ['d', -1],
    ]);
  });

  // A document with its own `toString` key made Number() throw a TypeError (an InternalError reply).
  it.each([
    ['a document with its own toString', { toString: 'x' }],
    ['a document', { $divide: [1, 2] }],
    ['a string', '1'],
    ['2', 2],
    ['null', null],
  ])('should refuse %s as a direction with 15975', (_label, direction) => {
    expect(() => parseSortSpec({ a: direction })).toThrow(
      expect.objectContaining({
        codeName: 'Location15975',
        message: '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
      }),
    );
  });
});
