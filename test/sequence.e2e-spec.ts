import 'reflect-metadata';
import { Controller, Get, Module, Post, type INestApplication } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Test } from '@nestjs/testing';
import type { Connection } from 'mongoose';
import request from 'supertest';
import {
  SequenceConfigError,
  SequenceFormatError,
  SequenceModule,
  type SequenceModuleOptions,
  SequenceService,
} from '../src/sequence/index.js';
import { startTestMongo, type TestMongo } from 'nestjs-objectid-mongo-server';

@Controller('orders')
class OrdersController {
  constructor(private readonly sequences: SequenceService) {}

  @Post()
  async create() {
    return { number: await this.sequences.nextFormatted('orders') };
  }

  @Get('current')
  async current() {
    return { current: await this.sequences.current('orders') };
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('SequenceService in Nest applications', () => {
  let mongo: TestMongo;
  const apps: INestApplication[] = [];
  let suffix = 0;

  beforeAll(async () => {
    mongo = await startTestMongo({ transactions: true });
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await mongo?.stop();
  });

  /** One application instance with its own mongoose connection, like one process of a deployment. */
  async function instance(options: SequenceModuleOptions): Promise<INestApplication> {
    const moduleRef = await Test.createTestingModule({
      imports: [
        MongooseModule.forRoot(mongo.uri, { dbName: mongo.dbName, monitorCommands: true }),
        SequenceModule.forRoot(options),
      ],
      controllers: [OrdersController],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    return app;
  }

  /** `count` instances sharing one fresh counters collection. */
  async function fleet(count: number, options: SequenceModuleOptions = {}) {
    const collectionName = `counters_e2e_${process.pid}_${Date.now()}_${++suffix}`;
    const instances = await Promise.all(range(1, count).map(() => instance({ collectionName, ...options })));
    return { instances, services: instances.map((app) => app.get(SequenceService)), collectionName };
  }

  function countFindAndModify(app: INestApplication): () => number {
    let count = 0;
    app
      .get<Connection>(getConnectionToken())
      .getClient()
      .on('commandStarted', (event) => {
        if (event.commandName === 'findAndModify') count++;
      });
    return () => count;
  }

  it('should give 1,000 concurrent next() calls from 4 instances exactly 1..1000', async () => {
    const { services } = await fleet(4);
    const values = await Promise.all(range(0, 999).map((i) => services[i % 4].next('orders')));
    expect([...values].sort((a, b) => a - b)).toEqual(range(1, 1000));
    expect(await services[0].current('orders')).toBe(1000);
  });

  it('should give 10,000 cached ids from 4 instances, unique, in one command per block', async () => {
    const { instances, services } = await fleet(4, { definitions: { ids: { cache: 100 } } });
    const counters = instances.map(countFindAndModify);
    const values = await Promise.all(range(0, 9999).map((i) => services[i % 4].next('ids')));
    expect(new Set(values).size).toBe(10_000);
    // Each instance took 2,500 ids = 25 full blocks, so nothing was over-reserved.
    expect([...values].sort((a, b) => a - b)).toEqual(range(1, 10_000));
    expect(counters.map((count) => count())).toEqual([25, 25, 25, 25]);
  });

  it('should number HTTP requests with the formatted sequence', async () => {
    const clock = () => new Date('2026-03-05T12:00:00Z');
    const [app] = (
      await fleet(1, { clock, definitions: { orders: { format: 'ORD-{YYYY}-{seq:6}', resetEvery: 'year' } } })
    ).instances;
    await request(app.getHttpServer()).post('/orders').expect(201, { number: 'ORD-2026-000001' });
    await request(app.getHttpServer()).post('/orders').expect(201, { number: 'ORD-2026-000002' });
    await request(app.getHttpServer()).get('/orders/current').expect(200, { current: 2 });
  });

  it('should answer 503 when the database cannot be reached', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        // Port 9 on localhost: nothing listens. lazyConnection lets the app start without it;
        // without buffering, mongoose fails the command at once instead of after 10 s.
        MongooseModule.forRoot('mongodb://127.0.0.1:9/x', {
          lazyConnection: true,
          bufferCommands: false,
          serverSelectionTimeoutMS: 200,
          connectionFactory: (connection: Connection) => connection.on('error', () => undefined),
        }),
        SequenceModule.forRoot({}),
      ],
      controllers: [OrdersController],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    const response = await request(app.getHttpServer()).post('/orders').expect(503);
    expect(response.body).toEqual({
      statusCode: 503,
      message: 'Sequence "orders" is unavailable: the counters collection cannot be reached. Try again later.',
      error: 'Service Unavailable',
    });
  });

  it('should use a named connection given through an async options factory', async () => {
    const billingDb = `${mongo.dbName}_billing`;
    const moduleRef = await Test.createTestingModule({
      imports: [
        MongooseModule.forRoot(mongo.uri, { dbName: mongo.dbName }),
        MongooseModule.forRoot(mongo.uri, { dbName: billingDb, connectionName: 'billing' }),
        SequenceModule.forRootAsync({
          useFactory: async () => ({ connectionName: 'billing', collectionName: 'billing_counters' }),
        }),
      ],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    const billing = app.get<Connection>(getConnectionToken('billing'));
    const main = app.get<Connection>(getConnectionToken());
    try {
      expect(await app.get(SequenceService).next('invoices', { scope: 'tenant-42' })).toBe(1);
      expect(await billing.collection('billing_counters').find({}).toArray()).toEqual([
        { _id: 'invoices:tenant-42', seq: 1, base: 0 },
      ]);
      expect(await main.collection('billing_counters').countDocuments()).toBe(0);
    } finally {
      await billing.dropDatabase();
    }
  });

  it.each([
    ['imports: [SequenceModule]', () => SequenceModule],
    ['SequenceModule.forRoot()', () => SequenceModule.forRoot()],
    ['SequenceModule.forRootAsync({ useFactory })', () => SequenceModule.forRootAsync({ useFactory: () => ({}) })],
  ])('should give every feature module the same SequenceService with %s', async (_name, module) => {
    @Module({ controllers: [OrdersController] })
    class OrdersFeature {}
    @Module({ controllers: [OrdersController] })
    class BillingFeature {}
    const moduleRef = await Test.createTestingModule({
      imports: [MongooseModule.forRoot(mongo.uri, { dbName: mongo.dbName }), module(), OrdersFeature, BillingFeature],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    const fromOrders = moduleRef.select(OrdersFeature).get(OrdersController, { strict: true });
    const fromBilling = moduleRef.select(BillingFeature).get(OrdersController, { strict: true });
    const services = [fromOrders, fromBilling].map((c) => (c as unknown as { sequences: SequenceService }).sequences);
    expect(services[0]).toBeInstanceOf(SequenceService);
    expect(services[0]).toBe(services[1]);
    expect(services[0]).toBe(app.get(SequenceService));
  });

  it('should start without a mongoose connection and explain what is missing on first use', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [SequenceModule.forRoot({})] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    const failed = app.get(SequenceService).next('orders');
    await expect(failed).rejects.toBeInstanceOf(SequenceConfigError);
    await expect(failed).rejects.toThrow(
      'SequenceService needs a mongoose connection: import MongooseModule.forRoot(uri) in your application module',
    );
  });

  it('should fail at startup on an invalid format, naming the token and its position', async () => {
    const compiling = Test.createTestingModule({
      imports: [SequenceModule.forRoot({ definitions: { orders: { format: 'ORD-{YYYY}-{seq:x}' } } })],
    }).compile();
    await expect(compiling).rejects.toBeInstanceOf(SequenceFormatError);
    await expect(compiling).rejects.toThrow(
      /Sequence "orders": .*"\{seq:x\}" must be an integer from 1 to 32 at index 11/,
    );
  });
});
