import type { Document } from 'bson';

import { BSON, Decimal128, Double } from '../bson/bson-library.cjs';
import { MemoryStore } from '../store/memory-store.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { NAMESPACE_COMMANDS, storageScale, storageStats } from './namespace-commands.js';

/** The error `run` throws, as `[codeName, message]`; undefined when it returns. */
function refusal(run: () => unknown): [string, string] | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return [error.codeName, error.message];
  }
}

/** A store with `db.c` holding three documents and a second index. */
function populated(): MemoryStore {
  const store = new MemoryStore();
  const { collection } = store.ensureCollection('db', 'c');
  for (const _id of [1, 2, 3]) collection.insert({ _id, s: 'x'.repeat(100) });
  collection.addIndex({ v: 2, key: { s: 1 }, name: 's_1' });
  return store;
}

/** What `command` answers on `db` of `store` (the handlers only read `db` and `store` of the context). */
function run(store: MemoryStore, command: Document): Document {
  const name = Object.keys(command)[0]!;
  return NAMESPACE_COMMANDS[name]!(command, { db: 'db', store } as unknown as CommandContext) as Document;
}

describe('storageScale', () => {
  it.each<[label: string, value: unknown, scale: number]>([
    ['absent', undefined, 1],
    ['null', null, 1],
    ['an int32', 10, 10],
    ['a double, truncated', 2.8, 2],
    ['a decimal', Decimal128.fromString('1000'), 1000],
    ['the largest Int64, clamped to an int', 2n ** 63n - 1n, 2 ** 31 - 1],
    ['the largest double, clamped to an int', Number.MAX_VALUE, 2 ** 31 - 1],
  ])('should read %s', (_label, value, scale) => {
    expect(storageScale(value, 'collStats.scale')).toBe(scale);
  });

  it.each<[label: string, value: unknown, actual: string]>([
    ['0', 0, '0'],
    ['a negative double, truncated', -2.8, '-2'],
    ['the lowest Int64, clamped to an int', -(2n ** 63n), '-2147483648'],
    ['NaN, which reads as 0', NaN, '0'],
  ])('should refuse %s (51024)', (_label, value, actual) => {
    expect(refusal(() => storageScale(value, 'collStats.scale'))).toEqual([
      'Location51024',
      `BSON field 'scale' value must be >= 1, actual value '${actual}'`,
    ]);
  });

  it('should refuse another type with TypeMismatch naming the field', () => {
    expect(refusal(() => storageScale('1', 'collStats.scale'))).toEqual([
      'TypeMismatch',
      "BSON field 'collStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ]);
  });
});

describe('storageStats', () => {
  it('should report the sizes of the documents, scaled and truncated, in mongod order', () => {
    const collection = populated().collection('db', 'c')!;
    const size = 3 * BSON.calculateObjectSize({ _id: 1, s: 'x'.repeat(100) });
    const stats = storageStats(collection, 100);
    expect(Object.keys(stats)).toEqual([
      ...['size', 'count', 'avgObjSize', 'numOrphanDocs', 'storageSize', 'freeStorageSize', 'capped', 'nindexes'],
      ...['indexDetails', 'indexBuilds', 'totalIndexSize', 'indexSizes', 'totalSize', 'scaleFactor'],
    ]);
    expect(stats).toMatchObject({
      size: Math.trunc(size / 100),
      count: 3,
      avgObjSize: size / 3,
      storageSize: Math.trunc(size / 100),
      totalSize: Math.trunc(size / 100),
      indexDetails: { _id_: {}, s_1: {} },
      indexSizes: { _id_: 0, s_1: 0 },
      scaleFactor: 100,
    });
  });

  it('should leave out the average size of an empty collection', () => {
    const { collection } = new MemoryStore().ensureCollection('db', 'empty');
    expect(storageStats(collection)).not.toHaveProperty('avgObjSize');
  });

  it('should bring a scale $collStats did not check to a valid factor', () => {
    const collection = populated().collection('db', 'c')!;
    expect(storageStats(collection, NaN).scaleFactor).toBe(1);
    expect(storageStats(collection, 2.8).scaleFactor).toBe(2);
  });
});

describe('collStats', () => {
  it('should answer zeros for a collection that does not exist', () => {
    expect(run(new MemoryStore(), { collStats: 'none', scale: 10 })).toEqual({
      ns: 'db.none',
      ...{ size: 0, count: 0, numOrphanDocs: 0, storageSize: 0, totalSize: 0, nindexes: 0, totalIndexSize: 0 },
      indexDetails: {},
      indexSizes: {},
      scaleFactor: 10,
      ok: 1,
    });
  });

  it('should check the scale before looking for the collection', () => {
    expect(refusal(() => run(new MemoryStore(), { collStats: 'none', scale: 0 }))?.[0]).toBe('Location51024');
  });
});

describe('dbStats', () => {
  it('should type counts as Int64 and sizes as doubles, divided by the scale', () => {
    const reply = run(populated(), { dbStats: 1, scale: 2.8 });
    const size = 3 * BSON.calculateObjectSize({ _id: 1, s: 'x'.repeat(100) });
    expect(reply).toEqual({
      db: 'db',
      ...{ collections: 1n, views: 0n, objects: 3n, indexes: 2n },
      avgObjSize: new Double(size / 3),
      dataSize: new Double(size / 2),
      storageSize: new Double(size / 2),
      indexSize: new Double(0),
      totalSize: new Double(size / 2),
      scaleFactor: 2n,
      fsUsedSize: new Double(0),
      fsTotalSize: new Double(0),
      ok: 1,
    });
  });

  it('should add the free storage sizes after totalSize when freeStorage is truthy', () => {
    const keys = Object.keys(run(populated(), { dbStats: 1, freeStorage: -1n }));
    expect(keys.slice(keys.indexOf('totalSize'), keys.indexOf('scaleFactor'))).toEqual([
      ...['totalSize', 'freeStorageSize', 'indexFreeStorageSize', 'totalFreeStorageSize'],
    ]);
  });

  it('should read the scale as a safeInt64, not clamped to an int', () => {
    expect(run(new MemoryStore(), { dbStats: 1, scale: 2n ** 40n }).scaleFactor).toBe(2n ** 40n);
  });

  it.each<[label: string, command: Document, error: [string, string]]>([
    ['a scale below 1', { scale: -(2 ** 40) }, ['BadValue', 'Scale factor must be greater than zero']],
    ['a scale of 0', { scale: 0 }, ['BadValue', 'Scale factor must be greater than zero']],
    [
      'a scale of another type',
      { scale: '1' },
      [
        'TypeMismatch',
        "BSON field 'dbStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']",
      ],
    ],
    [
      'a freeStorage of another type',
      { freeStorage: 'yes' },
      [
        'TypeMismatch',
        "BSON field 'dbStats.freeStorage' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
      ],
    ],
  ])('should refuse %s', (_label, command, error) => {
    expect(refusal(() => run(new MemoryStore(), { dbStats: 1, ...command }))).toEqual(error);
  });

  it('should count views apart and their system.views collection with the collections', () => {
    const store = populated();
    store.ensureCollection('db', 'v', { viewOn: 'c', pipeline: [] });
    expect(run(store, { dbStats: 1 })).toMatchObject({ collections: 2n, views: 1n, objects: 4n, indexes: 3n });
  });
});
