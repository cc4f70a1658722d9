import type { Document } from 'bson';

import { bsonEquals } from '../bson/bson-compare.js';
import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { textLanguage } from '../query/text-analyzer.js';
import type { IndexSpec } from './collection-index.js';

/** What a text index covers, read from its (normalized) spec. */
export interface TextIndexFields {
  /** Ordinary fields before `_fts` (a query must give each an equality). */
  readonly prefix: readonly string[];
  /** Path → weight; `$**` is every string in the document. */
  readonly weights: ReadonlyMap<string, number>;
  readonly defaultLanguage: string;
  readonly languageOverride: string;
}

const TEXT_KEY_FIELDS = new Set(['_fts', '_ftsx']);

/** Whether `spec` is a text index (its key has `_fts: 'text'`, as listIndexes shows it). */
export function isTextIndexSpec(spec: IndexSpec): boolean {
  return spec.key._fts === 'text';
}

/** A weight as mongod accepts it: a number in (0, 100000), stored whole. */
function checkedWeight(field: string, value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !(n > 0 && n < 100_000)) {
    throw new CommandError(
      'CannotCreateIndex',
      `text index weight must be in the exclusive interval (0,100000) but found: ${String(value)} (field ${field})`,
    );
  }
  return Math.trunc(n);
}

function checkedLanguage(value: unknown, option: string): string {
  if (typeof value !== 'string') {
    throw new CommandError('CannotCreateIndex', `text index option '${option}' must be a string`);
  }
  if (!textLanguage(value)) {
    throw new CommandError('CannotCreateIndex', `unsupported language: "${value}" for text index version 3`);
  }
  return value;
}

/**
 * The spec mongod stores for a text index: `{ title: 'text', body: 'text' }`
 * becomes `key: { _fts: 'text', _ftsx: 1 }` (ordinary fields keep their
 * place around it) with `weights` (sorted by field, 1 unless given),
 * `default_language`, `language_override` and `textIndexVersion: 3`.
 * Specs without a `'text'` field come back unchanged.
 */
export function normalizeTextIndexSpec(spec: IndexSpec): IndexSpec {
  const entries = Object.entries(spec.key);
  const hasTextField = entries.some(([field, value]) => value === 'text' && !TEXT_KEY_FIELDS.has(field));
  if (!hasTextField && spec.key._fts !== 'text') return spec;
  const key: Document = {};
  const weights = new Map<string, number>();
  for (const [field, value] of entries) {
    if (value === 'text' || TEXT_KEY_FIELDS.has(field)) {
      if (!('_fts' in key)) Object.assign(key, { _fts: 'text', _ftsx: 1 });
      if (!TEXT_KEY_FIELDS.has(field)) weights.set(field, 1);
    } else {
      key[field] = value;
    }
  }
  const given: unknown = spec.weights;
  if (given !== undefined) {
    if (given === null || typeof given !== 'object' || Array.isArray(given)) {
      throw new CommandError('CannotCreateIndex', "text index option 'weights' must be an object");
    }
    for (const [field, value] of Object.entries(given as Document)) weights.set(field, checkedWeight(field, value));
  }
  if (weights.size === 0) {
    throw new CommandError('CannotCreateIndex', 'text index needs at least one field (a "text" key or weights)');
  }
  const normalized: Document = {
    weights: Object.fromEntries([...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    default_language: checkedLanguage(spec.default_language ?? 'english', 'default_language'),
    language_override: spec.language_override ?? 'language',
    textIndexVersion: 3,
  };
  if (typeof normalized.language_override !== 'string') {
    throw new CommandError('CannotCreateIndex', "text index option 'language_override' must be a string");
  }
  const out: Document = {};
  for (const [field, value] of Object.entries(spec)) {
    out[field] = field === 'key' ? key : field in normalized ? normalized[field] : value;
  }
  for (const [field, value] of Object.entries(normalized)) if (!(field in out)) out[field] = value;
  return out as IndexSpec;
}

/** The fields, weights and languages of a normalized text index spec. */
export function textIndexFields(spec: IndexSpec): TextIndexFields {
  const keys = Object.keys(spec.key);
  return {
    prefix: keys.slice(0, keys.indexOf('_fts')),
    weights: new Map(Object.entries((spec.weights ?? {}) as Document).map(([field, w]) => [field, Number(w)])),
    defaultLanguage: textLanguage(String(spec.default_language ?? 'english')) ?? 'english',
    languageOverride: String(spec.language_override ?? 'language'),
  };
}

/** The options that tell two text indexes with the same key apart. */
export const TEXT_INDEX_OPTIONS = ['weights', 'default_language', 'language_override'] as const;

/**
 * mongod's refusal of a second text index under another name: the same key
 * with other options is IndexOptionsConflict, another key CannotCreateIndex
 * (a collection has at most one text index).
 */
export function secondTextIndexError(existing: readonly IndexSpec[], spec: IndexSpec): CommandError | undefined {
  if (!isTextIndexSpec(spec)) return undefined;
  const other = existing.find((s) => isTextIndexSpec(s) && s.name !== spec.name);
  if (!other) return undefined;
  if (bsonEquals(other.key, spec.key)) {
    return new CommandError(
      'IndexOptionsConflict',
      `An equivalent index already exists with a different name and options. Requested index: ${formatDocument(spec)}, existing index: ${formatDocument(other)}`,
    );
  }
  return new CommandError(
    'CannotCreateIndex',
    `only one text index per collection allowed, found existing text index "${other.name}"`,
  );
}
