import { bsonTypeRank, compareBson } from '../bson/bson-compare.js';
import type { StringOrder } from '../bson/string-order.js';

/**
 * A point between index values, never equal to one: just before or after
 * every value of a BSON type (`rank` as {@link bsonTypeRank} gives it), or
 * just before or after one value. Scans start and stop at such points, so
 * that an inclusive or exclusive bound is only a matter of which edge.
 */
export class IndexEdge {
  private constructor(
    /** The type's rank (for a type edge) or the value's. */
    readonly rank: number,
    /** -1: just below; +1: just above. */
    readonly side: -1 | 1,
    /** The value the edge sits next to; absent for a type edge. */
    readonly value?: unknown,
    readonly ofValue = false,
  ) {}

  /** Below every value of the type of rank `rank`, above every lower type. */
  static typeStart(rank: number): IndexEdge {
    return new IndexEdge(rank, -1);
  }

  /** Above every value of the type of rank `rank`, below every higher type. */
  static typeEnd(rank: number): IndexEdge {
    return new IndexEdge(rank, 1);
  }

  /** Just below `value` (and everything equal to it). */
  static before(value: unknown): IndexEdge {
    return new IndexEdge(bsonTypeRank(value), -1, value, true);
  }

  /** Just above `value` (and everything equal to it). */
  static after(value: unknown): IndexEdge {
    return new IndexEdge(bsonTypeRank(value), 1, value, true);
  }
}

/** Below everything an index holds (MinKey included). */
export const INDEX_START = IndexEdge.typeStart(-1);
/** Above everything an index holds (MaxKey included). */
export const INDEX_END = IndexEdge.typeEnd(1000);

/**
 * MongoDB's BSON order over index values and {@link IndexEdge}s: types by
 * rank (missing and null together), then {@link compareBson} within a type,
 * the same order the matcher's range operators and the sort use, so a scan
 * between two edges meets exactly the keys those operators accept. Strings
 * by `strings` (an index's collation), else by the command's.
 */
export function compareIndexValues(a: unknown, b: unknown, strings?: StringOrder): number {
  const edgeA = a instanceof IndexEdge ? a : undefined;
  const edgeB = b instanceof IndexEdge ? b : undefined;
  const rankA = edgeA ? edgeA.rank : bsonTypeRank(a);
  const rankB = edgeB ? edgeB.rank : bsonTypeRank(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  const typeA = edgeA !== undefined && !edgeA.ofValue;
  const typeB = edgeB !== undefined && !edgeB.ofValue;
  if (typeA || typeB) {
    if (typeA && typeB) return Math.sign(edgeA.side - edgeB.side);
    return typeA ? edgeA.side : -edgeB!.side;
  }
  const c = compareBson(edgeA ? edgeA.value : a, edgeB ? edgeB.value : b, strings);
  if (c !== 0) return c;
  return Math.sign((edgeA?.side ?? 0) - (edgeB?.side ?? 0));
}
