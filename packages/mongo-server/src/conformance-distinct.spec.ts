/**
 * distinct over field names JavaScript treats specially: MongoDB serves a
 * field called `__proto__` like any other; the embedded server answered
 * InternalError (mingo refuses such paths).
 */
import { useDriverFixture } from './conformance.fixture.js';

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
});
