import 'reflect-metadata';
import { CATALOG_PLATFORMS, HEX_ID, startCatalog, type CatalogTestApp } from './catalog-test-app.js';

describe.each(CATALOG_PLATFORMS)('catalog object-id tools on %s', (platform) => {
  let catalog: CatalogTestApp;

  beforeAll(async () => {
    catalog = await startCatalog(platform);
  });
  afterAll(() => catalog?.close());

  describe('GET /object-ids/generate', () => {
    it('should generate one id by default', async () => {
      const res = await catalog.http().get('/object-ids/generate').expect(200);
      expect(res.body).toEqual({ ids: [expect.stringMatching(HEX_ID)] });
    });

    it('should generate ids with one process-unique part and consecutive counters', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { ids } = (await catalog.http().get('/object-ids/generate?count=100').expect(200)).body as {
        ids: string[];
      };
      expect(ids).toHaveLength(100);
      expect(new Set(ids.map((id) => id.slice(8, 18))).size).toBe(1);
      const counters = ids.map((id) => parseInt(id.slice(18), 16));
      counters.forEach((counter, i) => expect(counter).toBe((counters[0]! + i) % 0x1000000));
      for (const id of ids) {
        expect(id).toMatch(HEX_ID);
        expect(parseInt(id.slice(0, 8), 16)).toBeGreaterThanOrEqual(before);
      }
    });

    it.each([
      ['0', '0 is out of range'],
      ['101', '101 is out of range'],
      ['abc', '"abc" must be written in digits 0-9 only, e.g. 1'],
      ['1e2', '"1e2" must be written in digits 0-9 only, e.g. 1'],
      ['-3', '"-3" must be written in digits 0-9 only, e.g. 1'],
    ])('should answer 400 for count=%s', async (count, detail) => {
      await catalog
        .http()
        .get(`/object-ids/generate?count=${count}`)
        .expect(400, {
          statusCode: 400,
          message: `Validation failed (integer from 1 to 100 is expected): count ${detail}`,
          error: 'Bad Request',
        });
    });
  });

  describe('GET /object-ids/:id/decode', () => {
    it.each(['507f1f77bcf86cd799439011', '507F1F77BCF86CD799439011'])('should take %s apart', async (id) => {
      await catalog.http().get(`/object-ids/${id}/decode`).expect(200, {
        hex: '507f1f77bcf86cd799439011',
        timestamp: 1350508407,
        date: '2012-10-17T21:13:27.000Z',
        processUnique: 'bcf86cd799',
        counter: 4427793,
      });
    });

    it.each([
      ['xyz', '"xyz" is 3 characters long, expected 24 hex characters'],
      [
        '507f1f77bcf86cd79943901g',
        '"507f1f77bcf86cd79943901g" has a non-hex character "g" at position 23, expected 24 hex characters (0-9, a-f)',
      ],
    ])('should answer 400 for %s', async (id, detail) => {
      await catalog
        .http()
        .get(`/object-ids/${id}/decode`)
        .expect(400, {
          statusCode: 400,
          message: `Validation failed (ObjectId is expected): ${detail}`,
          error: 'Bad Request',
        });
    });
  });
});
