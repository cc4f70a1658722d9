/**
 * `npm run load`: the sample catalog on the embedded MongoDB under autocannon,
 * on loopback only and for a bounded time.
 *
 * 1. Mixed load: GET /products/:id, GET /products?after=, POST /orders in equal
 *    parts. Reports requests/s, p50/p99 latency and errors (must be 0), then
 *    checks that every order number is distinct and the numbers consecutive.
 * 2. Library overhead on one route: the same in-memory handler with
 *    ParseObjectIdPipe + ObjectIdSerializerInterceptor, with a no-op pipe +
 *    no-op interceptor, and with neither, alternating, medians of
 *    OVERHEAD_RUNS (target #14: the library's pair within 3% of the no-op pair),
 *    with the server's CPU time per request beside requests/s.
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
/** Length of each overhead run: half of LOAD_SECONDS, at least 2 s. */
const OVERHEAD_RUN_SECONDS = Math.max(2, Math.round(SECONDS / 2));
/** Runs of each route in the overhead comparison (OVERHEAD_RUNS, default 5). */
const OVERHEAD_RUNS = Number(process.env.OVERHEAD_RUNS ?? 5);

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
  const cpuSoFar = async (): Promise<number> =>
    ((await (await fetch(`${base}/cpu`)).json()) as { micros: number }).micros;
  const run = async (route: string) => {
    let i = 0;
    const before = await cpuSoFar();
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: OVERHEAD_RUN_SECONDS,
      requests: [
        { method: 'GET', setupRequest: (req) => ({ ...req, path: `/${route}/${keys[(i += 1) % keys.length]}` }) },
      ],
    });
    if (result.errors || result.non2xx) throw new Error(`${route}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    // The server's CPU per answered request: its own work, whatever autocannon's share of the cores.
    const micros = ((await cpuSoFar()) - before) / result.requests.total;
    return { rate: result.requests.average, micros };
  };
  // Alternate the routes, rotating which goes first each round, and keep each
  // one's median, so none gains from warm-up order or a noisy neighbour.
  type Sample = { rate: number; micros: number };
  const samples = { with: [] as Sample[], without: [] as Sample[], noop: [] as Sample[] };
  const order = ['without', 'with', 'noop'] as const;
  for (let round = 0; round < OVERHEAD_RUNS; round += 1) {
    for (let i = 0; i < order.length; i += 1) {
      const route = order[(round + i) % order.length];
      samples[route].push(await run(route));
    }
  }
  await stopChild(child);
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const rate = (route: keyof typeof samples) => median(samples[route].map((sample) => sample.rate));
  const micros = (route: keyof typeof samples) => median(samples[route].map((sample) => sample.micros));
  const mid = { with: rate('with'), without: rate('without'), noop: rate('noop') };
  const cpu = { with: micros('with'), without: micros('without'), noop: micros('noop') };
  console.log(
    `Library overhead on GET /…/:id (same handler and JSON; medians of ${OVERHEAD_RUNS} alternating runs of ${OVERHEAD_RUN_SECONDS} s)`,
  );
  const row = (route: string, key: keyof typeof samples) => ({
    route,
    'requests/s': Math.round(mid[key]),
    'vs without': (mid[key] / mid.without).toFixed(2),
    'server CPU µs/request': cpu[key].toFixed(1),
  });
  console.table([
    row('without pipe and interceptor', 'without'),
    row('ParseObjectIdPipe + ObjectIdSerializerInterceptor', 'with'),
    row('a no-op pipe + a no-op interceptor (Nest itself)', 'noop'),
  ]);
  // #14: the library's own work, i.e. the pair against a no-op pipe + no-op interceptor on the same route.
  const loss = 1 - mid.with / mid.noop;
  const met = loss <= 0.03;
  console.log(
    `Overhead: the library's pair serves ${(loss * 100).toFixed(1)}% fewer requests/s than a no-op pair (target ≤ 3%): ${met ? 'met' : 'missed'}; ` +
      `it costs the server ${(cpu.with - cpu.noop).toFixed(1)} µs of CPU per request more than the no-op pair ` +
      `(${((cpu.with / cpu.noop - 1) * 100).toFixed(1)}%); ` +
      `Nest's pipe + interceptor machinery alone costs ${((1 - mid.noop / mid.without) * 100).toFixed(1)}% of requests/s against no pipe and interceptor.`,
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
