/**
 * Regular expressions in queries and `$regexMatch`: MongoDB's matching, and no
 * pattern can hold the server (the embedded server matches in linear time, so
 * `(a+)+$` on a long string answers at once). Runs against MONGO_URL too,
 * except the lookaround refusal, which is the embedded server's own limit.
 */
import { MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const embedded = !process.env.MONGO_URL;

describe('regular expressions', () => {
  // A stored regex is matched by a query regex with the same pattern and flags, not by what it would match.
  it('should match a stored regular expression by its pattern and flags', async () => {
    const patterns = await fixture.fresh('patterns');
    await patterns.insertMany([
      { n: 0, p: /^ab/ },
      { n: 1, p: /^ab/i },
      { n: 2, p: 'abc' },
      { n: 3, p: [/^ab/, 'x'] },
    ]);
    const matched = async (filter: object) =>
      (await patterns.find(filter).sort({ n: 1 }).toArray()).map((d) => d.n as number);
    expect(await matched({ p: /^ab/ })).toEqual([0, 2, 3]);
    expect(await matched({ p: { $regex: '^ab', $options: 'i' } })).toEqual([1, 2]);
    expect(await matched({ p: { $in: [/^ab/i] } })).toEqual([1, 2]);
    expect(await matched({ p: /b/ })).toEqual([2]);
  });

  const names = ['Apple pie', 'apple', 'Banana', 'line one\nApple two', 'a'.repeat(34) + 'b'];

  beforeAll(async () => {
    const things = await fixture.fresh('fruits');
    await things.insertMany(names.map((name, n) => ({ n, name, tags: [name.toLowerCase()] })));
  });

  const ns = async (filter: object) =>
    (
      await fixture.db
        .collection('fruits')
        .find(filter, { projection: { _id: 0, n: 1 } })
        .sort({ n: 1 })
        .toArray()
    ).map((d) => d.n);

  it.each([
    [{ name: /^apple/ }, [1]],
    [{ name: /^apple/i }, [0, 1]],
    [{ name: { $regex: '^apple', $options: 'i' } }, [0, 1]],
    [{ name: { $regex: '^Apple', $options: 'm' } }, [0, 3]],
    [{ name: { $regex: 'one.Apple', $options: 's' } }, [3]],
    [{ tags: /^ban/ }, [2]],
    [{ name: { $in: [/^B/, 'apple'] } }, [1, 2]],
    [{ name: { $not: /a/ } }, [0, 3]],
  ])('should find %p', async (filter, expected) => {
    expect(await ns(filter)).toEqual(expected);
  });

  // With JavaScript's backtracking engine this one match took 38 s, holding every client.
  it('should answer a catastrophic-backtracking pattern at once', async () => {
    expect(await ns({ name: /(a+)+$/ })).toEqual([2]); // 'Banana' ends in a; 'aaa…ab' does not
    expect(await ns({ name: { $regex: '^(a|a)*$' } })).toEqual([]);
    const matched = await fixture.db
      .collection('fruits')
      .aggregate([
        { $match: { n: 4 } },
        { $project: { _id: 0, m: { $regexMatch: { input: '$name', regex: '(a+)+$' } } } },
      ])
      .toArray();
    expect(matched).toEqual([{ m: false }]);
  });

  it('should match with $regexMatch, options included', async () => {
    const out = await fixture.db
      .collection('fruits')
      .aggregate([
        { $sort: { n: 1 } },
        { $limit: 3 },
        { $project: { _id: 0, m: { $regexMatch: { input: '$name', regex: '^apple', options: 'i' } } } },
      ])
      .toArray();
    expect(out).toEqual([{ m: true }, { m: true }, { m: false }]);
  });

  (embedded ? it : it.skip)(
    'should refuse lookaround, which it cannot match in linear time, with BadValue',
    async () => {
      const error = await ns({ name: /(?=a)a/ }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).codeName).toBe('BadValue');
      expect((error as MongoServerError).message).toMatch(/^Regular expression is invalid: .*no lookaround/);
    },
  );
});
