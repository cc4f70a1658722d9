import type { Document } from 'bson';

import { bsonEquals } from '../bson/bson-compare.js';
import { Collation } from '../bson/collation.js';
import { formatDocument } from '../bson/format-key-value.js';
import type { IndexSpec } from '../store/collection-index.js';
import { normalizeTextIndexSpec, secondTextIndexError, TEXT_INDEX_OPTIONS } from '../store/text-index-spec.js';
import { typeAlias } from '../query/element-operators.js';
import { collectionName, wrongType } from './command-arguments.js';
import type { CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { openCursor } from './read-commands.js';

function sameKey(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && bsonEquals(a[k], b[k]));
}

const OPTION_FIELDS = [
  ...(['unique', 'sparse', 'partialFilterExpression', 'expireAfterSeconds', 'collation'] as const),
  ...TEXT_INDEX_OPTIONS,
];

function sameOptions(a: IndexSpec, b: IndexSpec): boolean {
  return OPTION_FIELDS.every((field) => {
    const x: unknown = a[field];
    const y: unknown = b[field];
    if (field === 'unique' || field === 'sparse') return Boolean(x) === Boolean(y);
    return x === undefined || y === undefined ? x === y : bsonEquals(x, y);
  });
}

/** MongoDB's largest `expireAfterSeconds` (a signed 32-bit integer). */
const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

/** A TTL index is on one field, with a whole number of seconds from 0 to 2^31 - 1, as in mongod. */
function checkTtl(spec: IndexSpec): void {
  const seconds: unknown = spec.expireAfterSeconds;
  if (seconds === undefined) return;
  const fields = Object.keys(spec.key);
  if (fields.length !== 1) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: ${formatDocument(spec)}`,
    );
  }
  const n = typeof seconds === 'bigint' ? Number(seconds) : seconds;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_EXPIRE_AFTER_SECONDS) {
    throw new CommandError(
      'CannotCreateIndex',
      `TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number. Index spec: ${formatDocument(spec)}`,
    );
  }
}

/**
 * An index's collation as listIndexes reports it: its own (`{ locale: 'simple' }`
 * drops it), else the collection's default, with every field filled in.
 */
function indexCollation(spec: IndexSpec, collectionDefault: unknown): IndexSpec {
  const { collation: requested, ...rest } = spec;
  const collation = Collation.resolve(requested, collectionDefault);
  return collation ? { ...rest, collation: { ...collation.spec } } : rest;
}

/** Indexes a collection may have, `_id_` included, as in mongod. */
const MAX_INDEXES = 64;

/** Fields a compound index may have, as in mongod. */
const MAX_COMPOUND_INDEX_KEYS = 32;

/** Types an index key pattern's values may have, as mongod's key pattern check allows: directions and plugin names. */
const KEY_VALUE_TYPES = new Set(['int', 'long', 'double', 'decimal', 'string']);

function validateSpec(raw: unknown, collectionDefault: unknown): IndexSpec {
  const spec = raw as IndexSpec;
  // Documents only: an array key (or a string, enumerated key by key) is no key pattern.
  if (typeAlias(spec) !== 'object' || typeAlias(spec.key) !== 'object' || Object.keys(spec.key).length === 0) {
    throw new CommandError('FailedToParse', "Each index specification must have a non-empty 'key' document");
  }
  for (const value of Object.values(spec.key)) {
    const type = typeAlias(value);
    if (!KEY_VALUE_TYPES.has(type)) {
      throw new CommandError(
        'CannotCreateIndex',
        `Values in v:2 index key pattern cannot be of type ${type}. Only numbers > 0, numbers < 0, and strings are allowed.`,
      );
    }
  }
  if (typeof spec.name !== 'string' || spec.name.length === 0) {
    throw new CommandError('FailedToParse', "Each index specification must have a 'name' string");
  }
  checkTtl(spec);
  const { background: _background, ...rest } = spec;
  const normalized = normalizeTextIndexSpec({ v: 2, ...rest } as IndexSpec);
  // mongod's limit on a compound key (its Ordering holds one bit per field); each write computes every field's keys.
  if (Object.keys(normalized.key).length > MAX_COMPOUND_INDEX_KEYS) {
    throw new CommandError('Location13103', 'too many compound keys');
  }
  return indexCollation(normalized, collectionDefault);
}

const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes');
  const specs = cmd.indexes;
  if (!Array.isArray(specs) || specs.length === 0) {
    throw new CommandError('BadValue', "Must specify at least one index to create in 'indexes'");
  }
  const { collection, created } = ctx.store.ensureCollection(ctx.db, name);
  const before = collection.indexSpecs().length;
  const toBuild: IndexSpec[] = [];
  for (const raw of specs) {
    const spec = validateSpec(raw, collection.options.collation);
    const existing =
      collection.indexSpecs().find((s) => s.name === spec.name) ?? toBuild.find((s) => s.name === spec.name);
    if (existing) {
      if (!sameKey(existing.key, spec.key)) {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${formatDocument(spec.key)}, existing index: ${formatDocument(existing.key)}`,
        );
      }
      if (!sameOptions(existing, spec)) {
        throw new CommandError(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${spec.name}`,
        );
      }
      continue;
    }
    const sameKeyIndex = collection.indexSpecs().find((s) => sameKey(s.key, spec.key) && sameOptions(s, spec));
    if (sameKeyIndex) {
      throw new CommandError(
        'IndexOptionsConflict',
        `Index already exists with a different name: ${sameKeyIndex.name}`,
      );
    }
    const textConflict = secondTextIndexError([...collection.indexSpecs(), ...toBuild], spec);
    if (textConflict) throw textConflict;
    // mongod's limit, `_id_` included; every write updates every index.
    if (collection.indexSpecs().length + toBuild.length >= MAX_INDEXES) {
      throw new CommandError(
        'CannotCreateIndex',
        `add index fails, too many indexes for ${ctx.db}.${name} key:${formatDocument(spec.key)}`,
      );
    }
    toBuild.push(spec);
  }
  const built: string[] = [];
  try {
    for (const spec of toBuild) {
      collection.addIndex(spec);
      built.push(spec.name);
    }
  } catch (error) {
    // An index build is all-or-nothing for the command.
    for (const indexName of built) collection.indexes.delete(indexName);
    throw error;
  }
  const reply: Document = {
    numIndexesBefore: before,
    numIndexesAfter: collection.indexSpecs().length,
    createdCollectionAutomatically: created,
    ok: 1,
  };
  if (toBuild.length === 0) reply.note = 'all indexes already exist';
  return reply;
};

const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'listIndexes');
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return openCursor(ctx, `${ctx.db}.$cmd.listIndexes.${name}`, collection.indexSpecs(), batchSize);
};

const dropIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]!);
  const collection = ctx.store.collection(ctx.db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${ctx.db}.${name}`);
  const before = collection.indexSpecs().length;
  const target: unknown = cmd.index;
  const names: string[] = [];
  if (target === '*') names.push(...collection.indexes.keys());
  else if (Array.isArray(target)) {
    // One by one: spreading a client's array of 400,000 names into push() overflowed the stack.
    for (const [i, item] of target.entries()) {
      if (typeof item !== 'string') throw wrongType(`dropIndexes.index.${i}`, item, 'string');
      names.push(item);
    }
  } else if (typeof target === 'string') names.push(target);
  else if (target === undefined) {
    throw new CommandError('Location40414', "BSON field 'dropIndexes.index' is missing but a required field");
  } else if (typeAlias(target) !== 'object') {
    throw new CommandError(
      'TypeMismatch',
      `BSON field 'dropIndexes.index' is the wrong type '${typeAlias(target)}', expected types '[string, object, array]'`,
    );
  } else {
    const match = [...collection.indexes.values()].find((index) => sameKey(index.spec.key, target as Document));
    if (!match)
      throw new CommandError('IndexNotFound', `can't find index with key: ${formatDocument(target as Document)}`);
    names.push(match.name);
  }
  for (const indexName of names) {
    if (indexName === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!collection.indexes.has(indexName)) {
      throw new CommandError('IndexNotFound', `index not found with name [${indexName}]`);
    }
  }
  for (const indexName of names) collection.indexes.delete(indexName);
  return { nIndexesWas: before, ok: 1 };
};

/** createIndexes, listIndexes, dropIndexes. */
export const INDEX_COMMANDS: Record<string, CommandHandler> = {
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
};
