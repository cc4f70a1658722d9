/**
 * `npm run bench`: runs every `*.bench.ts` in this folder (or those named on
 * the command line) in one process and prints one report: the machine, the
 * package versions, and for each benchmark its rows as ratios to its baseline.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchTable } from './harness.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.includes(name)))
  .sort();

function version(name: string): string {
  try {
    return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

const lines: string[] = [];
const out = (line = '') => {
  lines.push(line);
  console.log(line);
};

out(
  `Node ${process.version} · ${os.type()} ${os.release()} ${os.arch()} · ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length} · ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
);
out(
  [
    'nestjs-objectid',
    '@nestjs/common',
    '@nestjs/mongoose',
    'mongoose',
    'mongodb',
    'bson',
    'class-transformer',
    'class-validator',
    'mingo',
  ]
    .map(
      (name) =>
        `${name} ${name === 'nestjs-objectid' ? JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version : version(name)}`,
    )
    .join(' · '),
);
out();

let missed = 0;
for (const file of files) {
  const mod = (await import(new URL(file, import.meta.url).href)) as { run: () => Promise<BenchTable> };
  const table = await mod.run();
  const base = table.rows.find((r) => r.name === table.baseline)?.opsPerSec ?? Number.NaN;
  out(`### ${table.title}`);
  out();
  out('| variant | ops/s | ratio to baseline | note |');
  out('|---|---:|---:|---|');
  for (const row of table.rows) {
    out(
      `| ${row.name}${row.name === table.baseline ? ' (baseline)' : ''} | ${Math.round(row.opsPerSec).toLocaleString('en-US')} | ${(row.opsPerSec / base).toFixed(2)}× | ${row.note ?? ''} |`,
    );
  }
  for (const target of table.targets ?? []) {
    out(`- target: ${target.description} — **${target.met ? 'met' : 'missed'}**`);
    if (!target.met) missed += 1;
  }
  out();
}
out(
  `${missed === 0 ? 'All targets met.' : `${missed} target(s) missed.`} Ratios above 1 are faster than the baseline.`,
);
