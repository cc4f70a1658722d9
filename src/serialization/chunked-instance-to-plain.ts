/**
 * class-transformer's `instanceToPlain` without the call stack's depth limit.
 *
 * class-transformer copies a value by recursion, one call per level, so a
 * response a few thousand levels deep overflows the stack (a chain of class
 * instances, or deep data inside one). Here its own executor does the work,
 * but a call {@link CHUNK_DEPTH} levels below where the copy started returns a
 * placeholder and records its arguments instead of recursing; once the upper
 * part is copied, each recorded call runs from level 0 with the same
 * arguments and its result replaces the placeholder. Every level is still
 * copied by class-transformer with its own arguments (the target type from
 * `@Type`, the value after `@Transform`, `isMap`), so the output is the
 * same; only the order in which getters and `@Transform` functions below
 * that depth are called differs (each subtree after the levels above it).
 */
import { TransformationType, type ClassTransformOptions } from 'class-transformer';
import { defaultOptions } from 'class-transformer/cjs/constants/default-options.constant.js';
import { TransformOperationExecutor } from 'class-transformer/cjs/TransformOperationExecutor.js';

/**
 * Levels one chunk of the copy recurses through. class-transformer takes a
 * few hundred bytes of stack per level (about 2,500 levels fit in Node's
 * default stack); 128 leaves the caller's stack (Nest, rxjs, the adapter)
 * almost all of it.
 */
const CHUNK_DEPTH = 128;

/**
 * Depth at which the copy gives up. Real data is far shallower; a getter or
 * `@Transform` that returns a new object at every level (or its own object)
 * would otherwise copy for ever, where class-transformer alone overflows.
 */
export const MAX_COPY_DEPTH = 100_000;

/** One copy left for later: the arguments of the call, and where its result goes. */
class DeferredCopy {
  /** The object or array whose entry is this placeholder, once found. */
  container: Record<string, unknown> | unknown[] | undefined = undefined;
  key: string | number = '';

  constructor(
    readonly source: unknown,
    readonly value: object,
    readonly targetType: unknown,
    readonly arrayType: unknown,
    readonly isMap: boolean | undefined,
    /** Level of `value` in the whole copy. */
    readonly depth: number,
    /** Values being copied above it, for `enableCircularCheck`. */
    readonly ancestors: Set<unknown> | undefined,
  ) {}
}

/** The executor behind {@link chunkedInstanceToPlain}: class-transformer's, cut every {@link CHUNK_DEPTH} levels. */
class ChunkedExecutor extends TransformOperationExecutor {
  private readonly pending: DeferredCopy[] = [];
  /** Level, in the whole copy, of the value the current chunk started from. */
  private base = 0;
  /** Set while copying; a Promise's value, copied later, recurses as in class-transformer. */
  private running = false;
  /** Ancestors of the copies deferred from the current value, taken once for all of them. */
  private ancestors: Set<unknown> | undefined;

  constructor(
    private readonly cutCycles: boolean,
    options: ClassTransformOptions,
  ) {
    super(TransformationType.CLASS_TO_PLAIN, options);
  }

  /** `instanceToPlain(root)`, one chunk after another. */
  copy(root: unknown): unknown {
    const pending = this.pending;
    this.running = true;
    try {
      let first = 0;
      const out = this.transform(undefined, root, undefined, undefined, undefined);
      reverseFrom(pending, first);
      while (pending.length > 0) {
        const job = pending.pop()!;
        this.base = job.depth;
        if (job.ancestors !== undefined) this.recursionStack = job.ancestors;
        first = pending.length;
        const value = this.transform(job.source, job.value, job.targetType, job.arrayType, job.isMap, 0);
        // Popped from the end: reversed, the copies below this one run in document order.
        reverseFrom(pending, first);
        if (job.container !== undefined) (job.container as Record<string | number, unknown>)[job.key] = value;
      }
      return out;
    } finally {
      this.running = false;
    }
  }

  override transform(
    source: unknown,
    value: unknown,
    targetType: unknown,
    arrayType: unknown,
    isMap: boolean | undefined,
    level = 0,
  ): unknown {
    if (level < CHUNK_DEPTH - 1 || !this.running) {
      return super.transform(source, value, targetType, arrayType, isMap, level);
    }
    if (level === CHUNK_DEPTH - 1) {
      // The last level of the chunk: its entries become placeholders, found in its copy here.
      const first = this.pending.length;
      this.ancestors = undefined;
      const out = super.transform(source, value, targetType, arrayType, isMap, level);
      if (this.pending.length > first) place(out);
      return out;
    }
    if (value === null || typeof value !== 'object') {
      return super.transform(source, value, targetType, arrayType, isMap, level);
    }
    const depth = this.base + level;
    if (depth >= MAX_COPY_DEPTH) {
      throw new RangeError(
        `class-transformer's copy of the response is more than ${MAX_COPY_DEPTH} levels deep: a getter, method or ` +
          '@Transform probably returns a new object, or its own object, at every level. Return plain data from it, ' +
          'mark it @Exclude(), or pass enableCircularCheck: true if it refers back to an enclosing object.',
      );
    }
    if (this.cutCycles) this.ancestors ??= new Set(this.recursionStack);
    const job = new DeferredCopy(source, value, targetType, arrayType, isMap, depth, this.ancestors);
    this.pending.push(job);
    return job;
  }
}

/** Records where each placeholder in `out` (class-transformer's copy of one value) was written. */
function place(out: unknown): void {
  if (Array.isArray(out)) {
    for (let i = 0; i < out.length; i++) {
      const entry: unknown = out[i];
      if (entry instanceof DeferredCopy) {
        entry.container = out;
        entry.key = i;
      }
    }
  } else if (out !== null && typeof out === 'object') {
    const object = out as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const entry = object[key];
      if (entry instanceof DeferredCopy) {
        entry.container = object;
        entry.key = key;
      }
    }
    // `@Expose({ name: '__proto__' })`: class-transformer's assignment set the prototype, as this one will.
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto instanceof DeferredCopy) {
      proto.container = object;
      proto.key = '__proto__';
    }
  }
  // A placeholder found nowhere was overwritten (two keys exposed under one name): it is copied and dropped.
}

function reverseFrom(list: unknown[], first: number): void {
  for (let i = first, j = list.length - 1; i < j; i++, j--) {
    const swap = list[i];
    list[i] = list[j];
    list[j] = swap;
  }
}

/**
 * class-transformer's `instanceToPlain(object, options)` with the same
 * output, whatever the depth: see the top of this file. Up to
 * {@link MAX_COPY_DEPTH} levels, then a `RangeError`.
 */
export function chunkedInstanceToPlain(object: unknown, options?: ClassTransformOptions): unknown {
  const merged: ClassTransformOptions = { ...defaultOptions, ...options };
  return new ChunkedExecutor(Boolean(merged.enableCircularCheck), merged).copy(object);
}
