import 'reflect-metadata';
import { supportsFailPoints } from 'nestjs-objectid-mongo-server';
import type { OrderNumbering } from '../../sample-app/catalog-options.interface.js';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

/** What the insert of an order meets once: an error the driver does not retry. */
const FAILED_INSERT = {
  configureFailPoint: 'failCommand',
  mode: { times: 1 },
  data: { failCommands: ['insert'], errorCode: 2, errmsg: 'injected by the test' },
};

// The failure is injected with the `failCommand` fail point, which a MONGO_URL server has only with
// enableTestCommands=1: probed up front so that the suite is reported skipped there, never passed.
const failPoints = await supportsFailPoints();
const describeIfFailPoints = failPoints ? describe : describe.skip;

/**
 * `orderNumbers`: in `fast` mode the number is taken by its own `$inc`, so an
 * insert that fails afterwards leaves a gap; in `gap-free` mode both run in one
 * transaction, and the failed order takes no number.
 */
describeIfFailPoints.each(CATALOG_PLATFORMS)('catalog order numbers when an insert fails on %s', (platform) => {
  describe.each<[OrderNumbering, string]>([
    ['fast', 'ORD-2026-000003'],
    ['gap-free', 'ORD-2026-000002'],
  ])('in %s mode', (orderNumbers, next) => {
    let catalog: CatalogTestApp;
    let cup: string;
    const now = new Date('2026-06-15T12:00:00Z');
    const order = () =>
      catalog
        .http()
        .post('/orders')
        .send({ items: [{ productId: cup, quantity: 1 }] });

    beforeAll(async () => {
      catalog = await startCatalog(platform, { clock: () => now, orderNumbers }, { transactions: true });
      const category = (await catalog.http().post('/categories').send({ name: 'Tableware' }).expect(201)).body.id;
      cup = (await catalog.http().post('/products').send({ name: 'Cup', price: 3, categoryId: category }).expect(201))
        .body.id;
    });
    afterAll(() => catalog?.close());

    it(`should give the order after a failed one the number ${next}`, async () => {
      expect((await order().expect(201)).body.number).toBe('ORD-2026-000001');
      await catalog.connection.db!.admin().command(FAILED_INSERT);
      const failed = await order();
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.body).not.toHaveProperty('number');

      expect((await order().expect(201)).body.number).toBe(next);
      expect(await catalog.connection.collection('orders').countDocuments()).toBe(2);
    });
  });
});
