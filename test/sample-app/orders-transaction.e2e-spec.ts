import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';

import { SequenceService } from 'nestjs-objectid/sequence';
import type { Response } from 'supertest';

import { ORDER_SEQUENCE } from '../../sample-app/orders/orders.service.js';
import { CATALOG_PLATFORMS, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

/**
 * POST /orders takes its number with a plain `$inc` on the counter. When
 * another process holds that counter in a transaction (a gap-free number:
 * `nextFormatted(name, { session })`), MongoDB makes the plain `$inc` wait for
 * the commit; the embedded server used to fail it with WriteConflict, which
 * the app answered with 500 (#15).
 */
describe.each(CATALOG_PLATFORMS)('catalog orders beside a transaction on %s', (platform) => {
  let catalog: CatalogTestApp;
  let cup: string;
  const now = new Date('2026-06-15T12:00:00Z');

  const order = (): Promise<Response> =>
    catalog
      .http()
      .post('/orders')
      .send({ items: [{ productId: cup, quantity: 1 }] })
      .then((res) => res);

  beforeAll(async () => {
    catalog = await startCatalog(platform, { clock: () => now }, { transactions: true });
    const category = (await catalog.http().post('/categories').send({ name: 'Tableware' }).expect(201)).body.id;
    cup = (await catalog.http().post('/products').send({ name: 'Cup', price: 3, categoryId: category }).expect(201))
      .body.id;
  });
  afterAll(() => catalog?.close());

  it('should wait for a transaction holding the order counter and then take the next number, not answer 500', async () => {
    expect((await order()).body.number).toBe('ORD-2026-000001');
    const session = await catalog.connection.startSession();
    try {
      session.startTransaction();
      const sequences = catalog.app.get(SequenceService);
      expect(await sequences.nextFormatted(ORDER_SEQUENCE, { session })).toBe('ORD-2026-000002');

      const placed = order();
      const early = await Promise.race([placed.then((res) => res.status), sleep(300).then(() => 'waiting')]);
      expect(early).toBe('waiting');

      await session.commitTransaction();
      const res = await placed;
      expect([res.status, res.body.number]).toEqual([201, 'ORD-2026-000003']);
    } finally {
      await session.endSession();
    }
  });
});
