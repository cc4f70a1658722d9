import { write } from './update-paths.js';

describe('write', () => {
  it.each(['name', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', '__proto__'])(
    'should set %s as an own, enumerable field of a document and leave its prototype alone',
    (leaf) => {
      const doc: Record<string, unknown> = { a: 1 };
      write(doc, leaf, { x: 1 });
      expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(doc, leaf)).toEqual({
        value: { x: 1 },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      expect(Object.keys(doc)).toEqual(['a', leaf]);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    },
  );

  it('should replace an existing field in place, keeping the field order', () => {
    const doc: Record<string, unknown> = { a: 1, b: 2, c: 3 };
    write(doc, 'b', 'two');
    expect(Object.entries(doc)).toEqual([
      ['a', 1],
      ['b', 'two'],
      ['c', 3],
    ]);
  });

  it('should fill the gap past an array’s end with nulls', () => {
    const list: unknown[] = [1];
    write(list, '3', 'x');
    expect(list).toEqual([1, null, null, 'x']);
  });
});
