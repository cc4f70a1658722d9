/**
 * The partitions of `$setWindowFields` as mongod forms them
 * (document_source_set_window_fields.cpp, partition_iterator.cpp): the
 * stage is a `$sort` by `{<partition key>: 1, ...sortBy}` in BSON order,
 * then each run of documents whose partition keys compare equal is one
 * partition. So `1`, `NumberLong(1)` and `1.0` are one partition, a missing
 * key is null's partition, partitions come out in key order, and the
 * documents of one in `sortBy`'s BSON order (numbers by value across their
 * types). mingo grouped by JavaScript identity (`1` and `NumberLong(1)`
 * apart), kept the partitions in the order first seen and sorted `sortBy`
 * with its own comparison (a `NumberLong(1)` after a `2`).
 */
import type { Document } from 'bson';
import type { Options } from 'mingo/types';

import { compareBson } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { sortDocuments, type SortSpec } from './sort-documents.js';
import { valuesOf } from './window-values.js';

/** A document with the partition key it was sorted by. */
interface Keyed {
  readonly key: unknown;
  readonly doc: Document;
}

/** The name the sort reads the key at; the document sits under {@link DOC} beside it. */
const KEY = 'k';
const DOC = 'd';

/**
 * `docs` cut into `$setWindowFields` partitions, each in `sortBy` order.
 * Without `partitionBy` and `sortBy`, one partition in the input order.
 */
export function windowPartitions(
  docs: readonly Document[],
  partitionBy: unknown,
  sortBy: SortSpec | undefined,
  options: Options,
): Document[][] {
  if (docs.length === 0) return [];
  const partitioned = partitionBy !== undefined;
  const keys = partitioned ? valuesOf(docs, partitionBy, options) : [];
  const keyed: Keyed[] = docs.map((doc, i) => {
    // mongod coerces a missing key to null, as $group does (nulls and missing sort together).
    const key: unknown = keys[i] ?? null;
    if (Array.isArray(key)) throw new CommandError('TypeMismatch', "Cannot 'partitionBy' an expression of type array");
    return { key, doc };
  });
  // The documents sit one level down, so `sortBy`'s paths read them as they read the document itself.
  const spec: SortSpec = partitioned ? { [KEY]: 1 } : {};
  for (const [path, direction] of Object.entries(sortBy ?? {})) spec[`${DOC}.${path}`] = direction;
  const sorted =
    Object.keys(spec).length === 0
      ? keyed
      : sortDocuments(
          keyed.map(({ key, doc }) => ({ [KEY]: key, [DOC]: doc })),
          spec,
        ).map((entry) => ({ key: entry[KEY] as unknown, doc: entry[DOC] as Document }));
  const partitions: Document[][] = [];
  let current: Document[] = [];
  let currentKey: unknown;
  for (const { key, doc } of sorted) {
    if (current.length > 0 && compareBson(key, currentKey) !== 0) {
      partitions.push(current);
      current = [];
    }
    if (current.length === 0) currentKey = key;
    current.push(doc);
  }
  partitions.push(current);
  return partitions;
}
