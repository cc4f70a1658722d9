/**
 * Conformance: expression operators of MongoDB 7 that the embedded server
 * answers itself (mingo lacks them or counts otherwise): `$toObjectId` and
 * `$convert` to `objectId`, `$indexOfCP`, `$bsonSize`, `$binarySize`,
 * `$week` / `%U`, and `$tsSecond` / `$tsIncrement`. Values from MongoDB 7's manual; passes against MONGO_URL too.
 */
import { Binary, type Document, type MongoServerError, ObjectId, Timestamp } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const HEX = '5ab9cbfa31c2ab715d42129e';

async function evaluate(expression: Document, doc: Document = { _id: 1 }): Promise<unknown> {
  const c = await fx.fresh('expressions');
  await c.insertOne(doc as never);
  const [result] = await c.aggregate([{ $project: { _id: 0, r: expression } }]).toArray();
  return result?.r;
}

const failure = (expression: Document): Promise<MongoServerError> => rejection(evaluate(expression));

describe('$toObjectId and $convert to objectId', () => {
  it('should make an ObjectId of 24 hex digits, and keep null and an ObjectId', async () => {
    const id = await evaluate({ $toObjectId: HEX });
    expect(id).toBeInstanceOf(ObjectId);
    expect((id as ObjectId).toHexString()).toBe(HEX);
    expect(await evaluate({ $toObjectId: '$missing' })).toBeNull();
    expect(((await evaluate({ $toObjectId: '$_id' }, { _id: new ObjectId(HEX) })) as ObjectId).toHexString()).toBe(HEX);
  });

  it.each<[string, unknown, RegExp]>([
    ['a short string', 'abc', /^Failed to parse objectId 'abc' in \$convert with no onError value/],
    ['a number', 42, /^Unsupported conversion from int to objectId in \$convert with no onError value$/],
  ])('should refuse %s (ConversionFailure)', async (_label, input) => {
    const error = await failure({ $toObjectId: { $literal: input } });
    expect([error.code, error.codeName]).toEqual([241, 'ConversionFailure']);
  });

  it("should answer $convert's onError and onNull", async () => {
    expect(await evaluate({ $convert: { input: 'abc', to: 'objectId', onError: 'bad' } })).toBe('bad');
    expect(await evaluate({ $convert: { input: '$missing', to: 'objectId', onNull: 'none' } })).toBe('none');
    expect(((await evaluate({ $convert: { input: HEX, to: 7 } })) as ObjectId).toHexString()).toBe(HEX);
  });

  it('should join on an id stored as a string', async () => {
    const products = await fx.fresh('products');
    await products.insertOne({ _id: new ObjectId(HEX), name: 'Cup' } as never);
    const orders = await fx.fresh('orders');
    await orders.insertOne({ _id: 1, productId: HEX } as never);
    const [order] = await orders
      .aggregate([
        {
          $lookup: {
            from: 'products',
            let: { pid: { $toObjectId: '$productId' } },
            pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$pid'] } } }],
            as: 'product',
          },
        },
      ])
      .toArray();
    expect(order?.product).toEqual([{ _id: new ObjectId(HEX), name: 'Cup' }]);
  });
});

describe('$indexOfCP', () => {
  it.each<[string, unknown[], unknown]>([
    ['a code point index past a multi-byte one', ['héllo wörld', 'ö'], 7],
    ['a code point index past an astral one', ['a😀b', 'b'], 2],
    ['from a start', ['cafeteria', 'e', 4], 5],
    ['within an end', ['cafeteria', 'e', 4, 5], -1],
    ['none', ['cafeteria', 'x'], -1],
    ['null for a null string', [null, 'x'], null],
  ])('should answer %s', async (_label, operands, expected) => {
    expect(await evaluate({ $indexOfCP: operands })).toEqual(expected);
  });

  it('should refuse a string that is not one (40093) and a negative start (40097)', async () => {
    expect((await failure({ $indexOfCP: [1, 'x'] })).code).toBe(40093);
    expect((await failure({ $indexOfCP: ['abc', 'x', -1] })).code).toBe(40097);
  });
});

describe('$bsonSize and $binarySize', () => {
  it('should measure a document as BSON, and a string or binary data in bytes', async () => {
    expect(await evaluate({ $bsonSize: { $literal: { a: 1 } } })).toBe(12);
    expect(await evaluate({ $bsonSize: '$$ROOT' }, { _id: 1 })).toBe(14);
    expect(await evaluate({ $bsonSize: '$missing' })).toBeNull();
    expect(await evaluate({ $binarySize: 'héllo' })).toBe(6);
    expect(await evaluate({ $binarySize: '$b' }, { _id: 1, b: new Binary(Buffer.from([1, 2, 3])) })).toBe(3);
  });

  it('should refuse what they cannot measure (31393, 51276)', async () => {
    expect((await failure({ $bsonSize: 'x' })).code).toBe(31393);
    expect((await failure({ $binarySize: 1 })).code).toBe(51276);
  });
});

describe('$week and %U', () => {
  // Weeks start on Sunday; the days before the year's first Sunday are week 0 (strftime's %U).
  it.each<[string, number]>([
    ['2024-01-01', 0],
    ['2024-01-06', 0],
    ['2024-01-07', 1],
    ['2024-03-15', 10],
    ['2023-01-01', 1],
    ['2023-12-31', 53],
    ['2021-01-02', 0],
  ])('should count %s in week %i', async (day, week) => {
    const date = new Date(`${day}T12:00:00Z`);
    expect(await evaluate({ $week: { $literal: date } })).toBe(week);
    expect(await evaluate({ $dateToString: { format: 'week %U', date: { $literal: date } } })).toBe(
      `week ${String(week).padStart(2, '0')}`,
    );
  });
});

describe('%w and %% in $dateToString', () => {
  // mongod's %w counts from 1, Sunday, to 7, as $dayOfWeek does; %% is a percent sign.
  it.each<[string, string, string, string]>([
    ['a Sunday', '2024-06-30T12:00:00Z', '%w', '1'],
    ['a Monday', '2024-07-01T12:00:00Z', '%w %u', '2 1'],
    ['a Saturday', '2024-07-06T12:00:00Z', '%w', '7'],
    ['a Monday in UTC, a Tuesday at +14:00', '2024-07-01T12:00:00Z', '%w %H', '3 02'],
    ['percent signs', '2024-07-01T12:00:00Z', '100%% %Y%%', '100% 2024%'],
  ])('should print %s', async (label, iso, format, expected) => {
    const timezone = label.includes('+14:00') ? { timezone: 'Pacific/Kiritimati' } : {};
    expect(await evaluate({ $dateToString: { format, date: { $literal: new Date(iso) }, ...timezone } })).toBe(
      expected,
    );
  });
});

describe('UTC by name', () => {
  const date = { $literal: new Date('2024-07-01T12:34:56Z') };
  it.each<[string, Document, unknown]>([
    ['$hour with UTC', { $hour: { date, timezone: 'UTC' } }, 12],
    ['$dateToString with GMT', { $dateToString: { format: '%H:%M %z', date, timezone: 'GMT' } }, '12:34 +0000'],
    ['$minute with Etc/UTC', { $minute: { date, timezone: 'Etc/UTC' } }, 34],
  ])('should take %s as the zone of offset 0', async (_label, expr, expected) => {
    expect(await evaluate(expr)).toEqual(expected);
  });
});

describe('$dateAdd and $dateSubtract by months', () => {
  // mongod clamps a day past the new month's end to its last day (its date_add_subtract.js states the first case).
  const at = (iso: string) => ({ $literal: new Date(iso) });
  it.each<[string, Document, string | null]>([
    [
      'Dec 31 + 2 months',
      { $dateAdd: { startDate: at('2020-12-31T10:00:00Z'), unit: 'month', amount: 2 } },
      '2021-02-28T10:00:00.000Z',
    ],
    [
      'Feb 29 + 1 year',
      { $dateAdd: { startDate: at('2024-02-29T00:00:00Z'), unit: 'year', amount: 1 } },
      '2025-02-28T00:00:00.000Z',
    ],
    [
      'Dec 31 - 1 quarter',
      { $dateSubtract: { startDate: at('2020-12-31T10:00:00Z'), unit: 'quarter', amount: 1 } },
      '2020-09-30T10:00:00.000Z',
    ],
    [
      'Jan 31 23:30Z + 1 month at +01:00 (Feb 1 there)',
      { $dateAdd: { startDate: at('2024-01-31T23:30:00Z'), unit: 'month', amount: 1, timezone: '+01:00' } },
      '2024-02-29T23:30:00.000Z',
    ],
    ['a null amount', { $dateAdd: { startDate: at('2020-12-31T10:00:00Z'), unit: 'month', amount: null } }, null],
  ])('should answer %s', async (_label, expr, expected) => {
    const value = await evaluate(expr);
    expect(value instanceof Date ? value.toISOString() : value).toEqual(expected);
  });
});

describe('$tsSecond and $tsIncrement', () => {
  const ts = new Timestamp({ t: 1_700_000_000, i: 7 });

  it("should give a Timestamp's seconds and increment as Int64s, and null for null or missing", async () => {
    const doc = { _id: 1, ts };
    // The driver hands Int64s over as numbers; $type tells the BSON type.
    expect(await evaluate({ $tsSecond: '$ts' }, doc)).toBe(1_700_000_000);
    expect(await evaluate({ $tsIncrement: ['$ts'] }, doc)).toBe(7);
    expect(await evaluate({ $type: { $tsSecond: '$ts' } }, doc)).toBe('long');
    expect(await evaluate({ $type: { $tsIncrement: '$ts' } }, doc)).toBe('long');
    expect(await evaluate({ $tsSecond: '$missing' }, doc)).toBeNull();
    expect(await evaluate({ $tsIncrement: null }, doc)).toBeNull();
    // Seconds past 2^31 stay positive: the Timestamp's seconds are unsigned.
    const late = { _id: 1, ts: new Timestamp({ t: 2 ** 32 - 1, i: 2 ** 32 - 1 }) };
    expect(await evaluate({ $tsSecond: '$ts' }, late)).toBe(2 ** 32 - 1);
    expect(await evaluate({ $tsIncrement: '$ts' }, late)).toBe(2 ** 32 - 1);
  });

  it.each<[string, Document, number, string]>([
    ['$tsSecond of a date', { $tsSecond: '$$NOW' }, 5687301, ' Argument to $tsSecond must be a timestamp, but is date'],
    [
      '$tsIncrement of a string',
      { $tsIncrement: 'x' },
      5687302,
      ' Argument to $tsIncrement must be a timestamp, but is string',
    ],
    [
      'two arguments',
      { $tsSecond: ['$ts', '$ts'] },
      16020,
      // A parse error, prefixed by the $project evaluate() runs it in (the others fail per document).
      'Invalid $project :: caused by :: Expression $tsSecond takes exactly 1 arguments. 2 were passed in.',
    ],
  ])('should refuse %s', async (_label, expression, code, message) => {
    const error = await failure(expression);
    expect([error.code, error.message]).toEqual([code, message]);
  });
});
