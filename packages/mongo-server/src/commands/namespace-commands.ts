import type { Document } from 'bson';

import { bsonEquals } from '../bson/bson-compare.js';
import { BSON, Double } from '../bson/bson-library.cjs';
import { formatDocument } from '../bson/format-key-value.js';
import { checkValidatorOptions } from '../query/document-validation.js';
import { typeAlias } from '../query/element-operators.js';
import { notSupported } from '../query/expression-check.js';
import { numericType } from '../query/numeric-types.js';
import { CollectionStore } from '../store/collection-store.js';
import {
  checkDatabaseName,
  checkSafeInt64,
  collectionName,
  GENERIC_FIELDS,
  isNamespaceDatabase,
  MAX_NAMESPACE_LENGTH,
  safeBool,
  wrongType,
} from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { missingField, unknownField, wrongFieldType } from './idl-fields.js';

function existing(ctx: CommandContext, name: string): CollectionStore {
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  return collection;
}

/** `collMod`: validator and validation settings, and an index's `expireAfterSeconds`. */
const collMod: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collMod');
  const allowed = new Set(['collMod', 'validator', 'validationLevel', 'validationAction', 'index']);
  for (const field of Object.keys(cmd)) {
    if (allowed.has(field) || GENERIC_FIELDS.has(field)) continue;
    if (['viewOn', 'pipeline', 'timeseries', 'changeStreamPreAndPostImages'].includes(field)) {
      throw new CommandError(
        'CommandNotSupported',
        `collMod '${field}' is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
      );
    }
    throw unknownField(`collMod.${field}`);
  }
  const collection = existing(ctx, name);
  const settings: Document = {};
  for (const field of ['validator', 'validationLevel', 'validationAction'] as const) {
    if (cmd[field] !== undefined) settings[field] = cmd[field];
  }
  checkValidatorOptions(settings);
  Object.assign(collection.options, settings);
  const reply: Document = { ok: 1 };
  if (cmd.index !== undefined) modifyIndex(collection, cmd.index, reply);
  ctx.store.changes.catalogChanged();
  return reply;
};

/**
 * collMod's `index`: an index named by `name` or `keyPattern` gets a new
 * `expireAfterSeconds` or is hidden from (or shown to) the planner, with
 * mongod's checks and its reply's `_old`/`_new` fields (for `hidden`, only
 * when it changes). Making an index unique is not supported here.
 */
function modifyIndex(collection: CollectionStore, value: unknown, reply: Document): void {
  if (typeAlias(value) !== 'object') throw wrongType('collMod.index', value, 'object');
  const index = value as Document;
  // The IDL's types first (CollModIndex), then what the fields mean together.
  if (index.name !== undefined && typeof index.name !== 'string') {
    throw wrongType('collMod.index.name', index.name, 'string');
  }
  if (index.keyPattern !== undefined && typeAlias(index.keyPattern) !== 'object') {
    throw wrongType('collMod.index.keyPattern', index.keyPattern, 'object');
  }
  if (index.hidden !== undefined && typeof index.hidden !== 'boolean') {
    throw wrongType('collMod.index.hidden', index.hidden, 'bool');
  }
  const ttl: unknown = index.expireAfterSeconds;
  if (ttl !== undefined && numericType(ttl) === undefined) {
    throw wrongFieldType('collMod.index.expireAfterSeconds', ttl, "types '[long, int, decimal, double]'");
  }
  if (index.name === undefined && index.keyPattern === undefined) {
    throw new CommandError('InvalidOptions', 'Must specify either index name or key pattern.');
  }
  if (index.name !== undefined && index.keyPattern !== undefined) {
    throw new CommandError('InvalidOptions', 'Cannot specify both key pattern and name.');
  }
  const changes = ['expireAfterSeconds', 'hidden', 'unique', 'prepareUnique'];
  if (!changes.some((field) => index[field] !== undefined)) {
    throw new CommandError('InvalidOptions', 'no expireAfterSeconds, hidden, unique, or prepareUnique field');
  }
  const spec = collection
    .indexSpecs()
    .find((s) => (index.name !== undefined ? s.name === index.name : bsonEquals(s.key, index.keyPattern)));
  if (!spec) {
    throw new CommandError(
      'IndexNotFound',
      `cannot find index ${index.name ?? formatDocument(index.keyPattern as Document)} for ns ${collection.ns}`,
    );
  }
  if (index.unique !== undefined || index.prepareUnique !== undefined) {
    throw notSupported(`collMod '${index.unique !== undefined ? 'unique' : 'prepareUnique'}' (converting an index)`);
  }
  if (ttl !== undefined && spec.expireAfterSeconds === undefined) {
    if (spec.name === '_id_') throw new CommandError('InvalidOptions', 'the _id field does not support TTL indexes');
    if (Object.keys(spec.key).length !== 1) {
      throw new CommandError(
        'InvalidOptions',
        'TTL indexes are single-field indexes, compound indexes do not support TTL',
      );
    }
  }
  if (index.hidden !== undefined && spec.name === '_id_') throw new CommandError('BadValue', "can't hide _id index");
  if (index.expireAfterSeconds !== undefined) {
    reply.expireAfterSeconds_old = spec.expireAfterSeconds;
    reply.expireAfterSeconds_new = index.expireAfterSeconds;
    spec.expireAfterSeconds = index.expireAfterSeconds as number;
  }
  const hidden = spec.hidden === true;
  if (index.hidden !== undefined && index.hidden !== hidden) {
    reply.hidden_old = hidden;
    reply.hidden_new = index.hidden;
    // listIndexes shows `hidden` only on a hidden index, as mongod's catalog keeps it.
    if (index.hidden) spec.hidden = true;
    else delete spec.hidden;
  }
}

/**
 * The checks mongod makes on a rename's target, in its order and words: a
 * name that makes no namespace (a NUL byte, a leading dot) is
 * InvalidNamespace; one a user may not create (a `$`, too long a namespace)
 * is IllegalOperation.
 */
function checkRenameTarget(ns: string, db: string, name: string): void {
  if (!isNamespaceDatabase(db) || name.includes('\0') || name.startsWith('.')) {
    throw new CommandError('InvalidNamespace', `Invalid target namespace: ${ns}`);
  }
  const problem = name.includes('$')
    ? `Invalid collection name: ${name}`
    : ns.length > MAX_NAMESPACE_LENGTH
      ? `Fully qualified namespace is too long. Namespace: ${ns} Max: ${MAX_NAMESPACE_LENGTH}`
      : undefined;
  if (problem !== undefined) throw new CommandError('IllegalOperation', `error with target namespace: ${problem}`);
}

/** Kills the plans of the cursors over `collection`, just dropped, as mongod does (their getMores fail). */
export function killDroppedPlans(ctx: CommandContext, collection: CollectionStore): void {
  ctx.cursors.killPlans(collection.ns, `collection dropped. UUID ${collection.uuid.toHexString(true)}`);
}

/** `renameCollection` (run on admin): moves the documents, indexes and options to the new namespace. */
const renameCollection: CommandHandler = (cmd, ctx) => {
  if (ctx.db !== 'admin') {
    throw new CommandError('Unauthorized', 'renameCollection may only be run against the admin database.');
  }
  const [from, to] = [cmd.renameCollection, cmd.to];
  // Both are IDL namespace strings: null reads as missing.
  if (from === null || from === undefined) {
    throw missingField('renameCollection.renameCollection');
  }
  if (to === null || to === undefined) {
    throw missingField('renameCollection.to');
  }
  if (typeof from !== 'string') throw wrongType('renameCollection.renameCollection', from, 'string');
  if (typeof to !== 'string') throw wrongType('renameCollection.to', to, 'string');
  const split = (ns: string): [string, string] => {
    const dot = ns.indexOf('.');
    if (dot <= 0 || dot === ns.length - 1)
      throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ns}'`);
    return [ns.slice(0, dot), ns.slice(dot + 1)];
  };
  const [fromDb, fromName] = split(from);
  const [toDb, toName] = split(to);
  checkDatabaseName(toDb);
  checkRenameTarget(to, toDb, toName);
  if (from === to) throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
  if (!ctx.store.hasDatabase(fromDb)) {
    throw new CommandError('NamespaceNotFound', `Database ${fromDb} does not exist or is drop pending`);
  }
  const source = ctx.store.collection(fromDb, fromName);
  if (!source) throw new CommandError('NamespaceNotFound', `Source collection ${from} does not exist`);
  // Moved, a view would read another collection, or form a cycle that its create refused.
  if (source.options.viewOn !== undefined) {
    throw new CommandError(
      'CommandNotSupportedOnView',
      `cannot rename view: ${from}; create it again under the new name`,
    );
  }
  if (ctx.store.collection(toDb, toName)) {
    if (cmd.dropTarget !== true) throw new CommandError('NamespaceExists', 'target namespace exists');
    const replaced = ctx.store.dropCollection(toDb, toName);
    if (replaced) killDroppedPlans(ctx, replaced);
  }
  // Within its database a collection keeps its UUID; moved to another, it is a copy with its own.
  const { collection: target } = ctx.store.ensureCollection(
    toDb,
    toName,
    { ...source.options },
    toDb === fromDb ? source.uuid : undefined,
  );
  // Stored as they are (not inserted): a rename is one change event, not an insert per document.
  for (const doc of source.documents()) target.rawSet(CollectionStore.idKey(doc), doc);
  for (const spec of source.indexSpecs().slice(1)) target.addIndex(spec);
  ctx.store.dropCollection(fromDb, fromName);
  ctx.cursors.killPlans(from, `collection renamed from '${from}' to '${to}'. UUID ${source.uuid.toHexString(true)}`);
  ctx.store.changes.collectionRenamed(fromDb, fromName, { db: toDb, coll: toName });
  return { ok: 1 };
};

/** The number of documents of a collection and the sum of their BSON sizes. */
function sizes(collection: CollectionStore): { count: number; size: number } {
  let count = 0;
  let size = 0;
  for (const doc of collection.documents()) {
    count++;
    size += BSON.calculateObjectSize(doc);
  }
  return { count, size };
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * A count or size as mongod's `appendNumber(long long)` writes it: an int32
 * when it fits, an Int64 (a bigint here) when it does not.
 */
function appendNumber(n: number): number | bigint {
  return n >= INT32_MIN && n <= INT32_MAX ? n : BigInt(n);
}

/**
 * `collStats`' `scale` as mongod's StorageStatsSpec IDL reads it: a `safeInt`
 * (any number, a double or decimal truncated, clamped to the int32 range:
 * the largest Int64 scales by 2147483647), TypeMismatch for another type,
 * 51024 below 1 (naming the clamped value); 1 when absent or null. `label`
 * is the field as the TypeMismatch names it (`collStats.scale`).
 */
export function storageScale(value: unknown, label: string): number {
  const n = checkSafeInt64(value, label, 'scale');
  if (n === undefined) return 1;
  const scale = n < BigInt(INT32_MIN) ? INT32_MIN : n > BigInt(INT32_MAX) ? INT32_MAX : Number(n);
  if (scale < 1) {
    throw new CommandError('Location51024', `BSON field 'scale' value must be >= 1, actual value '${scale}'`);
  }
  return scale;
}

/**
 * What `collStats` and `$collStats: { storageStats: {} }` report, in
 * mongod's field order and number types (sizes scaled and truncated, the
 * average object size never scaled). Memory only: the storage size is the
 * data size, index sizes and free storage are 0, and there is no
 * `wiredTiger` section; `indexDetails` has an empty document per index, where
 * mongod puts its storage engine's statistics of the index.
 */
export function storageStats(collection: CollectionStore, scale = 1): Document {
  // $collStats passes its scale unchecked: brought to a valid factor rather than dividing by 0 or NaN.
  const factor = Number.isNaN(scale) ? 1 : Math.min(Math.max(Math.trunc(scale), 1), INT32_MAX);
  const { count, size } = sizes(collection);
  const specs = collection.indexSpecs();
  const scaled = (bytes: number): number | bigint => appendNumber(Math.trunc(bytes / factor));
  const stats: Document = { size: scaled(size), count: appendNumber(count) };
  // mongod has no average of no document: the field is left out.
  if (count > 0) stats.avgObjSize = appendNumber(Math.trunc(size / count));
  return Object.assign(stats, {
    numOrphanDocs: 0,
    storageSize: scaled(size),
    freeStorageSize: 0,
    capped: false,
    nindexes: specs.length,
    indexDetails: Object.fromEntries(specs.map((spec) => [spec.name, {}])),
    indexBuilds: [],
    totalIndexSize: 0,
    indexSizes: Object.fromEntries(specs.map((spec) => [spec.name, 0])),
    totalSize: scaled(size),
    scaleFactor: factor,
  });
}

/**
 * `collStats` (deprecated in MongoDB 6.2, still answered by 7.0). Of a
 * collection that does not exist, mongod answers zeros (ok: 1), not
 * NamespaceNotFound.
 */
const collStats: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collStats');
  const scale = storageScale(cmd.scale, 'collStats.scale');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) {
    return {
      ns: `${ctx.db}.${name}`,
      size: 0,
      count: 0,
      numOrphanDocs: 0,
      storageSize: 0,
      totalSize: 0,
      nindexes: 0,
      totalIndexSize: 0,
      indexDetails: {},
      indexSizes: {},
      scaleFactor: scale,
      ok: 1,
    };
  }
  return { ns: collection.ns, ...storageStats(collection, scale), ok: 1 };
};

/** The document a view's definition is stored as in mongod's `<db>.system.views`. */
function viewDefinition(view: CollectionStore): Document {
  const { viewOn, pipeline, collation } = view.options as Document;
  return { _id: view.ns, viewOn, pipeline, ...(collation === undefined ? {} : { collation }) };
}

/**
 * `dbStats`, typed as mongod 7's DBStats reply: counts and `scaleFactor` as
 * Int64, sizes as doubles (divided by the scale, not truncated), zeros for a
 * database that does not exist. Its IDL reads `scale` as a `safeInt64`
 * (unlike collStats, not clamped to an int; below 1 is BadValue) and `freeStorage` as a `safeBool`,
 * which adds the free storage sizes (0 in memory). Views are counted apart;
 * as on mongod, their definitions make a `system.views` collection, counted
 * with its documents and `_id_` index.
 */
const dbStats: CommandHandler = (cmd, ctx) => {
  const scale = checkSafeInt64(cmd.scale, 'dbStats.scale', 'scale') ?? 1n;
  // dbStats checks its scale itself, unlike collStats' IDL validator.
  if (scale < 1n) throw new CommandError('BadValue', 'Scale factor must be greater than zero');
  const freeStorage = safeBool(cmd, 'freeStorage', 'dbStats.freeStorage');
  let collections = 0;
  let views = 0;
  let objects = 0;
  let dataSize = 0;
  let indexes = 0;
  for (const collection of ctx.store.collections(ctx.db)) {
    if (collection.options.viewOn !== undefined) {
      if (views++ === 0) {
        collections++;
        indexes++;
      }
      objects++;
      dataSize += BSON.calculateObjectSize(viewDefinition(collection));
      continue;
    }
    const { count, size } = sizes(collection);
    collections++;
    objects += count;
    dataSize += size;
    indexes += collection.indexSpecs().length;
  }
  const bytes = (n: number): Double => new Double(n / Number(scale));
  const zero = new Double(0);
  return {
    db: ctx.db,
    collections: BigInt(collections),
    views: BigInt(views),
    objects: BigInt(objects),
    avgObjSize: new Double(objects > 0 ? dataSize / objects : 0),
    dataSize: bytes(dataSize),
    storageSize: bytes(dataSize),
    indexes: BigInt(indexes),
    indexSize: zero,
    totalSize: bytes(dataSize),
    ...(freeStorage ? { freeStorageSize: zero, indexFreeStorageSize: zero, totalFreeStorageSize: zero } : {}),
    scaleFactor: scale,
    fsUsedSize: zero,
    fsTotalSize: zero,
    ok: 1,
  };
};

/** collMod, renameCollection, collStats, dbStats. */
export const NAMESPACE_COMMANDS: Record<string, CommandHandler> = {
  collMod,
  renameCollection,
  collStats,
  dbStats,
  dbstats: dbStats,
};
