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
 * The app runs in its own process (as `npm start` runs it, on an embedded
 * MongoDB this script starts), so autocannon does not share its event loop.
 * LOAD_SECONDS (default 10) sets the duration of each run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import autocannon from 'autocannon';
import mongoose from 'mongoose';
import { EmbeddedMongoServer, withDatabase } from 'nestjs-objectid-mongo-server';

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

/** Starts `script` with the library aliased to its sources; resolves with the URL it prints. */
function startChild(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', '@swc-node/register/esm-register', '--import', './scripts/source-alias.mjs', script],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) resolve({ child, url: match[1].replace('localhost', '127.0.0.1') });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function mixedLoad(): Promise<boolean> {
  const server = await EmbeddedMongoServer.start();
  const mongoUri = withDatabase(server.uri, 'load');
  const { child, url: base } = await startChild(
    'sample-app/main.ts',
    { MONGO_URL: mongoUri, PORT: '0' },
    /Ready in \d+ ms: (http:\/\/\S+?) /,
  );
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

    const connection = await mongoose.createConnection(mongoUri).asPromise();
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
    await stopChild(child);
    await server.stop();
  }
}

async function overhead(): Promise<boolean> {
  const { child, url: base } = await startChild('scripts/load-overhead-server.ts', {}, /READY (\S+)/);
  const keys = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(24, '0'));
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
  // Alternate the routes and keep each one's best of three, so none gains
  // from warm-up order or a noisy neighbour.
  const samples = { with: [] as number[], without: [] as number[], noop: [] as number[] };
  for (let round = 0; round < 3; round += 1) {
    samples.without.push(await run('without'));
    samples.with.push(await run('with'));
    samples.noop.push(await run('noop'));
  }
  await stopChild(child);
  const best = {
    with: Math.max(...samples.with),
    without: Math.max(...samples.without),
    noop: Math.max(...samples.noop),
  };
  const loss = 1 - best.with / best.without;
  console.log('Library overhead on GET /…/:id (same handler and JSON; best of 3 alternating runs)');
  console.table([
    { route: 'without pipe and interceptor', 'requests/s': Math.round(best.without), 'vs without': '1.00' },
    {
      route: 'ParseObjectIdPipe + ObjectIdSerializerInterceptor',
      'requests/s': Math.round(best.with),
      'vs without': (best.with / best.without).toFixed(2),
    },
    {
      route: 'a no-op pipe + a no-op interceptor (Nest itself)',
      'requests/s': Math.round(best.noop),
      'vs without': (best.noop / best.without).toFixed(2),
    },
  ]);
  const met = loss <= 0.1;
  console.log(
    `Overhead: ${(loss * 100).toFixed(1)}% fewer requests/s (target ≤ 10%): ${met ? 'met' : 'missed'}; ` +
      `of that, Nest's pipe + interceptor machinery alone accounts for ${((1 - best.noop / best.without) * 100).toFixed(1)}%.`,
  );
  return met;
}

const mixedOk = await mixedLoad();
const overheadOk = await overhead();
console.log(
  mixedOk ? 'Mixed load: 0 errors, order numbers distinct and consecutive.' : 'Mixed load: FAILED (see above).',
);
process.exit(mixedOk ? 0 : 1);
void overheadOk;
