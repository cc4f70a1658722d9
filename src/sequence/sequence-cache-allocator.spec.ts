import { SequenceCacheAllocator, type ReservedRange } from './sequence-cache-allocator.js';

/** A reserve() that counts calls and hands out consecutive ranges, resolving on the next macrotask. */
function reserver(size: number, step = 1n) {
  let high = 0n;
  const calls: ReservedRange[] = [];
  const reserve = async (): Promise<ReservedRange> => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    const first = high + step;
    high += BigInt(size) * step;
    const range = { first, last: high, step };
    calls.push(range);
    return range;
  };
  return { reserve, calls };
}

describe('SequenceCacheAllocator', () => {
  it('should hand out a block locally and refill once it is used up', async () => {
    const allocator = new SequenceCacheAllocator();
    const { reserve, calls } = reserver(3);
    const values: bigint[] = [];
    for (let i = 0; i < 7; i++) values.push(await allocator.take('k', reserve));
    expect(values).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    expect(calls).toHaveLength(3);
  });

  it('should share one in-flight refill among concurrent callers', async () => {
    const allocator = new SequenceCacheAllocator();
    const { reserve, calls } = reserver(100);
    const values = await Promise.all(Array.from({ length: 250 }, () => allocator.take('k', reserve)));
    expect(new Set(values).size).toBe(250);
    expect([...values].sort((a, b) => (a < b ? -1 : 1))).toEqual(Array.from({ length: 250 }, (_, i) => BigInt(i + 1)));
    expect(calls).toHaveLength(3);
  });

  it('should respect the step of the block', async () => {
    const allocator = new SequenceCacheAllocator();
    const { reserve } = reserver(3, 10n);
    const values = [];
    for (let i = 0; i < 4; i++) values.push(await allocator.take('k', reserve));
    expect(values).toEqual([10n, 20n, 30n, 40n]);
  });

  it('should keep separate blocks per key and drop a forgotten one', async () => {
    const allocator = new SequenceCacheAllocator();
    const a = reserver(10);
    const b = reserver(10);
    expect([await allocator.take('orders:2026', a.reserve), await allocator.take('orders:2027', b.reserve)]).toEqual([
      1n,
      1n,
    ]);
    allocator.forgetSequence('orders');
    expect(await allocator.take('orders:2026', a.reserve)).toBe(11n);
    allocator.forgetKey('orders:2026');
    expect(await allocator.take('orders:2026', a.reserve)).toBe(21n);
    expect(await allocator.take('orders:2027', b.reserve)).toBe(11n);
  });

  it('should pass a failed refill to every waiter and try again on the next call', async () => {
    const allocator = new SequenceCacheAllocator();
    let fail = true;
    const reserve = async (): Promise<ReservedRange> => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (fail) throw new Error('down');
      return { first: 1n, last: 10n, step: 1n };
    };
    const results = await Promise.allSettled([allocator.take('k', reserve), allocator.take('k', reserve)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await allocator.take('k', reserve)).toBe(1n);
  });

  it('should drop the oldest key beyond its limit', async () => {
    const allocator = new SequenceCacheAllocator(2);
    const r = { a: reserver(10), b: reserver(10), c: reserver(10) };
    await allocator.take('a', r.a.reserve);
    await allocator.take('b', r.b.reserve);
    await allocator.take('c', r.c.reserve);
    expect(await allocator.take('a', r.a.reserve)).toBe(11n);
    expect(await allocator.take('c', r.c.reserve)).toBe(2n);
  });
});
