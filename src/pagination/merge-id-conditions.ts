import type { ObjectId } from '../core/index.js';

/** Operators on `_id` that {@link mergeIdConditions} can combine into one condition. */
export interface IdCondition {
  $gt?: ObjectId;
  $gte?: ObjectId;
  $lt?: ObjectId;
  $lte?: ObjectId;
  $in?: ObjectId[];
}

// Hex order is byte order, which is MongoDB's order for ObjectIds.
const compare = (a: ObjectId, b: ObjectId): number => {
  const [x, y] = [a.toHexString(), b.toHexString()];
  return x < y ? -1 : x > y ? 1 : 0;
};
const max = (a: ObjectId | undefined, b: ObjectId) => (a === undefined || compare(b, a) > 0 ? b : a);
const min = (a: ObjectId | undefined, b: ObjectId) => (a === undefined || compare(b, a) < 0 ? b : a);

/**
 * ANDs several `_id` conditions into one object, keeping the tightest bound of
 * each operator and the intersection of `$in` lists. A filter holds `_id` only
 * once, so `{ _id: dayRange(…), ...{ _id: objectIdRange(…) } }` would silently
 * drop the first range; this keeps both:
 * `{ $gte: a, $lt: b }` + `{ $gte: c }` + `{ $in: ids }` → `{ $gte: max(a, c), $lt: b, $in: ids }`.
 * (`keysetQuery()` then adds the cursor as `$gt` to the same object.)
 */
export function mergeIdConditions(...conditions: (IdCondition | undefined)[]): IdCondition | undefined {
  let merged: IdCondition | undefined;
  for (const condition of conditions) {
    if (condition === undefined) continue;
    merged ??= {};
    if (condition.$gt) merged.$gt = max(merged.$gt, condition.$gt);
    if (condition.$gte) merged.$gte = max(merged.$gte, condition.$gte);
    if (condition.$lt) merged.$lt = min(merged.$lt, condition.$lt);
    if (condition.$lte) merged.$lte = min(merged.$lte, condition.$lte);
    if (condition.$in) {
      const previous = merged.$in;
      merged.$in =
        previous === undefined ? [...condition.$in] : condition.$in.filter((id) => previous.some((p) => p.equals(id)));
    }
  }
  return merged;
}
