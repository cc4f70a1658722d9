import { approximateSize } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';

/** How often {@link OperationBudget.tick} reads the clock: every this many units of work. */
const TICKS_PER_CLOCK_READ = 32;
/** Bytes of a spec that make one unit of work per document ({@link OperationBudget.unitsOf}). */
const BYTES_PER_UNIT = 64;

/**
 * What one command may build in strings and arrays, all its expressions
 * together, before it is refused: the embedded server keeps every result in
 * memory (nothing spills to disk and a cursor's documents are computed when
 * it opens), so an expression multiplying data (`$map` over a `$range`,
 * `$unwind` of a huge array, a `$lookup` of everything) must stop well before
 * V8 runs out of heap and takes the hosting process down.
 */
export const COMMAND_ALLOCATION_LIMIT = 512 * 1024 * 1024;

/** The limits one command runs under. */
export interface OperationBudgetOptions {
  /** The server's clock in milliseconds. */
  readonly clock: () => number;
  /** The command's `maxTimeMS` (absent or 0: none). */
  readonly maxTimeMS?: number;
  /** The server's own limit for any command, `maxCommandTimeMS` (absent or 0: none). */
  readonly serverLimitMS?: number;
  /** The command's `allowDiskUse`, as sent. */
  readonly allowDiskUse?: boolean;
  /** The server's `internalQueryMaxAllowedDensifyDocs`: documents one `$densify` may generate. */
  readonly maxDensifyDocuments?: number;
}

/** mongod's default `internalQueryMaxAllowedDensifyDocs`. */
export const DEFAULT_MAX_DENSIFY_DOCUMENTS = 500_000;

/**
 * The time and memory one command may use. The engine is synchronous, so a
 * slow command cannot be interrupted from outside: the scan, match, sort and
 * expression loops call {@link OperationBudget.tick}, which throws
 * MaxTimeMSExpired once the deadline has passed, and the operators that build
 * strings and arrays report them to {@link OperationBudget.allocate}.
 *
 * The command being run is the active budget (commands never interleave: each
 * runs from parse to reply without yielding), so code deep inside mingo's
 * operators reaches it without threading it through every call.
 */
export class OperationBudget {
  private static active: OperationBudget | undefined;
  private ticks = 0;
  private allocated = 0;
  private readonly start: number;
  private readonly expiresAt: number;
  /** True when the server's limit, not the command's maxTimeMS, ends first. */
  private readonly serverLimitFirst: boolean;

  constructor(private readonly options: OperationBudgetOptions) {
    const start = options.clock();
    this.start = start;
    const own = options.maxTimeMS ? start + options.maxTimeMS : Number.POSITIVE_INFINITY;
    const server = options.serverLimitMS ? start + options.serverLimitMS : Number.POSITIVE_INFINITY;
    this.expiresAt = Math.min(own, server);
    this.serverLimitFirst = server < own;
  }

  /** The budget of the command being run, if any. */
  static current(): OperationBudget | undefined {
    return OperationBudget.active;
  }

  /** Runs `fn` with `budget` active (nested runs restore the outer one). */
  static run<T>(budget: OperationBudget | undefined, fn: () => T): T {
    const outer = OperationBudget.active;
    OperationBudget.active = budget;
    try {
      return fn();
    } finally {
      OperationBudget.active = outer;
    }
  }

  /**
   * `units` units of work (one document through a filter, stage or projection:
   * see {@link OperationBudget.unitsOf}): throws MaxTimeMSExpired once the
   * active command's time is up.
   */
  static tick(units = 1): void {
    const budget = OperationBudget.active;
    if (budget === undefined) return;
    budget.ticks += units;
    if (budget.ticks < TICKS_PER_CLOCK_READ) return;
    budget.ticks = 0;
    budget.checkTime();
  }

  /**
   * The units of work of applying `spec` (a filter, a stage, a projection) to
   * one document: one per 64 bytes of it, so that the clock is read at every
   * document for a spec of 2 KB or more (a 200,000-field `$project` took most
   * of a second per document, a filter of 200,000 conditions a fifth).
   */
  static unitsOf(spec: unknown): number {
    const bytes = approximateSize(spec, TICKS_PER_CLOCK_READ * BYTES_PER_UNIT);
    return Math.min(TICKS_PER_CLOCK_READ, Math.max(1, Math.ceil(bytes / BYTES_PER_UNIT)));
  }

  /**
   * After a unit of work that may be large (a `$graphLookup` over big
   * documents took seconds per document): throws MaxTimeMSExpired once the
   * active command's time is up, reading the clock now rather than every
   * {@link TICKS_PER_CLOCK_READ} ticks.
   */
  static checkTimeNow(): void {
    OperationBudget.active?.checkTime();
  }

  /**
   * Counts `bytes` just built by `operator` against the active command's
   * {@link COMMAND_ALLOCATION_LIMIT}; throws ExceededMemoryLimit past it.
   */
  static allocate(bytes: number, operator: string): void {
    const budget = OperationBudget.active;
    if (budget === undefined) return;
    budget.allocated += bytes;
    if (budget.allocated > COMMAND_ALLOCATION_LIMIT) {
      throw new CommandError(
        'ExceededMemoryLimit',
        `${operator} used too much memory and cannot spill to disk: one command may build at most ${COMMAND_ALLOCATION_LIMIT} bytes of strings and arrays in the embedded server, which keeps all of them in memory. Narrow the query, or use a real MongoDB (MONGO_URL) for it`,
      );
    }
  }

  /** How many documents one `$densify` of the active command may generate. */
  static maxDensifyDocuments(): number {
    return OperationBudget.active?.options.maxDensifyDocuments ?? DEFAULT_MAX_DENSIFY_DOCUMENTS;
  }

  /** Whether the active command sent `allowDiskUse: false` (MongoDB then enforces its 100 MiB stage limits). */
  static diskUseForbidden(): boolean {
    return OperationBudget.active?.options.allowDiskUse === false;
  }

  /** Milliseconds left of the command's own maxTimeMS (undefined when it has none): what its cursor's getMores may still use. */
  remainingMaxTimeMS(): number | undefined {
    if (!this.options.maxTimeMS) return undefined;
    return Math.max(0, this.start + this.options.maxTimeMS - this.options.clock());
  }

  /** Milliseconds since the command started, by the server's clock. */
  elapsedMS(): number {
    return this.options.clock() - this.start;
  }

  /** The same limits with `maxTimeMS` in place of the command's own (a getMore runs on its cursor's time left). */
  withMaxTimeMS(maxTimeMS: number): OperationBudget {
    return new OperationBudget({ ...this.options, maxTimeMS });
  }

  /** Throws MaxTimeMSExpired if the deadline has passed. */
  checkTime(): void {
    if (this.options.clock() <= this.expiresAt) return;
    if (!this.serverLimitFirst) throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
    throw new CommandError(
      'MaxTimeMSExpired',
      `operation exceeded time limit: the embedded server stops any command after maxCommandTimeMS (${this.options.serverLimitMS} ms). Raise it with EmbeddedMongoServer.start({ maxCommandTimeMS }) if the command is expected to be this slow`,
    );
  }
}
