import { BSON, Code } from '../bson/bson-library.cjs';
import { MAX_BSON_DEPTH, nestsDeeperThan } from './bson-depth.js';

/** `levels` documents (or arrays) nested below a top-level `{ x: … }`. */
function nested(levels: number, kind: 'document' | 'array' | 'scope'): Uint8Array {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) {
    value =
      kind === 'document'
        ? { a: value }
        : kind === 'array'
          ? [value]
          : i === 0
            ? new Code('f', { a: 1 })
            : { a: value };
  }
  return BSON.serialize({ x: value, s: 'after', n: 2 });
}

describe('nestsDeeperThan', () => {
  it.each(['document', 'array', 'scope'] as const)(
    'should allow %s nesting of exactly the limit and refuse one more',
    (kind) => {
      expect(nestsDeeperThan(nested(MAX_BSON_DEPTH, kind))).toBe(false);
      expect(nestsDeeperThan(nested(MAX_BSON_DEPTH + 1, kind))).toBe(true);
    },
  );

  it('should read past every kind of element to the nested ones after it', () => {
    const flat = {
      d: 1.5,
      s: 'text',
      b: new Uint8Array([1, 2, 3]),
      o: new BSON.ObjectId(),
      t: true,
      date: new Date(0),
      nil: null,
      re: /a(b)c/i,
      code: new Code('x'),
      sym: new BSON.BSONSymbol('s'),
      i: 7,
      ts: new BSON.Timestamp({ t: 1, i: 2 }),
      l: 2n ** 40n,
      dec: BSON.Decimal128.fromString('1.5'),
      min: new BSON.MinKey(),
      max: new BSON.MaxKey(),
    };
    let deep: unknown = 1;
    for (let i = 0; i < 5; i++) deep = { a: deep };
    const bytes = BSON.serialize({ ...flat, deep }, { ignoreUndefined: false });
    expect(nestsDeeperThan(bytes, 5)).toBe(false);
    expect(nestsDeeperThan(bytes, 4)).toBe(true);
  });

  it.each([
    ['truncated', BSON.serialize({ a: { b: { c: 1 } } }).subarray(0, 12)],
    ['an unknown element type', Uint8Array.from([8, 0, 0, 0, 0x42, 0x61, 0, 0])],
    ['a negative string length', Uint8Array.from([12, 0, 0, 0, 0x02, 0x61, 0, 0xff, 0xff, 0xff, 0xff, 0])],
    ['empty', new Uint8Array(0)],
  ])('should answer false for a malformed document (%s), leaving the error to the decoder', (_label, bytes) => {
    expect(nestsDeeperThan(bytes, 10)).toBe(false);
  });
});
