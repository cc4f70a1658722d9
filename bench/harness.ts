/**
 * Shared measuring code for `npm run bench`. Each `*.bench.ts` file exports
 * `run(): Promise<BenchTable>`; `bench/run.ts` runs them in one process and
 * prints every table with the machine, its load and the package versions.
 *
 * Comparisons are measured as #14 asks of them: the contenders interleaved
 * in one process, their order rotated each round, wall time and the
 * process's CPU time (`process.cpuUsage()`, which a busy neighbour disturbs
 * less) both kept, and each ratio taken round by round so that its range
 * over the rounds can be printed next to its median.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface BenchRow {
  /** What was measured, e.g. "nestjs-objectid ParseObjectIdPipe". */
  name: string;
  /** Operations per second of wall time (higher is better); the median over rounds when interleaved. */
  opsPerSec: number;
  /** Operations per second of the process's CPU time, when measured. */
  cpuOpsPerSec?: number;
  /** Free text: ratio against the baseline, the target, met or not. */
  note?: string;
}

/** A target from an issue, and whether this run met it. */
export interface BenchTarget {
  description: string;
  met: boolean;
}

export interface BenchTable {
  title: string;
  /** Name of the row the ratios are computed against. */
  baseline: string;
  rows: BenchRow[];
  /** Targets from the issues, each with whether this run met it. */
  targets?: BenchTarget[];
}

/** One contender's measurement in one round. */
export interface Sample {
  /** Operations performed. */
  ops: number;
  wallMs: number;
  /** User + system CPU time of the whole process (GC threads included: their work is part of the cost). */
  cpuMs: number;
}

/** The smallest, median and largest value of a series. */
export interface Range {
  min: number;
  median: number;
  max: number;
}

/** A ratio over the rounds, by wall time and by CPU time. */
export interface RatioRange {
  wall: Range;
  cpu: Range;
  rounds: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function range(values: readonly number[]): Range {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/**
 * Runs `fn` repeatedly for about `ms` milliseconds after a warm-up, and
 * returns how many operations it performed in what wall and CPU time. `fn`
 * returns how many operations it performed.
 */
export async function sample(fn: () => number | Promise<number>, ms = 1000, warmupMs = 200): Promise<Sample> {
  const warmEnd = performance.now() + warmupMs;
  while (performance.now() < warmEnd) await fn();
  let ops = 0;
  const cpuStart = cpuMs();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    ops += await fn();
    now = performance.now();
  }
  return { ops, wallMs: now - start, cpuMs: cpuMs() - cpuStart };
}

/** {@link sample} as operations per second of wall time. */
export async function measure(fn: () => number | Promise<number>, ms = 1000, warmupMs = 200): Promise<number> {
  const { ops, wallMs } = await sample(fn, ms, warmupMs);
  return (ops * 1000) / wallMs;
}

/** Ratio of `row` to the baseline's ops/s. */
export function ratio(table: BenchTable, rowName: string): number {
  const base = table.rows.find((r) => r.name === table.baseline);
  const row = table.rows.find((r) => r.name === rowName);
  if (!base || !row) throw new Error(`bench: no row named "${!base ? table.baseline : rowName}"`);
  return row.opsPerSec / base.opsPerSec;
}

/** The samples of interleaved contenders, one per contender and round. */
export class Rounds {
  constructor(readonly samples: Readonly<Record<string, readonly Sample[]>>) {}

  get names(): string[] {
    return Object.keys(this.samples);
  }

  private of(name: string): readonly Sample[] {
    const samples = this.samples[name];
    if (samples === undefined) throw new Error(`bench: no contender named "${name}"`);
    return samples;
  }

  /** Median operations per second of wall time. */
  wall(name: string): number {
    return median(this.of(name).map((s) => (s.ops * 1000) / s.wallMs));
  }

  /** Median operations per second of CPU time. */
  cpu(name: string): number {
    return median(this.of(name).map((s) => (s.ops * 1000) / s.cpuMs));
  }

  /**
   * How many times faster `a` is than `b` (their speeds divided), round by
   * round: both were measured in the same round, close in time.
   */
  speedRatio(a: string, b: string): RatioRange {
    const sa = this.of(a);
    const sb = this.of(b);
    const perRound = (time: (s: Sample) => number) =>
      range(sa.map((s, i) => s.ops / time(s) / (sb[i].ops / time(sb[i]))));
    return { wall: perRound((s) => s.wallMs), cpu: perRound((s) => s.cpuMs), rounds: sa.length };
  }

  /** One row per contender, medians of wall and CPU speed. */
  rows(): BenchRow[] {
    return this.names.map((name) => ({ name, opsPerSec: this.wall(name), cpuOpsPerSec: this.cpu(name) }));
  }
}

let gc: (() => void) | undefined;

/** A full garbage collection (`--expose-gc` is set at run time, once). */
function collectGarbage(): void {
  gc ??= (() => {
    v8.setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();
  gc();
}

/**
 * Measures several contenders in `rounds` rounds of `ms` each, rotating which
 * one goes first every round, so that neither a noisy neighbour, nor the
 * garbage of the one before, nor JIT warm-up order favours any of them.
 * With `gc`, a full garbage collection precedes each sample, so that no
 * contender pays for collecting (or marking) what the one before it left in
 * the heap; each still pays for all it allocates in its own sample.
 */
export async function measureRounds(
  variants: Record<string, () => number | Promise<number>>,
  { rounds = 9, ms = 300, gc = false }: { rounds?: number; ms?: number; gc?: boolean } = {},
): Promise<Rounds> {
  const names = Object.keys(variants);
  const samples: Record<string, Sample[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      if (gc) collectGarbage();
      samples[name].push(await sample(variants[name], ms, round === 0 ? 200 : 50));
    }
  }
  return new Rounds(samples);
}

/** {@link measureRounds} reduced to each contender's median wall ops/s, in the order given. */
export async function measureInterleaved(
  variants: Record<string, () => number | Promise<number>>,
  options: { rounds?: number; ms?: number } = {},
): Promise<Record<string, number>> {
  const rounds = await measureRounds(variants, { rounds: 5, ...options });
  return Object.fromEntries(rounds.names.map((name) => [name, rounds.wall(name)]));
}

/** `1.23× (1.10–1.31)`: a median and its range over the rounds. */
export function formatRange(r: Range, digits = 2): string {
  return `${r.median.toFixed(digits)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
}

/**
 * A target on a ratio, judged on the median over the rounds by wall time
 * *and* by CPU time: met only when both meet it. The description carries
 * both medians and their ranges (a median that rounds to the bound gets a
 * third decimal, so that "1.00×" is never shown for a miss).
 */
export function ratioTarget(
  description: string,
  measured: RatioRange,
  bound: { atLeast: number } | { atMost: number },
): BenchTarget {
  const limit = 'atLeast' in bound ? bound.atLeast : bound.atMost;
  const meets = (value: number) => ('atLeast' in bound ? value >= limit : value <= limit);
  const digits = (r: Range) => (r.median.toFixed(2) === limit.toFixed(2) ? 3 : 2);
  return {
    description: `${description}: CPU ${formatRange(measured.cpu, digits(measured.cpu))}, wall ${formatRange(measured.wall, digits(measured.wall))} over ${measured.rounds} rounds`,
    met: meets(measured.cpu.median) && meets(measured.wall.median),
  };
}
