import 'reflect-metadata';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { getConnectionToken, InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Test } from '@nestjs/testing';
import mongoose, { Schema as MongooseSchema, Types, type Connection, type Model } from 'mongoose';
import {
  applySequenceFields,
  SequenceConfigError,
  SequenceField,
  SequenceModule,
  type SequenceModuleOptions,
  sequencePlugin,
  type SequencePluginOptions,
  SequenceService,
} from '../src/sequence/index.js';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const clock = () => new Date('2026-03-05T12:00:00Z');

describe('sequencePlugin: numbers assigned on save', () => {
  let mongo: TestMongo;
  let connection: Connection;
  let findAndModify = 0;
  let suffix = 0;

  beforeAll(async () => {
    mongo = await startTestMongo({ transactions: true });
    connection = await mongoose
      .createConnection(mongo.uri, { dbName: mongo.dbName, monitorCommands: true })
      .asPromise();
    connection.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'findAndModify') findAndModify++;
    });
  });

  afterAll(async () => {
    await connection?.close();
    await mongo?.stop();
  });

  const unique = (what: string) => `${what}_${process.pid}_${Date.now()}_${++suffix}`;

  /** A service on a fresh counters collection, so no test sees another's counters. */
  function service(options: SequenceModuleOptions = {}) {
    const collectionName = unique('counters');
    const sequences = SequenceService.fromConnection(connection, { collectionName, clock, ...options });
    return { sequences, counters: () => connection.collection(collectionName) };
  }

  /** A model on a fresh collection whose schema has the plugin. */
  async function model(
    definition: Record<string, unknown>,
    options: Omit<SequencePluginOptions, 'sequences'>,
    sequences: SequenceService,
  ): Promise<Model<Record<string, unknown>>> {
    const schema = new MongooseSchema(definition);
    schema.plugin(sequencePlugin, { sequences, ...options });
    const name = unique('Doc');
    const m = connection.model<Record<string, unknown>>(name, schema, name.toLowerCase());
    await m.init();
    return m;
  }

  const orderShape = { number: { type: Number, required: true, unique: true }, label: String };

  describe('save, create and insertMany', () => {
    it('should number documents on save, and leave them alone on later saves', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const first = await new Order({ label: 'a' }).save();
      const second = await new Order({ label: 'b' }).save();
      expect([first.get('number'), second.get('number')]).toEqual([1, 2]);
      first.set('label', 'changed');
      await first.save();
      expect(first.get('number')).toBe(1);
      expect(await sequences.current('orders')).toBe(2);
    });

    it('should fill a required field (the number is taken before validation)', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      await expect(Order.create({ label: 'a' })).resolves.toMatchObject({ number: 1 });
    });

    it('should number a save that skips validation', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const doc = await new Order({ label: 'a' }).save({ validateBeforeSave: false });
      expect(doc.get('number')).toBe(1);
    });

    it('should give Model.create() of several documents consecutive numbers in one round trip', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const before = findAndModify;
      const docs = await Order.create([{ label: 'a' }, { label: 'b' }, { label: 'c' }]);
      expect(findAndModify - before).toBe(1);
      expect(docs.map((d) => d.get('number'))).toEqual([1, 2, 3]);
    });

    it('should give insertMany() of 200 documents 1..200 in array order with one counter round trip', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const before = findAndModify;
      const docs = await Order.insertMany(range(1, 200).map((i) => ({ label: `n${i}` })));
      expect(findAndModify - before).toBe(1);
      expect(docs.map((d) => [d.get('label'), d.get('number')])).toEqual(range(1, 200).map((i) => [`n${i}`, i]));
      expect(await Order.countDocuments({ number: { $gte: 1, $lte: 200 } })).toBe(200);
    });

    it('should give 100 parallel creates 100 distinct numbers', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const docs = await Promise.all(range(1, 100).map((i) => Order.create({ label: `n${i}` })));
      expect(docs.map((d) => d.get('number') as number).sort((a, b) => a - b)).toEqual(range(1, 100));
    });

    it('should give parallel creates from two services (two processes) distinct numbers', async () => {
      const collectionName = unique('shared');
      const a = SequenceService.fromConnection(connection, { collectionName });
      const b = SequenceService.fromConnection(connection, { collectionName });
      const A = await model(orderShape, { field: 'number', sequence: 'orders' }, a);
      const B = await model(orderShape, { field: 'number', sequence: 'orders' }, b);
      const docs = await Promise.all(range(1, 60).map((i) => (i % 2 ? A : B).create({ label: `n${i}` })));
      expect(docs.map((d) => d.get('number') as number).sort((x, y) => x - y)).toEqual(range(1, 60));
    });
  });

  describe('formats and _id', () => {
    it('should fill a String field with the formatted number', async () => {
      const { sequences } = service({
        definitions: { orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } },
      });
      const Order = await model(
        { number: { type: String, required: true }, label: String },
        { field: 'number', sequence: 'orders' },
        sequences,
      );
      const one = await Order.create({ label: 'a' });
      const batch = await Order.insertMany([{ label: 'b' }, { label: 'c' }]);
      expect([one, ...batch].map((d) => d.get('number'))).toEqual([
        'ORD-2026-000001',
        'ORD-2026-000002',
        'ORD-2026-000003',
      ]);
    });

    it('should render the scope of several fields in {scope}', async () => {
      const { sequences } = service({ definitions: { orders: { format: 'ORD-{scope}-{seq:3}' } } });
      const Order = await model(
        { number: String, storeId: Number, region: String },
        { field: 'number', sequence: 'orders', scope: ['storeId', 'region'] },
        sequences,
      );
      const doc = await Order.create({ storeId: 7, region: 'eu' });
      expect(doc.get('number')).toBe('ORD-region=eu,storeId=7-001');
    });

    it('should number _id (Number) on save and insertMany', async () => {
      const { sequences } = service();
      const Thing = await model({ _id: Number, label: String }, { field: '_id', sequence: 'things' }, sequences);
      const saved = await new Thing({ label: 'a' }).save();
      const many = await Thing.insertMany([{ label: 'b' }, { label: 'c' }]);
      expect([saved, ...many].map((d) => d._id)).toEqual([1, 2, 3]);
      expect((await Thing.find().sort({ _id: 1 }).lean()).map((d) => d._id)).toEqual([1, 2, 3]);
    });

    it('should number _id (String) with a format', async () => {
      const { sequences } = service({ definitions: { invoices: { format: 'INV-{seq:4}' } } });
      const Invoice = await model({ _id: String }, { field: '_id', sequence: 'invoices' }, sequences);
      expect((await Invoice.create({}))._id).toBe('INV-0001');
    });
  });

  describe('skipping', () => {
    it('should keep a value that is already set and take no number for it', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const imported = await Order.create({ number: 500, label: 'imported' });
      const batch = await Order.insertMany([{ number: 501 }, { label: 'new' }]);
      expect(imported.get('number')).toBe(500);
      expect(batch.map((d) => d.get('number'))).toEqual([501, 1]);
      expect(await sequences.current('orders')).toBe(1);
    });

    it('should skip the documents the skip option names', async () => {
      const { sequences } = service();
      const Order = await model(
        { number: Number, label: String },
        { field: 'number', sequence: 'orders', skip: (doc) => doc.$locals.draft === true },
        sequences,
      );
      const draft = new Order({ label: 'draft' });
      draft.$locals.draft = true;
      await draft.save();
      const real = await Order.create({ label: 'real' });
      expect(draft.get('number')).toBeUndefined();
      expect(real.get('number')).toBe(1);
    });
  });

  describe('transactions', () => {
    it('should take the number in the document session: an aborted transaction gives it back', async () => {
      const { sequences, counters } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      const session = await connection.startSession();
      try {
        session.startTransaction();
        const [inside] = await Order.create([{ label: 'aborted' }], { session });
        expect(inside.get('number')).toBe(1);
        const [other] = await Order.insertMany([{ label: 'aborted too' }], { session });
        expect(other.get('number')).toBe(2);
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      // The in-session $inc was rolled back with the transaction: the counter never existed.
      expect(await counters().countDocuments()).toBe(0);
      expect(await Order.countDocuments()).toBe(0);
      expect((await Order.create({ label: 'after' })).get('number')).toBe(1);
    });

    it('should keep the number of a committed transaction', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders' }, sequences);
      await connection.transaction(async (session) => {
        await Order.create([{ label: 'committed' }], { session });
      });
      expect((await Order.create({ label: 'after' })).get('number')).toBe(2);
    });

    it('should take the number outside the transaction with useSession: false (a gap after an abort)', async () => {
      const { sequences } = service();
      const Order = await model(orderShape, { field: 'number', sequence: 'orders', useSession: false }, sequences);
      const session = await connection.startSession();
      try {
        session.startTransaction();
        await Order.create([{ label: 'aborted' }], { session });
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      expect((await Order.create({ label: 'after' })).get('number')).toBe(2);
    });
  });

  describe('scopes of several fields', () => {
    it('should keep one counter per combination of the scope paths', async () => {
      const { sequences } = service();
      const storeA = new Types.ObjectId();
      const Order = await model(
        { number: Number, storeId: MongooseSchema.Types.ObjectId, region: String },
        { field: 'number', sequence: 'orders', scope: ['storeId', 'region'] },
        sequences,
      );
      const docs = await Order.insertMany([
        { storeId: storeA, region: 'eu' },
        { storeId: storeA, region: 'us' },
        { storeId: storeA, region: 'eu' },
      ]);
      const later = await Order.create({ storeId: storeA, region: 'eu' });
      expect([...docs, later].map((d) => d.get('number'))).toEqual([1, 1, 2, 3]);
      expect(await sequences.current('orders', { scope: { region: 'eu', storeId: storeA } })).toBe(3);
      expect(sequences.keyOf('orders', { scope: { storeId: storeA, region: 'us' } })).toBe(
        `orders:region=us,storeId=${storeA.toHexString()}`,
      );
    });

    it('should accept a scope of several fields longer than one value may be (up to 240 characters)', async () => {
      const { sequences } = service();
      const Doc = await model(
        { number: Number, a: String, b: String },
        { field: 'number', sequence: 'long', scope: ['a', 'b'] },
        sequences,
      );
      const docs = await Doc.insertMany([
        { a: 'x'.repeat(100), b: 'y'.repeat(100) },
        { a: 'x'.repeat(100), b: 'y' },
      ]);
      expect(docs.map((d) => d.get('number'))).toEqual([1, 1]);
      expect(sequences.keyOf('long', { scope: { b: 'y'.repeat(100), a: 'x'.repeat(100) } })).toHaveLength(210);
    });

    it('should fail the save of a document whose scope path is empty, with a message saying which', async () => {
      const { sequences } = service();
      const Order = await model(
        { number: Number, tenantId: String },
        { field: 'number', sequence: 'orders', scope: 'tenantId' },
        sequences,
      );
      await expect(Order.create({})).rejects.toThrow('the document has no value at "tenantId"');
      await expect(Order.create({ tenantId: 'a$b' })).rejects.toThrow(SequenceConfigError);
      expect(await Order.countDocuments()).toBe(0);
    });

    it('should give the same counter whatever the order of the fields', async () => {
      const { sequences } = service();
      const a = await sequences.next('orders', { scope: { storeId: 7, region: 'eu' } });
      const b = await sequences.next('orders', { scope: { region: 'eu', storeId: '7' } });
      expect([a, b]).toEqual([1, 2]);
      expect(sequences.keyOf('orders', { scope: { storeId: 7n, region: 'eu' } })).toBe('orders:region=eu,storeId=7');
    });

    const getter = Object.defineProperty({}, 'storeId', { get: () => 'x', enumerable: true });
    it.each([
      ['an operator object as value', { storeId: { $gt: '' } }, 'query operators and nested objects'],
      ['an operator as field name', { $where: 'x' }, 'field "$where" is not allowed'],
      ['__proto__ as an own field', JSON.parse('{"__proto__": "x"}'), 'field "__proto__" is not allowed'],
      ['constructor as field', { constructor: 'x' }, 'field "constructor" is not allowed'],
      ['a dotted field', { 'store.id': 'x' }, 'field "store.id" is not allowed'],
      ['a "$" in a value', { storeId: '$gt' }, 'contains "$" at index 0'],
      ['a "," in a value', { storeId: 'a,region=eu' }, 'contains "," at index 1'],
      ['a "=" in a value', { storeId: 'a=b' }, 'contains "=" at index 1'],
      ['an empty value', { storeId: '' }, 'must not be empty'],
      ['a boolean value', { storeId: true }, 'got boolean'],
      ['a null value', { storeId: null }, 'got null'],
      ['a fractional number', { storeId: 1.5 }, 'must be a safe integer'],
      ['an array value', { storeId: ['a'] }, 'got an object'],
      ['a Date value', { storeId: new Date(0) }, 'got an object'],
      ['an empty object', {}, 'must have 1 to 8 fields, got 0'],
      ['nine fields', Object.fromEntries(range(1, 9).map((i) => [`f${i}`, i])), 'got 9'],
      ['a getter', getter, 'must be a plain value, not an accessor'],
      ['a symbol key', { [Symbol('x')]: 'x' }, 'field Symbol(x) is not allowed'],
      ['an array scope', ['a', 'b'], 'got Array'],
      ['a Map scope', new Map([['a', 1]]), 'got Map'],
      ['a value too long', { a: 'x'.repeat(121) }, 'the limit is 120'],
      ['a scope too long', Object.fromEntries(range(1, 3).map((i) => [`f${i}`, 'x'.repeat(100)])), 'the limit is 240'],
    ])('should refuse %s, writing nothing', async (_, scope, message) => {
      const { sequences, counters } = service();
      const call = () => sequences.next('orders', { scope: scope as never });
      await expect(call()).rejects.toThrow(SequenceConfigError);
      await expect(call()).rejects.toThrow(message);
      expect(await counters().countDocuments()).toBe(0);
    });
  });

  describe('resetAll', () => {
    it('should delete every scope and period of one sequence and nothing else', async () => {
      const { sequences, counters } = service({ definitions: { daily: { resetEvery: 'day' } } });
      await sequences.next('orders');
      await sequences.next('orders', { scope: 'tenant-1' });
      await sequences.next('orders', { scope: { storeId: 1, region: 'eu' } });
      await sequences.next('daily', { scope: 'x' });
      await sequences.next('orders2');
      await sequences.next('orders-x');
      await sequences.next('order');
      expect(await sequences.resetAll('orders')).toBe(3);
      expect((await counters().find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([
        'daily:x:2026-03-05',
        'order',
        'orders-x',
        'orders2',
      ]);
      expect(await sequences.next('orders', { scope: 'tenant-1' })).toBe(1);
      expect(await sequences.resetAll('daily')).toBe(1);
      expect(await sequences.resetAll('nothing')).toBe(0);
    });

    it('should drop the blocks the cached allocator holds for the sequence', async () => {
      const { sequences } = service({ definitions: { ids: { cache: 10 } } });
      expect([await sequences.next('ids'), await sequences.next('ids')]).toEqual([1, 2]);
      await sequences.resetAll('ids');
      expect(await sequences.next('ids')).toBe(1);
    });

    it('should run in a transaction and be undone by its abort', async () => {
      const { sequences } = service();
      await sequences.next('orders', { scope: 'a' });
      const session = await connection.startSession();
      try {
        session.startTransaction();
        expect(await sequences.resetAll('orders', { session })).toBe(1);
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
      expect(await sequences.next('orders', { scope: 'a' })).toBe(2);
    });

    it('should refuse a bad name or an unknown option before writing', async () => {
      const { sequences } = service();
      await expect(sequences.resetAll('a:b')).rejects.toThrow('contains ":" at index 1');
      await expect(sequences.resetAll('orders', { scope: 'x' } as never)).rejects.toThrow(
        'unknown call option "scope"',
      );
    });

    it('should say what to add when the store cannot delete a whole sequence', async () => {
      const unused = () => Promise.reject(new Error('not called'));
      const store = { increment: unused, get: unused, compareAndSet: unused, set: unused, delete: unused };
      const sequences = new SequenceService({}, undefined, store);
      await expect(sequences.resetAll('orders')).rejects.toThrow('needs a counter store with deleteAll(name, session)');
    });
  });

  describe('peek', () => {
    it('should show the next number without taking it', async () => {
      const { sequences, counters } = service({
        definitions: { orders: { start: 1000, step: 10, format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } },
      });
      expect(await sequences.peek('orders')).toBe(1000);
      expect(await sequences.peekFormatted('orders')).toBe('ORD-2026-001000');
      expect(await counters().countDocuments()).toBe(0);
      expect(await sequences.next('orders')).toBe(1000);
      expect(await sequences.peek('orders')).toBe(1010);
      expect(await sequences.peek('orders')).toBe(1010);
      expect(await sequences.next('orders')).toBe(1010);
      expect(await sequences.peek('orders', { scope: { region: 'eu', storeId: 1 } })).toBe(1000);
    });

    it('should show the next number of the cached block of this process', async () => {
      const { sequences } = service({ definitions: { ids: { cache: 10 } } });
      expect(await sequences.peek('ids')).toBe(1);
      expect(await sequences.next('ids')).toBe(1);
      expect(await sequences.peek('ids')).toBe(2);
      expect(await sequences.current('ids')).toBe(10);
    });
  });

  describe('plugin options', () => {
    const sequences = new SequenceService({}, undefined, {} as never);
    it.each([
      ['a missing path', { number: Number }, { field: 'missing' }, 'the schema has no path "missing"'],
      ['a Date path', { number: Date }, { field: 'number' }, 'path "number" is Date'],
      ['the default ObjectId _id', {}, { field: '_id', sequence: 'x' }, 'declare _id: Number or _id: String'],
      ['_id without a sequence name', { _id: Number }, { field: '_id' }, 'numbering _id needs a sequence name'],
      ['an unknown scope path', { number: Number }, { field: 'number', scope: 'nope' }, 'scope path "nope" is not'],
      ['an empty scope list', { number: Number }, { field: 'number', scope: [] }, 'scope must be a path'],
      ['a skip that is no function', { number: Number }, { field: 'number', skip: true }, 'skip must be a function'],
      ['a non-boolean formatted', { number: Number }, { field: 'number', formatted: 'yes' }, 'formatted must be true'],
    ])('should refuse %s at once', (_, shape, options, message) => {
      const schema = new MongooseSchema(shape);
      expect(() => schema.plugin(sequencePlugin, { sequences, ...(options as object) } as never)).toThrow(message);
    });

    it('should refuse a missing service', () => {
      expect(() => new MongooseSchema({ number: Number }).plugin(sequencePlugin, { field: 'number' } as never)).toThrow(
        'sequences must be the SequenceService',
      );
    });

    it('should resolve a lazy service at the first save', async () => {
      const { sequences: lazy } = service();
      const holder: { service?: SequenceService } = {};
      const Order = await model({ number: Number }, { field: 'number' }, (() => holder.service!) as never);
      holder.service = lazy;
      expect((await Order.create({})).get('number')).toBe(1);
      expect(await lazy.current('number')).toBe(1);
    });
  });
});

@Schema()
class NumberedOrder {
  @SequenceField({ sequence: 'orders', scope: ['storeId', 'region'] })
  @Prop({ required: true })
  number!: string;

  @Prop({ required: true })
  storeId!: number;

  @Prop({ required: true })
  region!: string;
}

@Injectable()
class NumberedOrdersService {
  constructor(@InjectModel(NumberedOrder.name) readonly orders: Model<NumberedOrder>) {}
}

describe('SequenceField with @nestjs/mongoose', () => {
  let mongo: TestMongo;
  let app: INestApplication;

  beforeAll(async () => {
    mongo = await startTestMongo({ transactions: true });
  });

  afterEach(async () => {
    await app?.close();
  });

  afterAll(async () => {
    await mongo?.stop();
  });

  async function start(): Promise<INestApplication> {
    @Module({
      imports: [
        MongooseModule.forFeatureAsync([
          {
            name: NumberedOrder.name,
            inject: [SequenceService],
            useFactory: (sequences: SequenceService) =>
              applySequenceFields(SchemaFactory.createForClass(NumberedOrder), NumberedOrder, sequences),
          },
        ]),
      ],
      providers: [NumberedOrdersService],
    })
    class OrdersModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [
        MongooseModule.forRoot(mongo.uri, { dbName: mongo.dbName }),
        SequenceModule.forRoot({
          collectionName: `counters_nest_${process.pid}_${Date.now()}`,
          clock,
          definitions: { orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } },
        }),
        OrdersModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    return app;
  }

  it('should number documents of a SchemaFactory schema from the injected SequenceService', async () => {
    await start();
    const { orders } = app.get(NumberedOrdersService);
    await app
      .get<Connection>(getConnectionToken())
      .db!.dropCollection('numberedorders')
      .catch(() => undefined);
    const one = await orders.create({ storeId: 1, region: 'eu' });
    const many = await orders.insertMany([
      { storeId: 1, region: 'eu' },
      { storeId: 2, region: 'eu' },
    ]);
    expect([one, ...many].map((d) => d.number)).toEqual(['ORD-2026-000001', 'ORD-2026-000002', 'ORD-2026-000001']);
    expect(await app.get(SequenceService).current('orders', { scope: { storeId: 1, region: 'eu' } })).toBe(2);
  });

  it('should say how to fix a class without @SequenceField()', () => {
    class Plain {}
    expect(() => applySequenceFields(new MongooseSchema({}), Plain, {} as never)).toThrow(
      'Plain has no @SequenceField() property',
    );
  });
});
