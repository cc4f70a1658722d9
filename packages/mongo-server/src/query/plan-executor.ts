import type { Document } from 'bson';

import { bsonTag, compareBson } from '../bson/bson-compare.js';
import { Collation } from '../bson/collation.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { TransactionOverlay } from '../session/transaction-overlay.js';
import { CollectionStore } from '../store/collection-store.js';
import type { CollectionView } from '../store/collection-view.js';
import { compareIndexValues, INDEX_END, INDEX_START, type IndexEdge } from '../store/index-key-order.js';
import type { IndexEntryKey } from '../store/ordered-index.js';
import {
  contains,
  FULL_RANGE,
  intersectionOf,
  type IntervalList,
  isPoints,
  isSinglePoint,
  operatorBounds,
} from './index-bounds.js';
import { OperationBudget } from './operation-budget.js';
import { compileFilter } from './query-context.js';
import { type IndexScanPlan, planQuery, type PlanRequest, type QueryPlan } from './query-planner.js';
import { parseSortSpec, sortDocuments } from './sort-documents.js';
import { runTextQuery } from './text-search.js';

/** A query as find, count, update, delete and findAndModify pose it. */
export interface QueryRequest extends PlanRequest {
  /** 0 or absent: no limit. */
  readonly limit?: number;
}

/** What answering a query cost, as explain's executionStats reports it. */
export interface QueryStats {
  keysExamined: number;
  docsExamined: number;
  nReturned: number;
}

/** The documents of a query (filtered, sorted, skipped and limited) and how they were found. */
export interface QueryResult {
  readonly docs: Document[];
  readonly plan: QueryPlan;
  readonly stats: QueryStats;
}

/**
 * The record ids of `docs` (documents of `view`), as `showRecordId` reports
 * them: each stored document's natural-order number from 1, and a
 * transaction's own inserts numbered after every stored document.
 */
export function recordIdsOf(view: CollectionView | undefined, docs: Document[]): bigint[] {
  const store = view ? storeOf(view).store : undefined;
  let added = store?.seqEnd ?? 0;
  return docs.map((doc) => BigInt((store?.seqOf(CollectionStore.idKey(doc)) ?? added++) + 1));
}

/** More key ranges than this (an `$in` on each of several fields) and the rest of the fields are filtered instead. */
const MAX_KEY_RANGES = 2000;

/** The committed collection under `view`, and the transaction's changes when there are any. */
function storeOf(view: CollectionView): { store?: CollectionStore; changes?: Map<string, Document | null> } {
  if (view instanceof CollectionStore) return { store: view };
  if (view instanceof TransactionOverlay) {
    return { store: view.collection, changes: view.changes.size > 0 ? view.changes : undefined };
  }
  return {};
}

/** The key ranges to walk, in index order, and how many leading fields they pin exactly. */
function keyRanges(plan: IndexScanPlan): { ranges: [IndexEntryKey, IndexEntryKey][]; depth: number } {
  const { fields } = plan.index.ordered;
  let ranges: [IndexEntryKey, IndexEntryKey][] = [[[], []]];
  let depth = 0;
  for (let i = 0; i < fields.length; i++) {
    const list = plan.bounds[i]!;
    if (ranges.length * list.length > MAX_KEY_RANGES) break;
    const ascending = fields[i]!.direction === 1;
    const intervals = ascending ? list : [...list].reverse();
    ranges = ranges.flatMap(([low, high]) =>
      intervals.map((interval): [IndexEntryKey, IndexEntryKey] =>
        // A point is the value itself on both ends, so that the next field's bounds still decide.
        isSinglePoint([interval])
          ? [
              [...low, interval.start.value],
              [...high, interval.start.value],
            ]
          : ascending
            ? [
                [...low, interval.start],
                [...high, interval.end],
              ]
            : [
                [...low, interval.end],
                [...high, interval.start],
              ],
      ),
    );
    depth = i + 1;
    if (list === FULL_RANGE || !isPoints(list)) break;
  }
  for (const [low, high] of ranges) {
    for (let i = depth; i < fields.length; i++) {
      const ascending = fields[i]!.direction === 1;
      low.push(ascending ? INDEX_START : INDEX_END);
      high.push(ascending ? INDEX_END : INDEX_START);
    }
    low.push(Number.NEGATIVE_INFINITY);
    high.push(Number.POSITIVE_INFINITY);
  }
  return { ranges, depth };
}

/** Every entry within the plan's bounds, in walk order; counts each key examined. */
function* scanEntries(plan: IndexScanPlan, stats: QueryStats): Generator<[IndexEntryKey, string]> {
  const { ranges, depth } = keyRanges(plan);
  const reverse = plan.direction === -1;
  const filtered = plan.bounds.map((list, i) => (i >= depth && list !== FULL_RANGE ? list : undefined));
  for (const [low, high] of reverse ? ranges.reverse() : ranges) {
    for (const entry of plan.index.ordered.range(low, high, reverse)) {
      stats.keysExamined++;
      OperationBudget.tick();
      if (filtered.every((list, i) => list === undefined || contains(list, entry[0][i]))) yield entry;
    }
  }
}

function sameSortKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.every((value, i) => compareIndexValues(value, b[i]) === 0);
}

/**
 * Walks an index that gives the requested order and stops once `wanted`
 * documents matched. Equal sort keys are handed out in natural order, as the
 * (stable) in-memory sort does, so the result is the same as a scan's.
 */
function walkSorted(
  plan: IndexScanPlan,
  view: CollectionView,
  matches: (doc: Document) => boolean,
  wanted: number,
  stats: QueryStats,
): Document[] {
  const out: Document[] = [];
  /** Fetches and matches one document; true once `wanted` have matched. */
  const take = (idKey: string): boolean => {
    const doc = view.get(idKey);
    if (!doc) return false;
    stats.docsExamined++;
    if (matches(doc)) out.push(doc);
    return out.length >= wanted;
  };
  const { fields } = plan.index.ordered;
  const seqAt = fields.length;
  const idPosition = fields.findIndex((field) => field.path === '_id');
  if (
    (plan.index.unique && plan.sortPositions.length === seqAt) ||
    // `_id`s differ in BSON order; under an index's collation two strings could tie.
    (idPosition >= 0 && plan.sortPositions.includes(idPosition) && !plan.index.collation)
  ) {
    // Sorted on every field of a unique index, or on `_id` among others (a keyset page, by
    // `_id` or by another field with `_id` breaking ties): no two documents tie, so each comes
    // in index order without comparing its key with the one before. The sort fields of an index
    // that gives a sort are not multikey; an equality-bound field before them may be, and then
    // lists a document once per element.
    const multikey = plan.index.ordered.isMultikeyOnAnyField();
    const seen = new Set<string>();
    for (const [, idKey] of scanEntries(plan, stats)) {
      if (multikey) {
        if (seen.has(idKey)) continue;
        seen.add(idKey);
      }
      if (take(idKey)) break;
    }
    return out;
  }
  const seen = new Set<string>();
  let run: { seq: number; idKey: string }[] = [];
  let runKey: unknown[] | undefined;
  const flush = (): boolean => {
    run.sort((a, b) => a.seq - b.seq);
    for (const { idKey } of run) if (take(idKey)) return true;
    run = [];
    return false;
  };
  for (const [key, idKey] of scanEntries(plan, stats)) {
    const sortKey = plan.sortPositions.map((position) => key[position]);
    if (runKey && !sameSortKey(sortKey, runKey) && flush()) return out;
    runKey = sortKey;
    if (seen.has(idKey)) continue;
    seen.add(idKey);
    run.push({ seq: key[seqAt] as number, idKey });
  }
  flush();
  return out;
}

/** Whether `hint` names an index (by name or key pattern), not `{ $natural: ±1 }` nor nothing. */
function isIndexHint(hint: unknown): boolean {
  if (typeof hint === 'string') return hint.length > 0;
  return hint !== null && typeof hint === 'object' && !Object.hasOwn(hint, '$natural');
}

/** The plan's candidates (and, in a transaction, every document it changed), in natural order. */
function candidates(
  plan: QueryPlan,
  store: CollectionStore,
  changes: Map<string, Document | null> | undefined,
  stats: QueryStats,
): string[] {
  if (plan.kind === 'IDHACK' && !changes) {
    // One key at most: nothing to order.
    const idKey = encodeIndexValue(plan.id);
    stats.keysExamined++;
    return store.seqOf(idKey) === undefined ? [] : [idKey];
  }
  const found = new Map<string, number>();
  if (plan.kind === 'IDHACK') {
    const idKey = encodeIndexValue(plan.id);
    const seq = store.seqOf(idKey);
    stats.keysExamined++;
    if (seq !== undefined) found.set(idKey, seq);
  } else if (plan.kind === 'IXSCAN') {
    const seqAt = plan.index.ordered.fields.length;
    for (const [key, idKey] of scanEntries(plan, stats)) found.set(idKey, key[seqAt] as number);
  }
  if (changes) {
    // The transaction's own versions go to the matcher whatever their keys: the indexes hold committed data only.
    let added = store.seqEnd;
    for (const [idKey, doc] of changes) {
      found.delete(idKey);
      if (doc) found.set(idKey, store.seqOf(idKey) ?? added++);
    }
  }
  return [...found].sort((a, b) => a[1] - b[1]).map(([idKey]) => idKey);
}

/**
 * Answers a query through the plan {@link planQuery} picks: candidates from
 * an index (or every document), each checked by the full matcher, then
 * sorted, skipped and limited. Inside a transaction the committed indexes
 * give the committed candidates and the transaction's changed documents are
 * added to them; an index then still narrows, but a sort is done in memory.
 * Strings compare by the request's collation, else the collection's default.
 */
export function runQuery(view: CollectionView | undefined, request: QueryRequest): QueryResult {
  const collation = Collation.resolve(request.collation, view && storeOf(view).store?.options.collation);
  return Collation.run(collation, () => runCollatedQuery(view, request, collation));
}

/** A count taken from one index's entries alone, without fetching a document (MongoDB's COUNT_SCAN). */
export interface IndexCount {
  readonly plan: IndexScanPlan;
  /** The documents whose entries match, before skip and limit. */
  readonly entries: number;
  /**
   * The keys mongod's COUNT_SCAN examines under a COUNT with the request's
   * skip and limit: up to the last document counted, else every matching key
   * and the probe past the last (duplicates of a multikey index included).
   */
  readonly keysExamined: number;
}

/** How {@link countQuery} counted: `n` after skip and limit, and either the index count or the query it ran. */
export type CountOutcome =
  | { readonly n: number; readonly indexCount: IndexCount; readonly result?: undefined }
  | { readonly n: number; readonly result: QueryResult; readonly indexCount?: undefined };

/**
 * How many documents {@link runQuery} would return for `request`, counted
 * from an index alone when its bounds say exactly which documents match, as
 * MongoDB's COUNT_SCAN does: a filter of equalities and ranges on scalars
 * (a string, number, boolean, date or ObjectId) over fields of one index
 * (one field only if the index is multikey, each document then counted once),
 * outside a transaction that changed the collection. Otherwise the documents
 * are fetched and matched, as for a find.
 */
export function countQuery(view: CollectionView | undefined, request: QueryRequest): number {
  return countOutcome(view, request).n;
}

/** {@link countQuery}, with how it counted (for explain). */
export function countOutcome(view: CollectionView | undefined, request: QueryRequest): CountOutcome {
  const collation = Collation.resolve(request.collation, view && storeOf(view).store?.options.collation);
  return Collation.run(collation, (): CountOutcome => {
    const { store, changes } = view ? storeOf(view) : {};
    const filter = request.filter;
    const exact = store && !changes && filter ? exactBounds(filter) : undefined;
    if (store && filter && exact) {
      // Compiled, unused, before the plan: a bad filter is refused as a find refuses it (and before a bad hint).
      compileFilter(filter);
      const plan = planQuery(store, { filter, hint: request.hint, collation: request.collation }, collation);
      if (plan.kind === 'IXSCAN' && walksExactly(plan, exact)) {
        const stats: QueryStats = { keysExamined: 0, docsExamined: 0, nReturned: 0 };
        const skip = request.skip ?? 0;
        const wanted = request.limit ? skip + request.limit : Number.POSITIVE_INFINITY;
        // A multikey index holds a document once per matching element.
        const seen = plan.index.ordered.isMultikeyOnAnyField() ? new Set<string>() : undefined;
        let entries = 0;
        let keys = 0;
        let keysAtLimit = 0;
        for (const [, idKey] of scanEntries(plan, stats)) {
          keys++;
          if (seen?.has(idKey)) continue;
          seen?.add(idKey);
          if (++entries === wanted) keysAtLimit = keys;
        }
        const n = Math.max(0, entries - skip);
        const keysExamined = entries >= wanted ? keysAtLimit : keys + 1;
        return { n: request.limit ? Math.min(n, request.limit) : n, indexCount: { plan, entries, keysExamined } };
      }
    }
    const result = runCollatedQuery(view, request, collation);
    return { n: result.docs.length, result };
  });
}

/** A scalar whose index bounds hold exactly the keys it matches (arrays, documents, null, NaN and regexes match otherwise). */
function isIndexExactScalar(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return true;
    case 'number':
      return !Number.isNaN(value);
  }
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  const tag = bsonTag(value);
  if (tag === 'ObjectId') return true;
  return tag === 'Double' && !Number.isNaN((value as { value: number }).value);
}

/** Operators whose bounds on a scalar hold exactly the values they match. */
const EXACT_OPERATORS: ReadonlySet<string> = new Set(['$eq', '$gt', '$gte', '$lt', '$lte']);

/**
 * Per field of `filter`, the index bounds that hold exactly the values its
 * condition matches, or undefined when a condition is anything but
 * equalities and ranges (`x`, `{ $gte: x, $lt: y }`, …) on scalars. Strings
 * compare under the command's collation here as in the planner, and the
 * planner keeps their bounds only on an index of that same collation.
 */
function exactBounds(filter: Document): Map<string, IntervalList> | undefined {
  const entries = Object.entries(filter);
  if (entries.length === 0) return undefined;
  const out = new Map<string, IntervalList>();
  for (const [field, condition] of entries) {
    if (field.startsWith('$') || field === '__proto__') return undefined;
    if (isIndexExactScalar(condition)) {
      out.set(field, operatorBounds('$eq', condition)!);
      continue;
    }
    if (condition === null || typeof condition !== 'object' || Object.getPrototypeOf(condition) !== Object.prototype) {
      return undefined;
    }
    const operators = Object.entries(condition as Document);
    if (operators.length === 0) return undefined;
    let list = FULL_RANGE;
    for (const [operator, operand] of operators) {
      if (!EXACT_OPERATORS.has(operator) || !isIndexExactScalar(operand)) return undefined;
      list = intersectionOf(list, operatorBounds(operator, operand)!);
    }
    out.set(field, list);
  }
  return out;
}

/**
 * Whether `plan` walks exactly the entries `exact` describes: every field
 * bounded as it says. On a multikey index only one field may be (its keys
 * pair every value of one field with every value of the other, where the
 * matcher may take them from two elements), and no document may hold an
 * array in an array there (see `OrderedIndex.hasNestedArrays`).
 */
function walksExactly(plan: IndexScanPlan, exact: Map<string, IntervalList>): boolean {
  const { ordered } = plan.index;
  const { fields } = ordered;
  if (ordered.isMultikeyOnAnyField() && (exact.size > 1 || ordered.hasNestedArrays())) return false;
  for (const [field, list] of exact) {
    const position = fields.findIndex((indexed) => indexed.path === field);
    // The planner kept the bounds (it drops a string's under another collation than the index's).
    // A hashed field's keys are hashes, which values share (3 and 3.1): only a fetch tells them apart.
    if (position < 0 || fields[position]!.hashed || !sameIntervals(plan.bounds[position]!, list)) return false;
  }
  return true;
}

function sameEdge(a: IndexEdge, b: IndexEdge): boolean {
  return (
    a.rank === b.rank &&
    a.side === b.side &&
    a.ofValue === b.ofValue &&
    (!a.ofValue || compareBson(a.value, b.value) === 0)
  );
}

function sameIntervals(a: IntervalList, b: IntervalList): boolean {
  return (
    a.length === b.length &&
    a.every((interval, i) => sameEdge(interval.start, b[i]!.start) && sameEdge(interval.end, b[i]!.end))
  );
}

function runCollatedQuery(
  view: CollectionView | undefined,
  request: QueryRequest,
  collation: Collation | undefined,
): QueryResult {
  const text = runTextQuery(view, request);
  if (text) return text;
  const matches = compileFilter(request.filter);
  const sort = request.sort && Object.keys(request.sort).length > 0 ? request.sort : undefined;
  if (sort) parseSortSpec(sort);
  const skip = request.skip ?? 0;
  const limit = request.limit ?? 0;
  const stats: QueryStats = { keysExamined: 0, docsExamined: 0, nReturned: 0 };
  const finish = (docs: Document[], plan: QueryPlan, sorted: boolean): QueryResult => {
    let result = sort && !sorted ? sortDocuments(docs, sort) : docs;
    if (skip > 0 || limit > 0) result = result.slice(skip, limit > 0 ? skip + limit : undefined);
    stats.nReturned = result.length;
    return { docs: result, plan, stats };
  };
  if (!view) return finish([], { kind: 'COLLSCAN' }, true);
  const { store, changes } = storeOf(view);
  // Named fields, not `{ ...request, sort, limited }`: a spread followed by a field it
  // already has leaves V8's fast clone path, about a microsecond of every find by `_id`.
  const planRequest: PlanRequest = {
    filter: request.filter,
    sort,
    hint: request.hint,
    limited: limit > 0,
    skip: request.skip,
    collation: request.collation,
  };
  const plan = planQuery(store, planRequest, collation);
  if (plan.kind === 'IXSCAN' && plan.providesSort && !changes) {
    return finish(walkSorted(plan, view, matches, limit > 0 ? skip + limit : Infinity, stats), plan, true);
  }
  if (plan.kind === 'IXSCAN' && !sort && !changes && isIndexHint(request.hint)) {
    // A hinted index is the plan the client asked for, and mongod returns its documents in the
    // index's order (equal keys in insertion order): tests that hint an index assert that order.
    const inIndexOrder = { ...plan, sortPositions: plan.index.ordered.fields.map((_field, position) => position) };
    return finish(walkSorted(inIndexOrder, view, matches, limit > 0 ? skip + limit : Infinity, stats), plan, true);
  }
  // Otherwise, without a sort, documents come in natural order whatever the plan, so the first `wanted` are final.
  const wanted = limit > 0 && !sort ? skip + limit : Infinity;
  const matched: Document[] = [];
  const units = OperationBudget.unitsOf(request.filter);
  const consider = (doc: Document): boolean => {
    stats.docsExamined++;
    OperationBudget.tick(units);
    if (matches(doc)) matched.push(doc);
    return matched.length >= wanted;
  };
  if (plan.kind === 'COLLSCAN' || !store) {
    for (const doc of view.documents()) if (consider(doc)) break;
  } else {
    for (const idKey of candidates(plan, store, changes, stats)) {
      const doc = view.get(idKey);
      if (doc && consider(doc)) break;
    }
  }
  return finish(matched, plan, false);
}
