/**
 * Conformance: `create` and `renameCollection`. `create` of a capped
 * collection with a size that is zero, negative, null, missing or mistyped,
 * or a mistyped `max` or `capped`; collections created at once by concurrent
 * `create` commands or by concurrent inserts, concurrent `create` commands of
 * one collection, and a re-create with other options. `renameCollection`
 * (run on admin) with a null, mistyped, empty or half-empty source or target
 * namespace, a missing database or source collection, an existing target, the
 * source as target, an invalid or too long target name; a rename there and
 * back again, with the old name created anew in between; concurrent renames of
 * many collections to one name. The cases and answers are those an
 * independent MongoDB-compatible server's integration suite asserts against a
 * real MongoDB; where that suite compares a rename's error with MongoDB's by
 * code and code name only, the message is asserted only where MongoDB's own
 * source states it. Passes against MONGO_URL too.
 */
import type { Document } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** How many concurrent commands the concurrency cases send: ten per core of a two-core machine. */
const CONCURRENCY = 20;

/** The names of `names` that the database lists, sorted. */
async function listed(names: string[]): Promise<string[]> {
  const all = (await fx.db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name);
  return all.filter((name) => names.includes(name)).sort();
}

async function drop(...names: string[]): Promise<void> {
  for (const name of names) await fx.db.dropCollection(name).catch(() => undefined);
}

describe('create of a capped collection with an invalid specification', () => {
  const CAPPED = 'create_capped';

  // The command is { create, capped, max, size }: `max` is null unless given, `size` is null unless given or left out.
  it.each<[label: string, options: Document, code: number, codeName: string, message: string]>([
    [
      'a zero size',
      { capped: true, max: null, size: 0 },
      51024,
      'Location51024',
      "BSON field 'size' value must be >= 1, actual value '0'",
    ],
    [
      'a null size',
      { capped: true, max: null, size: null },
      72,
      'InvalidOptions',
      "the 'size' field is required when 'capped' is true",
    ],
    [
      'no size field',
      { capped: true, max: null },
      72,
      'InvalidOptions',
      "the 'size' field is required when 'capped' is true",
    ],
    [
      'a null size with a max',
      { capped: true, max: 500, size: null },
      72,
      'InvalidOptions',
      "the 'size' field is required when 'capped' is true",
    ],
    [
      'a string size',
      { capped: true, max: null, size: 'foo' },
      14,
      'TypeMismatch',
      "BSON field 'create.size' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ],
    [
      'a string max',
      { capped: true, max: 'foo', size: 500 },
      14,
      'TypeMismatch',
      "BSON field 'create.max' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ],
    [
      'a string capped',
      { capped: 'foo', max: null, size: null },
      14,
      'TypeMismatch',
      "BSON field 'create.capped' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
    ],
    [
      'a negative size',
      { capped: true, max: null, size: -500 },
      51024,
      'Location51024',
      "BSON field 'size' value must be >= 1, actual value '-500'",
    ],
  ])('should refuse %s', async (_label, options, code, codeName, message) => {
    await fx.fresh(CAPPED);
    const error = await rejection(fx.db.command({ create: CAPPED, ...options }));
    expect({ code: error.code, codeName: error.codeName, message: error.message }).toEqual({ code, codeName, message });
    expect(await listed([CAPPED])).toEqual([]);
  });
});

describe('create, concurrently', () => {
  const names = (prefix: string) => Array.from({ length: CONCURRENCY }, (_, i) => `${prefix}${i}`);

  it('should create many collections at once, each listed and queryable', async () => {
    const stress = names('create_stress_');
    await drop(...stress);
    await Promise.all(
      stress.map(async (name) => {
        await fx.db.createCollection(name);
        await fx.db.collection(name).insertOne({ _id: 'foo', v: 'bar' } as never);
      }),
    );
    expect(await listed(stress)).toEqual([...stress].sort());
    for (const name of stress) {
      expect(await fx.db.collection(name).findOne({ _id: 'foo' } as never)).toEqual({ _id: 'foo', v: 'bar' });
    }
  });

  it('should create a collection on concurrent inserts into it', async () => {
    const collection = await fx.fresh('create_on_insert_same');
    await Promise.all(Array.from({ length: CONCURRENCY }, () => collection.insertOne({ foo: 'bar' })));
    expect(await listed(['create_on_insert_same'])).toEqual(['create_on_insert_same']);
    expect(await collection.countDocuments()).toBe(CONCURRENCY);
  });

  it('should create each collection on concurrent inserts into different ones', async () => {
    const diff = names('create_on_insert_diff_');
    await drop(...diff);
    await Promise.all(diff.map((name) => fx.db.collection(name).insertOne({ foo: 'bar' })));
    expect(await listed(diff)).toEqual([...diff].sort());
  });

  it('should accept every concurrent create of one collection, and refuse a re-create with other options', async () => {
    const NAME = 'create_stress_same';
    await drop(NAME);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, i) => {
        await fx.db.createCollection(NAME);
        await fx.db.collection(NAME).insertOne({ _id: `foo_${i}`, v: 'bar' } as never);
      }),
    );
    expect(await listed([NAME])).toEqual([NAME]);
    expect(await fx.db.collection(NAME).findOne({ _id: 'foo_1' } as never)).toEqual({ _id: 'foo_1', v: 'bar' });
    const error = await rejection(fx.db.createCollection(NAME, { capped: true, size: 1024 }));
    expect({ code: error.code, codeName: error.codeName }).toEqual({ code: 48, codeName: 'NamespaceExists' });
  });
});

describe('renameCollection', () => {
  const admin = () => fx.client.db('admin');
  const rename = (from: unknown, to: unknown) => admin().command({ renameCollection: from, to });

  it('should rename a collection there and back, with the old name created anew in between', async () => {
    const SOURCE = 'rename_compat';
    const OTHER = 'rename_compat_bools';
    const NEW = 'rename_compat_new';
    const NEWER = `${NEW}_new`;
    const all = [SOURCE, OTHER, NEW, NEWER];
    await drop(...all);
    const docs = [
      { _id: 'document', v: { foo: 42 } },
      { _id: 'document-empty', v: {} },
    ];
    await fx.db.collection(SOURCE).insertMany(docs as never[]);
    await fx.db.collection(OTHER).insertMany([
      { _id: 'bool-false', v: false },
      { _id: 'bool-true', v: true },
    ] as never[]);
    const db = fx.db.databaseName;

    expect((await rename(`${db}.${SOURCE}`, `${db}.${NEW}`)).ok).toBe(1);
    expect(await listed(all)).toEqual([OTHER, NEW].sort());
    expect(await fx.db.collection(NEW).find().sort({ _id: 1 }).toArray()).toEqual(docs);

    await fx.db.createCollection(SOURCE);
    expect(await listed(all)).toEqual([OTHER, NEW, SOURCE].sort());
    expect(await fx.db.collection(SOURCE).countDocuments()).toBe(0);

    expect((await rename(`${db}.${SOURCE}`, `${db}.${NEWER}`)).ok).toBe(1);
    expect(await listed(all)).toEqual([OTHER, NEW, NEWER].sort());

    expect((await rename(`${db}.${NEWER}`, `${db}.${SOURCE}`)).ok).toBe(1);
    expect(await listed(all)).toEqual([OTHER, NEW, SOURCE].sort());
    expect(await fx.db.collection(NEW).countDocuments()).toBe(docs.length);
  });

  it('should let exactly one of concurrent renames to one name succeed', async () => {
    const TARGET = 'rename_stress_renamed';
    const sources = Array.from({ length: CONCURRENCY }, (_, i) => `rename_stress_${i}`);
    await drop(TARGET, ...sources);
    for (const name of sources) await fx.db.createCollection(name);
    const db = fx.db.databaseName;
    const results = await Promise.allSettled(sources.map((name) => rename(`${db}.${name}`, `${db}.${TARGET}`)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(CONCURRENCY - 1);
    expect(await listed([TARGET])).toEqual([TARGET]);
  });

  describe('errors', () => {
    const SOURCE = 'rename_errors';
    const EXISTING = 'rename_errors_existing';
    const NEW = 'rename_errors_new';
    const LONG = 'aB'.repeat(150);

    type Namespace = (db: string) => unknown;
    type Message = string | ((db: string) => string);
    type ErrorCase = [
      label: string,
      from: Namespace,
      to: Namespace,
      code: number,
      codeName: string,
      message: Message | null,
    ];

    const source: Namespace = (db) => `${db}.${SOURCE}`;
    const target: Namespace = (db) => `${db}.${NEW}`;

    // With a null message, the case's code and code name are what MongoDB answers; its wording is not asserted.
    it.each<ErrorCase>([
      ['a null source', () => null, target, 40414, 'Location40414', null],
      [
        'a null target',
        source,
        () => null,
        40414,
        'Location40414',
        "BSON field 'renameCollection.to' is missing but a required field",
      ],
      ['a numeric source', () => 42, target, 14, 'TypeMismatch', null],
      [
        'a numeric target',
        source,
        () => 42,
        14,
        'TypeMismatch',
        "BSON field 'renameCollection.to' is the wrong type 'int', expected type 'string'",
      ],
      ['an empty source', () => '', target, 73, 'InvalidNamespace', null],
      ['an empty target', source, () => '', 73, 'InvalidNamespace', null],
      ['a source without a database', () => `.${SOURCE}`, target, 73, 'InvalidNamespace', null],
      ['a target without a database', source, () => `.${NEW}`, 73, 'InvalidNamespace', null],
      ['a source without a collection', (db) => `${db}.`, target, 73, 'InvalidNamespace', null],
      ['a target without a collection', source, (db) => `${db}.`, 73, 'InvalidNamespace', null],
      [
        'a source in a database that does not exist',
        () => `nonExistentDB.${SOURCE}`,
        () => `nonExistentDB.${NEW}`,
        26,
        'NamespaceNotFound',
        'Database nonExistentDB does not exist or is drop pending',
      ],
      [
        'a source collection that does not exist',
        (db) => `${db}.nonExistentCollection`,
        target,
        26,
        'NamespaceNotFound',
        (db) => `Source collection ${db}.nonExistentCollection does not exist`,
      ],
      [
        'a target that already exists',
        source,
        (db) => `${db}.${EXISTING}`,
        48,
        'NamespaceExists',
        'target namespace exists',
      ],
      ['the source as target', source, source, 20, 'IllegalOperation', "Can't rename a collection to itself"],
      [
        'a target name holding a $',
        source,
        (db) => `${db}.new$Collection`,
        20,
        'IllegalOperation',
        'error with target namespace: Invalid collection name: new$Collection',
      ],
      [
        'a target name longer than a namespace may be',
        source,
        (db) => `${db}.${LONG}`,
        20,
        'IllegalOperation',
        (db) => `error with target namespace: Fully qualified namespace is too long. Namespace: ${db}.${LONG} Max: 255`,
      ],
    ])('should refuse %s', async (_label, from, to, code, codeName, message) => {
      await drop(SOURCE, EXISTING, NEW);
      await fx.db.collection(SOURCE).insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
      await fx.db.collection(EXISTING).insertMany([{ _id: true }, { _id: false }] as never[]);
      const db = fx.db.databaseName;
      const error = await rejection(rename(from(db), to(db)));
      const actual = { code: error.code, codeName: error.codeName };
      if (message === null) expect(actual).toEqual({ code, codeName });
      else {
        const expected = typeof message === 'string' ? message : message(db);
        expect({ ...actual, message: error.message }).toEqual({ code, codeName, message: expected });
      }
    });
  });
});
