import { BSON, type Document } from 'bson';

import { bsonEquals } from '../bson/bson-compare.js';
import { checkValidatorOptions } from '../query/document-validation.js';
import { CollectionStore } from '../store/collection-store.js';
import {
  checkCollectionName,
  checkDatabaseName,
  collectionName,
  GENERIC_FIELDS,
  wrongType,
} from './command-arguments.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';

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
    if (!allowed.has(field) && !GENERIC_FIELDS.has(field)) {
      throw new CommandError(
        field === 'viewOn' || field === 'pipeline' || field === 'timeseries' || field === 'changeStreamPreAndPostImages'
          ? 'CommandNotSupported'
          : 'Location40415',
        field === 'viewOn' || field === 'pipeline' || field === 'timeseries' || field === 'changeStreamPreAndPostImages'
          ? `collMod '${field}' is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`
          : `BSON field 'collMod.${field}' is an unknown field.`,
      );
    }
  }
  const collection = existing(ctx, name);
  const settings: Document = {};
  for (const field of ['validator', 'validationLevel', 'validationAction'] as const) {
    if (cmd[field] !== undefined) settings[field] = cmd[field];
  }
  checkValidatorOptions(settings);
  Object.assign(collection.options, settings);
  const reply: Document = { ok: 1 };
  const index = cmd.index as Document | undefined;
  if (index !== undefined) {
    const spec = collection
      .indexSpecs()
      .find((s) => (typeof index.name === 'string' ? s.name === index.name : bsonEquals(s.key, index.keyPattern)));
    if (!spec)
      throw new CommandError(
        'IndexNotFound',
        `cannot find index ${JSON.stringify(index.name ?? index.keyPattern)} for ns ${collection.ns}`,
      );
    if (index.expireAfterSeconds !== undefined) {
      reply.expireAfterSeconds_old = spec.expireAfterSeconds;
      reply.expireAfterSeconds_new = index.expireAfterSeconds;
      spec.expireAfterSeconds = index.expireAfterSeconds as number;
    }
  }
  return reply;
};

/** Longest `<db>.<collection>` mongod takes (NamespaceString::MaxNsLen). */
const MAX_NAMESPACE_LENGTH = 255;

/** The checks mongod makes on a rename's target collection, in its words (IllegalOperation). */
function checkRenameTarget(ns: string, name: string): void {
  const problem =
    name.includes('$') || name.includes('\0')
      ? `Invalid collection name: ${name}`
      : ns.length > MAX_NAMESPACE_LENGTH
        ? `Fully qualified namespace is too long. Namespace: ${ns} Max: ${MAX_NAMESPACE_LENGTH}`
        : undefined;
  if (problem !== undefined) throw new CommandError('IllegalOperation', `error with target namespace: ${problem}`);
}

/** `renameCollection` (run on admin): moves the documents, indexes and options to the new namespace. */
const renameCollection: CommandHandler = (cmd, ctx) => {
  if (ctx.db !== 'admin') {
    throw new CommandError('Unauthorized', 'renameCollection may only be run against the admin database.');
  }
  const [from, to] = [cmd.renameCollection, cmd.to];
  // Both are IDL namespace strings: null reads as missing.
  if (from === null || from === undefined) {
    throw new CommandError(
      'Location40414',
      "BSON field 'renameCollection.renameCollection' is missing but a required field",
    );
  }
  if (to === null || to === undefined) {
    throw new CommandError('Location40414', "BSON field 'renameCollection.to' is missing but a required field");
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
  checkRenameTarget(to, toName);
  checkCollectionName(toDb, toName);
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
    ctx.store.dropCollection(toDb, toName);
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
  ctx.store.changes.collectionRenamed(fromDb, fromName, { db: toDb, coll: toName });
  return { ok: 1 };
};

function sizes(collection: CollectionStore): { count: number; size: number } {
  let count = 0;
  let size = 0;
  for (const doc of collection.documents()) {
    count++;
    size += BSON.calculateObjectSize(doc);
  }
  return { count, size };
}

/** What `collStats` and `$collStats: { storageStats: {} }` report (memory only: storage and index sizes are 0). */
export function storageStats(collection: CollectionStore, scale = 1): Document {
  const { count, size } = sizes(collection);
  const specs = collection.indexSpecs();
  return {
    size: Math.floor(size / scale),
    count,
    avgObjSize: count > 0 ? Math.floor(size / count) : 0,
    storageSize: Math.floor(size / scale),
    freeStorageSize: 0,
    capped: false,
    nindexes: specs.length,
    indexBuilds: [],
    totalIndexSize: 0,
    totalSize: Math.floor(size / scale),
    indexSizes: Object.fromEntries(specs.map((spec) => [spec.name, 0])),
    scaleFactor: scale,
  };
}

function scaleOf(cmd: Document): number {
  const scale: unknown = cmd.scale ?? 1;
  if (typeof scale !== 'number' || scale < 1) {
    throw new CommandError('BadValue', 'scale has to be >= 1');
  }
  return Math.floor(scale);
}

/** `collStats` (deprecated in MongoDB 6.2, still answered by 7.0). */
const collStats: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collStats');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `Collection [${ctx.db}.${name}] not found.`);
  return { ns: collection.ns, ...storageStats(collection, scaleOf(cmd)), ok: 1 };
};

/** `dbStats`. */
const dbStats: CommandHandler = (cmd, ctx) => {
  const scale = scaleOf(cmd);
  const collections = ctx.store.collections(ctx.db);
  let objects = 0;
  let dataSize = 0;
  let indexes = 0;
  for (const collection of collections) {
    const { count, size } = sizes(collection);
    objects += count;
    dataSize += size;
    indexes += collection.indexSpecs().length;
  }
  return {
    db: ctx.db,
    collections: collections.length,
    views: 0,
    objects,
    avgObjSize: objects > 0 ? dataSize / objects : 0,
    dataSize: dataSize / scale,
    storageSize: dataSize / scale,
    indexes,
    indexSize: 0,
    totalSize: dataSize / scale,
    scaleFactor: scale,
    fsUsedSize: 0,
    fsTotalSize: 0,
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
