/**
 * `$setWindowFields` as mongod 7.0 runs it: the documents cut into
 * partitions and sorted in BSON order (window-partitions.ts), each output
 * field computed over its window (window-bounds.ts) of the input documents
 * (an output field never sees another one's value), and the results set as
 * mongod's projection sets them (a dotted output path sets a field of a
 * sub-document). The spec is checked before the stage runs
 * (window-fields-spec.ts, from pipeline-check.ts).
 *
 * An accumulator over a window that holds the whole partition (no `window`,
 * or `['unbounded', 'unbounded']`) is computed once per partition; `$sum`,
 * `$count`, `$avg`, `$min` and `$max` over a left-unbounded window (a
 * running total, by documents or by range) in one pass (window-running-accumulators.ts);
 * other windows call the accumulator over each document's window (once per
 * distinct window). The non-accumulator functions are window-functions.ts's.
 */
import type { Document } from 'bson';
import type { Context } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { isSubDocument } from '../bson/bson-compare.js';
import { OperationBudget } from './operation-budget.js';
import { ProjectionTree } from './projection-tree.js';
import type { SortSpec } from './sort-documents.js';
import {
  type Endpoints,
  isLeftUnbounded,
  isWholePartition,
  sortValues,
  type WindowSpec,
  windowEndpoints,
} from './window-bounds.js';
import { WINDOW_FUNCTIONS } from './window-functions.js';
import { windowPartitions } from './window-partitions.js';
import { RUNNING_ACCUMULATORS, runningResults } from './window-running-accumulators.js';
import { valuesOf } from './window-values.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;

/** One output field: its path, its function and the function's argument, its window. */
interface OutputField {
  readonly path: string;
  readonly name: string;
  readonly args: unknown;
  readonly window: WindowSpec | undefined;
  /** The accumulator of that name, when the function is one. */
  readonly accumulator: AccumulatorOperator | undefined;
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** The stage's output fields; undefined when one names a function this file does not compute. */
function outputFields(spec: Document, context: Context): OutputField[] | undefined {
  const output: unknown = spec.output;
  if (!isSubDocument(output)) return undefined;
  const fields: OutputField[] = [];
  for (const [path, field] of Object.entries(output)) {
    if (!isSubDocument(field)) return undefined;
    const name = Object.keys(field).find((key) => key.startsWith('$'));
    if (name === undefined) return undefined;
    const accumulator = WINDOW_FUNCTIONS[name]
      ? undefined
      : (context.getOperator('accumulator' as never, name) as AccumulatorOperator | null);
    if (!WINDOW_FUNCTIONS[name] && !accumulator) return undefined;
    fields.push({
      path,
      name,
      args: field[name],
      window: field.window as WindowSpec | undefined,
      accumulator: accumulator ?? undefined,
    });
  }
  return fields;
}

/** A copy of a shared result, so that no two documents share an array or document. */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return [...(value as unknown[])];
  return isSubDocument(value) ? { ...value } : value;
}

/**
 * mongod's `$sum` over a window with a bounded lower end (RemovableSum,
 * window_function_sum.cpp) narrows an Int64 total that fits an int32 to an
 * int32, where `$group`'s (and a left-unbounded window's) keeps it an Int64.
 */
function removableSum(value: unknown): unknown {
  return typeof value === 'bigint' && value >= INT32_MIN && value <= INT32_MAX ? Number(value) : value;
}

/** Each document's result of an accumulator over its window of `partition`. */
function accumulated(
  field: OutputField,
  accumulator: AccumulatorOperator,
  partition: Document[],
  endpoints: (index: number) => Endpoints,
  options: Options,
): unknown[] {
  const over = (lo: number, hi: number): unknown => accumulator(partition.slice(lo, hi + 1), field.args, options);
  if (isWholePartition(field.window)) {
    const result = over(0, partition.length - 1);
    return partition.map(() => copyOf(result));
  }
  const empty = () => accumulator([], field.args, options);
  if (isLeftUnbounded(field.window) && RUNNING_ACCUMULATORS.has(field.name)) {
    // A window from the partition's first document (a range one may start later, at its first value
    // of the window's type: that one is computed apart).
    let prefixes: unknown[] | undefined;
    return partition.map((_, i) => {
      OperationBudget.tick();
      const window = endpoints(i);
      if (window === undefined) return empty();
      if (window[0] !== 0) return over(window[0], window[1]);
      if (prefixes === undefined) {
        const values = field.name === '$count' ? partition.map(() => null) : valuesOf(partition, field.args, options);
        prefixes = runningResults(field.name, values, (k) => over(0, k));
      }
      return copyOf(prefixes[window[1]]);
    });
  }
  const narrow = (field.name === '$sum' || field.name === '$count') && !isLeftUnbounded(field.window);
  // Neighbouring documents often share a window (a range of equal values): each distinct one is computed once.
  const known = new Map<string, unknown>();
  return partition.map((_, i) => {
    OperationBudget.tick();
    const window = endpoints(i);
    const key = window === undefined ? '' : `${window[0]},${window[1]}`;
    if (!known.has(key)) {
      const result = window === undefined ? empty() : over(window[0], window[1]);
      known.set(key, narrow ? removableSum(result) : result);
    }
    return copyOf(known.get(key));
  });
}

/** The documents of `docs` with the stage's output fields set. */
function setWindowFields(docs: Document[], spec: Document, fields: OutputField[], options: Options): Document[] {
  const sortBy = spec.sortBy as SortSpec | undefined;
  const sortKeys = Object.entries(sortBy ?? {});
  const sortPath = sortKeys.length === 1 ? sortKeys[0]![0] : undefined;
  const descending = sortKeys.length === 1 && Number(sortKeys[0]![1]) === -1;
  // The results of the document being written, read by the projection's computed fields.
  let current: unknown[] = [];
  const tree = ProjectionTree.addingFields({}, () => () => undefined);
  fields.forEach((field, index) => tree.addComputed(field.path, () => current[index]));
  const out: Document[] = [];
  for (const partition of windowPartitions(docs, spec.partitionBy, sortBy, options)) {
    let sorted: readonly unknown[] | undefined;
    const values = () => (sorted ??= sortPath === undefined ? [] : sortValues(partition, sortPath, options));
    const results = fields.map((field) => {
      const endpoints = windowEndpoints(field.window, partition.length, values);
      if (field.accumulator) return accumulated(field, field.accumulator, partition, endpoints, options);
      return WINDOW_FUNCTIONS[field.name]!({
        partition,
        args: field.args,
        sortPath,
        descending,
        sortValues: values,
        endpoints,
        options,
      });
    });
    partition.forEach((doc, i) => {
      current = results.map((result) => result[i]);
      out.push(tree.apply(doc));
    });
  }
  return out;
}

/**
 * `$setWindowFields` as mongod's, with mingo's stage (`original`) for any function not here. Its
 * spec is checked before any document is read, with mongod's codes (window-fields-spec.ts).
 */
export function windowFieldsStage(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const context = options.context as Context | undefined;
    const fields = context && isSubDocument(expr) ? outputFields(expr, context) : undefined;
    if (fields === undefined) return original(collection, expr, options);
    return collection.transform((docs: Document[]) => Lazy(setWindowFields(docs, expr as Document, fields, options)));
  };
}
