import type { Document } from 'bson';

import { bsonTag } from '../bson/bson-compare.js';
import { Collation, stringClasses } from '../bson/collation.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { formatDocument } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { compileFilter } from '../query/query-context.js';
import { OrderedIndex } from './ordered-index.js';
import { TextIndex } from './text-index.js';
import { isTextIndexSpec } from './text-index-spec.js';

/** An index as `createIndexes` receives it and `listIndexes` returns it. */
export interface IndexSpec extends Document {
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  collation?: Document;
  /** Hidden from the planner (and from hints), still maintained and still enforcing `unique`. */
  hidden?: boolean;
}

/** One key a document contributes to an index. */
export interface IndexKey {
  /** Canonical text used as the hash-map key. */
  readonly encoded: string;
  /** `{ field: value }` as reported in E11000 errors' `keyValue`. */
  readonly keyValue: Document;
}

const MISSING = undefined;

function valuesAt(value: unknown, parts: readonly string[]): unknown[] {
  if (parts.length === 0) {
    if (!Array.isArray(value)) return [value];
    return value.length > 0 ? value : [MISSING];
  }
  if (Array.isArray(value)) {
    const [head] = parts;
    if (/^\d+$/.test(head!)) return valuesAt(value[Number(head)], parts.slice(1));
    const found = value.flatMap((element) => valuesAt(element, parts));
    return found.length > 0 ? found : [MISSING];
  }
  if (value === null || typeof value !== 'object' || value instanceof Date || bsonTag(value) !== undefined) {
    return [MISSING];
  }
  return valuesAt((value as Document)[parts[0]!], parts.slice(1));
}

/**
 * A secondary index. Unique indexes keep a hash map from the canonical
 * encoding of the indexed values to the owning document's `_id` key, so a
 * duplicate check is one map look-up rather than a collection scan. Every
 * index the query planner can use also keeps its entries in key order
 * ({@link OrderedIndex}).
 */
export class CollectionIndex {
  readonly name: string;
  readonly fields: readonly string[];
  readonly unique: boolean;
  /** The index's collation (undefined: simple): its string order and what its unique keys collapse. */
  readonly collation?: Collation;
  private readonly partial?: (doc: Document) => boolean;
  /** With a collation: the representative of each string's class, which the unique keys hold. */
  private readonly canonical?: (text: string) => string;
  private readonly owners = new Map<string, string>();
  /** The entries in key order, when the planner may use this index (see {@link plannable}). */
  readonly ordered?: OrderedIndex;
  /** The term postings, when this is a text index (`$text` reads them). */
  readonly text?: TextIndex;
  /** The field a hashed index hashes (at most one per index). */
  private readonly hashedField?: string;

  constructor(
    readonly spec: IndexSpec,
    /** Whether to keep the entries in key order for the planner (not for a uniqueness check alone). */
    { ordered = true }: { ordered?: boolean } = {},
  ) {
    this.name = spec.name;
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    if (spec.partialFilterExpression) this.partial = compileFilter(spec.partialFilterExpression);
    this.collation = spec.collation === undefined ? undefined : Collation.parse(spec.collation);
    if (this.collation) this.canonical = stringClasses(this.collation.compare);
    if (ordered && CollectionIndex.plannable(spec)) {
      this.ordered = new OrderedIndex(spec.name, spec.key, spec.sparse === true, this.collation?.compare);
    }
    if (isTextIndexSpec(spec)) this.text = new TextIndex(spec);
    this.hashedField = Object.keys(spec.key).find((field) => spec.key[field] === 'hashed');
  }

  /**
   * Whether queries can be answered from this index. Not partial ones (the
   * planner would have to prove the query implies the filter). One with a
   * collation keeps its entries in that collation's order, and the planner
   * walks it for strings only under the same collation. Not a hashed index
   * with a collation: mongod hashes a string's collation key there, which
   * this server does not compute.
   */
  static plannable(spec: IndexSpec): boolean {
    const hashed = Object.values(spec.key).includes('hashed');
    return (
      spec.partialFilterExpression === undefined &&
      OrderedIndex.supports(spec.key) &&
      !(hashed && spec.collation !== undefined && Collation.parse(spec.collation) !== undefined)
    );
  }

  /** The keys `doc` contributes ([] when sparse/partial exclude it). */
  keysOf(doc: Document): IndexKey[] {
    if (this.partial && !this.partial(doc)) return [];
    const perField = this.fields.map((field) => valuesAt(doc, field.split('.')));
    if (this.spec.sparse && perField.every((values) => values.every((v) => v === MISSING))) return [];
    let combos: unknown[][] = [[]];
    for (const values of perField) combos = combos.flatMap((combo) => values.map((v) => [...combo, v]));
    const keys = new Map<string, IndexKey>();
    for (const combo of combos) {
      const encoded = combo.map((value) => encodeIndexValue(value, this.canonical)).join('\u0000');
      if (keys.has(encoded)) continue;
      const keyValue: Document = {};
      this.fields.forEach((field, i) => (keyValue[field] = combo[i] ?? null));
      keys.set(encoded, { encoded, keyValue });
    }
    return [...keys.values()];
  }

  /** Throws what mongod throws generating `doc`'s keys for this index (a text index's language, a hashed field's array). */
  checkIndexable(doc: Document): void {
    this.text?.checkLanguage(doc);
    if (this.hashedField === undefined) return;
    // ExpressionKeysPrivate::getHashKeys: an array anywhere along the hashed path, named up to that array.
    const parts = this.hashedField.split('.');
    let value: unknown = doc;
    for (let i = 0; i < parts.length; i++) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || bsonTag(value) !== undefined) return;
      if (value instanceof Date || !Object.hasOwn(value, parts[i]!)) return;
      value = (value as Document)[parts[i]!];
      if (Array.isArray(value)) {
        throw new CommandError(
          'Location16766',
          `Error: hashed indexes do not currently support array values. Found array at path: ${parts.slice(0, i + 1).join('.')}`,
        );
      }
    }
  }

  /** The `_id` key of the committed document holding `encoded`, if any. */
  ownerOf(encoded: string): string | undefined {
    return this.owners.get(encoded);
  }

  /** Records `doc`'s keys: its entries in key order, and for unique indexes its owners. */
  add(idKey: string, seq: number, doc: Document): void {
    this.ordered?.add(idKey, seq, doc);
    this.text?.add(idKey, doc);
    if (!this.unique) return;
    for (const key of this.keysOf(doc)) this.owners.set(key.encoded, idKey);
  }

  /** Forgets what {@link add} recorded for the same document. */
  remove(idKey: string, seq: number, doc: Document): void {
    this.ordered?.remove(seq, doc);
    this.text?.remove(idKey, doc);
    if (!this.unique) return;
    for (const key of this.keysOf(doc)) if (this.owners.get(key.encoded) === idKey) this.owners.delete(key.encoded);
  }

  /**
   * Swaps what {@link add} recorded for `before` for `after`'s, the same
   * document rewritten; entries whose keys did not change stay untouched.
   */
  replace(idKey: string, seq: number, before: Document, after: Document): void {
    this.ordered?.replace(idKey, seq, before, after);
    if (this.text) {
      this.text.remove(idKey, before);
      this.text.add(idKey, after);
    }
    if (!this.unique) return;
    const old = this.keysOf(before);
    const next = this.keysOf(after);
    if (old.length === next.length && old.every((key, i) => key.encoded === next[i]!.encoded)) return;
    for (const key of old) if (this.owners.get(key.encoded) === idKey) this.owners.delete(key.encoded);
    for (const key of next) this.owners.set(key.encoded, idKey);
  }

  /** The E11000 error MongoDB reports for `key` in collection `ns`. */
  duplicateError(ns: string, key: IndexKey): CommandError {
    return duplicateKeyError(ns, this.name, this.spec.key, key.keyValue);
  }
}

/** MongoDB's E11000 error with `keyPattern` and `keyValue`. */
export function duplicateKeyError(
  ns: string,
  indexName: string,
  keyPattern: Document,
  keyValue: Document,
): CommandError {
  return new CommandError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: ${formatDocument(keyValue)}`,
    { keyPattern: { ...keyPattern }, keyValue: { ...keyValue } },
  );
}
