/**
 * distinct over field names JavaScript treats specially: MongoDB serves a
 * field called `__proto__` like any other; the embedded server answered
 * InternalError (mingo refuses such paths). Many values: the embedded server
 * compared each with every one kept (50,000 of them ran past its 10 s limit),
 * and sent a reply past 16 MB, which closed the connection.
 */
import { rejection, useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

describe('distinct', () => {
  it.each<[string, string, unknown[]]>([
    ['a top-level "__proto__" field', '__proto__', ['x', 'y']],
    ['a "__proto__" field inside a sub-document', 'a.__proto__', [5]],
    ['a "__proto__" field inside an array of sub-documents', 'list.__proto__', [1, 2]],
    ['an ordinary field beside them', 'n', [1, 2, 3]],
  ])('should list the values of %s', async (_label, key, values) => {
    const things = await fixture.fresh('distinct');
    await things.insertMany([
      { _id: 1, ['__proto__']: 'x', n: 1 },
      { _id: 2, ['__proto__']: ['y', 'x'], n: 2, a: { ['__proto__']: 5 } },
      { _id: 3, n: 3, list: [{ ['__proto__']: 1 }, { ['__proto__']: 2 }, { other: 3 }] },
    ] as never[]);
    expect((await things.distinct(key)).sort()).toEqual(values);
  });

  it('should list 50,000 distinct values in order, each once', async () => {
    const things = await fixture.fresh('distinct');
    const values = Array.from({ length: 50_000 }, (_, i) => i);
    await things.insertMany([
      { _id: 1, v: [...values].reverse() },
      { _id: 2, v: values.filter((i) => i % 7 === 0) },
    ] as never[]);
    expect(await things.distinct('v')).toEqual(values);
  });

  it('should refuse values over 16 MB in all with 17217', async () => {
    const things = await fixture.fresh('distinct');
    const strings = (from: number) => Array.from({ length: 90 }, (_, i) => `${from + i}`.padEnd(100_000, 'x'));
    await things.insertMany([
      { _id: 1, s: strings(0) },
      { _id: 2, s: strings(90) },
    ] as never[]);
    const error = await rejection(things.distinct('s'));
    expect([error.code, error.message]).toEqual([17217, 'distinct too big, 16mb cap']);
    expect(await things.distinct('s', { _id: 1 } as never)).toHaveLength(90);
  });
});

describe('distinct along paths through arrays (jstests/core/distinct_array1.js, without an index)', () => {
  const sorted = (values: unknown[]) => values.map(String).sort();

  it('should list the elements of arrays, and those at a position', async () => {
    const c = await fixture.fresh('distinct_array1');
    await c.insertMany([{ a: [1, 2, 3] }, { a: [2, 3, 4] }, { a: [3, 4, 5] }, { a: 9 }] as never[]);
    expect(sorted(await c.distinct('a'))).toEqual(sorted([1, 2, 3, 4, 5, 9]));
    expect(sorted(await c.distinct('a.0'))).toEqual(['1', '2', '3']);
    expect(sorted(await c.distinct('a.1'))).toEqual(['2', '3', '4']);
    await c.insertMany([
      { a: [{ b: 'a' }, { b: 'd' }], c: 12 },
      { a: [{ b: 'b' }, { b: 'd' }], c: 12 },
      { a: [{ b: 'c' }, { b: 'e' }], c: 12 },
      { a: [{ b: 'c' }, { b: 'f' }], c: 12 },
      { a: [], c: 12 },
      { a: { b: 'z' }, c: 12 },
    ] as never[]);
    expect(sorted(await c.distinct('a.b'))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'z']);
    expect(sorted(await c.distinct('a.0.b'))).toEqual(['a', 'b', 'c']);
    expect(sorted(await c.distinct('a.1.b'))).toEqual(['d', 'e', 'f']);
  });

  it('should read _id.a through a document holding an array', async () => {
    const c = await fixture.fresh('distinct_array1');
    await c.insertMany([
      { _id: { a: [1, 2, 3] } },
      { _id: { a: [2, 3, 4] } },
      { _id: { a: [3, 4, 5] } },
      { _id: { a: 9 } },
    ] as never[]);
    expect(sorted(await c.distinct('_id.a'))).toEqual(sorted([1, 2, 3, 4, 5, 9]));
    expect(sorted(await c.distinct('_id.a.0'))).toEqual(['1', '2', '3']);
  });

  it('should expand a trailing array once, and not walk an array inside an array on the way (extractAllElementsAlongPath)', async () => {
    const c = await fixture.fresh('distinct_nested');
    await c.insertMany([{ a: [1, [2]] }, { a: [[{ b: 9 }]], b: 1 }, { a: [{ 0: 'field' }, 'x'] }] as never[]);
    expect(await c.distinct('a')).toEqual([1, 'x', { 0: 'field' }, [2], [{ b: 9 }]]);
    expect(await c.distinct('a.b')).toEqual([]);
    // A numeric component is a position only, not a field of the array's documents.
    expect(await c.distinct('a.0')).toEqual([1, { b: 9 }, { 0: 'field' }]);
  });
});
