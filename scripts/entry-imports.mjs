// `npm run bench` (last part): what `import` of each entry point loads, and how
// long it takes, each in a fresh Node process, from the built ESM output
// (dist/esm, built first) as an application would load the package.
// Prints a Markdown table: median wall time of the import over RUNS processes,
// and the packages it brought in (outside Node's own and the package itself).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.IMPORT_RUNS ?? 7);
// The first two rows are yardsticks: what an app loads anyway.
const entries = [
  '@nestjs/common',
  'mongoose',
  'nestjs-objectid',
  'nestjs-objectid/serialization',
  'nestjs-objectid/sequence',
  'nestjs-objectid/swagger',
  'nestjs-objectid/graphql',
];
const watched = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/mongoose',
  '@nestjs/swagger',
  'graphql',
  'mongoose',
  'mongodb',
  'bson',
  'class-validator',
  'class-transformer',
  'rxjs',
];

// Records the package of every module loaded: ES modules through a resolve hook
// (it runs on the hooks thread and reports back through a MessagePort), CommonJS
// ones from require's cache.
const probe = (entry) => `
  import { register, createRequire } from 'node:module';
  import { MessageChannel } from 'node:worker_threads';
  const { port1, port2 } = new MessageChannel();
  const urls = new Set();
  port1.on('message', (url) => urls.add(url));
  register('data:text/javascript,' + encodeURIComponent(\`
    let port;
    export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      port.postMessage(result.url);
      return result;
    }\`), { data: { port: port2 }, transferList: [port2] });
  await import(${JSON.stringify(entry)});
  await new Promise((r) => setTimeout(r, 50));
  port1.close();
  const files = [...urls, ...Object.keys(createRequire(import.meta.url).cache)];
  const packages = {};
  for (const file of new Set(files)) {
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(.*)$/.exec(file);
    if (m) (packages[m[1]] ??= []).push(m[2]);
  }
  console.log(JSON.stringify({ packages }));
`;

execFileSync(process.execPath, ['scripts/build.mjs', '.'], { cwd: root, stdio: 'inherit' });
console.log('### `import` of each entry point (dist/esm, fresh process each, median of ' + RUNS + ')\n');
console.log('| entry | import time | packages it loads (of ' + watched.join(', ') + ') |');
console.log('| --- | --- | --- |');
// Timed without the probe's hook, which slows every resolution down.
const timed = (entry) =>
  `const started = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - started);`;
const node = (code) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }).trim();

for (const entry of entries) {
  const times = Array.from({ length: RUNS }, () => Number(node(timed(entry)))).sort((a, b) => a - b);
  const { packages } = JSON.parse(node(probe(entry)));
  // The main entry takes ObjectId from the driver's bson re-export (lib/bson.js), not the driver itself.
  const loaded = watched
    .filter((name) => packages[name] && name !== entry)
    .map((name) =>
      name === 'mongodb' && packages[name].every((f) => f === 'lib/bson.js') ? 'mongodb (lib/bson.js only)' : name,
    );
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `| \`${entry}\` | ${median.toFixed(0)} ms (${times[0].toFixed(0)}–${times.at(-1).toFixed(0)}) | ${loaded.join(', ')} |`,
  );
}
