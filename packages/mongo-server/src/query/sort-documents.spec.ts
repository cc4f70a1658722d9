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
    ['2', 2],
    ['1.5', 1.5],
    ['NaN', Number.NaN],
  ])('should refuse %s as a direction with 15975', (_label, direction) => {
    expect(() => parseSortSpec({ a: direction })).toThrow(
      expect.objectContaining({
        codeName: 'Location15975',
        message: '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
      }),
    );
  });

  // What is neither a number nor a document is an illegal key, printed as mongod prints the element.
  it.each([
    ['a string', '123', 'a: "123"'],
    ['null', null, 'a: null'],
    ['true', true, 'a: true'],
  ])('should refuse %s as a direction with 15974', (_label, direction, element) => {
    expect(() => parseSortSpec({ a: direction })).toThrow(
      expect.objectContaining({
        codeName: 'Location15974',
        message: `Illegal key in $sort specification: ${element}`,
      }),
    );
  });
});
