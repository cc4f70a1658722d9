import { type Document, ObjectId } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { updateOne } from 'mingo/updater';
import type { Modifier, PipelineStage } from 'mingo/updater';
import { cloneDeep } from 'mingo/util';

import { bsonEquals } from '../bson/bson-compare.js';
import { CommandError } from '../commands/command-error.js';
import { idFirst, setPath } from './document-paths.js';
import { applyIncrement } from './inc-operator.js';
import { mingoOptions, withMingoErrors } from './query-context.js';

/** How an update statement's `u` is to be read. */
export type UpdateKind = 'replacement' | 'operators' | 'pipeline';

/** Classifies `u` and rejects a mix of operators and plain fields. */
export function updateKind(update: unknown): UpdateKind {
  if (Array.isArray(update)) return 'pipeline';
  if (update === null || typeof update !== 'object') {
    throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
  }
  const keys = Object.keys(update);
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) return 'replacement';
  if (operators.length !== keys.length) {
    const field = keys.find((k) => !k.startsWith('$'));
    throw new CommandError(
      'FailedToParse',
      `Unknown modifier: ${field}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  return 'operators';
}

/** Options for {@link applyUpdate}. */
export interface ApplyUpdateOptions {
  /** The statement's filter, needed by the positional `$` operator. */
  filter?: Document;
  arrayFilters?: Document[];
  /** True when building an upserted document (`$setOnInsert` applies). */
  isInsert?: boolean;
}

const IMMUTABLE_ID = "Performing an update on the path '_id' would modify the immutable field '_id'";

/** Drops no-op `$set: { _id: <same> }` and rejects any other write to `_id` (mingo would say BadValue). */
function guardId(doc: Document, op: string, spec: Document): Document {
  if (!Object.keys(spec).some((path) => path === '_id' || path.startsWith('_id.'))) return spec;
  const { _id: value, ...rest } = spec;
  const unchanged =
    (op === '$set' || op === '$setOnInsert') && bsonEquals(value, doc._id) && typeof value === typeof doc._id;
  if (!unchanged || Object.keys(rest).some((path) => path.startsWith('_id.'))) {
    throw new CommandError('ImmutableField', IMMUTABLE_ID);
  }
  return rest;
}

function applyOperators(doc: Document, update: Document, options: ApplyUpdateOptions): Document {
  const modifier: Document = {};
  for (const [op, raw] of Object.entries(update)) {
    const spec = options.isInsert || doc._id === undefined ? (raw as Document) : guardId(doc, op, raw as Document);
    if (op === '$setOnInsert') {
      if (options.isInsert) modifier.$set = { ...(modifier.$set as Document | undefined), ...(spec as Document) };
    } else if (op === '$inc') {
      const rest = applyIncrement(doc, spec as Document);
      if (Object.keys(rest).length > 0) modifier.$inc = rest;
    } else if (op === '$set') {
      modifier.$set = { ...(modifier.$set as Document | undefined), ...(spec as Document) };
    } else if (Object.keys(spec).length > 0) {
      modifier[op] = spec;
    }
  }
  if (Object.keys(modifier).length === 0) return doc;
  const docs = [doc];
  withMingoErrors(() =>
    updateOne(
      docs,
      options.isInsert ? {} : (options.filter ?? {}),
      modifier as Modifier<Document>,
      { arrayFilters: options.arrayFilters, cloneMode: 'deep' },
      mingoOptions(),
    ),
  );
  return docs[0]!;
}

/**
 * Returns the updated copy of `doc` (never mutates it): a replacement keeps
 * `_id`, operators go through mingo except `$inc` (MongoDB's numeric type
 * rules) and `$setOnInsert`, a pipeline runs as an aggregation.
 */
export function applyUpdate(doc: Document, update: Document | Document[], options: ApplyUpdateOptions = {}): Document {
  const kind = updateKind(update);
  let result: Document;
  if (kind === 'replacement') {
    result = { _id: doc._id, ...cloneDeep(update as Document) };
    if (doc._id === undefined) delete result._id;
  } else if (kind === 'pipeline') {
    result = withMingoErrors(
      () => new Aggregator(update as PipelineStage[], mingoOptions()).run([cloneDeep(doc)]).at(0) as Document,
    );
  } else {
    result = applyOperators(cloneDeep(doc), update as Document, options);
  }
  if (
    doc._id !== undefined &&
    !(result._id !== undefined && bsonEquals(result._id, doc._id) && typeof result._id === typeof doc._id)
  ) {
    throw new CommandError('ImmutableField', IMMUTABLE_ID);
  }
  return idFirst(result);
}

function collectEqualities(filter: Document, seed: Document): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) collectEqualities(clause as Document, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    const isOperatorObject =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value as object).some((k) => k.startsWith('$'));
    if (!isOperatorObject && !(value instanceof RegExp)) setPath(seed, key, cloneDeep(value));
    else if (isOperatorObject && '$eq' in (value as Document)) setPath(seed, key, cloneDeep((value as Document).$eq));
  }
}

/**
 * The document an upsert inserts: the filter's equality fields, then the
 * update applied with `$setOnInsert`, then a generated `_id` if none.
 */
export function buildUpsertDocument(
  filter: Document,
  update: Document | Document[],
  arrayFilters?: Document[],
): Document {
  const seed: Document = {};
  const kind = updateKind(update);
  if (kind === 'replacement') {
    const id = (filter as { _id?: unknown })._id;
    const replacement = cloneDeep(update as Document);
    if (
      replacement._id === undefined &&
      id !== undefined &&
      (typeof id !== 'object' || id === null || !Object.keys(id).some((k) => k.startsWith('$')))
    ) {
      replacement._id = id;
    }
    return idFirst({ _id: new ObjectId(), ...replacement });
  }
  collectEqualities(filter, seed);
  const updated =
    kind === 'pipeline'
      ? applyUpdate(seed, update, {})
      : applyOperators(seed, update as Document, { isInsert: true, arrayFilters });
  if (updated._id === undefined) return { _id: new ObjectId(), ...updated };
  return idFirst(updated);
}
