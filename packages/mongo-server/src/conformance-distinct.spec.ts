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
