/**
 * Conformance: what mongod 7 answers for
 * - the bit test query operators `$bitsAllClear`, `$bitsAllSet`, `$bitsAnyClear`
 *   and `$bitsAnySet` over a data set of scalars of every BSON type (masks given
 *   as bit positions, whole and fractional doubles, Int32, Int64 and BinData;
 *   masks that are negative, fractional or strings, and bit positions that are);
 * - the typing of `find`'s `batchSize` (Int32, Int64, doubles, truncated; negative
 *   ones and booleans refused) and `singleBatch` (a boolean only), and a getMore
 *   after the cursor's last batch;
 * - an insert of a document holding two `_id` fields;
 * - `getParameter` with an `allParameters` that is a string;
 * - collection names that are not UTF-8, created and renamed to;
 * - documents and updates holding NaN.
 *
 * The cases and answers are those an independent MongoDB-compatible server's
 * integration suite asserts against a real MongoDB. Commands go through
 * `db.command` so that their arguments reach the server as written; the two
 * whose BSON no driver writes (a document with a repeated field name, a string
 * that is not UTF-8) are sent as one OP_MSG on a socket of their own, so they
 * need a MONGO_URL without authentication or TLS. Written to hold against
 * MONGO_URL too.
 */
import { connect } from 'node:net';

import {
  Binary,
  BSON,
  BSONRegExp,
  type ClientSession,
  Decimal128,
  type Document,
  Double,
  Int32,
  Long,
  ObjectId,
  Timestamp,
} from 'mongodb';

import { useDriverFixture, rejection } from './conformance.fixture.js';

const fx = useDriverFixture();

/** An error answer: code, codeName, message. */
interface Failure {
  code: number;
  codeName: string;
  message: string;
}

const failure = (code: number, codeName: string, message: string): Failure => ({ code, codeName, message });

/** The error `promise` is rejected with, as code, codeName and message. */
async function failureOf(promise: Promise<unknown>): Promise<Failure> {
  const error = await rejection(promise);
  return { code: Number(error.code), codeName: String(error.codeName), message: error.message };
}

/** The other suite's shared scalar values, as `{ _id, v }` documents (`unset` has no `v`). */
const SCALARS: Document[] = [
  { _id: 'double', v: new Double(42.13) },
  { _id: 'double-whole', v: new Double(42) },
  { _id: 'double-zero', v: new Double(0) },
  { _id: 'double-max', v: new Double(Number.MAX_VALUE) },
  { _id: 'double-smallest', v: new Double(Number.MIN_VALUE) },
  { _id: 'double-big', v: new Double(2 ** 61) },
  { _id: 'double-1', v: new Double(-(2 ** 63)) },
  { _id: 'double-2', v: new Double(-123456789) },
  { _id: 'double-3', v: new Double(123456789) },
  { _id: 'double-4', v: new Double(2 ** 63) },
  { _id: 'double-5', v: new Double(Number.MAX_VALUE - 2 ** 971) },
  { _id: 'double-max-overflow', v: new Double(2 ** 63 + 2048) },
  { _id: 'double-min-overflow', v: new Double(-(2 ** 63) - 2048) },

  { _id: 'string', v: 'foo' },
  { _id: 'string-double', v: '42.13' },
  { _id: 'string-whole', v: '42' },
  { _id: 'string-empty', v: '' },

  { _id: 'binary', v: new Binary(Buffer.from([42, 0, 13]), 0x80) },
  { _id: 'binary-empty', v: new Binary(Buffer.alloc(0)) },

  { _id: 'objectid', v: new ObjectId('000102030405060708091011') },
  { _id: 'objectid-empty', v: new ObjectId('000000000000000000000000') },

  { _id: 'bool-false', v: false },
  { _id: 'bool-true', v: true },

  { _id: 'datetime', v: new Date('2021-11-01T10:18:42.123Z') },
  { _id: 'datetime-epoch', v: new Date(0) },
  { _id: 'datetime-year-min', v: new Date('0000-01-01T00:00:00.000Z') },
  { _id: 'datetime-year-max', v: new Date('9999-12-31T23:59:59.999Z') },

  { _id: 'null', v: null },

  { _id: 'regex', v: new BSONRegExp('foo', 'i') },
  { _id: 'regex-empty', v: new BSONRegExp('', '') },

  { _id: 'int32', v: new Int32(42) },
  { _id: 'int32-zero', v: new Int32(0) },
  { _id: 'int32-max', v: new Int32(2147483647) },
  { _id: 'int32-min', v: new Int32(-2147483648) },
  { _id: 'int32-1', v: new Int32(4080) },
  { _id: 'int32-2', v: new Int32(1048560) },
  { _id: 'int32-3', v: new Int32(268435440) },

  { _id: 'timestamp', v: new Timestamp({ t: 42, i: 13 }) },
  { _id: 'timestamp-i', v: new Timestamp({ t: 0, i: 1 }) },

  { _id: 'int64', v: Long.fromNumber(42) },
  { _id: 'int64-zero', v: Long.fromNumber(0) },
  { _id: 'int64-max', v: Long.MAX_VALUE },
  { _id: 'int64-min', v: Long.MIN_VALUE },
  { _id: 'int64-big', v: Long.fromString('2305843009213693952') },
  { _id: 'int64-double-big', v: new Double(2 ** 61) },
  { _id: 'int64-1', v: Long.fromNumber(1099511628000) },
  { _id: 'int64-2', v: Long.fromNumber(281474976700000) },
  { _id: 'int64-3', v: Long.fromString('72057594040000000') },

  { _id: 'decimal128-int', v: Decimal128.fromString('42') },
  { _id: 'decimal128-int-zero', v: Decimal128.fromString('0') },
  { _id: 'decimal128', v: Decimal128.fromString('42.13') },
  { _id: 'decimal128-whole', v: Decimal128.fromString('42.0') },
  { _id: 'decimal128-zero', v: Decimal128.fromString('0.0') },
  { _id: 'decimal128-double', v: Decimal128.fromString('9007199254740991.0') },

  { _id: 'unset' },
];

/** The other suite's bit test collection: the scalars without the two BinData values. */
const BIT_SCALARS = SCALARS.filter((doc) => doc._id !== 'binary' && doc._id !== 'binary-empty');

/** Every scalar whose value is an integral number representable as an Int64 (what a zero mask matches). */
const INTEGRAL = [
  'decimal128',
  'decimal128-double',
  'decimal128-int',
  'decimal128-int-zero',
  'decimal128-whole',
  'decimal128-zero',
  'double-1',
  'double-2',
  'double-3',
  'double-big',
  'double-whole',
  'double-zero',
  'int32',
  'int32-1',
  'int32-2',
  'int32-3',
  'int32-max',
  'int32-min',
  'int32-zero',
  'int64',
  'int64-1',
  'int64-2',
  'int64-3',
  'int64-big',
  'int64-double-big',
  'int64-max',
  'int64-min',
  'int64-zero',
];

/** The scalars whose bit 1 is set (mask 2, BinData 02, and for $bitsAnySet/$bitsAllSet [1, 5] too). */
const BIT_1_SET = [
  'decimal128',
  'decimal128-double',
  'decimal128-int',
  'decimal128-whole',
  'double-2',
  'double-whole',
  'int32',
  'int32-max',
  'int64',
  'int64-max',
];

/** The scalars whose bit 1 is clear (mask 2, BinData 02, and for $bitsAnyClear [1, 5] too). */
const BIT_1_CLEAR = [
  'decimal128-int-zero',
  'decimal128-zero',
  'double-1',
  'double-3',
  'double-big',
  'double-zero',
  'int32-1',
  'int32-2',
  'int32-3',
  'int32-min',
  'int32-zero',
  'int64-1',
  'int64-2',
  'int64-3',
  'int64-big',
  'int64-double-big',
  'int64-min',
  'int64-zero',
];

/** The scalars whose bit 17 is clear (BinData 00 00 02). */
const BIT_17_CLEAR = [
  'decimal128',
  'decimal128-int',
  'decimal128-int-zero',
  'decimal128-whole',
  'decimal128-zero',
  'double-1',
  'double-2',
  'double-big',
  'double-whole',
  'double-zero',
  'int32',
  'int32-1',
  'int32-min',
  'int32-zero',
  'int64',
  'int64-1',
  'int64-big',
  'int64-double-big',
  'int64-min',
  'int64-zero',
];

/** The scalars whose bit 17 is set (BinData 00 00 02). */
const BIT_17_SET = [
  'decimal128-double',
  'double-3',
  'int32-2',
  'int32-3',
  'int32-max',
  'int64-2',
  'int64-3',
  'int64-max',
];

const binData = (...bytes: number[]): Binary => new Binary(Buffer.from(bytes));

const BAD_POSITION_NEGATIVE = failure(
  2,
  'BadValue',
  'Failed to parse bit position. Expected a non-negative number in: 0: -1',
);
const BAD_POSITION_STRING = failure(2, 'BadValue', 'Failed to parse bit position. Expected a number in: 0: "123"');

type BitResultCase = [label: string, operator: string, mask: unknown, ids: string[]];
type BitErrorCase = [label: string, operator: string, mask: unknown, expected: Failure];

describe('bit test query operators', () => {
  const NAME = 'bitwise_scalars';

  beforeAll(async () => {
    await (await fx.fresh(NAME)).insertMany(BIT_SCALARS);
  });

  /** The `find` the other suite runs: `{ v: { <operator>: mask } }`, sorted by `_id`. */
  const find = (operator: string, mask: unknown): Promise<Document> =>
    fx.db.command({ find: NAME, filter: { v: { [operator]: mask } }, sort: { _id: 1 } });

  it.each<BitResultCase>([
    [
      'positions [1, 5]',
      '$bitsAllClear',
      [1, 5],
      [
        'decimal128-int-zero',
        'decimal128-zero',
        'double-1',
        'double-3',
        'double-big',
        'double-zero',
        'int32-min',
        'int32-zero',
        'int64-3',
        'int64-big',
        'int64-double-big',
        'int64-min',
        'int64-zero',
      ],
    ],
    ['a whole double position [1.0]', '$bitsAllClear', [new Double(1)], BIT_1_CLEAR],
    ['a whole double 2.0', '$bitsAllClear', new Double(2), BIT_1_CLEAR],
    ['a double 0.0', '$bitsAllClear', new Double(0), INTEGRAL],
    ['BinData 02', '$bitsAllClear', binData(2), BIT_1_CLEAR],
    ['BinData 00 00 02', '$bitsAllClear', binData(0, 0, 2), BIT_17_CLEAR],
    [
      'BinData of 9 bytes',
      '$bitsAllClear',
      binData(1, 2, 3, 4, 5, 6, 7, 8, 9),
      [
        'decimal128',
        'decimal128-int',
        'decimal128-int-zero',
        'decimal128-whole',
        'decimal128-zero',
        'double-big',
        'double-whole',
        'double-zero',
        'int32',
        'int32-zero',
        'int64',
        'int64-1',
        'int64-big',
        'int64-double-big',
        'int64-zero',
      ],
    ],
    ['an Int32 2', '$bitsAllClear', 2, BIT_1_CLEAR],
    [
      'the largest Int64',
      '$bitsAllClear',
      Long.MAX_VALUE,
      ['decimal128-int-zero', 'decimal128-zero', 'double-1', 'double-zero', 'int32-zero', 'int64-min', 'int64-zero'],
    ],

    ['positions [1, 5]', '$bitsAllSet', [1, 5], BIT_1_SET],
    ['a whole double 2.0', '$bitsAllSet', new Double(2), BIT_1_SET],
    ['an Int64 0', '$bitsAllSet', Long.fromNumber(0), INTEGRAL],
    ['BinData 02', '$bitsAllSet', binData(2), BIT_1_SET],
    ['BinData 00 00 02', '$bitsAllSet', binData(0, 0, 2), BIT_17_SET],
    ['an Int32 2', '$bitsAllSet', 2, BIT_1_SET],
    ['the largest Int64', '$bitsAllSet', Long.MAX_VALUE, ['int64-max']],

    ['positions [1, 5]', '$bitsAnyClear', [1, 5], BIT_1_CLEAR],
    ['a whole double 2.0', '$bitsAnyClear', new Double(2), BIT_1_CLEAR],
    ['a double 0.0', '$bitsAnyClear', new Double(0), []],
    ['BinData 02', '$bitsAnyClear', binData(2), BIT_1_CLEAR],
    ['BinData 00 00 02', '$bitsAnyClear', binData(0, 0, 2), BIT_17_CLEAR],
    ['an Int32 2', '$bitsAnyClear', 2, BIT_1_CLEAR],
    ['the largest Int64', '$bitsAnyClear', Long.MAX_VALUE, INTEGRAL.filter((id) => id !== 'int64-max')],

    [
      'positions [1, 5]',
      '$bitsAnySet',
      [1, 5],
      [
        'decimal128',
        'decimal128-double',
        'decimal128-int',
        'decimal128-whole',
        'double-2',
        'double-whole',
        'int32',
        'int32-1',
        'int32-2',
        'int32-3',
        'int32-max',
        'int64',
        'int64-1',
        'int64-2',
        'int64-max',
      ],
    ],
    ['a whole double 2.0', '$bitsAnySet', new Double(2), BIT_1_SET],
    ['a double 0.0', '$bitsAnySet', new Double(0), []],
    ['BinData 02', '$bitsAnySet', binData(2), BIT_1_SET],
    ['BinData 00 00 02', '$bitsAnySet', binData(0, 0, 2), BIT_17_SET],
    ['an Int32 2', '$bitsAnySet', 2, BIT_1_SET],
    [
      'the largest Int64',
      '$bitsAnySet',
      Long.MAX_VALUE,
      [
        'decimal128',
        'decimal128-double',
        'decimal128-int',
        'decimal128-whole',
        'double-2',
        'double-3',
        'double-big',
        'double-whole',
        'int32',
        'int32-1',
        'int32-2',
        'int32-3',
        'int32-max',
        'int32-min',
        'int64',
        'int64-1',
        'int64-2',
        'int64-3',
        'int64-big',
        'int64-double-big',
        'int64-max',
      ],
    ],
  ])('should match, for a mask of %s, with %s', async (_label, operator, mask, ids) => {
    const reply = await find(operator, mask);
    expect((reply.cursor as { firstBatch: Document[] }).firstBatch.map((doc) => doc._id)).toEqual(ids);
  });

  it.each<BitErrorCase>([
    ['a negative Int32 position', '$bitsAllClear', [new Int32(-1)], BAD_POSITION_NEGATIVE],
    [
      'a fractional position',
      '$bitsAllClear',
      [1.2],
      failure(2, 'BadValue', 'Failed to parse bit position. Expected an integer: 0: 1.2'),
    ],
    ['a string position', '$bitsAllClear', ['123'], BAD_POSITION_STRING],
    [
      'a fractional double',
      '$bitsAllClear',
      1.2,
      failure(9, 'FailedToParse', 'Expected an integer: $bitsAllClear: 1.2'),
    ],
    [
      'a negative double',
      '$bitsAllClear',
      new Double(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllClear: -1.0'),
    ],
    [
      'a string',
      '$bitsAllClear',
      '123',
      failure(2, 'BadValue', 'v takes an Array, a number, or a BinData but received: $bitsAllClear: "123"'),
    ],
    [
      'a negative Int32',
      '$bitsAllClear',
      new Int32(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllClear: -1'),
    ],
    [
      'a negative Int64',
      '$bitsAllClear',
      Long.fromNumber(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllClear: -1'),
    ],

    ['a negative position', '$bitsAllSet', [-1], BAD_POSITION_NEGATIVE],
    ['a string position', '$bitsAllSet', ['123'], BAD_POSITION_STRING],
    ['a fractional double', '$bitsAllSet', 1.2, failure(9, 'FailedToParse', 'Expected an integer: $bitsAllSet: 1.2')],
    [
      'a negative double',
      '$bitsAllSet',
      new Double(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllSet: -1.0'),
    ],
    [
      'a negative Int32',
      '$bitsAllSet',
      new Int32(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllSet: -1'),
    ],
    [
      'a negative Int64',
      '$bitsAllSet',
      Long.fromNumber(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAllSet: -1'),
    ],

    ['a negative position', '$bitsAnyClear', [-1], BAD_POSITION_NEGATIVE],
    ['a string position', '$bitsAnyClear', ['123'], BAD_POSITION_STRING],
    [
      'a fractional double',
      '$bitsAnyClear',
      1.2,
      failure(9, 'FailedToParse', 'Expected an integer: $bitsAnyClear: 1.2'),
    ],
    [
      'a negative double',
      '$bitsAnyClear',
      new Double(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAnyClear: -1.0'),
    ],
    [
      'a string',
      '$bitsAnyClear',
      '123',
      failure(2, 'BadValue', 'v takes an Array, a number, or a BinData but received: $bitsAnyClear: "123"'),
    ],
    [
      'a negative Int32',
      '$bitsAnyClear',
      new Int32(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAnyClear: -1'),
    ],
    [
      'a negative Int64',
      '$bitsAnyClear',
      Long.fromNumber(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAnyClear: -1'),
    ],

    ['a negative position', '$bitsAnySet', [-1], BAD_POSITION_NEGATIVE],
    ['a string position', '$bitsAnySet', ['123'], BAD_POSITION_STRING],
    ['a fractional double', '$bitsAnySet', 1.2, failure(9, 'FailedToParse', 'Expected an integer: $bitsAnySet: 1.2')],
    [
      'a negative double',
      '$bitsAnySet',
      new Double(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAnySet: -1.0'),
    ],
    [
      'a string',
      '$bitsAnySet',
      '123',
      failure(2, 'BadValue', 'v takes an Array, a number, or a BinData but received: $bitsAnySet: "123"'),
    ],
    [
      'a negative Int64',
      '$bitsAnySet',
      Long.fromNumber(-1),
      failure(9, 'FailedToParse', 'Expected a non-negative number in: $bitsAnySet: -1'),
    ],
  ])('should refuse a mask of %s with %s', async (_label, operator, mask, expected) => {
    expect(await failureOf(find(operator, mask))).toEqual(expected);
  });
});

describe('find: batchSize and singleBatch', () => {
  let sessions: ClientSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.map((session) => session.endSession()));
    sessions = [];
  });

  /** A find in a session of its own; the cursor it leaves open is killed (a getMore must come from that session). */
  async function findIn(command: Document): Promise<{ id: Long; firstBatch: Document[] }> {
    const session = fx.client.startSession();
    sessions.push(session);
    // promoteLongs off: the cursor id stays the Int64 that killCursors must be sent.
    const reply = await fx.db.command(command, { session, promoteLongs: false });
    const cursor = reply.cursor as { id: Long; firstBatch: Document[] };
    if (Long.isLong(cursor.id) && !cursor.id.isZero()) {
      await fx.db.command({ killCursors: command.find, cursors: [cursor.id] }, { session }).catch(() => undefined);
    }
    return { id: cursor.id, firstBatch: cursor.firstBatch };
  }

  /** Documents `{ _id: i }` for i in [start, end), as Int32. */
  const documents = (start: number, end: number): Document[] =>
    Array.from({ length: end - start }, (_, i) => ({ _id: start + i }));

  describe('batchSize', () => {
    const NAME = 'find_batch_size';

    beforeAll(async () => {
      // More documents than the default first batch of 101.
      await (await fx.fresh(NAME)).insertMany(documents(0, 110));
    });

    it.each<[label: string, fields: Document, firstBatch: Document[]]>([
      ['an Int32 1', { batchSize: 1 }, documents(0, 1)],
      ['an Int64 2', { batchSize: Long.fromNumber(2) }, documents(0, 2)],
      ['an Int64 0', { batchSize: Long.fromNumber(0) }, []],
      ['a double 0.0', { batchSize: new Double(0) }, []],
      ['a double 1.9, truncated', { batchSize: 1.9 }, documents(0, 1)],
      ['none (101)', {}, documents(0, 101)],
      ['102', { batchSize: 102 }, documents(0, 102)],
      [
        '102, with a filter matching 6',
        { filter: { _id: { $in: [0, 1, 2, 3, 4, 5] } }, batchSize: 102 },
        documents(0, 6),
      ],
    ])('should answer a first batch for %s', async (_label, fields, firstBatch) => {
      expect((await findIn({ find: NAME, ...fields })).firstBatch).toEqual(firstBatch);
    });

    it.each<[label: string, batchSize: unknown, expected: Failure]>([
      [
        'a negative Int64',
        Long.fromNumber(-1),
        failure(51024, 'Location51024', "BSON field 'batchSize' value must be >= 0, actual value '-1'"),
      ],
      [
        'a negative fractional double',
        -1.1,
        failure(51024, 'Location51024', "BSON field 'batchSize' value must be >= 0, actual value '-1'"),
      ],
      [
        'a boolean',
        true,
        failure(
          14,
          'TypeMismatch',
          "BSON field 'FindCommandRequest.batchSize' is the wrong type 'bool', expected types '[long, int, decimal, double']",
        ),
      ],
    ])('should refuse %s', async (_label, batchSize, expected) => {
      expect(await failureOf(fx.db.command({ find: NAME, batchSize }))).toEqual(expected);
    });
  });

  describe('singleBatch', () => {
    const NAME = 'find_single_batch';

    beforeAll(async () => {
      await (await fx.fresh(NAME)).insertMany(documents(0, 5));
    });

    it('should close the cursor after the first batch for true', async () => {
      expect((await findIn({ find: NAME, batchSize: 3, singleBatch: true })).id).toEqual(Long.fromNumber(0));
    });

    it('should leave the cursor open for false', async () => {
      expect((await findIn({ find: NAME, batchSize: 3, singleBatch: false })).id.isZero()).toBe(false);
    });

    it('should refuse an Int32', async () => {
      expect(await failureOf(fx.db.command({ find: NAME, batchSize: 3, singleBatch: new Int32(1) }))).toEqual(
        failure(14, 'TypeMismatch', "Field 'singleBatch' should be a boolean value, but found: int"),
      );
    });
  });

  it('should answer CursorNotFound to a getMore after the getMore that exhausted the cursor', async () => {
    const NAME = 'find_exhausted';
    await (await fx.fresh(NAME)).insertMany(documents(1, 3));
    const session = fx.client.startSession();
    sessions.push(session);
    const reply = await fx.db.command({ find: NAME, batchSize: 1 }, { session, promoteLongs: false });
    const id = (reply.cursor as { id: Long }).id;
    const getMore = { getMore: id, collection: NAME, batchSize: 1 };
    for (let i = 0; i < 2; i++) await fx.db.command(getMore, { session });
    expect(await failureOf(fx.db.command(getMore, { session }))).toEqual(
      failure(43, 'CursorNotFound', `cursor id ${id.toString()} not found`),
    );
  });
});

/**
 * Sends `command` (a complete command document, `$db` included) as one OP_MSG on
 * a socket of its own, and answers the reply document (its strings not checked for UTF-8).
 */
async function rawCommand(command: Uint8Array): Promise<Document> {
  const address = fx.client.options.hosts[0];
  const [host, port] = [address?.host ?? 'localhost', address?.port ?? 27017];
  const header = Buffer.alloc(21);
  header.writeInt32LE(header.length + command.length, 0); // messageLength
  header.writeInt32LE(1, 4); // requestID
  header.writeInt32LE(0, 8); // responseTo
  header.writeInt32LE(2013, 12); // opCode: OP_MSG
  header.writeUInt32LE(0, 16); // flagBits
  header.writeUInt8(0, 20); // section kind 0: the body
  const socket = connect(port, host);
  try {
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => reject(new Error('no reply within 5 s')), 5000);
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const received = Buffer.concat(chunks);
        if (received.length >= 4 && received.length >= received.readInt32LE(0)) {
          clearTimeout(timer);
          resolve(received);
        }
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('close', () => {
        clearTimeout(timer);
        reject(new Error('the server closed the connection without a reply'));
      });
      socket.write(Buffer.concat([header, command]));
    });
    expect(reply.readInt32LE(12)).toBe(2013);
    return BSON.deserialize(reply.subarray(21, reply.readInt32LE(0)), { validation: { utf8: false } });
  } finally {
    socket.destroy();
  }
}

/** `doc` as BSON, its one occurrence of `placeholder` overwritten with `bytes` of the same length. */
function bsonWith(doc: Document, placeholder: string, bytes: Buffer): Buffer {
  const bson = Buffer.from(BSON.serialize(doc));
  const at = bson.indexOf(placeholder);
  if (at < 0 || bson.lastIndexOf(placeholder) !== at || Buffer.byteLength(placeholder) !== bytes.length) {
    throw new Error(`${placeholder} must occur once and be as long as its replacement`);
  }
  bytes.copy(bson, at);
  return bson;
}

describe('insert: a document with two _id fields', () => {
  const NAME = 'insert_two_ids';

  it('should answer a write error', async () => {
    await (await fx.fresh(NAME)).insertMany(SCALARS);
    // { _id: 'foo', _id: 'bar' }: the second field is written as _iX, then renamed in the BSON.
    const command = bsonWith(
      { insert: NAME, documents: [{ _id: 'foo', _iX: 'bar' }], ordered: false, $db: fx.db.databaseName },
      '_iX',
      Buffer.from('_id'),
    );
    const reply = await rawCommand(command);
    expect(reply.ok).toBe(1);
    expect(
      ((reply.writeErrors ?? []) as Document[]).map(({ index, code, errmsg }) => ({ index, code, errmsg })),
    ).toEqual([{ index: 0, code: 2, errmsg: "can't have multiple _id fields in one document" }]);
  });
});

describe('getParameter', () => {
  it('should refuse an allParameters that is a string', async () => {
    expect(await failureOf(fx.client.db('admin').command({ getParameter: { allParameters: '1' } }))).toEqual(
      failure(
        14,
        'TypeMismatch',
        "BSON field 'getParameter.allParameters' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
      ),
    );
  });
});

/**
 * A known gap kept as failing tests on the embedded server (they pass against a real MongoDB): it decodes every
 * BSON string into a JavaScript string and refuses one that is not UTF-8 (ProtocolError), where mongod keeps the
 * bytes as they came.
 */
const notUtf8It = process.env.MONGO_URL ? it : it.failing;

describe('collection names that are not UTF-8', () => {
  /** The name: bytes FF FE FD, written as Q9Z and overwritten in the BSON. */
  const PLACEHOLDER = 'Q9Z';
  const NAME_BYTES = Buffer.from([0xff, 0xfe, 0xfd]);
  const FROM = 'names_rename_from';

  afterEach(async () => {
    const drop = bsonWith({ drop: PLACEHOLDER, $db: fx.db.databaseName }, PLACEHOLDER, NAME_BYTES);
    await rawCommand(drop).catch(() => undefined);
    await fx.db
      .collection(FROM)
      .drop()
      .catch(() => undefined);
  });

  notUtf8It('should create one', async () => {
    const reply = await rawCommand(bsonWith({ create: PLACEHOLDER, $db: fx.db.databaseName }, PLACEHOLDER, NAME_BYTES));
    expect(reply).toMatchObject({ ok: 1 });
  });

  notUtf8It('should rename a collection to one', async () => {
    await fx.fresh(FROM);
    await fx.db.command({ create: FROM });
    const db = fx.db.databaseName;
    const reply = await rawCommand(
      bsonWith(
        { renameCollection: `${db}.${FROM}`, to: `${db}.${PLACEHOLDER}`, $db: 'admin' },
        PLACEHOLDER,
        NAME_BYTES,
      ),
    );
    expect(reply).toMatchObject({ ok: 1 });
  });
});

describe('NaN in documents and updates', () => {
  const NAME = 'document_validation_nan';

  beforeEach(async () => {
    await (await fx.fresh(NAME)).insertMany(SCALARS);
  });

  it('should insert a document holding NaN', async () => {
    const reply = await fx.db.command({ insert: NAME, documents: [{ _id: 'nan', foo: Number.NaN }] });
    expect(reply).toMatchObject({ n: 1, ok: 1 });
    expect(reply.writeErrors).toBeUndefined();
  });

  it('should $set NaN in an update that matches nothing', async () => {
    const reply = await fx.db.command({
      update: NAME,
      updates: [{ q: { _id: '2' }, u: { $set: { foo: Number.NaN } } }],
    });
    expect(reply).toMatchObject({ n: 0, nModified: 0, ok: 1 });
    expect(reply.writeErrors).toBeUndefined();
  });

  it('should $set NaN in an upsert', async () => {
    const reply = await fx.db.command({
      update: NAME,
      updates: [{ q: { _id: '3' }, u: { $set: { foo: Number.NaN } }, upsert: true }],
    });
    expect(reply).toMatchObject({ n: 1, nModified: 0, upserted: [{ index: 0, _id: '3' }], ok: 1 });
    expect(reply.writeErrors).toBeUndefined();
  });

  it('should $set NaN in a findAndModify', async () => {
    await fx.db.collection(NAME).insertOne({ _id: '4' } as Document);
    const reply = await fx.db.command({
      findAndModify: NAME,
      query: { _id: '4' },
      update: { $set: { foo: Number.NaN } },
    });
    expect(reply).toMatchObject({ value: { _id: '4' }, ok: 1 });
  });
});
