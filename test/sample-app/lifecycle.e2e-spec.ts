import 'reflect-metadata';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { EmbeddedMongoServer } from 'nestjs-objectid-mongo-server';
import request from 'supertest';
import { createCatalogApp } from '../../sample-app/create-catalog-app.js';

/**
 * The order of the app's own shutdown. How `npm start` runs it (serving, logging
 * what it runs on, stopping on a signal, failing to start) is proven on processes
 * of its own by start-script.e2e-spec.ts.
 */
describe('catalog lifecycle', () => {
  describe('app.close()', () => {
    it('should close HTTP, then the mongoose connection, then run onShutdown', async () => {
      const server = await EmbeddedMongoServer.start();
      const order: string[] = [];
      const app = await createCatalogApp({
        mongoUri: server.uri,
        logger: false,
        onShutdown: async () => {
          order.push(`onShutdown (connection readyState ${connection.readyState})`);
          await server.stop();
        },
      });
      const connection = app.get<Connection>(getConnectionToken());
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      await request(url).get('/health').expect(200);
      connection.on('close', () => order.push('connection closed'));

      await app.close();
      expect(order).toEqual(['connection closed', 'onShutdown (connection readyState 0)']);
      expect(server.listening).toBe(false);
      await expect(request(url).get('/health')).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});
