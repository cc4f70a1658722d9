/**
 * Shared measuring code for `npm run bench`. Each `*.bench.ts` file exports
 * `run(): Promise<BenchTable>`; `bench/run.ts` runs them in one process and
 * prints every table with the machine and package versions.
 */
export interface BenchRow {
  /** What was measured, e.g. "nestjs-objectid ParseObjectIdPipe". */
  name: string;
  /** Operations per second (higher is better). */
  opsPerSec: number;
  /** Free text: ratio against the baseline, the target, met or not. */
  note?: string;
}

export interface BenchTable {
  title: string;
  /** Name of the row the ratios are computed against. */
  baseline: string;
  rows: BenchRow[];
  /** Targets from the issues, each with whether this run met it. */
  targets?: { description: string; met: boolean }[];
}

/**
 * Runs `fn` repeatedly for about `ms` milliseconds after a warm-up and returns
 * operations per second. `fn` returns how many operations it performed.
 */
export async function measure(fn: () => number | Promise<number>, ms = 1000, warmupMs = 200): Promise<number> {
  const warmEnd = performance.now() + warmupMs;
  while (performance.now() < warmEnd) await fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    ops += await fn();
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Ratio of `row` to the baseline's ops/s, formatted to two decimals. */
export function ratio(table: BenchTable, rowName: string): number {
  const base = table.rows.find((r) => r.name === table.baseline);
  const row = table.rows.find((r) => r.name === rowName);
  if (!base || !row) throw new Error(`bench: no row named "${!base ? table.baseline : rowName}"`);
  return row.opsPerSec / base.opsPerSec;
}

/**
 * Measures several variants in alternating rounds and keeps each one's median,
 * so that a noisy neighbour or JIT warm-up order favours none of them.
 */
export async function measureInterleaved(
  variants: Record<string, () => number | Promise<number>>,
  { rounds = 5, ms = 300 }: { rounds?: number; ms?: number } = {},
): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, fn] of Object.entries(variants)) {
      samples[name].push(await measure(fn, ms, round === 0 ? 200 : 50));
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [
      name,
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)],
    ]),
  );
}
