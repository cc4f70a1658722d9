/** Compares two strings: negative, zero or positive. */
export type StringOrder = (a: string, b: string) => number;

let active: StringOrder | undefined;

/**
 * The string order of the command being run: its collation's, or undefined
 * for MongoDB's binary order. Commands never interleave (the engine is
 * synchronous), so the matcher's and the sort's comparisons deep inside mingo
 * reach it without threading it through every call, as {@link OperationBudget}
 * does for the clock.
 */
export function activeStringOrder(): StringOrder | undefined {
  return active;
}

/** Runs `fn` with `order` as the active string order (nested runs restore the outer one). */
export function withStringOrder<T>(order: StringOrder | undefined, fn: () => T): T {
  const outer = active;
  active = order;
  try {
    return fn();
  } finally {
    active = outer;
  }
}
