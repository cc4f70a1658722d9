import type { Document } from 'bson';

import { bsonTypeRank } from '../bson/bson-compare.js';
import { Collation } from '../bson/collation.js';
import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { ID_INDEX_SPEC, type CollectionStore } from '../store/collection-store.js';
import type { OrderedIndex } from '../store/ordered-index.js';
import type { TextQueryPlan } from './text-query-plan.js';
import {
  admitsNull,
  fieldConditions,
  FULL_RANGE,
  intersectionOf,
  isOperatorObject,
  isPoints,
  isSinglePoint,
  operatorBounds,
  point,
  unionOf,
  type IntervalList,
} from './index-bounds.js';
import { hashedIndexKey } from './hashed-index-key.js';

/** An index the planner may walk. */
export interface PlannableIndex {
  readonly name: string;
  readonly keyPattern: Document;
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly ordered: OrderedIndex;
  /** The index's collation (undefined: simple, as `_id_` always is here). */
  readonly collation?: Collation;
}

/** Walk an index between bounds, fetch each document, let the matcher decide. */
export interface IndexScanPlan {
  readonly kind: 'IXSCAN';
  readonly index: PlannableIndex;
  /** Per index field, the values it may take. */
  readonly bounds: IntervalList[];
  /** 1: in index order; -1: backwards. */
  readonly direction: 1 | -1;
  /** Whether walking the index gives the requested sort (then a limit stops the walk). */
  readonly providesSort: boolean;
  /** The index positions of the sort fields, when {@link providesSort}. */
  readonly sortPositions: readonly number[];
}

/** How a query is answered: a look-up by `_id`, an index scan, a collection scan, or a text index's postings. */
export type QueryPlan =
  | { readonly kind: 'COLLSCAN' }
  | { readonly kind: 'IDHACK'; readonly id: unknown; readonly index: PlannableIndex }
  | IndexScanPlan
  | TextQueryPlan;

/** What the planner is told about a query. */
export interface PlanRequest {
  readonly filter?: Document;
  readonly sort?: Document;
  /** `hint`: an index name or key pattern, or `{ $natural: ±1 }`. */
  readonly hint?: unknown;
  /** Whether the result is cut (a limit), which makes an index that provides the sort worth more. */
  readonly limited?: boolean;
  readonly skip?: number;
  /** The command's `collation` document, as sent (the executor resolves it against the collection's default). */
  readonly collation?: Document;
}

/** The `_id_` index of `collection`, as the planner sees it. */
function idIndex(collection: CollectionStore): PlannableIndex {
  return {
    name: ID_INDEX_SPEC.name,
    keyPattern: ID_INDEX_SPEC.key,
    unique: true,
    sparse: false,
    ordered: collection.idIndex,
  };
}

/** The indexes of `collection` the planner may use (not hidden ones, which writes still maintain), `_id_` first. */
export function plannableIndexes(collection: CollectionStore): PlannableIndex[] {
  const indexes: PlannableIndex[] = [idIndex(collection)];
  for (const index of collection.indexes.values()) {
    if (!index.ordered || index.spec.hidden === true) continue;
    indexes.push({
      name: index.name,
      keyPattern: index.spec.key,
      unique: index.unique,
      sparse: index.spec.sparse === true,
      ordered: index.ordered,
      collation: index.collation,
    });
  }
  return indexes;
}

/** Strings, and documents and arrays (which may hold strings): the values a collation compares. */
const COLLATABLE_RANKS = new Set([bsonTypeRank(''), bsonTypeRank({}), bsonTypeRank([])]);

function isCollatable(value: unknown): boolean {
  return COLLATABLE_RANKS.has(bsonTypeRank(value));
}

/** Whether bounds name a value a collation compares (type-wide ranges name none). */
function hasCollatableBound(list: IntervalList): boolean {
  return list.some(
    ({ start, end }) => (start.ofValue && isCollatable(start.value)) || (end.ofValue && isCollatable(end.value)),
  );
}

/** `{ _id: <value> }` and nothing else: mongod's IDHACK look-up. */
function simpleIdValue(filter: Document | undefined): { id: unknown } | undefined {
  if (!filter) return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const value: unknown = filter._id;
  return !isOperatorObject(value) && operatorBounds('$eq', value) ? { id: value } : undefined;
}

function sortFields(sort: Document | undefined): [string, number][] {
  if (!sort) return [];
  return Object.entries(sort).map(([path, direction]) => [path, Number(direction)]);
}

/** How the index serves the sort, if it does: walk direction and the sort fields' positions. */
function sortSupport(
  index: PlannableIndex,
  bounds: IntervalList[],
  sort: [string, number][],
): { direction: 1 | -1; positions: number[] } | undefined {
  if (sort.length === 0 || sort.some(([path]) => path === '$natural')) return undefined;
  const { fields } = index.ordered;
  let direction = 0;
  let k = 0;
  const positions: number[] = [];
  for (const [path, wanted] of sort) {
    while (k < fields.length && fields[k]!.path !== path && isSinglePoint(bounds[k]!)) k++;
    if (k >= fields.length || fields[k]!.path !== path || fields[k]!.hashed || index.ordered.isMultikey(k)) {
      return undefined;
    }
    const relative = wanted * fields[k]!.direction;
    if (direction === 0) direction = relative;
    else if (relative !== direction) return undefined;
    positions.push(k++);
  }
  return { direction: direction < 0 ? -1 : 1, positions };
}

/** A field's bounds: all its conditions intersected, or (multikey: elements may each meet another condition) the narrowest one. */
function fieldBounds(conditions: IntervalList[] | undefined, multikey: boolean): IntervalList {
  if (!conditions || conditions.length === 0) return FULL_RANGE;
  if (!multikey) return conditions.reduce(intersectionOf);
  return conditions.find(isPoints) ?? conditions[0]!;
}

/**
 * The values a hashed field's conditions pin: their intersection when that
 * is points (an equality or `$in` among them makes it so), else every value
 * (FULL_RANGE): a range of values is no range of hashes.
 */
function hashedValues(conditions: IntervalList[] | undefined): IntervalList {
  if (!conditions || conditions.length === 0) return FULL_RANGE;
  const all = conditions.reduce(intersectionOf);
  return isPoints(all) ? all : FULL_RANGE;
}

/**
 * A hashed field's bounds: the hashes of the values it may take, or every
 * key. Values that hash alike (`3` and `3.1`: a number hashes as the Int64
 * it truncates to) share a point, and the matcher tells them apart.
 */
function hashedBounds(values: IntervalList, multikey: boolean): IntervalList {
  if (values === FULL_RANGE || multikey) return FULL_RANGE;
  return unionOf(values.map(({ start }) => point(hashedIndexKey(start.value))));
}

/**
 * MongoDB's collation rule: an index whose collation differs from the
 * query's orders strings otherwise, so it gives no bounds on strings (or
 * documents and arrays) and no sort; numbers, dates, ObjectIds still narrow.
 */
function scanPlan(
  index: PlannableIndex,
  conditions: Map<string, IntervalList[]>,
  sort: [string, number][],
  collation: Collation | undefined,
): { plan: IndexScanPlan; score: number; usable: boolean } {
  const { ordered } = index;
  const sameCollation = Collation.same(index.collation, collation);
  const usable = (lists: IntervalList[] | undefined) =>
    sameCollation || !lists ? lists : lists.filter((list) => !hasCollatableBound(list));
  // The values each field may take; a hashed field's bounds are then their hashes.
  const valueBounds = ordered.fields.map((field, i) => {
    const lists = usable(conditions.get(field.path));
    return field.hashed ? hashedValues(lists) : fieldBounds(lists, ordered.isMultikey(i));
  });
  const bounds = ordered.fields.map((field, i) =>
    field.hashed ? hashedBounds(valueBounds[i]!, ordered.isMultikey(i)) : valueBounds[i]!,
  );
  let points = 0;
  while (points < bounds.length && bounds[points] !== FULL_RANGE && isPoints(bounds[points]!)) points++;
  const ranged = points < bounds.length && bounds[points] !== FULL_RANGE;
  const support = sameCollation ? sortSupport(index, bounds, sort) : undefined;
  // A sparse index lacks the documents missing all its fields: usable only if the bounds exclude them.
  const complete = !index.sparse || valueBounds.some((list) => list !== FULL_RANGE && !admitsNull(list));
  const unique = index.unique && points === bounds.length && bounds.every(isSinglePoint);
  const score = (unique ? 1000 : 0) + points * 10 + (ranged ? 5 : 0) + (support ? 4 : 0) - bounds.length * 0.01;
  return {
    plan: {
      kind: 'IXSCAN',
      index,
      bounds,
      direction: support?.direction ?? 1,
      providesSort: support !== undefined,
      sortPositions: support?.positions ?? [],
    },
    score,
    usable: complete && (points > 0 || ranged || support !== undefined),
  };
}

function hintedIndex(indexes: PlannableIndex[], hint: unknown): PlannableIndex | 'natural' | undefined {
  if (hint === undefined || hint === null) return undefined;
  if (typeof hint === 'string') {
    if (hint.length === 0) return undefined;
    const named = indexes.find((index) => index.name === hint);
    if (named) return named;
  } else if (typeof hint === 'object') {
    const keys = Object.keys(hint);
    if (keys.length === 0) return undefined;
    if (keys[0] === '$natural') return 'natural';
    const pattern = formatDocument(hint as Document);
    const found = indexes.find((index) => formatDocument(index.keyPattern) === pattern);
    if (found) return found;
  }
  throw new CommandError(
    'BadValue',
    'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index',
  );
}

/**
 * Picks how to answer a query on `collection`: MongoDB's IDHACK for
 * `{ _id: value }`, else the index whose bounds narrow most (equality
 * prefix, then a range, then serving the sort), else a collection scan.
 * The plan only narrows: every candidate still goes through the matcher.
 * `collation` is the query's, resolved (undefined: simple).
 */
export function planQuery(
  collection: CollectionStore | undefined,
  request: PlanRequest,
  collation?: Collation,
): QueryPlan {
  if (!collection) return { kind: 'COLLSCAN' };
  if (request.hint === undefined || request.hint === null) {
    // IDHACK first: a look-up by `_id` needs neither the other indexes nor the filter's bounds.
    const id = simpleIdValue(request.filter);
    if (id && !request.skip && (!collation || !isCollatable(id.id))) {
      return { kind: 'IDHACK', id: id.id, index: idIndex(collection) };
    }
  }
  const indexes = plannableIndexes(collection);
  const hinted = hintedIndex(indexes, request.hint);
  if (hinted === 'natural') return { kind: 'COLLSCAN' };
  const conditions = fieldConditions(request.filter);
  const sort = sortFields(request.sort);
  if (hinted) return scanPlan(hinted, conditions, sort, collation).plan;
  const id = simpleIdValue(request.filter);
  // The `_id_` index is binary: a collated look-up of a string `_id` must scan.
  const binaryId = !collation || (id !== undefined && !isCollatable(id.id));
  if (id && !request.skip && binaryId) return { kind: 'IDHACK', id: id.id, index: indexes[0]! };
  let best: { plan: IndexScanPlan; score: number } | undefined;
  for (const index of indexes) {
    const candidate = scanPlan(index, conditions, sort, collation);
    if (!candidate.usable) continue;
    const score = candidate.score + (candidate.plan.providesSort && request.limited ? 6 : 0);
    if (!best || score > best.score) best = { plan: candidate.plan, score };
  }
  return best?.plan ?? { kind: 'COLLSCAN' };
}
