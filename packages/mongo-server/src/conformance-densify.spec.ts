/**
 * Conformance: `$densify` as mongod runs it (document_source_densify.cpp):
 * the documentation's examples, mongod's jstests (partitions.js, decimal.js,
 * libs/parse_util.js) and a property test against the JavaScript model
 * mongod's own jstests compare with (libs/densify_in_js.js: sort by the
 * field, generate every step of the range missing from the input, let null
 * and missing values pass). Dates step as `$dateAdd` steps them, in UTC.
 * Where mongod leaves the order open (the values generated for each
 * partition after the last document), the results are compared as
 * multisets, as the jstests compare them. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import fc from 'fast-check';
import { type Collection, Decimal128, type Document, Double, Long, Timestamp } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** The documents in a canonical order, for results whose order mongod leaves open. */
function sorted(docs: Document[]): Document[] {
  const key = (doc: Document): string => JSON.stringify(doc, Object.keys(doc).sort());
  return [...docs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

async function densify(name: string, docs: Document[], stage: Document): Promise<Document[]> {
  const coll = await fx.fresh(name);
  if (docs.length > 0) await coll.insertMany(docs.map((doc) => ({ ...doc })));
  return coll.aggregate([{ $project: { _id: 0 } }, { $densify: stage }]).toArray();
}

const hour = (h: number): Date => new Date(Date.UTC(2021, 4, 18, h));

describe('conformance: $densify', () => {
  it('should fill the hours of an explicit range and keep the documents past it (the documentation)', async () => {
    const docs = [0, 4, 8, 12].map((h, i) => ({ timestamp: hour(h), temp: [12, 11, 11, 12][i] }));
    const results = await densify('densify_hours', docs, {
      field: 'timestamp',
      range: { step: 1, unit: 'hour', bounds: [hour(0), hour(8)] },
    });
    expect(results).toEqual([
      { timestamp: hour(0), temp: 12 },
      { timestamp: hour(1) },
      { timestamp: hour(2) },
      { timestamp: hour(3) },
      { timestamp: hour(4), temp: 11 },
      { timestamp: hour(5) },
      { timestamp: hour(6) },
      { timestamp: hour(7) },
      { timestamp: hour(8), temp: 11 },
      { timestamp: hour(12), temp: 12 },
    ]);
  });

  const coffee = [
    { altitude: 600, variety: 'Arabica Typica', score: 68.3 },
    { altitude: 750, variety: 'Arabica Typica', score: 69.5 },
    { altitude: 950, variety: 'Arabica Typica', score: 70.5 },
    { altitude: 1250, variety: 'Gesha', score: 90 },
    { altitude: 1700, variety: 'Gesha', score: 91 },
    { altitude: 1600, variety: 'Gesha', score: 92.5 },
  ];

  it('should fill each partition over the whole range with bounds full, in order up to the last document', async () => {
    const results = await densify('densify_full_partitions', coffee, {
      field: 'altitude',
      partitionByFields: ['variety'],
      range: { bounds: 'full', step: 200 },
    });
    const arabica = (altitude: number): Document => ({ variety: 'Arabica Typica', altitude });
    const gesha = (altitude: number): Document => ({ variety: 'Gesha', altitude });
    // Sorted by altitude alone (partitions are not sorted with full bounds); what is generated
    // after the last document comes last.
    expect(results.slice(0, 12)).toEqual([
      coffee[0],
      coffee[1],
      arabica(800),
      coffee[2],
      gesha(600),
      gesha(800),
      gesha(1000),
      gesha(1200),
      coffee[3],
      gesha(1400),
      coffee[5],
      coffee[4],
    ]);
    expect(results.slice(12)).toEqual([arabica(1000), arabica(1200), arabica(1400), arabica(1600)]);
    // A generated document has the partition's fields, then the densified field.
    expect(Object.keys(results[2]!)).toEqual(['variety', 'altitude']);
  });

  it("should fill each partition from its own first value with bounds 'partition' (the documentation)", async () => {
    const results = await densify('densify_partition_bounds', coffee, {
      field: 'altitude',
      partitionByFields: ['variety'],
      range: { bounds: 'partition', step: 200 },
    });
    expect(results).toEqual([
      coffee[0],
      coffee[1],
      { variety: 'Arabica Typica', altitude: 800 },
      coffee[2],
      coffee[3],
      { variety: 'Gesha', altitude: 1450 },
      coffee[5],
      { variety: 'Gesha', altitude: 1650 },
      coffee[4],
    ]);
  });

  it('should step months from the last value as $dateAdd does: the 31st then the last day of February', async () => {
    const jan31 = new Date(Date.UTC(2021, 0, 31));
    const may1 = new Date(Date.UTC(2021, 4, 1));
    const results = await densify('densify_months', [{ d: jan31 }, { d: may1 }], {
      field: 'd',
      range: { step: 1, unit: 'month', bounds: 'full' },
    });
    expect(results).toEqual([
      { d: jan31 },
      { d: new Date(Date.UTC(2021, 1, 28)) },
      { d: new Date(Date.UTC(2021, 2, 28)) },
      { d: new Date(Date.UTC(2021, 3, 28)) },
      { d: may1 },
    ]);
  });

  it('should let null and missing values pass first and densify numbers of every type by value', async () => {
    const results = await densify(
      'densify_mixed',
      [{ x: 1 }, { x: Long.fromNumber(5) }, { x: 2.5 }, { x: null }, { y: 1 }],
      { field: 'x', range: { step: 1, bounds: 'full' } },
    );
    expect(sorted(results.slice(0, 2))).toEqual(sorted([{ x: null }, { y: 1 }]));
    expect(results.slice(2)).toEqual([{ x: 1 }, { x: 2 }, { x: 2.5 }, { x: 3 }, { x: 4 }, { x: 5 }]);
  });

  it('should generate an explicit range over an empty collection', async () => {
    const results = await densify('densify_empty', [], { field: 'v', range: { step: 3, bounds: [0, 10] } });
    expect(results).toEqual([{ v: 0 }, { v: 3 }, { v: 6 }, { v: 9 }]);
  });

  describe('partitions.js', () => {
    it.each<[string, Document[], Document, Document[]]>([
      [
        'two documents in each of two partitions',
        [
          { val: 0, partition: 0 },
          { val: 2, partition: 0 },
          { val: 0, partition: 1 },
          { val: 2, partition: 1 },
        ],
        { field: 'val', partitionByFields: ['partition'], range: { step: 1, bounds: 'partition' } },
        [
          { val: 1, partition: 0 },
          { val: 1, partition: 1 },
        ],
      ],
      [
        'one partition that needs nothing',
        [
          { val: 0, partition: 0 },
          { val: 2, partition: 0 },
          { val: 123, partition: 1 },
        ],
        { field: 'val', partitionByFields: ['partition'], range: { step: 1, bounds: 'partition' } },
        [{ val: 1, partition: 0 }],
      ],
      [
        'two partitions with no documents in the range',
        [
          { val: 0, partition: 0 },
          { val: 4, partition: 1 },
        ],
        { field: 'val', partitionByFields: ['partition'], range: { step: 1, bounds: [2, 3] } },
        [
          { val: 2, partition: 0 },
          { val: 2, partition: 1 },
        ],
      ],
      [
        'an upper bound off the lower bound’s step',
        [
          { val: 0, partition: 0 },
          { val: 10, partition: 1 },
        ],
        { field: 'val', partitionByFields: ['partition'], range: { step: 2, bounds: [2, 5] } },
        [
          { val: 2, partition: 0 },
          { val: 2, partition: 1 },
          { val: 4, partition: 0 },
          { val: 4, partition: 1 },
        ],
      ],
    ])('should densify %s', async (_name, docs, stage, generated) => {
      const results = await densify('densify_partitions', docs, stage);
      expect(sorted(results)).toEqual(sorted([...docs, ...generated]));
    });

    it('should densify full bounds for partitions of one document each, to the global maximum', async () => {
      const docs = [
        { val: 0, part: 0 },
        { val: 0, part: 1 },
        { val: 10, part: 2 },
      ];
      const results = await densify('densify_full_single', docs, {
        field: 'val',
        range: { step: 2, bounds: 'full' },
        partitionByFields: ['part'],
      });
      const expected: Document[] = [];
      for (let val = 0; val < 11; val += 2) for (let part = 0; part <= 2; part++) expected.push({ val, part });
      expect(sorted(results)).toEqual(sorted(expected));
    });

    it('should densify full bounds of years for partitions of one document each', async () => {
      const year = (y: number): Date => new Date(Date.UTC(y, 0, 1));
      const docs = [
        { val: year(2021), part: 0 },
        { val: year(2021), part: 1 },
        { val: year(2031), part: 2 },
        { val: year(2025), part: 3 },
      ];
      const results = await densify('densify_full_years', docs, {
        field: 'val',
        range: { step: 2, unit: 'year', bounds: 'full' },
        partitionByFields: ['part'],
      });
      const expected: Document[] = [];
      for (let y = 0; y < 11; y += 2)
        for (let part = 0; part <= 3; part++) expected.push({ val: year(2021 + y), part });
      expect(sorted(results)).toEqual(sorted(expected));
    });

    it('should keep an off-step document of a partition and still fill it on the step (full bounds)', async () => {
      const docs = [
        { val: 0, part: 0 },
        { val: 4, part: 0 },
        { val: 0, part: 1 },
        { val: 5, part: 1 },
        { val: 10, part: 2 },
      ];
      const results = await densify('densify_full_off_step', docs, {
        field: 'val',
        range: { step: 2, bounds: 'full' },
        partitionByFields: ['part'],
      });
      const expected: Document[] = [{ val: 5, part: 1 }];
      for (let val = 0; val < 11; val += 2) for (let part = 0; part <= 2; part++) expected.push({ val, part });
      expect(sorted(results)).toEqual(sorted(expected));
    });
  });

  describe('fill_and_densify.js', () => {
    const parted = [
      { val: 0, toFill: 1, part: 1 },
      { val: 5, toFill: 3, part: 1 },
      { val: 10, toFill: 5, part: 1 },
      { val: 3, toFill: 10, part: 2 },
      { val: 6, toFill: 13, part: 2 },
      { val: 9, toFill: 16, part: 2 },
    ];
    /** `[val, toFill]` pairs of one partition as documents. */
    const part = (n: number, pairs: [number, number | null][]): Document[] =>
      pairs.map(([val, toFill]) => ({ val, toFill, part: n }));

    it.each<[string, Document[], Document[], Document[]]>([
      [
        'full bounds, then locf',
        [
          { val: 0, toFill: 1 },
          { val: 5, toFill: 3 },
          { val: 10, toFill: 5 },
        ],
        [
          { $densify: { field: 'val', range: { step: 1, bounds: 'full' } } },
          { $fill: { output: { toFill: { method: 'locf' } } } },
        ],
        [1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 5].map((toFill, val) => ({ val, toFill })),
      ],
      [
        'partition bounds, then locf by partition',
        parted,
        [
          { $densify: { field: 'val', range: { step: 1, bounds: 'partition' }, partitionByFields: ['part'] } },
          { $fill: { output: { toFill: { method: 'locf' } }, partitionByFields: ['part'] } },
        ],
        [
          ...part(
            1,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((val): [number, number] => [val, val < 5 ? 1 : val < 10 ? 3 : 5]),
          ),
          ...part(
            2,
            [3, 4, 5, 6, 7, 8, 9].map((val): [number, number] => [val, val < 6 ? 10 : val < 9 ? 13 : 16]),
          ),
        ],
      ],
      [
        'full bounds by partition, then locf by partition',
        parted,
        [
          { $densify: { field: 'val', range: { step: 1, bounds: 'full' }, partitionByFields: ['part'] } },
          { $fill: { output: { toFill: { method: 'locf' } }, partitionByFields: ['part'] } },
        ],
        [
          ...part(
            1,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((val): [number, number] => [val, val < 5 ? 1 : val < 10 ? 3 : 5]),
          ),
          ...part(
            2,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((val): [number, number | null] => [
              val,
              val < 3 ? null : val < 6 ? 10 : val < 9 ? 13 : 16,
            ]),
          ),
        ],
      ],
    ])('should densify then fill: %s', async (_name, docs, stages, expected) => {
      const coll = await fx.fresh('fill_and_densify');
      await coll.insertMany(docs.map((doc) => ({ ...doc })));
      const results = await coll.aggregate([{ $project: { _id: 0 } }, ...stages]).toArray();
      expect(sorted(results)).toEqual(sorted(expected));
    });
  });

  describe('decimal.js', () => {
    const decimal = (text: string): Decimal128 => Decimal128.fromString(text);
    const raw = { promoteValues: false } as const;

    async function densifyRaw(docs: Document[], stage: Document): Promise<Document[]> {
      const coll = await fx.fresh('densify_decimal');
      await coll.insertMany(docs.map((doc) => ({ ...doc })));
      return coll.aggregate([{ $project: { _id: 0 } }, { $densify: stage }], raw).toArray();
    }

    /** Each value as its BSON type and its text (a Decimal128's as its number's, with `byValue`). */
    const typed = (docs: Document[], byValue = false): string[] =>
      docs.map((doc) => {
        const type = (doc.val as { _bsontype?: string })._bsontype;
        return `${type}:${byValue ? Number(String(doc.val)) : String(doc.val)}`;
      });

    it('should generate Decimal128 values from a Decimal128, then the type of the last value seen', async () => {
      const results = await densifyRaw([{ val: decimal('0') }, { val: decimal('10') }, { val: new Double(5) }], {
        field: 'val',
        range: { step: 1, bounds: 'full' },
      });
      expect(typed(results)).toEqual([
        ...['0', '1', '2', '3', '4'].map((n) => `Decimal128:${n}`),
        ...['5', '6', '7', '8', '9'].map((n) => `Double:${n}`),
        'Decimal128:10',
      ]);
    });

    it('should step a double by a tenth past a Decimal128 as mongod does', async () => {
      const results = await densifyRaw([{ val: decimal('0') }, { val: 0.5 }, { val: decimal('1') }], {
        field: 'val',
        range: { step: 0.1, bounds: 'full' },
      });
      expect(typed(results, true)).toEqual([
        'Decimal128:0',
        'Decimal128:0.1',
        'Decimal128:0.2',
        'Decimal128:0.3',
        'Decimal128:0.4',
        'Double:0.5',
        'Double:0.6',
        'Double:0.7',
        'Double:0.7999999999999999',
        'Double:0.8999999999999999',
        'Double:0.9999999999999999',
        'Decimal128:1',
      ]);
    });

    it('should step by a Decimal128 tenth in decimal past a double', async () => {
      const results = await densifyRaw([{ val: decimal('0') }, { val: 0.5 }, { val: decimal('1') }], {
        field: 'val',
        range: { step: decimal('.1'), bounds: 'full' },
      });
      expect(typed(results, true)).toEqual([
        ...['0', '0.1', '0.2', '0.3', '0.4'].map((n) => `Decimal128:${n}`),
        'Double:0.5',
        ...['0.6', '0.7', '0.8', '0.9', '1'].map((n) => `Decimal128:${n}`),
      ]);
    });

    it('should step by a Decimal128 in decimal, without losing its digits', async () => {
      const step = decimal('0.1243568735894448377382');
      const coll = await fx.fresh('densify_decimal_step');
      await coll.insertMany([{ val: 0 }, { val: 1 }]);
      const results = await coll
        .aggregate(
          [{ $project: { _id: 0 } }, { $densify: { field: 'val', range: { step, bounds: 'full' } } }, { $limit: 4 }],
          raw,
        )
        .toArray();
      expect(typed(results)).toEqual([
        'Int32:0',
        'Decimal128:0.1243568735894448377382',
        'Decimal128:0.2487137471788896754764',
        'Decimal128:0.3730706207683345132146',
      ]);
    });
  });

  it.each<[string, unknown, number]>([
    ['a spec that is not an object', 1, 9],
    ['no bounds', { field: 'a', range: { step: 1.5 } }, 40414],
    ['no field', { range: { step: 1, bounds: 'full' } }, 40414],
    ['no step', { field: 'a', range: { bounds: 'full' } }, 40414],
    ['an unknown field', { field: 'a', range: { step: 1, bounds: 'full' }, other: 1 }, 40415],
    ['an unknown range field', { field: 'a', range: { step: 1, bounds: 'full', other: 1 } }, 40415],
    ['a field that is not a string', { field: 1.5, range: { step: 1, bounds: 'full' } }, 14],
    ['a step that is not a number', { field: 'a', range: { step: 'invalid', bounds: 'full' } }, 14],
    ['partitionByFields not an array', { field: 'a', partitionByFields: 'b', range: { step: 1, bounds: 'full' } }, 14],
    ['a partition field not a string', { field: 'a', partitionByFields: [1], range: { step: 1, bounds: 'full' } }, 14],
    ['a unit that is not a string', { field: 'a', range: { step: 1, bounds: 'full', unit: 1000 } }, 14],
    ['a range that is not an object', { field: 'a', range: 1 }, 14],
    ['one bound', { field: 'a', range: { step: 1, bounds: [new Date(0)], unit: 'second' } }, 5733403],
    ['three bounds', { field: 'a', range: { step: 1, bounds: [0, 1, 2] } }, 5733403],
    ['a negative step', { field: 'a', range: { step: -1, bounds: [0, 1] } }, 5733401],
    ['a zero step', { field: 'a', range: { step: 0, bounds: 'full' } }, 5733401],
    ['a NaN step', { field: 'a', range: { step: Number.NaN, bounds: 'full' } }, 5733401],
    ['a $-prefixed field', { field: '$a', range: { step: 1, bounds: [0, 1] } }, 16410],
    [
      'a $-prefixed partition field',
      { field: 'a', partitionByFields: ['$b'], range: { step: 1, bounds: [0, 1] } },
      16410,
    ],
    ['an empty field', { field: '', range: { step: 1, bounds: 'full' } }, 40352],
    [
      'partition bounds without partitions',
      { field: 'a', partitionByFields: [], range: { step: 1, bounds: 'partition' } },
      5733408,
    ],
    ['partition bounds, no partitionByFields', { field: 'a', range: { step: 1, bounds: 'partition' } }, 5733408],
    ['descending bounds', { field: 'a', range: { step: 1, bounds: [2, 1] } }, 5733402],
    [
      'descending dates',
      { field: 'a', range: { step: 1, bounds: [new Date(1), new Date(0)], unit: 'second' } },
      5733402,
    ],
    ['a unit with numeric bounds', { field: 'a', range: { step: 1, bounds: [1, 2], unit: 'second' } }, 5733409],
    ['a number and a date', { field: 'a', range: { step: 1, bounds: [1, new Date(0)] } }, 5733406],
    ['a date and a number', { field: 'a', range: { step: 1, bounds: [new Date(0), 1], unit: 'second' } }, 5733402],
    ['dates without a unit', { field: 'a', range: { step: 1, bounds: [new Date(0), new Date(1)] } }, 5733410],
    [
      'a date and a timestamp',
      { field: 'a', range: { step: 1, bounds: [new Date(0), new Timestamp({ t: 1, i: 1 })], unit: 'day' } },
      5733405,
    ],
    ['strings as bounds', { field: 'a', range: { step: 1, bounds: ['a', 'b'] } }, 5946800],
    ['another bounds string', { field: 'a', range: { step: 1, bounds: 'some' } }, 5946802],
    ['bounds of another type', { field: 'a', range: { step: 1, bounds: 5 } }, 5733404],
    [
      'a fractional step with dates',
      { field: 'a', range: { step: 1.1, bounds: [new Date(0), new Date(9)], unit: 'second' } },
      6586400,
    ],
    ['an unknown unit', { field: 'a', range: { step: 1, bounds: 'full', unit: 'fortnight' } }, 9],
    [
      'decimal bounds and a double step',
      { field: 'a', range: { step: 0.1, bounds: [Decimal128.fromString('0.1'), Decimal128.fromString('0.9')] } },
      5876900,
    ],
    ['int bounds and a double step', { field: 'a', range: { step: 0.5, bounds: [0, 10] } }, 5876900],
    [
      'the densified field as a partition',
      { field: 'a', partitionByFields: ['a'], range: { step: 1, bounds: 'full' } },
      8993000,
    ],
    [
      'a partition inside the field',
      { field: 'a', partitionByFields: ['a.b'], range: { step: 1, bounds: 'full' } },
      8993000,
    ],
    [
      'the field inside a partition',
      { field: 'a.b', partitionByFields: ['a'], range: { step: 1, bounds: 'full' } },
      9554500,
    ],
  ])('should refuse %s before reading a document', async (_name, spec, code) => {
    const coll = await fx.fresh('densify_parse');
    const error = await rejection(coll.aggregate([{ $densify: spec }]).toArray());
    expect(error.code).toBe(code);
  });

  it.each<[string, Document[], Document, number]>([
    ['a string value', [{ a: 'x' }, { a: 1 }], { step: 1, bounds: 'full' }, 5733201],
    ['an array value', [{ a: [1, 2] }], { step: 1, bounds: 'full' }, 5733201],
    ['a date without a unit', [{ a: new Date(0) }], { step: 1, bounds: 'full' }, 6053600],
    ['a number with a unit', [{ a: 1 }], { step: 1, bounds: 'full', unit: 'day' }, 6053600],
  ])('should fail on %s in the densified field', async (_name, docs, range, code) => {
    const coll = await fx.fresh('densify_values');
    await coll.insertMany(docs);
    const error = await rejection(coll.aggregate([{ $densify: { field: 'a', range } }]).toArray());
    expect(error.code).toBe(code);
  });

  it('should accept the specs parse_util.js accepts, on an empty collection', async () => {
    const coll = await fx.fresh('densify_accepted');
    const day = (y: number): Date => new Date(Date.UTC(y, 0, 1));
    for (const spec of [
      { field: 'a', range: { step: 1, bounds: [1, 2] } },
      { field: 'a', range: { step: 1, bounds: [day(2020), day(2021)], unit: 'day' } },
      { field: 'a', partitionByFields: ['b', 'c'], range: { step: 1, bounds: [day(2020), day(2021)], unit: 'week' } },
      { field: 'a', partitionByFields: ['b', 'c'], range: { step: 1, bounds: 'partition', unit: 'second' } },
      { field: 'a', partitionByFields: ['b', 'c'], range: { step: 1, bounds: 'full', unit: 'second' } },
      { field: 'a', partitionByFields: ['b', 'c'], range: { step: 1, bounds: 'full' } },
      { field: 'a', partitionByFields: ['b'], range: { step: 1, bounds: 'partition' } },
      { field: 'a', range: { step: 1, bounds: 'full' } },
    ]) {
      await expect(coll.aggregate([{ $densify: spec }]).toArray()).resolves.toBeDefined();
    }
  });

  describe('generated_limit.js: internalQueryMaxAllowedDensifyDocs', () => {
    const PARAMETER = 'internalQueryMaxAllowedDensifyDocs';
    const admin = () => fx.client.db('admin');
    let original: unknown;

    beforeAll(async () => {
      original = (await admin().command({ getParameter: 1, [PARAMETER]: 1 }))[PARAMETER];
    });
    afterAll(async () => {
      await admin().command({ setParameter: 1, [PARAMETER]: original });
    });

    async function outcome(coll: Collection, stage: Document): Promise<number | 'ok'> {
      try {
        await coll.aggregate([{ $densify: stage }]).toArray();
        return 'ok';
      } catch (error) {
        return (error as { code: number }).code;
      }
    }

    it('should default to 500,000 and answer the value it replaces', async () => {
      expect(original).toBe(500_000);
      const reply = await admin().command({ setParameter: 1, [PARAMETER]: 7 });
      expect(reply.was).toBe(500_000);
      expect((await admin().command({ getParameter: 1, [PARAMETER]: 1 }))[PARAMETER]).toBe(7);
    });

    it('should fail past the limit, counting generated documents only, across partitions', async () => {
      const coll = await fx.fresh('densify_limit');
      await admin().command({ setParameter: 1, [PARAMETER]: 10 });
      expect(await outcome(coll, { field: 'val', range: { step: 1, bounds: [0, 11] } })).toBe(5897900);
      expect(await outcome(coll, { field: 'val', range: { step: 4, bounds: [0, 45] } })).toBe(5897900);
      expect(await outcome(coll, { field: 'val', range: { step: 1, bounds: [0, 10] } })).toBe('ok');
      await coll.insertMany([
        { val: 0, part: 1 },
        { val: 12, part: 1 },
      ]);
      expect(await outcome(coll, { field: 'val', range: { step: 1, bounds: 'full' } })).toBe(5897900);
      await admin().command({ setParameter: 1, [PARAMETER]: 20 });
      await coll.insertMany([
        { val: 0, part: 2 },
        { val: 12, part: 2 },
      ]);
      const byPartition = { field: 'val', partitionByFields: ['part'], range: { step: 1, bounds: 'partition' } };
      expect(await outcome(coll, byPartition)).toBe(5897900);
      await coll.deleteMany({ part: 2 });
      await admin().command({ setParameter: 1, [PARAMETER]: 10 });
      await coll.insertOne({ val: 5, part: 1 });
      expect(await outcome(coll, { field: 'val', range: { step: 1, bounds: 'full' } })).toBe('ok');
    });

    it.each<[unknown, number]>([
      [0, 2],
      [-1, 2],
      ['x', 2],
    ])('should refuse %p as its value', async (value, code) => {
      const error = await rejection(admin().command({ setParameter: 1, [PARAMETER]: value }));
      expect(error.code).toBe(code);
    });
  });

  /**
   * libs/densify_in_js.js, the model mongod's full_range.js and
   * explicit_range.js compare with: a full range is the explicit range from
   * the least value to the greatest; an explicit range generates, before
   * each document, every step (counted from the lower bound) past the last
   * value seen and inside the bounds, and after the last document the steps
   * left below the upper bound.
   */
  function densifyInJs(values: (number | null)[], step: number, bounds: 'full' | [number, number]): (number | null)[] {
    const present = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
    const nulls = values.filter((v) => v === null);
    if (bounds === 'full') {
      if (present.length === 0) return nulls;
      return densifyInJs(values, step, [present[0]!, present[present.length - 1]!]);
    }
    const [lower, upper] = bounds;
    const nextStep = (value: number): number => {
      let next = lower;
      while (next <= value) next += step;
      return next;
    };
    const stream: (number | null)[] = [...nulls];
    let current = present.length > 0 ? Math.min(present[0]!, lower - step) : lower - step;
    for (const value of present) {
      for (let v = nextStep(current); v < value; v += step) if (v >= lower && v < upper) stream.push(v);
      stream.push(value);
      current = value;
    }
    const last = present.length > 0 ? present[present.length - 1]! : lower - step;
    if (last < upper) for (let v = nextStep(current); v < upper; v += step) stream.push(v);
    return stream;
  }

  it('should densify as mongod’s JavaScript model does, over random values, steps and ranges', async () => {
    const coll = await fx.fresh('densify_model');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.integer({ min: -30, max: 30 }), { freq: 8 }), { maxLength: 12 }),
        fc.constantFrom(1, 2, 3, 4, 5, 7),
        fc.oneof(
          fc.constant('full' as const),
          // mongod's model generates nothing for equal bounds, where mongod's code generates the lower bound.
          fc
            .tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 1, max: 40 }))
            .map(([lower, width]): [number, number] => [lower, lower + width]),
        ),
        async (values, step, bounds) => {
          await coll.deleteMany({});
          if (values.length > 0) await coll.insertMany(values.map((val) => (val === null ? {} : { val })));
          const results = await coll
            .aggregate([{ $project: { _id: 0 } }, { $densify: { field: 'val', range: { step, bounds } } }])
            .toArray();
          const got = results.map((doc) => (doc.val === undefined ? null : (doc.val as number)));
          const expected = densifyInJs(values, step, bounds);
          expect([...got].sort(compareNullable)).toEqual([...expected].sort(compareNullable));
          // The stream mongod emits is sorted by the field (missing values first).
          expect(got).toEqual([...got].sort(compareNullable));
        },
      ),
      { numRuns: 60 },
    );
  });
});

function compareNullable(a: number | null, b: number | null): number {
  if (a === null) return b === null ? 0 : -1;
  return b === null ? 1 : a - b;
}
