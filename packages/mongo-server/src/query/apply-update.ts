import { type Document, ObjectId } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import * as pipelineOperators from 'mingo/operators/pipeline';
import { updateOne } from 'mingo/updater';
import type { Modifier, PipelineStage } from 'mingo/updater';
import { cloneDeep } from 'mingo/util';

import { bsonEquals } from '../bson/bson-compare.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { applyAddToSet, applyExtreme, applyPush, pushSorts } from './bson-update-operators.js';
import { idFirst, setPath } from './document-paths.js';
import { applyIncrement } from './inc-operator.js';
import { conditionForMingo } from './mingo-values.js';
import { typeAlias } from './element-operators.js';
import { concretePaths } from './positional-paths.js';
import { mingoOptions, withMingoErrors } from './query-context.js';

/** How an update statement's `u` is to be read. */
export type UpdateKind = 'replacement' | 'operators' | 'pipeline';

/** The aggregation stages mongod runs in a pipeline-style update. */
const UPDATE_PIPELINE_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$fill',
]);

/** MongoDB's update modifiers. */
const MODIFIERS = new Set([
  ...['$currentDate', '$inc', '$min', '$max', '$mul', '$rename', '$set', '$setOnInsert', '$unset'],
  ...['$addToSet', '$pop', '$pull', '$push', '$pullAll', '$bit'],
]);

/**
 * Classifies `u` and rejects a mix of operators and plain fields, a modifier
 * not given a document, or a pipeline stage an update cannot run.
 */
export function updateKind(update: unknown): UpdateKind {
  if (Array.isArray(update)) {
    for (const stage of update as unknown[]) {
      const name = typeAlias(stage) === 'object' ? Object.keys(stage as Document)[0] : undefined;
      // Others (`$count`, `$unwind`, `$match`, …) may leave no document to store.
      if (name !== undefined && name in pipelineOperators && !UPDATE_PIPELINE_STAGES.has(name)) {
        throw new CommandError('InvalidOptions', `${name} is not allowed to be used within an update`);
      }
    }
    return 'pipeline';
  }
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
  for (const op of operators) {
    const spec: unknown = (update as Document)[op];
    // mongod's update driver refuses this before any modifier runs (the operators would fail on it in JavaScript).
    if (MODIFIERS.has(op) && typeAlias(spec) !== 'object') {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeAlias(spec)} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatKeyValue(spec)}}`,
      );
    }
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

/** Every path an update writes, per operator ( `$rename` writes its target too). */
function writtenPaths(update: Document): string[] {
  const paths: string[] = [];
  for (const [op, spec] of Object.entries(update)) {
    if (spec === null || typeof spec !== 'object') continue;
    for (const [path, value] of Object.entries(spec as Document)) {
      paths.push(path);
      if (op === '$rename' && typeof value === 'string') paths.push(value);
    }
  }
  return paths;
}

/**
 * mongod rejects two operators writing overlapping paths (`$inc: { n }` with
 * `$set: { n }`, or `a` with `a.b`). Checked up front because the embedded
 * server applies some operators itself and the rest through mingo.
 */
function checkConflicts(update: Document): void {
  const paths = writtenPaths(update).map((path) => path.split('.'));
  for (const [i, a] of paths.entries()) {
    for (const b of paths.slice(i + 1)) {
      const shorter = a.length <= b.length ? a : b;
      const longer = shorter === a ? b : a;
      if (shorter.every((part, k) => part === longer[k])) {
        throw new CommandError(
          'ConflictingUpdateOperators',
          `Updating the path '${longer.join('.')}' would create a conflict at '${shorter.join('.')}'`,
        );
      }
    }
  }
}

/** Operators the embedded server applies itself, with BSON numeric types and order. */
type OwnOperation = (doc: Document) => void;

function ownOperation(op: string, path: string, value: unknown): OwnOperation | undefined {
  switch (op) {
    case '$inc':
      return (doc) => applyIncrement(doc, { [path]: value });
    case '$max':
      return (doc) => applyExtreme(doc, path, value, 1);
    case '$min':
      return (doc) => applyExtreme(doc, path, value, -1);
    case '$addToSet':
      return (doc) => applyAddToSet(doc, path, value);
    case '$push':
      return pushSorts(value) ? (doc) => applyPush(doc, path, value) : undefined;
  }
  return undefined;
}

function applyOperators(doc: Document, update: Document, options: ApplyUpdateOptions): Document {
  checkConflicts(update);
  const modifier: Document = {};
  const own: OwnOperation[] = [];
  const add = (op: string, path: string, value: unknown): void => {
    modifier[op] = { ...(modifier[op] as Document | undefined), [path]: value };
  };
  for (const [op, raw] of Object.entries(update)) {
    const spec = options.isInsert || doc._id === undefined ? (raw as Document) : guardId(doc, op, raw as Document);
    if (op === '$setOnInsert') {
      if (options.isInsert) for (const [path, value] of Object.entries(spec)) add('$set', path, value);
      continue;
    }
    // Reject a non-numeric $inc even when no element matches its positional path (a scratch run).
    if (op === '$inc') applyIncrement({}, spec);
    for (const [path, value] of Object.entries(spec)) {
      const operation = ownOperation(op, path, value);
      if (!operation) {
        // $pull/$pullAll values are conditions: mingo builds a Query from them.
        add(op, path, op === '$pull' || op === '$pullAll' ? conditionForMingo(value) : value);
        continue;
      }
      // Positional paths are resolved on the document as matched, before anything changes.
      for (const concrete of concretePaths(doc, path, options.filter, options.arrayFilters)) {
        own.push((target) => ownOperation(op, concrete, value)!(target));
      }
    }
  }
  const docs = [doc];
  if (Object.keys(modifier).length > 0) {
    // The filter is only needed for the positional `$`; mingo re-tests it, and must see the matched document.
    const positional = writtenPaths(modifier).some((path) => path.split('.').includes('$'));
    withMingoErrors(() =>
      updateOne(
        docs,
        options.isInsert || !positional ? {} : conditionForMingo(options.filter ?? {}),
        modifier as Modifier<Document>,
        { arrayFilters: conditionForMingo(options.arrayFilters), cloneMode: 'deep' },
        mingoOptions(),
      ),
    );
  }
  for (const operation of own) operation(docs[0]!);
  return docs[0]!;
}

/**
 * Returns the updated copy of `doc` (never mutates it): a replacement keeps
 * `_id`, operators go through mingo except `$inc`, `$min`, `$max`,
 * `$addToSet`, sorting `$push` (MongoDB's numeric types and BSON order) and
 * `$setOnInsert`, a pipeline runs as an aggregation.
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
