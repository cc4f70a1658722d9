import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SEQUENCE_COUNTER_STORE } from '../object-id.constants.js';
import { SequenceBackwardsError } from './sequence-backwards.error.js';
import type { SequenceCounterSnapshot, SequenceCounterStore } from './sequence-counter-store.interface.js';
import { SequenceModule } from './sequence.module.js';
import { SequenceService } from './sequence.service.js';

/** A whole store in a Map: each operation runs synchronously, so it is atomic within the process. */
class InMemorySequenceCounterStore implements SequenceCounterStore {
  readonly counters = new Map<string, bigint>();
  readonly calls: string[] = [];

  async increment(key: string, amount: bigint, initial: bigint): Promise<bigint> {
    this.calls.push('increment');
    const value = (this.counters.get(key) ?? initial) + amount;
    this.counters.set(key, value);
    return value;
  }

  async get(key: string): Promise<SequenceCounterSnapshot | null> {
    this.calls.push('get');
    const value = this.counters.get(key);
    return value === undefined ? null : { value };
  }

  async compareAndSet(key: string, expected: SequenceCounterSnapshot | null, value: bigint): Promise<boolean> {
    this.calls.push('compareAndSet');
    if (this.counters.get(key) !== expected?.value) return false;
    this.counters.set(key, value);
    return true;
  }

  async set(key: string, value: bigint): Promise<void> {
    this.calls.push('set');
    this.counters.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.calls.push('delete');
    this.counters.delete(key);
  }
}

describe('SequenceService with a store provided under SEQUENCE_COUNTER_STORE', () => {
  let store: InMemorySequenceCounterStore;
  let seq: SequenceService;

  // No MongooseModule anywhere: the default MongoDB store would fail on first use.
  beforeEach(async () => {
    store = new InMemorySequenceCounterStore();
    const moduleRef = await Test.createTestingModule({
      providers: [
        { provide: SEQUENCE_COUNTER_STORE, useValue: store },
        SequenceService,
        // No SEQUENCE_MODULE_OPTIONS: the service's defaults, as SequenceModule gives them.
      ],
    }).compile();
    seq = moduleRef.get(SequenceService);
    seq.define('orders', { start: 1000, step: 10 });
  });

  describe('next', () => {
    it('should take each number from one increment of the store', async () => {
      expect([await seq.next('orders'), await seq.next('orders'), await seq.next('orders')]).toEqual([
        1000, 1010, 1020,
      ]);
      expect(await seq.next('invoices', { scope: 'tenant-42' })).toBe(1);
      expect(store.calls).toEqual(['increment', 'increment', 'increment', 'increment']);
      expect(Object.fromEntries(store.counters)).toEqual({ orders: 1020n, 'invoices:tenant-42': 1n });
    });

    it('should format from the store value', async () => {
      seq.define('formatted', { format: 'ORD-{seq:6}' });
      await store.set('formatted', 41n);
      expect(await seq.nextFormatted('formatted')).toBe('ORD-000042');
    });

    it('should reserve one block of `cache` numbers per increment', async () => {
      seq.define('ids', { cache: 100 });
      const values = await Promise.all(Array.from({ length: 250 }, () => seq.next('ids')));
      expect(new Set(values).size).toBe(250);
      expect(store.calls.filter((c) => c === 'increment')).toHaveLength(3);
      expect(store.counters.get('ids')).toBe(300n);
    });
  });

  describe('nextBlock', () => {
    it('should reserve consecutive numbers in one increment of size × step', async () => {
      await seq.next('orders');
      store.calls.length = 0;
      const block = await seq.nextBlock('orders', 5);
      expect(store.calls).toEqual(['increment']);
      expect(block.values()).toEqual([1010, 1020, 1030, 1040, 1050]);
      expect(store.counters.get('orders')).toBe(1050n);
      expect(await seq.next('orders')).toBe(1060);
    });

    it('should start a new counter at start', async () => {
      expect((await seq.nextBlock('orders', 3)).values()).toEqual([1000, 1010, 1020]);
    });
  });

  describe('current', () => {
    it('should read the store without counting', async () => {
      expect(await seq.current('orders')).toBeNull();
      await seq.next('orders');
      await seq.next('orders');
      expect(await seq.current('orders')).toBe(1010);
      expect(await seq.current('orders')).toBe(1010);
      expect(store.counters.get('orders')).toBe(1010n);
    });
  });

  describe('reset', () => {
    it('should delete the counter, so numbering restarts at start', async () => {
      await seq.next('orders');
      await seq.next('orders');
      await seq.reset('orders');
      expect(store.counters.has('orders')).toBe(false);
      expect(await seq.current('orders')).toBeNull();
      expect(await seq.next('orders')).toBe(1000);
    });
  });

  describe('set', () => {
    it('should move forward by compare-and-set and refuse to go backwards unless forced', async () => {
      await seq.set('orders', 5000);
      expect(await seq.next('orders')).toBe(5010);
      await expect(seq.set('orders', 4000)).rejects.toBeInstanceOf(SequenceBackwardsError);
      expect(store.counters.get('orders')).toBe(5010n);
      await seq.set('orders', 4000, { force: true });
      expect(await seq.next('orders')).toBe(4010);
      expect(store.calls).toEqual(['get', 'compareAndSet', 'increment', 'get', 'set', 'increment']);
    });

    it('should read again when another process changed the counter between get() and compareAndSet()', async () => {
      await seq.next('orders');
      const racing = new InMemorySequenceCounterStore();
      racing.counters.set('orders', 1000n);
      let raced = false;
      const original = racing.get.bind(racing);
      racing.get = async (key) => {
        const read = await original(key);
        if (!raced) {
          raced = true;
          await racing.increment(key, 10n, 990n); // a next() elsewhere lands after our read
        }
        return read;
      };
      const other = new SequenceService({ definitions: { orders: { start: 1000, step: 10 } } }, undefined, racing);
      await other.set('orders', 2000);
      expect(racing.calls).toEqual(['get', 'increment', 'compareAndSet', 'get', 'compareAndSet']);
      expect(racing.counters.get('orders')).toBe(2000n);
    });
  });

  it('should be used by SequenceModule when a global module provides it', async () => {
    const global = new InMemorySequenceCounterStore();
    @Global()
    @Module({ providers: [{ provide: SEQUENCE_COUNTER_STORE, useValue: global }], exports: [SEQUENCE_COUNTER_STORE] })
    class CounterStoreModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [CounterStoreModule, SequenceModule.forRoot({ definitions: { orders: { start: 7 } } })],
    }).compile();
    const service = moduleRef.get(SequenceService);
    expect(await service.next('orders')).toBe(7);
    expect(global.counters.get('orders')).toBe(7n);
  });

  it('should be used by SequenceModule.forRootAsync({ imports }) when an imported module exports it', async () => {
    const imported = new InMemorySequenceCounterStore();
    @Module({ providers: [{ provide: SEQUENCE_COUNTER_STORE, useValue: imported }], exports: [SEQUENCE_COUNTER_STORE] })
    class CounterStoreModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [SequenceModule.forRootAsync({ imports: [CounterStoreModule], useFactory: () => ({}) })],
    }).compile();
    expect(await moduleRef.get(SequenceService).nextBlock('orders', 3)).toMatchObject({ first: 1, last: 3 });
    expect(imported.counters.get('orders')).toBe(3n);
  });
});
