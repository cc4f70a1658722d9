/**
 * `npm run bench`: runs every `*.bench.ts` in this folder (or those named on
 * the command line: `npm run bench pipe`) in one process and prints one
 * report, then, for a whole run or one naming `entry-imports`, the table of
 * what each entry point loads (scripts/entry-imports.mjs): the machine, its
 * load average at the start and the end, the package versions, and for each
 * benchmark a table (wall and, where measured, CPU-time speed per row, ratios
 * to its baseline) followed by each target's verdict. The tables are
 * formatted as Prettier formats Markdown, so BENCHMARKS.md holds them as
 * printed.
 */
import { execFileSync } from 'node:child_process';
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

/** Formats a Markdown table as Prettier does, so that BENCHMARKS.md can hold it unchanged. */
function table(header: string[], right: boolean[], body: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(3, h.length, ...body.map((row) => row[c].length)));
  const cell = (text: string, c: number) => (right[c] ? text.padStart(widths[c]) : text.padEnd(widths[c]));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (right[c] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)];
}

const ops = (value: number) => Math.round(value).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

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
out(
  `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · load average (1 / 5 / 15 min) at start ${load()}`,
);
out();

let missed = 0;
const failed: string[] = [];
for (const file of files) {
  let result: BenchTable;
  try {
    const mod = (await import(new URL(file, import.meta.url).href)) as { run: () => Promise<BenchTable> };
    result = await mod.run();
  } catch (error) {
    // One broken benchmark (e.g. a dependency mid-change) should not hide the others' figures.
    failed.push(file);
    out(`### ${file}: failed`);
    out();
    out('```');
    out(error instanceof Error ? (error.stack ?? error.message) : String(error));
    out('```');
    out();
    continue;
  }
  const base = result.rows.find((r) => r.name === result.baseline);
  const withCpu = result.rows.some((r) => r.cpuOpsPerSec !== undefined);
  out(`### ${result.title}`);
  out();
  const header = withCpu
    ? ['variant', 'ops/s (wall)', 'ops/s (CPU time)', 'ratio to baseline (wall · CPU)', 'note']
    : ['variant', 'ops/s', 'ratio to baseline', 'note'];
  const body = result.rows.map((row) => {
    const name = `${row.name}${row.name === result.baseline ? ' (baseline)' : ''}`;
    const wallRatio = `${(row.opsPerSec / (base?.opsPerSec ?? Number.NaN)).toFixed(2)}×`;
    if (!withCpu) return [name, ops(row.opsPerSec), wallRatio, row.note ?? ''];
    const cpu = row.cpuOpsPerSec;
    const cpuRatio =
      cpu === undefined || base?.cpuOpsPerSec === undefined ? '—' : `${(cpu / base.cpuOpsPerSec).toFixed(2)}×`;
    return [name, ops(row.opsPerSec), cpu === undefined ? '—' : ops(cpu), `${wallRatio} · ${cpuRatio}`, row.note ?? ''];
  });
  const right = withCpu ? [false, true, true, true, false] : [false, true, true, false];
  for (const line of table(header, right, body)) out(line);
  out();
  for (const target of result.targets ?? []) {
    out(`- target: ${target.description} — **${target.met ? 'met' : 'missed'}**`);
    if (!target.met) missed += 1;
  }
  if ((result.targets ?? []).length > 0) out();
}
out(`load average (1 / 5 / 15 min) at the end ${load()}`);
out();
out(
  `${missed === 0 ? 'All targets met.' : `${missed} target(s) missed.`} Ratios above 1 are faster than the baseline.`,
);
if (failed.length > 0) {
  out(`${failed.length} benchmark(s) failed to run: ${failed.join(', ')}.`);
  process.exitCode = 1;
}
if (only.length === 0 || only.includes('entry-imports')) {
  // In processes of its own, without this one's TypeScript loader, as an application loads the package.
  out();
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/entry-imports.mjs', import.meta.url))], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}
