import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

const excludedCache = new WeakMap<object, ReadonlySet<string> | null>();

/**
 * Property names class-transformer drops from instances of `ctor` when it
 * turns them into plain objects (`@Exclude()` and `@Exclude({ toPlainOnly })`,
 * inherited ones included), or `undefined` when there are none.
 *
 * The walker copies these properties unchanged instead of walking them: an
 * excluded back-reference (`@Exclude() parent`) is not a circular structure
 * in the response, and a large excluded field costs nothing.
 */
export function excludedOnSerialization(ctor: object): ReadonlySet<string> | undefined {
  let excluded = excludedCache.get(ctor);
  if (excluded === undefined) {
    const names = defaultMetadataStorage
      .getExcludedProperties(ctor as new () => unknown, TransformationType.CLASS_TO_PLAIN)
      .filter((name): name is string => typeof name === 'string');
    excluded = names.length > 0 ? new Set(names) : null;
    excludedCache.set(ctor, excluded);
  }
  return excluded ?? undefined;
}
