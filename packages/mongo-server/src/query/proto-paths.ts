import type { Document } from 'bson';

import { isSubDocument } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';

/**
 * Fields named `__proto__` are ordinary fields to MongoDB, but mingo, which
 * matches filters and projections here, skips such keys for its own safety:
 * `{ __proto__: 3 }` matched every document, so a deleteMany with it emptied
 * the collection. Paths with such a part are read here by own properties
 * (distinct, find's sort) or refused (filters, projections, pipelines: mingo
 * also drops such fields when it copies its input), never answered wrongly.
 */
const PROTO = '__proto__';

/** Whether dotted `path` has a part named `__proto__`. */
export function hasProtoPart(path: string): boolean {
  return path.includes(PROTO) && path.split('.').includes(PROTO);
}

/**
 * The values at `path` in `doc`, descending through arrays, by own properties
 * only: what mingo's `resolve` gives, for paths with a `__proto__` part, which
 * it refuses.
 */
export function ownPathValue(doc: unknown, segments: string[]): unknown {
  const values: unknown[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth === segments.length) {
      values.push(value);
      return;
    }
    const segment = segments[depth]!;
    if (Array.isArray(value)) {
      for (const item of value) if (isSubDocument(item)) walk(item, depth);
    } else if (isSubDocument(value) && Object.hasOwn(value, segment)) {
      walk(value[segment], depth + 1);
    }
  };
  walk(doc, 0);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
}

/** Whether `spec` has, at any depth, a key with a `__proto__` part or (inside `$expr`) a `$` path with one. */
function namesProto(spec: unknown, inExpression: boolean): boolean {
  // Recursion is safe: a command's nesting is bounded (180 levels) when it is decoded.
  if (typeof spec === 'string') return inExpression && spec.startsWith('$') && hasProtoPart(spec.slice(1));
  if (Array.isArray(spec)) return spec.some((item) => namesProto(item, inExpression));
  if (!isSubDocument(spec)) return false;
  for (const key of Object.keys(spec)) {
    if (hasProtoPart(key)) return true;
    if (namesProto(spec[key], inExpression || key === '$expr')) return true;
  }
  return false;
}

function refuse(what: string): never {
  throw new CommandError(
    'BadValue',
    `a field named __proto__ in ${what} is not supported by the embedded test server; use a real MongoDB (MONGO_URL) for it`,
  );
}

/** BadValue naming the feature when `spec` (a filter or projection) names a field `__proto__`. */
export function refuseProtoFields(spec: Document | undefined, what: string): void {
  if (spec !== undefined && namesProto(spec, false)) refuse(what);
}

/** The same for a pipeline, where every `$` string is a field path (`$group: { _id: '$__proto__' }`). */
export function refuseProtoPipeline(pipeline: Document[]): void {
  if (namesProto(pipeline, true)) refuse('an aggregation pipeline');
}
