import type { Document } from 'bson';
import * as sortedBtree from 'sorted-btree';

import { wrongType as bsonFieldWrongType } from '../commands/command-arguments.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from '../query/element-operators.js';
import { compareStrings, isSubDocument } from './bson-compare.js';
import { formatDocument } from './format-key-value.js';
import { type StringOrder, withStringOrder } from './string-order.js';

/**
 * The ICU version MongoDB 7 reports in a collation's `version` (and accepts
 * back: any other is IncompatibleCollationVersion).
 */
const ICU_VERSION = '57.1';

/**
 * The locales MongoDB supports, as its documentation lists them (ICU's
 * collation locales). Anything else is refused as mongod refuses it.
 * @see https://www.mongodb.com/docs/manual/reference/collation-locales-defaults/
 */
const SUPPORTED_LOCALES = new Set(
  (
    'af sq am ar hy as az bn be bs bs_Cyrl bg my ca chr zh zh_Hant hr cs da nl dz en en_US en_US_POSIX eo et ee ' +
    'fo fil fi_FI fr fr_CA gl ka de de_AT el gu ha haw he hi hu is ig smn id ga it ja kl kn kk km kok ko ky lk lo ' +
    'lv li lt dsb lb mk ms ml mt mr mn ne se nb nn or om ps fa fa_AF pl pt pa ro ru sr sr_Latn si sk sl es sw sv ' +
    'ta te th bo to tr uk hsb ur ug vi wae cy yi yo zu'
  ).split(' '),
);

/** Locales whose ICU collation sorts secondary differences backwards by default (French Canadian). */
const BACKWARDS_LOCALES = new Set(['fr_CA']);

/** Field order of the normalized spec, as listIndexes and listCollections return it. */
const SPEC_FIELDS = [
  'locale',
  'caseLevel',
  'caseFirst',
  'strength',
  'numericOrdering',
  'alternate',
  'maxVariable',
  'normalization',
  'backwards',
  'version',
] as const;

/** At most this many distinct collations are kept built (an Intl.Collator each); older ones are rebuilt on demand. */
const CACHE_LIMIT = 64;

/** A collation with every field filled in, as MongoDB reports it. */
export interface CollationSpec extends Document {
  locale: string;
  caseLevel: boolean;
  caseFirst: 'upper' | 'lower' | 'off';
  strength: 1 | 2 | 3 | 4 | 5;
  numericOrdering: boolean;
  alternate: 'non-ignorable' | 'shifted';
  maxVariable: 'punct' | 'space';
  normalization: boolean;
  backwards: boolean;
  version: string;
}

interface SortedTree<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): boolean;
}
type SortedTreeClass = new <K, V>(entries: undefined, compare: (a: K, b: K) => number) => SortedTree<K, V>;
// sorted-btree is CommonJS with `exports.default` (see store/ordered-index.ts).
const loaded = sortedBtree.default as unknown as SortedTreeClass | { default: SortedTreeClass };
const BTree: SortedTreeClass = typeof loaded === 'function' ? loaded : loaded.default;

function wrongType(field: string, expected: string, value: unknown): CommandError {
  return new CommandError(
    'TypeMismatch',
    `"${field}" had the wrong type. Expected ${expected}, found ${typeAlias(value)}`,
  );
}

function booleanField(raw: Document, field: string, fallback: boolean): boolean {
  const value: unknown = raw[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw wrongType(field, 'bool', value);
  return value;
}

function enumField<T extends string>(raw: Document, field: string, allowed: readonly T[], fallback: T): T {
  const value: unknown = raw[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw wrongType(field, 'string', value);
  if (!(allowed as readonly string[]).includes(value)) {
    const choices =
      allowed.length === 2
        ? `'${allowed[0]}' or '${allowed[1]}'`
        : `${allowed
            .slice(0, -1)
            .map((a) => `'${a}'`)
            .join(', ')}, or '${allowed[allowed.length - 1]}'`;
    throw new CommandError('FailedToParse', `Field '${field}' must be ${choices}. Got: ${value}`);
  }
  return value as T;
}

function strengthField(raw: Document): CollationSpec['strength'] {
  const value: unknown = raw.strength;
  if (value === undefined) return 3;
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : undefined;
  if (n === undefined) {
    throw new CommandError(
      'TypeMismatch',
      `Expected field "strength" to have numeric type, but found ${typeAlias(value)}`,
    );
  }
  if (!Number.isInteger(n)) {
    throw new CommandError(
      'BadValue',
      `Expected field "strength" to have a value exactly representable as a 64-bit integer, but found strength: ${n}`,
    );
  }
  if (n < 1 || n > 5) {
    throw new CommandError('FailedToParse', `Field 'strength' must be an integer 1 through 5. Got: ${n}`);
  }
  return n as CollationSpec['strength'];
}

/** The locale ICU would fall back to, offered in the error as mongod offers it. */
function suggestion(locale: string): string | undefined {
  const underscored = locale.replace(/-/g, '_');
  if (SUPPORTED_LOCALES.has(underscored)) return underscored;
  const language = underscored.split(/[_@]/)[0]!.toLowerCase();
  return SUPPORTED_LOCALES.has(language) ? language : undefined;
}

/** Parses and validates a collation document, filling in the defaults; undefined for `{ locale: 'simple' }`. */
function normalize(raw: Document): CollationSpec | undefined {
  const locale: unknown = raw.locale;
  if (locale === undefined) throw new CommandError('NoSuchKey', 'Missing expected field "locale"');
  if (typeof locale !== 'string') throw wrongType('locale', 'string', locale);
  if (locale.includes('\0')) {
    throw new CommandError(
      'BadValue',
      `Field 'locale' cannot contain null byte. Collation spec: ${formatDocument(raw)}`,
    );
  }
  if (locale === 'simple') {
    if (Object.keys(raw).length > 1) {
      throw new CommandError(
        'FailedToParse',
        `If locale=simple, no other fields should be present in: ${formatDocument(raw)}`,
      );
    }
    return undefined;
  }
  if (locale.length === 0) {
    throw new CommandError('BadValue', `Field 'locale' cannot be the empty string in: ${formatDocument(raw)}`);
  }
  if (!SUPPORTED_LOCALES.has(locale)) {
    const better = suggestion(locale);
    throw new CommandError(
      'BadValue',
      `Field 'locale' is invalid in: ${formatDocument(raw)}${better ? `. Did you mean '${better}'?` : ''}`,
    );
  }
  const spec: CollationSpec = {
    locale,
    caseLevel: booleanField(raw, 'caseLevel', false),
    caseFirst: enumField(raw, 'caseFirst', ['upper', 'lower', 'off'], localeCaseFirst(locale)),
    strength: strengthField(raw),
    numericOrdering: booleanField(raw, 'numericOrdering', false),
    alternate: enumField(raw, 'alternate', ['non-ignorable', 'shifted'], 'non-ignorable'),
    maxVariable: enumField(raw, 'maxVariable', ['punct', 'space'], 'punct'),
    normalization: booleanField(raw, 'normalization', false),
    backwards: booleanField(raw, 'backwards', BACKWARDS_LOCALES.has(locale)),
    version: ICU_VERSION,
  };
  const version: unknown = raw.version;
  if (version !== undefined) {
    if (typeof version !== 'string') throw wrongType('version', 'string', version);
    if (version !== ICU_VERSION) {
      throw new CommandError(
        'IncompatibleCollationVersion',
        `Requested collation version ${version} but the only available collator version was ${ICU_VERSION}. Requested collation spec: ${formatDocument(raw)}`,
      );
    }
  }
  if (Object.keys(raw).some((field) => !(SPEC_FIELDS as readonly string[]).includes(field))) {
    throw new CommandError(
      'FailedToParse',
      `Collation spec contains unknown field. Collation spec: ${formatDocument(raw)}`,
    );
  }
  if (raw.backwards === true && spec.strength === 1) {
    throw new CommandError('BadValue', `'backwards' is invalid with 'strength' of 1 in: ${formatDocument(spec)}`);
  }
  if (raw.caseFirst !== undefined && spec.caseFirst !== 'off' && !spec.caseLevel && spec.strength < 3) {
    throw new CommandError(
      'BadValue',
      `'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2 in: ${formatDocument(spec)}`,
    );
  }
  return spec;
}

/** Each supported locale's own `caseFirst` (Danish sorts upper case first), read from ICU once. */
const LOCALE_CASE_FIRST = new Map<string, CollationSpec['caseFirst']>();

function localeCaseFirst(locale: string): CollationSpec['caseFirst'] {
  let caseFirst = LOCALE_CASE_FIRST.get(locale);
  if (caseFirst === undefined) {
    const resolved = new Intl.Collator(intlLocale(locale), { usage: 'sort' }).resolvedOptions().caseFirst;
    caseFirst = resolved === 'upper' || resolved === 'lower' ? resolved : 'off';
    LOCALE_CASE_FIRST.set(locale, caseFirst);
  }
  return caseFirst;
}

/** MongoDB's ICU locale id (`zh_Hant`, `en_US_POSIX`) as a BCP 47 tag for Intl. */
function intlLocale(locale: string): string {
  if (locale === 'en_US_POSIX') return 'en-US-u-va-posix';
  return locale.replace(/_/g, '-');
}

/**
 * A string order built from a collation with `Intl.Collator` (Node's full
 * ICU, the library mongod uses). Intl exposes ICU's strengths only as
 * sensitivities, so strengths 1 to 3 (with or without `caseLevel`) are
 * exact; 4 (quaternary) is tertiary with punctuation as a tie-breaker when
 * `alternate` is shifted, and 5 (identical) is tertiary with code points as
 * the tie-breaker. `alternate: 'shifted'` ignores spaces and punctuation
 * whatever `maxVariable` says, and `backwards` (French secondary order) and
 * `normalization` are accepted and reported but change nothing: Intl has no
 * switch for them.
 */
function buildOrder(spec: CollationSpec): StringOrder {
  const locale = intlLocale(spec.locale);
  const base: Intl.CollatorOptions = {
    usage: 'sort',
    numeric: spec.numericOrdering,
    caseFirst: spec.caseFirst === 'off' ? 'false' : spec.caseFirst,
    ignorePunctuation: spec.alternate === 'shifted',
  };
  const sensitivity =
    spec.strength === 1 ? (spec.caseLevel ? 'case' : 'base') : spec.strength === 2 ? 'accent' : 'variant';
  const first = new Intl.Collator(locale, { ...base, sensitivity }).compare;
  if (spec.strength === 2 && spec.caseLevel) {
    const cased = new Intl.Collator(locale, { ...base, sensitivity: 'case' }).compare;
    return (a, b) => first(a, b) || cased(a, b);
  }
  if (spec.strength === 4 && spec.alternate === 'shifted') {
    const punctuated = new Intl.Collator(locale, { ...base, ignorePunctuation: false, sensitivity }).compare;
    return (a, b) => first(a, b) || punctuated(a, b);
  }
  if (spec.strength === 5) return (a, b) => first(a, b) || compareStrings(a, b);
  return first;
}

/**
 * A function giving one string per class of strings equal under `order`
 * (the first of the class it met), so that hash keys built from its answers
 * put "Apple" and "apple" together at strength 2. Intl has no sort keys; an
 * ordered set of the strings met gives the same answer.
 */
export function stringClasses(order: StringOrder): (text: string) => string {
  const representatives = new BTree<string, string>(undefined, order);
  return (text) => {
    const found = representatives.get(text);
    if (found !== undefined) return found;
    representatives.set(text, text);
    return text;
  };
}

/**
 * A parsed collation: how strings compare under it, and the canonical form
 * of a string for hash keys (unique indexes). `undefined` stands for the
 * simple (binary) collation everywhere.
 */
export class Collation {
  private static readonly cache = new Map<string, Collation>();
  readonly compare: StringOrder;

  private constructor(
    /** The full spec, as listIndexes and listCollections report it. */
    readonly spec: CollationSpec,
    /** A text unique to the spec, for equality. */
    readonly id: string,
  ) {
    this.compare = buildOrder(spec);
  }

  /**
   * Parses a `collation` document as mongod does (same codes and messages);
   * undefined for the simple collation.
   */
  static parse(raw: unknown): Collation | undefined {
    if (!isSubDocument(raw)) {
      throw bsonFieldWrongType('collation', raw, 'object');
    }
    const spec = normalize(raw);
    if (!spec) return undefined;
    const id = SPEC_FIELDS.map((field) => String(spec[field])).join('\u0000');
    let collation = Collation.cache.get(id);
    if (!collation) {
      collation = new Collation(spec, id);
      if (Collation.cache.size >= CACHE_LIMIT) Collation.cache.delete(Collation.cache.keys().next().value!);
      Collation.cache.set(id, collation);
    }
    return collation;
  }

  /**
   * The collation a command runs under: its own `collation` when it sends
   * one (`{ locale: 'simple' }` included), else the collection's default.
   * An empty `collation: {}` counts as none, as in mongod's command parsers.
   */
  static resolve(requested: unknown, collectionDefault: unknown): Collation | undefined {
    const given = requested !== undefined && !(isSubDocument(requested) && Object.keys(requested).length === 0);
    if (given) return Collation.parse(requested);
    return collectionDefault === undefined ? undefined : Collation.parse(collectionDefault);
  }

  /** Whether two collations (undefined: simple) order strings alike: MongoDB's test for using an index. */
  static same(a: Collation | undefined, b: Collation | undefined): boolean {
    return a === b || (a !== undefined && b !== undefined && a.id === b.id);
  }

  /** Runs `fn` with `collation`'s string order active (see {@link withStringOrder}). */
  static run<T>(collation: Collation | undefined, fn: () => T): T {
    return withStringOrder(collation?.compare, fn);
  }
}
