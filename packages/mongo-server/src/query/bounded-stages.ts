import type { Document } from 'bson';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { approximateSize, VALUE_BYTES } from '../bson/approximate-size.js';
import { CommandError } from '../commands/command-error.js';
import { OperationBudget } from './operation-budget.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;
type AccumulatorOperator = (collection: unknown[], expr: unknown, options: Options) => unknown;
type Predicate = (doc: unknown) => boolean;
type QueryOperator = (selector: string, value: unknown, options: Options) => Predicate;

/** MongoDB's memory limit of one blocking stage, one accumulator, one `$lookup` result: 100 MiB. */
export const STAGE_MEMORY_LIMIT = 100 * 1024 * 1024;

/** mongod's answer when a blocking stage passes {@link STAGE_MEMORY_LIMIT} under `allowDiskUse: false`. */
export function sortMemoryExceeded(): CommandError {
  return new CommandError(
    'QueryExceededMemoryLimitNoDiskUseAllowed',
    `Sort exceeded memory limit of ${STAGE_MEMORY_LIMIT} bytes, but did not opt in to external sorting.`,
  );
}

function groupMemoryExceeded(): CommandError {
  return new CommandError(
    'QueryExceededMemoryLimitNoDiskUseAllowed',
    "Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in.",
  );
}

/** Stages that can emit many more documents than they take in; each one emitted is counted as built. */
const MULTIPLYING_STAGES = new Set(['$unwind', '$lookup', '$graphLookup', '$densify', '$facet']);
/**
 * Stages whose work per document emitted has no bound of its own (a join, a
 * graph walk that hashes whole documents, sub-pipelines): the clock is read
 * for each document they emit, so a command's time limit holds to about one
 * document's work. Over 80 MB documents a `$graphLookup` ran 28 s past a 10 s limit.
 */
const HEAVY_STAGES = new Set(['$lookup', '$graphLookup', '$facet']);

/**
 * Blocking stages MongoDB bounds to 100 MiB when the command says
 * `allowDiskUse: false` (by default it would spill to disk; the embedded
 * server keeps its documents in memory either way, bounded by the command's
 * allocation budget). `$group` and `$bucket` hold their groups, `$bucketAuto`
 * sorts its whole input; `$sort` is checked by the sort itself.
 */
const GROUP_STAGES = new Set(['$group', '$bucket']);

/** Counts documents passing through `stage` against `limit`, throwing `error()` past it (only under `allowDiskUse: false`). */
function boundedBytes(stage: Iterator, error: () => CommandError): Iterator {
  if (!OperationBudget.diskUseForbidden()) return stage;
  let bytes = 0;
  return stage.map((doc: unknown) => {
    bytes += approximateSize(doc, STAGE_MEMORY_LIMIT);
    if (bytes > STAGE_MEMORY_LIMIT) throw error();
    return doc;
  });
}

/** `$lookup` with mongod's bound on each document's joined array, counted as built. */
function boundedLookup(output: Iterator, expr: unknown): Iterator {
  const { as, from } = (expr ?? {}) as { as?: unknown; from?: unknown };
  if (typeof as !== 'string') return output;
  return output.map((doc: Document) => {
    const joined: unknown = doc[as];
    if (Array.isArray(joined)) {
      OperationBudget.allocate(joined.length * VALUE_BYTES, '$lookup');
      if (approximateSize(joined, STAGE_MEMORY_LIMIT) > STAGE_MEMORY_LIMIT) {
        throw new CommandError(
          'Location4568',
          `Total size of documents in ${typeof from === 'string' ? from : 'the $lookup pipeline'} matching pipeline's $lookup stage exceeds ${STAGE_MEMORY_LIMIT} bytes`,
        );
      }
    }
    return doc;
  });
}

/**
 * Every pipeline stage of `operators`, made to tick the command's clock for
 * each document it takes in (so maxTimeMS interrupts a long pipeline), to
 * count what multiplying stages emit, and to hold blocking stages to
 * MongoDB's 100 MiB under `allowDiskUse: false`.
 */
export function budgetedPipelineOperators(
  operators: Record<string, PipelineOperator>,
): Record<string, PipelineOperator> {
  const wrapped: Record<string, PipelineOperator> = {};
  for (const [name, operator] of Object.entries(operators)) {
    wrapped[name] = (collection, expr, options) => {
      const units = OperationBudget.unitsOf(expr);
      let input = collection.map((doc: unknown) => {
        OperationBudget.tick(units);
        return doc;
      });
      if (name === '$bucketAuto') input = boundedBytes(input, sortMemoryExceeded);
      let output = operator(input, expr, options);
      if (GROUP_STAGES.has(name)) output = boundedBytes(output, groupMemoryExceeded);
      if (name === '$lookup') output = boundedLookup(output, expr);
      if (MULTIPLYING_STAGES.has(name)) {
        const heavy = HEAVY_STAGES.has(name);
        output = output.map((doc: unknown) => {
          if (heavy) OperationBudget.checkTimeNow();
          const fields = doc !== null && typeof doc === 'object' ? Object.keys(doc).length : 0;
          OperationBudget.allocate((fields + 1) * VALUE_BYTES, name);
          return doc;
        });
      }
      return output;
    };
  }
  return wrapped;
}

/** `$push`/`$addToSet` with mongod's 100 MiB bound on one accumulated array. */
function boundedArrayAccumulator(name: string, operator: AccumulatorOperator): AccumulatorOperator {
  return (collection, expr, options) => {
    const result = operator(collection, expr, options);
    if (Array.isArray(result)) {
      OperationBudget.allocate(result.length * VALUE_BYTES, name);
      if (approximateSize(result, STAGE_MEMORY_LIMIT) > STAGE_MEMORY_LIMIT) {
        throw new CommandError(
          'ExceededMemoryLimit',
          `${name} used too much memory and cannot spill to disk. Memory limit: ${STAGE_MEMORY_LIMIT} bytes`,
        );
      }
    }
    return result;
  };
}

/** Every accumulator of `operators`, ticking the clock; `$push` and `$addToSet` bounded as in MongoDB. */
export function budgetedAccumulatorOperators(
  operators: Record<string, AccumulatorOperator>,
): Record<string, AccumulatorOperator> {
  const wrapped: Record<string, AccumulatorOperator> = {};
  for (const [name, operator] of Object.entries(operators)) {
    const bounded = name === '$push' || name === '$addToSet' ? boundedArrayAccumulator(name, operator) : operator;
    wrapped[name] = (collection, expr, options) => {
      OperationBudget.tick();
      return bounded(collection, expr, options);
    };
  }
  return wrapped;
}

/** Every query operator of `operators`, its predicate ticking the clock for each document tested. */
export function budgetedQueryOperators(operators: Record<string, QueryOperator>): Record<string, QueryOperator> {
  const wrapped: Record<string, QueryOperator> = {};
  for (const [name, operator] of Object.entries(operators)) {
    wrapped[name] = (selector, value, options) => {
      const predicate = operator(selector, value, options);
      return (doc) => {
        OperationBudget.tick();
        return predicate(doc);
      };
    };
  }
  return wrapped;
}
