import mongoose, { type Connection } from 'mongoose';
import { startTestMongo, supportsFailPoints } from 'nestjs-objectid-mongo-server';
import { SequenceService } from './sequence.service.js';

/*
 * The duplicate-key race of two first upserts cannot be provoked on demand: MongoDB
 * 4.2+ retries such upserts itself outside transactions, and the embedded server runs
 * commands one at a time. These tests inject the E11000 with the `failCommand` fail
 * point instead (real mongod started with enableTestCommands=1); where the server
 * has no fail points they are reported as skipped, never as passed.
 */
const mongo = await startTestMongo({ transactions: true });
const connection: Connection = await mongoose
  .createConnection(mongo.uri, { dbName: mongo.dbName, monitorCommands: true })
  .asPromise();
const admin = () => connection.getClient().db('admin');
const failPoints = await supportsFailPoints(mongo.uri);

/** Makes the next `times` findAndModify commands fail with E11000, as a lost upsert race does. */
async function failNextFindAndModify(times: number): Promise<void> {
  await admin().command({
    configureFailPoint: 'failCommand',
    mode: { times },
    data: { failCommands: ['findAndModify'], errorCode: 11000 },
  });
}

(failPoints ? describe : describe.skip)('SequenceService duplicate-key retries (failCommand fail point)', () => {
  let findAndModify = 0;
  let suffix = 0;
  const service = (options = {}) =>
    SequenceService.fromConnection(connection, {
      collectionName: `counters_retry_${Date.now()}_${++suffix}`,
      ...options,
    });

  beforeAll(() => {
    connection.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'findAndModify') findAndModify++;
    });
  });

  afterEach(async () => {
    await admin().command({ configureFailPoint: 'failCommand', mode: 'off' });
  });

  it('should repeat the upsert after a duplicate-key error outside a transaction', async () => {
    const seq = service();
    await failNextFindAndModify(2);
    findAndModify = 0;
    expect(await seq.next('orders')).toBe(1);
    expect(findAndModify).toBe(3);
  });

  it('should give up after duplicateKeyRetries and surface the E11000', async () => {
    const seq = service({ duplicateKeyRetries: 1 });
    await failNextFindAndModify(2);
    await expect(seq.next('orders')).rejects.toMatchObject({ code: 11000 });
    expect(await seq.next('orders')).toBe(1);
  });

  it('should label it TransientTransactionError inside a transaction, so withTransaction() runs again', async () => {
    const seq = service();
    const session = await connection.startSession();
    let runs = 0;
    let value = 0;
    try {
      await failNextFindAndModify(1);
      await session.withTransaction(async () => {
        runs++;
        value = await seq.next('orders', { session });
      });
    } finally {
      await session.endSession();
    }
    expect({ runs, value }).toEqual({ runs: 2, value: 1 });
  });
});

afterAll(async () => {
  await connection.close();
  await mongo.stop();
});
