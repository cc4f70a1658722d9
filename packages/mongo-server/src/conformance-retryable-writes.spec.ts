/**
 * Retryable writes: a write the driver sends again with the same `txnNumber`
 * (after a write-concern or network error) is applied once, as MongoDB does,
 * so a retried `$inc` of an order counter leaves no gap. Needs the
 * `failCommand` fail point (MONGO_URL servers need enableTestCommands); without
 * it the suite reports itself skipped, never passed.
 */
import { POLLING_MONITOR, useDriverFixture } from './conformance.fixture.js';
import { supportsFailPoints } from './supports-fail-points.js';

// The injected ShutdownInProgress marks the server Unknown: see POLLING_MONITOR.
const fixture = useDriverFixture({ client: POLLING_MONITOR });

// Probed once up front so that `describe.skip` can be chosen (the embedded server always has it).
const failPoints = await supportsFailPoints();

(failPoints ? describe : describe.skip)('retryable writes', () => {
  afterEach(async () => {
    await fixture.client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  });

  async function failOnce(command: string) {
    await fixture.client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: [command], writeConcernError: { code: 91, errmsg: 'Replication is being shut down' } },
    });
  }

  it('should apply a retried findAndModify $inc once and answer the retry with the first result', async () => {
    const counters = await fixture.fresh('counters');
    await counters.insertOne({ _id: 'orders', seq: 41 } as never);
    await failOnce('findAndModify');
    const after = await counters.findOneAndUpdate(
      { _id: 'orders' } as never,
      { $inc: { seq: 1 } },
      { returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 'orders', seq: 42 });
    expect(await counters.findOne({ _id: 'orders' } as never)).toEqual({ _id: 'orders', seq: 42 });
  });

  it('should apply a retried update and insert once', async () => {
    const things = await fixture.fresh('things');
    await failOnce('insert');
    await things.insertOne({ _id: 1, n: 0 } as never);
    await failOnce('update');
    const result = await things.updateOne({ _id: 1 } as never, { $inc: { n: 1 } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 1]);
    expect(await things.find({}).toArray()).toEqual([{ _id: 1, n: 1 }]);
  });
});
