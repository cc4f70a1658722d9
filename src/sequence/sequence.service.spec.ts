import mongoose, { type Connection } from 'mongoose';
import { startTestMongo } from 'nestjs-objectid-mongo-server';
import { SequenceBackwardsError } from './sequence-backwards.error.js';
import { SequenceConfigError } from './sequence-config.error.js';
import { SequenceFormatError } from './sequence-format.error.js';
import { SequenceOverflowError } from './sequence-overflow.error.js';
import { SequenceUnavailableError } from './sequence-unavailable.error.js';
import { SequenceService } from './sequence.service.js';
import type { SequenceModuleOptions } from './sequence-options.interface.js';

type TestMongo = Awaited<ReturnType<typeof startTestMongo>>;

/** Counts the commands the driver sends, by name (command monitoring). */
function commandCounter(connection: Connection) {
  const counts = new Map<string, number>();
  connection.getClient().on('commandStarted', (event) => {
    counts.set(event.commandName, (counts.get(event.commandName) ?? 0) + 1);
  });
  return {
    reset: () => counts.clear(),
    count: (name: string) => counts.get(name) ?? 0,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    names: () => Object.fromEntries(counts),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

describe('SequenceService (integration)', () => {
  let mongo: TestMongo;
  let connection: Connection;
  let commands: ReturnType<typeof commandCounter>;
  let collectionName: string;
  let suffix = 0;

  /** A service on its own fresh counters collection, so tests never share counters. */
  function service(options: SequenceModuleOptions = {}): SequenceService {
    collectionName = `counters_${process.pid}_${Date.now()}_${++suffix}`;
    return SequenceService.fromConnection(connection, { collectionName, ...options });
  }
  const counters = () => connection.collection(collectionName);
  const snapshot = () =>
    counters()
      .find({}, { sort: { _id: 1 }, useBigInt64: true })
      .toArray();

  beforeAll(async () => {
    mongo = await startTestMongo({ transactions: true });
    connection = await mongoose
      .createConnection(mongo.uri, { dbName: mongo.dbName, monitorCommands: true })
      .asPromise();
    commands = commandCounter(connection);
  });

  afterAll(async () => {
    await connection?.close();
    await mongo?.stop();
  });

  describe('next', () => {
    it('should count from 1 by 1 by default', async () => {
      const seq = service();
      expect([await seq.next('orders'), await seq.next('orders'), await seq.next('orders')]).toEqual([1, 2, 3]);
      expect(await seq.current('orders')).toBe(3);
    });

    it.each([
      [{ start: 1000 }, [1000, 1001, 1002]],
      [{ step: 10 }, [1, 11, 21]],
      [{ start: 1000, step: 10 }, [1000, 1010, 1020]],
      [{ start: 0 }, [0, 1, 2]],
      [{ start: -2, step: 2 }, [-2, 0, 2]],
    ])('should honour %o', async (definition, expected) => {
      const seq = service({ definitions: { orders: definition } });
      expect([await seq.next('orders'), await seq.next('orders'), await seq.next('orders')]).toEqual(expected);
    });

    it('should keep separate counters per name and per explicit scope', async () => {
      const seq = service();
      await seq.next('orders');
      await seq.next('orders');
      expect(await seq.next('invoices', { scope: 'tenant-42' })).toBe(1);
      expect(await seq.next('invoices', { scope: 'tenant-43' })).toBe(1);
      expect(await seq.next('invoices', { scope: 'tenant-42' })).toBe(2);
      expect(await seq.next('orders')).toBe(3);
      expect((await snapshot()).map((d) => d._id)).toEqual(['invoices:tenant-42', 'invoices:tenant-43', 'orders']);
    });

    it('should send exactly one findAndModify per number and nothing else', async () => {
      const seq = service();
      await seq.next('warm-up'); // mongoose may open the collection on first use
      commands.reset();
      for (let i = 0; i < 10; i++) await seq.next('orders');
      expect(commands.names()).toEqual({ findAndModify: 10 });
    });

    it('should give 200 concurrent first calls on a missing counter the numbers 1..200 without error', async () => {
      const seq = service();
      const values = await Promise.all(range(1, 200).map(() => seq.next('fresh')));
      expect(ascending(values)).toEqual(range(1, 200));
      expect(await seq.current('fresh')).toBe(200);
    });

    it('should go on from a hand-imported document without base', async () => {
      const seq = service();
      await counters().insertOne({ _id: 'legacy' as never, seq: 41 });
      expect(await seq.next('legacy')).toBe(42);
    });

    it('should store the counter as int64 fields seq and base', async () => {
      const seq = service({ definitions: { orders: { start: 1000, step: 10 } } });
      await seq.next('orders');
      const raw = await counters().findOne({ _id: 'orders' as never }, { promoteLongs: false });
      expect(raw).toEqual({
        _id: 'orders',
        seq: mongoose.mongo.Long.fromNumber(10),
        base: mongoose.mongo.Long.fromNumber(990),
      });
    });
  });

  describe('nextBlock', () => {
    it('should reserve consecutive numbers in one command', async () => {
      const seq = service({ definitions: { orders: { start: 1000, step: 10 } } });
      await seq.next('orders');
      commands.reset();
      const block = await seq.nextBlock('orders', 5);
      expect(commands.names()).toEqual({ findAndModify: 1 });
      expect({ first: block.first, last: block.last, step: block.step, size: block.size }).toEqual({
        first: 1010,
        last: 1050,
        step: 10,
        size: 5,
      });
      expect(block.values()).toEqual([1010, 1020, 1030, 1040, 1050]);
      expect(await seq.next('orders')).toBe(1060);
    });

    it('should start a new counter at start', async () => {
      const seq = service();
      expect((await seq.nextBlock('orders', 100)).values()).toEqual(range(1, 100));
    });
  });

  describe('cache', () => {
    it('should reserve one block per `cache` numbers, shared by concurrent callers', async () => {
      const seq = service({ definitions: { ids: { cache: 100 } } });
      await seq.next('warm-up');
      commands.reset();
      const values = await Promise.all(range(1, 250).map(() => seq.next('ids')));
      expect(ascending(values)).toEqual(range(1, 250));
      expect(commands.names()).toEqual({ findAndModify: 3 });
      expect(await seq.current('ids')).toBe(300);
    });

    it('should refuse a session', async () => {
      const seq = service({ definitions: { ids: { cache: 10 } } });
      const session = await connection.startSession();
      try {
        await expect(seq.next('ids', { session })).rejects.toThrow(
          /Sequence "ids" uses the cached allocator \(cache: 10\).*cannot take part in a transaction/,
        );
      } finally {
        await session.endSession();
      }
      expect(await snapshot()).toEqual([]);
    });
  });

  describe('set, current and reset', () => {
    it('should return null for a counter that never ran', async () => {
      expect(await service().current('never')).toBeNull();
    });

    it('should continue after set() and refuse to go backwards unless forced', async () => {
      const seq = service({ definitions: { orders: { start: 1000, step: 10 } } });
      await seq.next('orders');
      await seq.set('orders', 5000);
      expect(await seq.next('orders')).toBe(5010);

      const before = await snapshot();
      const refused = seq.set('orders', 4000);
      await expect(refused).rejects.toBeInstanceOf(SequenceBackwardsError);
      await expect(refused).rejects.toMatchObject({ key: 'orders', current: 5010n, requested: 4000n });
      await expect(refused).rejects.toThrow(
        'Refusing to set sequence "orders" back from 5010 to 4000: numbers up to 5010 were already issued. Pass { force: true } to set it anyway.',
      );
      expect(await snapshot()).toEqual(before);

      await seq.set('orders', 5010); // equal is not backwards
      expect(await seq.current('orders')).toBe(5010);

      await seq.set('orders', 4000, { force: true });
      expect(await seq.next('orders')).toBe(4010);
    });

    it('should create a missing counter with set()', async () => {
      const seq = service();
      await seq.set('imported', 41);
      expect(await seq.next('imported')).toBe(42);
    });

    it('should never lose a concurrent next() while set() moves forward', async () => {
      const seq = service();
      await seq.next('orders');
      const [values] = await Promise.all([
        Promise.all(range(1, 50).map(() => seq.next('orders'))),
        seq.set('orders', 1000),
      ]);
      // Calls before the set got 2..k, calls after it 1001..last; none was overwritten or repeated.
      const before = ascending(values.filter((v) => v < 1000));
      const after = ascending(values.filter((v) => v > 1000));
      const last = after.length > 0 ? after[after.length - 1] : 1000;
      expect(before).toEqual(range(2, before.length + 1));
      expect(after).toEqual(range(1001, last));
      expect(before.length + after.length).toBe(50);
      expect(await seq.current('orders')).toBe(last);
    });

    it('should restart at start after reset()', async () => {
      const seq = service({ definitions: { orders: { start: 1000 } } });
      await seq.next('orders');
      await seq.next('orders');
      await seq.reset('orders');
      expect(await seq.current('orders')).toBeNull();
      expect(await seq.next('orders')).toBe(1000);
    });

    it('should act on the counter of the given scope and date', async () => {
      const seq = service({ definitions: { invoices: { resetEvery: 'year' } } });
      const date = new Date('2025-06-01T00:00:00Z');
      await seq.set('invoices', 99, { scope: 'tenant-42', date });
      expect(await seq.next('invoices', { scope: 'tenant-42', date })).toBe(100);
      expect(await seq.current('invoices', { scope: 'tenant-42', date })).toBe(100);
      expect((await snapshot()).map((d) => d._id)).toEqual(['invoices:tenant-42:2025']);
    });
  });

  describe('formatting and date scopes', () => {
    it('should format exactly', async () => {
      const clock = () => new Date('2026-03-05T10:00:00Z');
      const seq = service({
        clock,
        definitions: {
          orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' },
          daily: { format: '{YY}{MM}{DD}-{seq:3}', resetEvery: 'day' },
          invoices: { format: 'INV/{scope}/{YYYY}-{MM}/{seq:4}', resetEvery: 'month', start: 9998 },
          plain: {},
        },
      });
      expect(await seq.nextFormatted('orders')).toBe('ORD-2026-000001');
      expect(await seq.nextFormatted('orders')).toBe('ORD-2026-000002');
      expect(await seq.nextFormatted('daily')).toBe('260305-001');
      expect(await seq.nextFormatted('invoices', { scope: 'tenant-42' })).toBe('INV/tenant-42/2026-03/9998');
      expect(await seq.nextFormatted('invoices', { scope: 'tenant-42' })).toBe('INV/tenant-42/2026-03/9999');
      expect(await seq.nextFormatted('invoices', { scope: 'tenant-42' })).toBe('INV/tenant-42/2026-03/10000');
      expect(await seq.nextFormatted('plain')).toBe('1');
      expect((await snapshot()).map((d) => d._id)).toEqual([
        'daily:2026-03-05',
        'invoices:tenant-42:2026-03',
        'orders:2026',
        'plain',
      ]);
    });

    it('should roll over at midnight on 1 January in the configured time zone', async () => {
      let now = new Date('2026-12-31T22:59:59Z');
      const seq = service({
        clock: () => now,
        definitions: { orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year', timeZone: 'Europe/Prague' } },
      });
      expect(await seq.nextFormatted('orders')).toBe('ORD-2026-000001');
      expect(await seq.nextFormatted('orders')).toBe('ORD-2026-000002');
      now = new Date('2026-12-31T23:00:00Z');
      expect(await seq.nextFormatted('orders')).toBe('ORD-2027-000001');
      expect(await seq.next('orders')).toBe(2);
      now = new Date('2026-12-31T22:59:59.999Z'); // a late caller whose clock is behind still uses 2026
      expect(await seq.nextFormatted('orders')).toBe('ORD-2026-000003');
      expect((await snapshot()).map((d) => [d._id, d.seq])).toEqual([
        ['orders:2026', 3n],
        ['orders:2027', 2n],
      ]);
    });

    it('should read the clock once per call, for both the key and the date tokens', async () => {
      const instants = [new Date('2026-12-31T23:59:59.999Z'), new Date('2027-01-01T00:00:00Z')];
      let reads = 0;
      const seq = service({
        clock: () => instants[Math.min(reads++, 1)],
        definitions: { orders: { format: '{YYYY}-{seq}', resetEvery: 'year' } },
      });
      expect(await seq.nextFormatted('orders')).toBe('2026-1');
      expect(reads).toBe(1);
      expect((await snapshot()).map((d) => d._id)).toEqual(['orders:2026']);
    });

    it('should require a scope for a format with {scope}', async () => {
      const seq = service({ definitions: { invoices: { format: '{scope}-{seq}' } } });
      await expect(seq.nextFormatted('invoices')).rejects.toThrow(
        'Sequence "invoices": its format "{scope}-{seq}" contains {scope}; pass { scope } to nextFormatted().',
      );
      expect(await snapshot()).toEqual([]);
    });
  });

  describe('bigint mode', () => {
    it('should stay exact beyond 2^53', async () => {
      const seq = service({ definitions: { big: { bigint: true } } });
      await seq.set('big', 2n ** 60n);
      expect(await seq.next<bigint>('big')).toBe(2n ** 60n + 1n);
      expect(await seq.current<bigint>('big')).toBe(2n ** 60n + 1n);
      const block = await seq.nextBlock<bigint>('big', 3);
      expect(block.values()).toEqual([2n ** 60n + 2n, 2n ** 60n + 3n, 2n ** 60n + 4n]);
      expect(await seq.nextFormatted('big')).toBe('1152921504606846981');
    });

    it('should return bigint for small values too', async () => {
      const seq = service({ definitions: { big: { bigint: true, start: 5n } } });
      expect(await seq.next<bigint>('big')).toBe(5n);
    });

    it('should throw instead of returning an imprecise number past 2^53 - 1 in number mode', async () => {
      const seq = service();
      await seq.set('orders', Number.MAX_SAFE_INTEGER - 1);
      expect(await seq.next('orders')).toBe(Number.MAX_SAFE_INTEGER);
      const overflow = seq.next('orders');
      await expect(overflow).rejects.toBeInstanceOf(SequenceOverflowError);
      await expect(overflow).rejects.toMatchObject({ key: 'orders', value: 2n ** 53n });
      await expect(overflow).rejects.toThrow(/Define the sequence with \{ bigint: true \}/);
      // The number was consumed; switching to bigint mode goes on exactly.
      seq.define('orders', { bigint: true });
      expect(await seq.next<bigint>('orders')).toBe(2n ** 53n + 1n);
    });
  });

  describe('bad input', () => {
    const cases: [string, (seq: SequenceService) => Promise<unknown>, RegExp | string][] = [
      ['an empty name', (s) => s.next(''), 'Sequence name must not be empty.'],
      ['a 121-character name', (s) => s.next('x'.repeat(121)), /is 121 characters long; the limit is 120/],
      ['a name with $', (s) => s.next('$orders'), /contains "\$" at index 0/],
      ['a name with .', (s) => s.next('orders.2026'), /contains "\." at index 6/],
      ['a name with :', (s) => s.next('orders:x'), /contains ":" at index 6/],
      ['a name with NUL', (s) => s.next('ord\0ers'), /contains "\\u0000" at index 3/],
      ['a scope with :', (s) => s.next('orders', { scope: 'a:b' }), /Sequence scope "a:b" contains ":"/],
      ['a scope with $', (s) => s.next('orders', { scope: '$x' }), /Sequence scope "\$x" contains "\$"/],
      ['an empty scope', (s) => s.next('orders', { scope: '' }), 'Sequence scope must not be empty.'],
      [
        'a block of 0',
        (s) => s.nextBlock('orders', 0),
        /nextBlock\(\) size must be an integer from 1 to 1,000,000, got 0/,
      ],
      ['a block of -5', (s) => s.nextBlock('orders', -5), /got -5/],
      ['a block of 2.5', (s) => s.nextBlock('orders', 2.5), /got 2\.5/],
      ['set() to 1.5', (s) => s.set('orders', 1.5), /set\(\) value must be an integer \(number or bigint\), got 1\.5/],
      [
        'set() beyond 2^53 without bigint mode',
        (s) => s.set('orders', 2n ** 60n),
        /beyond Number.MAX_SAFE_INTEGER.*bigint: true/,
      ],
      ['set() to an unsafe number', (s) => s.set('orders', 2 ** 60), /cannot be represented exactly/],
      ['set() beyond int64', (s) => s.set('big', 2n ** 63n), /does not fit in the int64/],
      ['an unknown call option', (s) => s.next('orders', { start: 5 } as never), /unknown call option "start"/],
      ['an invalid date', (s) => s.next('yearly', { date: new Date('nope') }), /options\.date gave Invalid Date/],
      ['define() with step 0', async (s) => s.define('x', { step: 0 }), /step must be a positive integer, got 0/],
      ['define() with step -1', async (s) => s.define('x', { step: -1 }), /step must be a positive integer/],
      ['define() with step 1.5', async (s) => s.define('x', { step: 1.5 }), /step must be an integer/],
      ['define() with start 1.5', async (s) => s.define('x', { start: 1.5 }), /start must be an integer/],
      [
        'define() with a bad format',
        async (s) => s.define('x', { format: '{seq:0}' }),
        /"\{seq:0\}" must be .* at index 0/,
      ],
      ['define() with a bad name', async (s) => s.define('a.b', {}), /contains "\."/],
    ];

    it.each(cases)('should reject %s with a SequenceConfigError and write nothing', async (_label, call, message) => {
      const seq = service({ definitions: { big: { bigint: true }, yearly: { resetEvery: 'year' } } });
      await seq.next('orders');
      const before = await snapshot();
      commands.reset();
      let caught: unknown;
      try {
        await call(seq);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SequenceConfigError);
      expect(caught).toBeInstanceOf(TypeError);
      expect((caught as Error).message).toMatch(message);
      expect(commands.total()).toBe(0);
      expect(await snapshot()).toEqual(before);
    });

    it.each<[string, SequenceModuleOptions, RegExp]>([
      [
        'a bad format',
        { definitions: { o: { format: 'ORD-{YYY}-{seq}' } } },
        /Sequence "o": .*unknown token "\{YYY\}" at index 4/,
      ],
      ['a bad time zone', { timeZone: 'Europe/Prag' }, /sequences\.timeZone: unknown time zone "Europe\/Prag"/],
      ['bad defaults', { defaults: { step: 0 } }, /^sequences\.defaults: step must be a positive integer/],
      [
        'a bad collection name',
        { collectionName: 'a$b' },
        /sequences\.collectionName "a\$b" is not a valid collection name/,
      ],
      ['a clock that is not a function', { clock: 'now' as never }, /sequences\.clock must be a function/],
      ['bad duplicateKeyRetries', { duplicateKeyRetries: -1 }, /duplicateKeyRetries must be an integer from 0 to 100/],
    ])('should refuse module options with %s when the service is built', (_label, options, message) => {
      expect(() => SequenceService.fromConnection(connection, options)).toThrow(SequenceConfigError);
      expect(() => SequenceService.fromConnection(connection, options)).toThrow(message);
    });

    it('should raise a SequenceFormatError carrying the token and index', () => {
      expect(() => service().define('o', { format: 'x{MM}{M}{seq}' })).toThrow(
        expect.objectContaining({ name: 'SequenceFormatError', token: '{M}', index: 5 }) as SequenceFormatError,
      );
    });
  });

  describe('transactions', () => {
    it('should leave no gaps in committed numbers when every third transaction aborts', async () => {
      const seq = service();
      // Created up front: on a real server, concurrent transactions that implicitly create
      // the same collection conflict in ways that are not about the counter.
      await connection.createCollection(collectionName);
      const invoices = await connection.createCollection(`invoices_${collectionName}`);
      const attempt = async (i: number) => {
        const session = await connection.startSession();
        try {
          await session.withTransaction(async () => {
            const number = await seq.next('invoices', { session });
            await invoices.insertOne({ number, i }, { session });
            if (i % 3 === 2) throw new Error(`abort ${i}`);
          });
        } catch (error) {
          if (!(error instanceof Error) || error.message !== `abort ${i}`) throw error;
        } finally {
          await session.endSession();
        }
      };
      // Five lanes of ten transactions each: concurrent transactions on one counter conflict and are retried.
      await Promise.all(
        range(0, 4).map(async (lane) => {
          for (let j = 0; j < 10; j++) await attempt(lane * 10 + j);
        }),
      );
      const committed = await invoices.find({}).toArray();
      const aborted = range(0, 49).filter((i) => i % 3 === 2);
      expect(committed.map((d) => d.i).sort((a, b) => a - b)).toEqual(range(0, 49).filter((i) => !aborted.includes(i)));
      expect(ascending(committed.map((d) => d.number as number))).toEqual(range(1, 50 - aborted.length));
      expect(await seq.current('invoices')).toBe(50 - aborted.length);
    });

    it('should create a missing counter from concurrent transactions without error or gap', async () => {
      const seq = service();
      await connection.createCollection(collectionName);
      const values = await Promise.all(
        range(1, 8).map(async () => {
          const session = await connection.startSession();
          try {
            let value = 0;
            await session.withTransaction(async () => {
              value = await seq.next('fresh', { session });
            });
            return value;
          } finally {
            await session.endSession();
          }
        }),
      );
      expect(ascending(values)).toEqual(range(1, 8));
    });

    it('should give the number back when the transaction aborts', async () => {
      const seq = service();
      const session = await connection.startSession();
      try {
        session.startTransaction();
        expect(await seq.next('orders', { session })).toBe(1);
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      expect(await seq.current('orders')).toBeNull();
      expect(await seq.next('orders')).toBe(1);
    });
  });

  describe('unavailable database', () => {
    it('should throw a SequenceUnavailableError answering 503', async () => {
      // Port 9 (discard) on localhost: nothing listens, every connection attempt is refused.
      // The first connection fails, so mongoose buffers the counter's command: a short
      // bufferTimeoutMS lets it give up in 50 ms instead of its default 10 s. (A documented
      // connection option that mongoose's ConnectOptions type lacks.)
      const dead = mongoose.createConnection('mongodb://127.0.0.1:9/x', {
        serverSelectionTimeoutMS: 50,
        bufferTimeoutMS: 50,
      } as mongoose.ConnectOptions);
      dead.on('error', () => undefined);
      await dead.asPromise().catch(() => undefined);
      try {
        const seq = SequenceService.fromConnection(dead);
        const failed = seq.next('orders');
        await expect(failed).rejects.toBeInstanceOf(SequenceUnavailableError);
        await expect(failed).rejects.toMatchObject({ key: 'orders', message: expect.stringContaining('unavailable') });
        const error = (await failed.catch((e: unknown) => e)) as SequenceUnavailableError;
        expect(error.getStatus()).toBe(503);
        expect(error.cause).toBeInstanceOf(Error);
      } finally {
        await dead.close();
      }
    });

    it('should explain how to provide a connection when Nest has none', async () => {
      const seq = new SequenceService({});
      await expect(seq.next('orders')).rejects.toThrow(
        'SequenceService needs a mongoose connection: import MongooseModule.forRoot(uri) in your application module',
      );
      const named = new SequenceService({ connectionName: 'billing' });
      await expect(named.next('orders')).rejects.toThrow(
        `SequenceService needs a mongoose connection named "billing": import MongooseModule.forRoot(uri, { connectionName: 'billing' })`,
      );
    });
  });
});
