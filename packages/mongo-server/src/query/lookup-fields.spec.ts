import { BSONRegExp, Decimal128, Double, Int32, Long } from '../bson/bson-library.cjs';
import { Collation, stringClasses } from '../bson/collation.js';
import { foreignKeys, joinKey, localValues, withPath } from './lookup-fields.js';

const keysOf = (...values: unknown[]) => new Set(values.map((value) => joinKey(value)));
const NULL = joinKey(null);

describe('localValues', () => {
  it.each([
    ['a top-level scalar', { a: 1 }, 'a', [1]],
    ['a missing field', { b: 1 }, 'a', []],
    ['a null', { a: null }, 'a', [null]],
    ['a trailing array, expanded one level', { a: [1, [2, 3]] }, 'a', [1, [2, 3]]],
    ['an empty trailing array', { a: [] }, 'a', []],
    ['documents of an array on the way', { k: [{ x: [10, 20] }, { x: 30 }] }, 'k.x', [10, 20, 30]],
    ['scalars and nested arrays on the way give nothing', { a: [1, [{ x: 1 }], { x: 2 }] }, 'a.x', [2]],
    ['an index component takes that element alone', { a: [{ x: 1 }, { x: 2 }] }, 'a.0.x', [1]],
    ['consecutive index components', { c: [0, [3, 4, 3], [1, 2]] }, 'c.1.2', [3]],
    ['an index out of range', { a: [3, 2, 1] }, 'a.3', []],
    ['a numeric field of a document', { a: { '0': 3 } }, 'a.0', [3]],
    ['a non-canonical index is a field name', { a: [3] }, 'a.00', []],
    ['a trailing array reached by index', { a: { b: [[1, 2]] } }, 'a.b.0', [1, 2]],
  ])('%s', (_label, doc, path, expected) => {
    expect(localValues(doc, path.split('.'))).toEqual(expected);
  });

  it('does not read inherited properties', () => {
    expect(localValues({ a: {} }, ['a', 'constructor'])).toEqual([]);
    expect(localValues({ a: {} }, ['a', '__proto__'])).toEqual([]);
  });

  it('walks a deeply nested path without recursion', () => {
    const depth = 50_000;
    let doc: Record<string, unknown> = { x: 7 };
    for (let i = 0; i < depth; i++) doc = { a: doc };
    expect(localValues(doc, [...Array<string>(depth).fill('a'), 'x'])).toEqual([7]);
  });
});

describe('foreignKeys', () => {
  it.each([
    ['a scalar', { b: 1 }, 'b', keysOf(1)],
    ['a missing field matches null', { c: 1 }, 'b', keysOf(null)],
    ['a trailing array: whole and by element', { b: [[1, 2], 3] }, 'b', keysOf([[1, 2], 3], [1, 2], 3)],
    ['an empty trailing array is only itself', { b: [] }, 'b', keysOf([])],
    ['a document lacking the field on the way', { a: [{ x: 1 }, { y: 2 }] }, 'a.x', keysOf(1, null)],
    ['a scalar where a document is needed', { a: [1] }, 'a.x', keysOf(null)],
    ['an empty array on the way', { a: [] }, 'a.x', keysOf(null)],
    ['an index component: by position and by field name', { a: [{ x: 1 }, { y: 1 }] }, 'a.0.x', keysOf(1, null)],
  ])('%s', (_label, doc, path, expected) => {
    expect(foreignKeys(doc, path.split('.'))).toEqual(expected);
  });

  it('keys numbers by value across their types', () => {
    const keys = [5, new Int32(5), new Double(5), Long.fromNumber(5), Decimal128.fromString('5.0')].map((value) =>
      joinKey(value),
    );
    expect(new Set(keys).size).toBe(1);
    expect(foreignKeys({ b: null }, ['b'])).toEqual(new Set([NULL]));
  });

  it('keys BSON regexes by pattern and flags', () => {
    expect(joinKey(new BSONRegExp('hjkl', ''))).not.toBe(joinKey(new BSONRegExp('hjkl', 'i')));
    expect(joinKey(new BSONRegExp('^x', ''))).toBe(joinKey(new BSONRegExp('^x', '')));
    expect(joinKey(new BSONRegExp('^x', ''))).not.toBe(joinKey('^x'));
  });

  it('keys strings by their class under a collation, inside arrays and documents too', () => {
    const canonical = stringClasses(Collation.parse({ locale: 'en', strength: 1 })!.compare);
    expect(joinKey('Straße', canonical)).toBe(joinKey('STRASSE', canonical));
    expect(joinKey(['a', { k: 'B' }], canonical)).toBe(joinKey(['A', { k: 'b' }], canonical));
    expect(joinKey('a', canonical)).not.toBe(joinKey('b', canonical));
    expect(joinKey('a')).not.toBe(joinKey('A'));
  });
});

describe('withPath', () => {
  it('sets a top-level field, keeping the place of an existing one', () => {
    expect(Object.entries(withPath({ a: 1, b: 2 }, 'a', []))).toEqual([
      ['a', []],
      ['b', 2],
    ]);
  });

  it('sets a dotted path, replacing a non-document on the way', () => {
    expect(withPath({ same: 1, x: { y: 1 } }, 'x.z', [])).toEqual({ same: 1, x: { y: 1, z: [] } });
    expect(withPath({ same: 1 }, 'same.documents', [])).toEqual({ same: { documents: [] } });
  });

  it('keeps __proto__ a field', () => {
    const doc = withPath({}, '__proto__', []);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
  });
});
