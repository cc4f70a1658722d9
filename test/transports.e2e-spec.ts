import 'reflect-metadata';
import type { INestApplication, INestMicroservice } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, toArray } from 'rxjs';
import request from 'supertest';
import { PLATFORMS } from './fixtures/create-app.js';
import { orderReply, startOrdersMicroservice, startOrdersWebApp } from './fixtures/orders-transports.js';
import { WsTestClient } from './fixtures/ws-test-client.js';

const HEX_A = '650000000000000000000001';
const HEX_B = '650000000000000000000002';

const ID_EXPECTED = 'Validation failed (ObjectId is expected)';
const ARRAY_EXPECTED = 'Validation failed (ObjectId array is expected)';

/** Payloads each pipe refuses, with the message the client must receive. */
const REFUSED: [label: string, pattern: string, payload: object, message: string][] = [
  [
    'a short id',
    'order.find',
    { id: 'nope' },
    `${ID_EXPECTED}: "nope" is 4 characters long, expected 24 hex characters`,
  ],
  ['a missing id', 'order.find', {}, `${ID_EXPECTED}: no value was given, expected 24 hex characters`],
  [
    'an operator object',
    'order.find',
    { id: { $ne: null } },
    `${ID_EXPECTED}: received an object, expected a string of 24 hex characters`,
  ],
  [
    'an id the validate-only pipe refuses',
    'order.check',
    { id: 'nope' },
    `${ID_EXPECTED}: "nope" is 4 characters long, expected 24 hex characters`,
  ],
  [
    'a list with a bad item',
    'order.many',
    { ids: [HEX_A, 'x'] },
    `${ARRAY_EXPECTED}: item 1 "x" is 1 character long, expected 24 hex characters`,
  ],
];

/** What Nest's RPC and WebSocket filters send for an `RpcException`/`WsException` the interceptor built. */
const refusal = (message: string): object => ({ status: 'error', statusCode: 400, message, error: 'Bad Request' });

describe('ObjectId pipes in a TCP microservice', () => {
  let microservice: INestMicroservice;
  let client: ClientProxy;

  beforeAll(async () => {
    const started = await startOrdersMicroservice();
    microservice = started.microservice;
    client = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port: started.port },
    });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    await microservice?.close();
  });

  const send = (pattern: string, payload: object): Promise<unknown> => firstValueFrom(client.send(pattern, payload));

  describe('when validation passes', () => {
    it('should answer with every ObjectId as hex', async () => {
      expect(await send('order.find', { id: HEX_A })).toEqual(orderReply(HEX_A));
    });

    it('should pass the id on as a string with the validate-only pipe', async () => {
      expect(await send('order.check', { id: HEX_A })).toEqual({ id: HEX_A, type: 'string' });
    });

    it('should answer a list', async () => {
      expect(await send('order.many', { ids: `${HEX_A},${HEX_B}` })).toEqual([orderReply(HEX_A), orderReply(HEX_B)]);
    });

    it('should serialize each message of a streamed reply', async () => {
      const replies = await firstValueFrom(client.send('order.stream', { ids: [HEX_A, HEX_B] }).pipe(toArray()));
      expect(replies).toEqual([orderReply(HEX_A), orderReply(HEX_B)]);
    });
  });

  describe('when validation fails', () => {
    it.each(REFUSED)(
      "should send the pipe's message for %s as an RPC error",
      async (_label, pattern, payload, message) => {
        await expect(send(pattern, payload)).rejects.toEqual(refusal(message));
      },
    );

    it('should keep serving after a refused payload', async () => {
      await expect(send('order.find', { id: 'nope' })).rejects.toMatchObject({ statusCode: 400 });
      expect(await send('order.find', { id: HEX_B })).toEqual(orderReply(HEX_B));
    });
  });
});

describe.each(PLATFORMS)('ObjectId pipes in a WebSocket gateway on %s', (platform) => {
  let app: INestApplication;
  let ws: WsTestClient;

  beforeAll(async () => {
    const started = await startOrdersWebApp(platform);
    app = started.app;
    ws = await WsTestClient.connect(`ws://127.0.0.1:${started.port}`);
  });

  afterAll(async () => {
    await ws?.close();
    await app?.close();
  });

  describe('when validation passes', () => {
    it('should answer with every ObjectId as hex', async () => {
      expect(await ws.request('order.find', { id: HEX_A })).toEqual([{ event: 'order', data: orderReply(HEX_A) }]);
    });

    it('should serialize each message of a streamed reply', async () => {
      expect(await ws.request('order.stream', { ids: [HEX_A, HEX_B] }, 2)).toEqual([
        { event: 'order', data: orderReply(HEX_A) },
        { event: 'order', data: orderReply(HEX_B) },
      ]);
    });
  });

  describe('when validation fails', () => {
    it.each(REFUSED.filter(([, pattern]) => pattern === 'order.find'))(
      "should send the pipe's message for %s as an exception event, with the message that failed",
      async (_label, pattern, payload, message) => {
        expect(await ws.request(pattern, payload)).toEqual([
          { event: 'exception', data: { ...refusal(message), cause: { pattern, data: payload } } },
        ]);
      },
    );

    it('should keep the connection and serve the next message', async () => {
      const [refused] = await ws.request('order.find', { id: 'nope' });
      expect(refused).toMatchObject({ event: 'exception', data: { statusCode: 400 } });
      expect(ws.isOpen).toBe(true);
      expect(await ws.request('order.find', { id: HEX_B })).toEqual([{ event: 'order', data: orderReply(HEX_B) }]);
    });
  });

  describe('over HTTP, in the same app', () => {
    it('should leave the 400 as it is', async () => {
      const response = await request(app.getHttpServer()).get('/orders/nope').expect(400);
      expect(response.body).toEqual({
        statusCode: 400,
        message: `${ID_EXPECTED}: "nope" is 4 characters long, expected 24 hex characters`,
        error: 'Bad Request',
      });
    });

    it('should answer with every ObjectId as hex', async () => {
      const response = await request(app.getHttpServer()).get(`/orders/${HEX_A}`).expect(200);
      expect(response.body).toEqual(orderReply(HEX_A));
    });
  });
});
