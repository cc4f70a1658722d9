/**
 * Memory limits: an expression building a string of 16 MiB or more, a
 * blocking stage past 100 MiB under `allowDiskUse: false`, a `$push` or a
 * `$lookup` past 100 MiB, a result document over 16 MiB. Each is refused with
 * MongoDB's error and the server keeps serving: in the embedded server such a
 * value would otherwise exhaust V8's heap and kill the hosting process, or
 * break the connection. Runs against MONGO_URL too, except where noted (the
 * embedded server's own limit on what one command may build).
 */
import { MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const embedded = !process.env.MONGO_URL;

/** Runs `pipeline` on the one-document collection and returns the error it must fail with. */
async function failure(pipeline: object[], options: { allowDiskUse?: boolean } = {}): Promise<MongoServerError> {
  const error = await fixture.db
    .collection('one')
    .aggregate(pipeline, options)
    .toArray()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

/** The server still answers (it neither crashed nor lost the connection). */
async function expectServing(): Promise<void> {
  expect(await fixture.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  expect(await fixture.db.collection('one').countDocuments()).toBe(1);
}

/** A 1 MiB string. */
const BIG = 'x'.repeat(1024 * 1024);
/** As many documents as `many` holds (110), each carrying a 1 MiB string: over 110 MB as mongod counts memory. */
const WIDE_DOCUMENTS = [
  { $lookup: { from: 'many', pipeline: [{ $project: { _id: 1 } }], as: 'rows' } },
  { $unwind: '$rows' },
  { $replaceWith: { _id: '$rows._id', r: '$big' } },
];

describe('resource limits', () => {
  beforeAll(async () => {
    await (await fixture.fresh('one')).insertOne({ _id: 1, s: 'ab', big: BIG } as never);
    await (await fixture.fresh('many')).insertMany(Array.from({ length: 110 }, (_, n) => ({ _id: n })) as never[]);
  });

  describe('strings', () => {
    it('should refuse a $reduce doubling a string 30 times when it reaches 16 MiB', async () => {
      const doubled = {
        $reduce: { input: { $range: [0, 30] }, initialValue: '$s', in: { $concat: ['$$value', '$$value'] } },
      };
      const error = await failure([{ $project: { n: { $strLenBytes: doubled } } }]);
      expect(error.code).toBe(16493);
      expect(error.message).toBe('Tried to create string longer than 16MB');
      await expectServing();
    });

    it('should refuse a $replaceAll growing a string past 16 MiB', async () => {
      const input = 'a'.repeat(1024 * 1024);
      const grown = { $replaceAll: { input: { $literal: input }, find: 'a', replacement: 'x'.repeat(20) } };
      const error = await failure([{ $project: { n: { $strLenBytes: grown } } }]);
      expect(error.code).toBe(16493);
      await expectServing();
    });

    it('should measure a large multi-byte string with $strLenBytes and $strLenCP', async () => {
      const euros = '€'.repeat(3 * 1024 * 1024); // 9 MiB of UTF-8
      const [doc] = await fixture.db
        .collection('one')
        .aggregate([
          { $set: { e: { $literal: euros } } },
          { $project: { _id: 0, bytes: { $strLenBytes: '$e' }, cp: { $strLenCP: '$e' } } },
        ])
        .toArray();
      expect(doc).toEqual({ bytes: 9 * 1024 * 1024, cp: 3 * 1024 * 1024 });
    });

    it('should refuse $split with an empty separator', async () => {
      const error = await failure([{ $project: { parts: { $split: ['$s', ''] } } }]);
      expect(error.code).toBe(40087);
      expect(error.message).toBe('$split requires a non-empty separator');
    });
  });

  describe('arrays and documents', () => {
    it('should refuse $concatArrays of huge ranges', async () => {
      const huge = { $range: [0, 2_000_000] };
      const error = await failure([{ $project: { a: { $concatArrays: [huge, huge, huge, huge] } } }]);
      if (embedded) {
        expect(error.codeName).toBe('ExceededMemoryLimit');
        expect(error.message).toBe(
          '$concatArrays used too much memory and cannot spill to disk. Memory limit: 104857600 bytes',
        );
      }
      await expectServing();
    });

    (embedded ? it : it.skip)('should refuse a $map building more than one command may build', async () => {
      // 1,000 strings of 2 MiB, kept in the $map's result until it is complete.
      const error = await failure([
        { $project: { n: { $size: { $map: { input: { $range: [0, 1000] }, in: { $concat: ['$big', '$big'] } } } } } },
      ]);
      expect(error.codeName).toBe('ExceededMemoryLimit');
      expect(error.message).toMatch(/^\$concat used too much memory and cannot spill to disk: one command may build/);
      await expectServing();
    });

    it('should refuse a result document over 16 MiB with BSONObjectTooLarge', async () => {
      const error = await failure([{ $project: { a: Array.from({ length: 17 }, () => '$big') } }]);
      expect(error.code).toBe(10334);
      expect(error.message).toMatch(/^BSONObj size: \d+ \(0x[0-9A-F]+\) is invalid/);
      await expectServing();
    });

    it('should refuse a $push past 100 MiB', async () => {
      const error = await failure([...WIDE_DOCUMENTS, { $group: { _id: null, all: { $push: '$r' } } }]);
      expect(error.codeName).toBe('ExceededMemoryLimit');
      if (embedded) expect(error.message).toMatch(/^\$push used too much memory and cannot spill to disk/);
      await expectServing();
    });

    it('should refuse a $lookup whose joined documents pass 100 MiB', async () => {
      const error = await failure([
        { $lookup: { from: 'many', let: { big: '$big' }, pipeline: [{ $project: { r: '$$big' } }], as: 'joined' } },
      ]);
      expect(error.code).toBe(4568);
      expect(error.message).toBe(
        "Total size of documents in many matching pipeline's $lookup stage exceeds 104857600 bytes",
      );
      await expectServing();
    });
  });

  describe('blocking stages with allowDiskUse: false', () => {
    it('should refuse a $sort holding more than 100 MiB', async () => {
      const error = await failure([...WIDE_DOCUMENTS, { $sort: { _id: -1 } }, { $project: { _id: 1 } }], {
        allowDiskUse: false,
      });
      expect(error.code).toBe(292);
      expect(error.codeName).toBe('QueryExceededMemoryLimitNoDiskUseAllowed');
      expect(error.message).toBe(
        'Sort exceeded memory limit of 104857600 bytes, but did not opt in to external sorting.',
      );
      await expectServing();
    });

    it('should refuse a $group holding more than 100 MiB', async () => {
      const error = await failure([...WIDE_DOCUMENTS, { $group: { _id: '$_id', r: { $first: '$r' } } }], {
        allowDiskUse: false,
      });
      expect(error.code).toBe(292);
      expect(error.message).toMatch(/^Exceeded memory limit for \$group, but didn't allow external/);
      await expectServing();
    });

    it('should sort the same documents when disk use is allowed', async () => {
      const docs = await fixture.db
        .collection('one')
        .aggregate([...WIDE_DOCUMENTS, { $sort: { _id: -1 } }, { $project: { _id: 1 } }], { allowDiskUse: true })
        .toArray();
      expect(docs).toHaveLength(110);
      expect(docs[0]).toEqual({ _id: 109 });
    });
  });

  (embedded ? describe : describe.skip)('server-side JavaScript', () => {
    it.each([
      ['$where in a query', () => fixture.db.collection('one').find({ $where: 'true' }).toArray(), 'BadValue'],
      [
        '$function',
        () =>
          fixture.db
            .collection('one')
            .aggregate([{ $project: { f: { $function: { body: 'function() { return 1 }', args: [], lang: 'js' } } } }])
            .toArray(),
        'Location31264',
      ],
      [
        '$function in a $setWindowFields window',
        () =>
          fixture.db
            .collection('one')
            .aggregate([
              {
                $setWindowFields: {
                  output: { f: { $sum: { $function: { body: 'function() { return 1 }', args: [], lang: 'js' } } } },
                },
              },
            ])
            .toArray(),
        'Location31264',
      ],
    ])('should refuse %s', async (_, command, codeName) => {
      const error = await command().catch((e: unknown) => e);
      expect((error as MongoServerError).codeName).toBe(codeName);
      expect((error as MongoServerError).message).toMatch(/the embedded server runs no server-side JavaScript/);
    });
  });
});
