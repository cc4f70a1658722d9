/**
 * `$lookup` by `localField` and `foreignField`, as mongod joins
 * (document_source_lookup.cpp): the local values are every element along the
 * local path, a trailing array expanded (none: null), and a foreign document
 * joins when its field matches `{ $in: <those values> }`, numbers by value
 * across their types. A hash join over the foreign collection, in its
 * natural order. mingo read the local path with its own array rules and
 * hashed values by JS value, so `{ k: [{ x: [10, 20] }] }` joined nothing on
 * `k.x` and an int32 5 did not meet an Int64 5. Strings compare by the
 * command's collation (else the local collection's), never the foreign
 * collection's, as in mongod (lookup_collation.js).
 */
import type { Document } from 'bson';
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { bsonTag, isSubDocument } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { activeStringOrder } from '../bson/string-order.js';
import { OperationBudget } from './operation-budget.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** The key of a missing or null value: what a local document without values looks up. */
const NULL_KEY = encodeIndexValue(null);

/**
 * A path component that addresses an array element: digits in canonical
 * form. SBE, which runs `$lookup` in MongoDB 7, reads `a.00` as a field name
 * (lookup_numeric_field.js; the classic engine also took `00` as index 0).
 */
function arrayIndex(component: string): number | undefined {
  return /^(?:0|[1-9]\d{0,8})$/.test(component) ? Number(component) : undefined;
}

/** The value of an own field, `undefined` when the document lacks it (never an inherited property). */
function ownField(doc: Document, field: string): unknown {
  return Object.hasOwn(doc, field) ? (doc[field] as unknown) : undefined;
}

/**
 * The local values of `path` in `doc`, as mongod takes them for the join
 * (dotted_path_support::extractAllElementsAlongPath with the trailing array
 * expanded): an array on the way is traversed, its documents followed (its
 * other elements, nested arrays included, give nothing), unless the next
 * component is an index, which takes that element alone; the array the path
 * ends at gives its elements, anything else the path ends at is itself. A
 * missing field gives nothing. Iterative, in document order.
 */
export function localValues(doc: Document, path: readonly string[]): unknown[] {
  const values: unknown[] = [];
  const stack: [unknown, number][] = [[doc, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === undefined) continue;
    if (depth === path.length) {
      // One by one: a spread of a huge array would overflow the stack.
      if (Array.isArray(value)) for (const element of value as unknown[]) values.push(element);
      else values.push(value);
      continue;
    }
    const component = path[depth];
    const next: [unknown, number][] = [];
    if (Array.isArray(value)) {
      const index = arrayIndex(component);
      if (index !== undefined) {
        if (index < value.length) next.push([value[index], depth + 1]);
      } else {
        for (const element of value as unknown[]) if (isSubDocument(element)) next.push([element, depth]);
      }
    } else if (isSubDocument(value)) {
      next.push([ownField(value, component), depth + 1]);
    }
    // Pushed in reverse so that they are taken in document order.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return values;
}

/**
 * The join keys of a foreign document at `path`: the values `{path: {$in:
 * [...]}}` finds it by (the classic matcher's paths, path.cpp, and the
 * scan-based joins of lookup_equijoin_semantics_lib.js). An array the path
 * ends at matches as a whole and by each element; an array on the way is
 * traversed (by position as well, for an index component); a branch that
 * finds no field — an absent one, a scalar or nested array where a document
 * is needed, an empty array on the way — matches null, as a null does.
 */
export function foreignKeys(doc: Document, path: readonly string[], canonical?: Canonical): Set<string> {
  const keys = new Set<string>();
  const stack: [unknown, number][] = [[doc, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (depth === path.length) {
      keys.add(joinKey(value, canonical));
      if (Array.isArray(value)) for (const element of value as unknown[]) keys.add(joinKey(element, canonical));
      continue;
    }
    if (isSubDocument(value)) {
      stack.push([ownField(value, path[depth]), depth + 1]);
    } else if (Array.isArray(value) && value.length > 0) {
      const index = arrayIndex(path[depth]);
      (value as unknown[]).forEach((element, position) => {
        if (isSubDocument(element)) stack.push([element, depth]);
        else keys.add(NULL_KEY);
        if (position === index) stack.push([element, depth + 1]);
      });
    } else {
      keys.add(NULL_KEY);
    }
  }
  return keys;
}

/** One string per class of strings equal under the collation (see stringClasses). */
export type Canonical = (text: string) => string;

/**
 * The hash key of a value: equal exactly when mongod's join takes the two as
 * equal (encodeIndexValue: numbers by value across types, null and missing
 * alike, strings by `canonical`'s class when a collation applies); a BSON
 * regex by its pattern and flags, a DBRef as its document.
 */
export function joinKey(value: unknown, canonical?: Canonical): string {
  return encodeIndexValue(comparable(value), canonical);
}

/** `value` with the BSON values encodeIndexValue does not know written as ones it does, at any depth. */
function comparable(value: unknown): unknown {
  const tag = bsonTag(value);
  if (tag === 'BSONRegExp') {
    const regex = value as { pattern: string; options: string };
    // A field name with a NUL byte, which no stored document has (BSON cannot hold one).
    return { '\u0000regex': `${regex.pattern}/${regex.options}` };
  }
  if (tag === 'DBRef') {
    const ref = value as { toJSON(): Document };
    return comparable(ref.toJSON());
  }
  if (Array.isArray(value) && (value as unknown[]).some((element) => needsRewrite(element))) {
    return (value as unknown[]).map(comparable);
  }
  if (isSubDocument(value) && Object.values(value).some((element) => needsRewrite(element))) {
    return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, comparable(element)]));
  }
  return value;
}

/** Whether `value` holds a BSON regex or a DBRef (for {@link comparable}). */
function needsRewrite(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    const tag = bsonTag(next);
    if (tag === 'BSONRegExp' || tag === 'DBRef') return true;
    if (Array.isArray(next)) for (const element of next as unknown[]) stack.push(element);
    else if (isSubDocument(next)) for (const key of Object.keys(next)) stack.push(next[key]);
  }
  return false;
}

/** The foreign documents by join key, each document's positions in natural order. */
export class ForeignTable {
  private readonly byKey = new Map<string, number[]>();

  constructor(
    readonly docs: readonly Document[],
    path: readonly string[],
    private readonly canonical?: Canonical,
  ) {
    docs.forEach((doc, position) => {
      OperationBudget.tick();
      for (const key of foreignKeys(doc, path, canonical)) {
        const positions = this.byKey.get(key);
        if (positions) positions.push(position);
        else this.byKey.set(key, [position]);
      }
    });
  }

  /** The documents whose field matches `{$in: values}` (`{$eq: null}` for none), in natural order, each once. */
  matching(values: readonly unknown[]): Document[] {
    const keys = new Set(values.length === 0 ? [NULL_KEY] : values.map((value) => joinKey(value, this.canonical)));
    const positions = new Set<number>();
    for (const key of keys) for (const position of this.byKey.get(key) ?? []) positions.add(position);
    return [...positions].sort((a, b) => a - b).map((position) => this.docs[position]);
  }
}

/** Defines an own data property, so that a name such as `__proto__` stays a field. */
function define(doc: Document, field: string, value: unknown): void {
  Object.defineProperty(doc, field, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * `doc` with `value` at the dotted path `as`, as mongod's setNestedField
 * writes it: a field on the way that is not a document becomes one, an
 * existing field keeps its place, a new one comes last.
 */
export function withPath(doc: Document, as: string, value: unknown): Document {
  const components = as.split('.');
  const result: Document = { ...doc };
  let current = result;
  for (const component of components.slice(0, -1)) {
    const existing = ownField(current, component);
    const next: Document = isSubDocument(existing) ? { ...existing } : {};
    define(current, component, next);
    current = next;
  }
  define(current, components[components.length - 1], value);
  return result;
}

interface FieldsSpec {
  from: unknown;
  as: string;
  localField: string;
  foreignField: string;
  pipeline?: unknown;
  let?: unknown;
}

/** The stage's spec when it joins by `localField`/`foreignField`, else `undefined` (mingo's then). */
function fieldsSpec(expr: unknown): FieldsSpec | undefined {
  if (!isSubDocument(expr)) return undefined;
  const { from, as, localField, foreignField } = expr;
  if (typeof as !== 'string' || typeof localField !== 'string' || typeof foreignField !== 'string') return undefined;
  if (typeof from !== 'string' && !Array.isArray(from)) return undefined;
  return expr as FieldsSpec;
}

/** `$lookup` joining by `localField`/`foreignField` as mongod does; `original` (mingo's) for the rest. */
export function lookupByFields(original: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const spec = fieldsSpec(expr);
    if (spec === undefined) return original(collection, expr, options);
    const localPath = spec.localField.split('.');
    const foreignPath = spec.foreignField.split('.');
    const hasPipeline = (Array.isArray(spec.pipeline) && spec.pipeline.length > 0) || spec.let !== undefined;
    let table: ForeignTable | undefined;
    // Built on the first local document, as mingo resolves its collection once per stage.
    const foreign = (): ForeignTable => {
      if (table === undefined) {
        const docs = typeof spec.from === 'string' ? foreignDocuments(spec.from, options) : (spec.from as Document[]);
        // The command's string order (its collation, else the local collection's default) is active while it runs.
        const order = activeStringOrder();
        table = new ForeignTable(docs, foreignPath, order && stringClasses(order));
      }
      return table;
    };
    return collection.map((doc: Document) => {
      const joined = foreign().matching(localValues(doc, localPath));
      if (!hasPipeline) return withPath(doc, spec.as, joined);
      // The concise form (MongoDB 5.0+): the pipeline runs on the joined documents only, with `let`.
      const sub: Document = { from: joined, as: spec.as, pipeline: spec.pipeline ?? [] };
      if (spec.let !== undefined) sub.let = spec.let;
      const [out] = original(Lazy([doc]), sub, options).collect() as Document[];
      return withPath(doc, spec.as, out[spec.as]);
    });
  };
}

/** The named collection's documents, through the server's resolver (views included), as mingo's lookup takes them. */
export function foreignDocuments(name: string, options: Options): Document[] {
  const resolver = (options as { collectionResolver?: (name: string) => unknown }).collectionResolver;
  const docs = resolver?.(name);
  return Array.isArray(docs) ? (docs as Document[]) : [];
}
