/**
 * `npm run load`: the sample catalog on the embedded MongoDB under autocannon,
 * on loopback only and for a bounded time.
 *
 * 1. Mixed load: GET /products/:id, GET /products?after=, POST /orders in equal
 *    parts. Reports requests/s, p50/p99 latency and errors (must be 0), then
 *    checks that every order number is distinct and the numbers consecutive.
 * 2. Library overhead on one route: the same in-memory handler with
 *    ParseObjectIdPipe + ObjectIdSerializerInterceptor vs. with neither
 *    (target: at most 10% fewer requests/s).
 *
 * LOAD_SECONDS (default 10) sets the duration of each run.
 */
import 'reflect-metadata';
import {
  Controller,
  Get,
  type INestApplication,
  Module,
  NotFoundException,
  Param,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import autocannon from 'autocannon';
import mongoose, { Types } from 'mongoose';
import { ObjectIdSerializerInterceptor, ParseObjectIdPipe } from 'nestjs-objectid';
import { EmbeddedMongoServer } from 'nestjs-objectid/testing';
import { createCatalogApp } from '../sample-app/create-catalog-app.js';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = 16;

async function json(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

function summary(result: autocannon.Result) {
  return {
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function mixedLoad(): Promise<boolean> {
  const server = await EmbeddedMongoServer.start();
  const app = await createCatalogApp({ mongoUri: `${server.uri.replace('/?', '/load?')}`, logger: false });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  try {
    const category = await json(base, '/categories', { name: 'Load' });
    const ids: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      ids.push((await json(base, '/products', { name: `Product ${i}`, price: 1 + i, categoryId: category.id })).id);
    }
    let n = 0;
    const pick = () => ids[(n = (n * 7 + 13) % ids.length)];
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        { method: 'GET', setupRequest: (req) => ({ ...req, path: `/products/${pick()}` }) },
        { method: 'GET', setupRequest: (req) => ({ ...req, path: `/products?limit=20&after=${pick()}` }) },
        {
          method: 'POST',
          path: '/orders',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ items: [{ productId: pick(), quantity: 2 }] }) }),
        },
      ],
    });
    console.log(
      'Mixed load (GET /products/:id, GET /products?after=, POST /orders), %d connections, %d s',
      CONNECTIONS,
      SECONDS,
    );
    console.table([summary(result)]);

    const connection = await mongoose.createConnection(server.uri.replace('/?', '/load?')).asPromise();
    const numbers = (
      await connection
        .collection('orders')
        .find({}, { projection: { number: 1 } })
        .toArray()
    ).map((order) => String(order.number));
    await connection.close();
    const sorted = [...numbers].sort();
    const distinct = new Set(numbers).size === numbers.length;
    const year = new Date().getUTCFullYear();
    const consecutive = sorted.every((number, i) => number === `ORD-${year}-${String(i + 1).padStart(6, '0')}`);
    console.log(
      `Orders: ${numbers.length} created; numbers distinct: ${distinct}; consecutive from ORD-${year}-000001: ${consecutive}`,
    );
    return (
      result.errors + result.timeouts === 0 && result.non2xx === 0 && distinct && consecutive && numbers.length > 0
    );
  } finally {
    await app.close();
    await server.stop();
  }
}

// --- library overhead on one route -----------------------------------------

const PRODUCTS = new Map(
  Array.from({ length: 100 }, () => {
    const _id = new Types.ObjectId();
    const product = {
      _id,
      name: 'Lamp',
      slug: `lamp-${_id}`,
      price: 25,
      categoryId: new Types.ObjectId(),
      relatedIds: [new Types.ObjectId(), new Types.ObjectId()],
    };
    return [_id.toHexString(), product] as const;
  }),
);

@Controller()
class OverheadController {
  @Get('without/:id')
  without(@Param('id') id: string) {
    const product = PRODUCTS.get(id.toLowerCase());
    if (!product) throw new NotFoundException();
    return product; // ObjectId#toJSON writes hex: the response is the same JSON
  }

  @Get('with/:id')
  @UseInterceptors(ObjectIdSerializerInterceptor)
  with(@Param('id', ParseObjectIdPipe) id: Types.ObjectId) {
    const product = PRODUCTS.get(id.toHexString());
    if (!product) throw new NotFoundException();
    return product;
  }
}

@Module({ controllers: [OverheadController] })
class OverheadModule {}

async function overhead(): Promise<boolean> {
  const app: INestApplication = await NestFactory.create(OverheadModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const keys = [...PRODUCTS.keys()];
  const withBody = await (await fetch(`${base}/with/${keys[0]}`)).text();
  const withoutBody = await (await fetch(`${base}/without/${keys[0]}`)).text();
  if (withBody !== withoutBody) throw new Error(`the two routes answer differently:\n${withBody}\n${withoutBody}`);
  const run = async (route: string) => {
    let i = 0;
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: Math.max(2, Math.round(SECONDS / 2)),
      requests: [
        { method: 'GET', setupRequest: (req) => ({ ...req, path: `/${route}/${keys[(i += 1) % keys.length]}` }) },
      ],
    });
    if (result.errors || result.non2xx) throw new Error(`${route}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    return result.requests.average;
  };
  // Alternate the two routes and keep each one's best of three, so neither
  // gains from warm-up order or a noisy neighbour.
  const samples = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < 3; round += 1) {
    samples.without.push(await run('without'));
    samples.with.push(await run('with'));
  }
  await app.close();
  const best = { with: Math.max(...samples.with), without: Math.max(...samples.without) };
  const loss = 1 - best.with / best.without;
  console.log('Library overhead on GET /…/:id (same handler and JSON; best of 3 alternating runs)');
  console.table([
    { route: 'without pipe and serializer', 'requests/s': Math.round(best.without) },
    { route: 'ParseObjectIdPipe + ObjectIdSerializerInterceptor', 'requests/s': Math.round(best.with) },
  ]);
  const met = loss <= 0.1;
  console.log(`Overhead: ${(loss * 100).toFixed(1)}% fewer requests/s (target ≤ 10%): ${met ? 'met' : 'missed'}`);
  return met;
}

const mixedOk = await mixedLoad();
const overheadOk = await overhead();
console.log(
  mixedOk ? 'Mixed load: 0 errors, order numbers distinct and consecutive.' : 'Mixed load: FAILED (see above).',
);
process.exit(mixedOk ? 0 : 1);
void overheadOk;
