/**
 * `$sample`: distinct documents, at most `size` of them, and mongod's errors
 * for a bad specification — also on an empty collection. mingo's own stage
 * drew with replacement until it had exactly `size`, so `{}` or a size of 1.5
 * never ended and took the hosting process down.
 */
import { Decimal128, Long, type Document } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();

describe('$sample', () => {
  const sample = async (spec: unknown, docs: Document[] = []) => {
    const things = await fixture.fresh('sampled');
    if (docs.length) await things.insertMany(docs);
    return things.aggregate([{ $sample: spec }]).toArray();
  };
  const five = () => [1, 2, 3, 4, 5].map((n) => ({ _id: n }));

  it.each<[string, number, unknown]>([
    ['a number', 28745, 3],
    ['an array', 28745, [{ size: 1 }]],
    ['no size', 28749, {}],
    ['a string size', 28746, { size: '2' }],
    ['a null size', 28746, { size: null }],
    ['a negative size', 28747, { size: -1 }],
    ['another option', 28748, { size: 1, seed: 7 }],
  ])('should refuse %s with code %d, also on an empty collection', async (_label, code, spec) => {
    await expect(sample(spec)).rejects.toMatchObject({ code });
  });

  it.each<[string, unknown, number]>([
    ['size 2', { size: 2 }, 2],
    ['size 1.5 (truncated, as mongod reads it)', { size: 1.5 }, 1],
    ['an int64 size', { size: Long.fromNumber(3) }, 3],
    ['a decimal size', { size: Decimal128.fromString('4') }, 4],
    ['a size above the collection', { size: 1_000_000_000 }, 5],
  ])('should draw %s: that many distinct documents', async (_label, spec, count) => {
    const drawn = (await sample(spec, five())).map((doc) => doc._id as number);
    expect(drawn).toHaveLength(count);
    expect(new Set(drawn).size).toBe(count);
    for (const id of drawn) expect([1, 2, 3, 4, 5]).toContain(id);
  });

  it('should answer a huge size on an empty collection with nothing', async () => {
    expect(await sample({ size: Number.MAX_SAFE_INTEGER })).toEqual([]);
  });
});
