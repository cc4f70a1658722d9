/**
 * `$graphLookup` as mongod walks it (document_source_graph_lookup.cpp), in
 * place of mingo's: a breadth-first search whose every level reads the
 * foreign documents matching `{ $and: [restrictSearchWithMatch,
 * { <connectToField>: { $in: <frontier> } }] }` through the server's own
 * matcher, under the command's collation (else the local collection's, never
 * the foreign collection's). A document joins once, at the depth it was first
 * reached, told apart by its `_id` compared exactly (not by the collation);
 * `depthField` is an Int64. A null in the frontier never matches a document
 * without the field, and a missing `startWith` matches nothing. What one
 * walk holds (the documents reached and the values still to look up) is
 * bounded by mongod's 100 MB (40099). A level tests only the documents
 * whose `connectToField` holds one of the frontier's values, found in a hash
 * table of that field built once per stage (the `$lookup` join's, by
 * `$in`'s equality) where mongod walks an index; every document is tested
 * only when the frontier holds a regex, which `$in` matches by pattern.
 * mingo's read the whole collection at each level, answered `[{}]` for a
 * `startWith` array that matched nothing, and ignored the collation.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';

import { approximateSize } from '../bson/approximate-size.js';
import { bsonTag, isSubDocument } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { activeStringOrder } from '../bson/string-order.js';
import { CommandError } from '../commands/command-error.js';
import { ForeignTable, foreignDocuments, joinKey, localValues, withPath } from './lookup-fields.js';
import { conditionForMingo } from './mingo-values.js';
import { numericArgument } from './stage-arguments.js';
import { OperationBudget } from './operation-budget.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** mongod's internalDocumentSourceGraphLookupMaxMemoryBytes: the documents reached and the frontier of one walk. */
const MAX_MEMORY_BYTES = 100 * 1024 * 1024;

function tooMuchMemory(): CommandError {
  return new CommandError('Location40099', '$graphLookup reached maximum memory consumption');
}

interface GraphLookupSpec {
  from: string | Document[];
  as: string;
  startWith: unknown;
  connectFromField: string;
  connectToField: string;
  maxDepth?: unknown;
  depthField?: string;
  restrictSearchWithMatch?: Document;
}

/** The stage's spec when it is one this walk runs (parsing checked the rest), else `undefined`. */
function graphSpec(expr: unknown): GraphLookupSpec | undefined {
  if (!isSubDocument(expr)) return undefined;
  const { from, as, connectFromField, connectToField, depthField, restrictSearchWithMatch } = expr;
  if (typeof as !== 'string' || typeof connectFromField !== 'string' || typeof connectToField !== 'string') {
    return undefined;
  }
  if (typeof from !== 'string' && !Array.isArray(from)) return undefined;
  if (depthField !== undefined && typeof depthField !== 'string') return undefined;
  if (restrictSearchWithMatch !== undefined && !isSubDocument(restrictSearchWithMatch)) return undefined;
  return expr as unknown as GraphLookupSpec;
}

/** The filter of one level of the search, as mongod's makeMatchStageFromFrontier builds it. */
function levelFilter(spec: GraphLookupSpec, frontier: unknown[]): Document {
  const field = spec.connectToField;
  const values = frontier.filter((value) => value !== undefined);
  const and: Document[] = [];
  if (spec.restrictSearchWithMatch) and.push(spec.restrictSearchWithMatch);
  and.push({ [field]: { $in: values } });
  // A null (or missing) value of the frontier would also match a document without the field.
  if (values.length < frontier.length || values.includes(null)) and.push({ [field]: { $exists: true } });
  return { $and: and };
}

/** The maximum depth, or Infinity without one (parsing checked it is a non-negative integral number). */
function depthLimit(maxDepth: unknown): number {
  return numericArgument(maxDepth) ?? Number.POSITIVE_INFINITY;
}

/** Whether `$in` matches `value` by more than equality: a regex matches the strings it matches. */
function matchesByPattern(value: unknown): boolean {
  return value instanceof RegExp || bsonTag(value) === 'BSONRegExp';
}

/** `$graphLookup` by mongod's breadth-first search; `original` (mingo's) for a spec it does not take. */
export function graphLookupStage(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const spec = graphSpec(expr);
    if (spec === undefined) return original(collection, expr, options);
    const fromPath = spec.connectFromField.split('.');
    const limit = depthLimit(spec.maxDepth);
    let foreign: Document[] | undefined;
    const documents = (): Document[] => {
      foreign ??= typeof spec.from === 'string' ? foreignDocuments(spec.from, options) : spec.from;
      return foreign;
    };
    const toPath = spec.connectToField.split('.');
    let table: ForeignTable | undefined;
    /**
     * The documents a level's filter may match, in natural order: a superset
     * the level's query then tests, so that the table only narrows.
     */
    const candidates = (frontier: readonly unknown[]): readonly Document[] => {
      if (frontier.some(matchesByPattern)) return documents();
      if (table === undefined) {
        // The command's string order (its collation, else the local collection's), as the level's query compares.
        const order = activeStringOrder();
        table = new ForeignTable(documents(), toPath, order && stringClasses(order));
      }
      return table.matching(frontier);
    };
    return collection.map((doc: Document) => {
      const start = evalExpr(doc, spec.startWith, options);
      let frontier: unknown[] = Array.isArray(start) ? [...(start as unknown[])] : [start];
      // By `_id`, compared exactly: two `_id`s equal under the collation are two documents.
      const visited = new Map<string, Document>();
      let visitedBytes = 0;
      for (let depth = 0; depth <= limit && frontier.length > 0; depth += 1) {
        const query = new Query(conditionForMingo(levelFilter(spec, frontier)), options);
        const next: unknown[] = [];
        for (const candidate of candidates(frontier)) {
          OperationBudget.tick();
          if (!query.test(candidate)) continue;
          if (candidate._id === undefined) {
            throw new CommandError(
              'Location40271',
              `Documents in the '${String(spec.from)}' namespace must contain an _id for de-duplication in $graphLookup`,
            );
          }
          const key = joinKey(candidate._id);
          if (visited.has(key)) continue;
          visited.set(key, spec.depthField ? withPath(candidate, spec.depthField, BigInt(depth)) : candidate);
          visitedBytes += approximateSize(candidate, MAX_MEMORY_BYTES);
          // One by one: a spread of a huge array would overflow the stack.
          for (const value of localValues(candidate, fromPath)) next.push(value);
          if (visitedBytes >= MAX_MEMORY_BYTES) throw tooMuchMemory();
        }
        if (visitedBytes + approximateSize(next, MAX_MEMORY_BYTES) >= MAX_MEMORY_BYTES) throw tooMuchMemory();
        frontier = next;
      }
      return withPath(doc, spec.as, [...visited.values()]);
    });
  };
}
