import type { Document } from 'bson';

import { bsonEquals, compareBson } from '../bson/bson-compare.js';
import { encodeIndexValue } from '../bson/index-key-encoder.js';
import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { regexTest } from './linear-regex.js';

/** A compiled schema: whether a value passes it. */
type Check = (value: unknown) => boolean;

const NUMBER_TYPES = new Set(['int', 'long', 'double', 'decimal']);
const BSON_TYPES = new Set([
  ...['double', 'string', 'object', 'array', 'binData', 'undefined', 'objectId', 'bool', 'date', 'null', 'regex'],
  ...['dbPointer', 'javascript', 'symbol', 'javascriptWithScope', 'int', 'timestamp', 'long', 'decimal'],
  ...['minKey', 'maxKey', 'number'],
]);
/** A Map, not an object: the names are the client's, and may be `__proto__` or `toString`. */
const JSON_TYPES = new Map<string, (alias: string) => boolean>([
  ['object', (t) => t === 'object'],
  ['array', (t) => t === 'array'],
  ['number', (t) => NUMBER_TYPES.has(t)],
  ['boolean', (t) => t === 'bool'],
  ['string', (t) => t === 'string'],
  ['null', (t) => t === 'null'],
]);
/** Keywords MongoDB's `$jsonSchema` refuses (draft 4 features it omits). */
const UNSUPPORTED = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);
const ANNOTATIONS = new Set(['title', 'description']);

function fail(message: string): never {
  throw new CommandError('FailedToParse', message);
}

function number(schema: Document, keyword: string): number {
  const value: unknown = schema[keyword];
  if (typeof value !== 'number' && typeof value !== 'bigint') fail(`$jsonSchema keyword '${keyword}' must be a number`);
  return Number(value);
}

function count(schema: Document, keyword: string): number {
  const value = number(schema, keyword);
  if (!Number.isInteger(value) || value < 0) fail(`$jsonSchema keyword '${keyword}' must be a non-negative integer`);
  return value;
}

function subschema(value: unknown, keyword: string): Check {
  if (typeAlias(value) !== 'object') fail(`$jsonSchema keyword '${keyword}' must be an object`);
  return compileSchema(value as Document);
}

function typeNames(value: unknown, keyword: string, known: (name: string) => boolean): string[] {
  const names = Array.isArray(value) ? value : [value];
  if (names.length === 0 || names.some((name) => typeof name !== 'string' || !known(name))) {
    fail(`$jsonSchema keyword '${keyword}' must name known types, found ${JSON.stringify(value)}`);
  }
  return names as string[];
}

function keywordCheck(schema: Document, keyword: string): Check | undefined {
  const arg: unknown = schema[keyword];
  switch (keyword) {
    case 'bsonType': {
      const names = typeNames(arg, keyword, (name) => BSON_TYPES.has(name));
      return (v) => names.some((name) => (name === 'number' ? NUMBER_TYPES.has(typeAlias(v)) : typeAlias(v) === name));
    }
    case 'type': {
      const checks = typeNames(arg, keyword, (name) => JSON_TYPES.has(name)).map((name) => JSON_TYPES.get(name)!);
      return (v) => checks.some((check) => check(typeAlias(v)));
    }
    case 'enum': {
      if (!Array.isArray(arg) || arg.length === 0) fail("$jsonSchema keyword 'enum' must be a non-empty array");
      return (v) => arg.some((option) => bsonEquals(option, v));
    }
    case 'minimum':
    case 'maximum': {
      const bound = number(schema, keyword);
      const exclusive = schema[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true;
      const sign = keyword === 'minimum' ? 1 : -1;
      return (v) => !NUMBER_TYPES.has(typeAlias(v)) || compareBson(v, bound) * sign > (exclusive ? 0 : -1);
    }
    case 'multipleOf': {
      const divisor = number(schema, keyword);
      if (divisor <= 0) fail("$jsonSchema keyword 'multipleOf' must have a positive value");
      return (v) => !NUMBER_TYPES.has(typeAlias(v)) || Number(v) % divisor === 0;
    }
    case 'minLength':
    case 'maxLength': {
      const n = count(schema, keyword);
      const ok = keyword === 'minLength' ? (l: number) => l >= n : (l: number) => l <= n;
      return (v) => typeof v !== 'string' || ok([...v].length);
    }
    case 'pattern': {
      if (typeof arg !== 'string') fail("$jsonSchema keyword 'pattern' must be a string");
      // Linear-time matching: a validator's regex cannot hold the server.
      regexTest({ source: arg, flags: '' }, '');
      return (v) => typeof v !== 'string' || regexTest({ source: arg, flags: '' }, v);
    }
    case 'minItems':
    case 'maxItems': {
      const n = count(schema, keyword);
      return (v) => !Array.isArray(v) || (keyword === 'minItems' ? v.length >= n : v.length <= n);
    }
    case 'uniqueItems':
      return arg === true
        ? (v) => !Array.isArray(v) || new Set(v.map((item) => encodeIndexValue(item))).size === v.length
        : undefined;
    case 'items': {
      if (Array.isArray(arg)) {
        const checks = arg.map((s) => subschema(s, keyword));
        const extra = schema.additionalItems;
        const rest =
          extra === false
            ? () => false
            : typeAlias(extra) === 'object'
              ? subschema(extra, 'additionalItems')
              : () => true;
        return (v) => !Array.isArray(v) || v.every((item, i) => (checks[i] ?? rest)(item));
      }
      const check = subschema(arg, keyword);
      return (v) => !Array.isArray(v) || v.every((item) => check(item));
    }
    case 'minProperties':
    case 'maxProperties': {
      const n = count(schema, keyword);
      return (v) =>
        typeAlias(v) !== 'object' ||
        (keyword === 'minProperties' ? Object.keys(v as Document).length >= n : Object.keys(v as Document).length <= n);
    }
    case 'required': {
      if (!Array.isArray(arg) || arg.length === 0 || arg.some((f) => typeof f !== 'string')) {
        fail("$jsonSchema keyword 'required' must be a non-empty array of strings");
      }
      return (v) => typeAlias(v) !== 'object' || arg.every((field) => Object.hasOwn(v as Document, field as string));
    }
    case 'properties':
    case 'patternProperties':
      return objectCheck(schema);
    case 'allOf':
    case 'anyOf':
    case 'oneOf': {
      if (!Array.isArray(arg) || arg.length === 0) fail(`$jsonSchema keyword '${keyword}' must be a non-empty array`);
      const checks = arg.map((s) => subschema(s, keyword));
      if (keyword === 'allOf') return (v) => checks.every((c) => c(v));
      if (keyword === 'anyOf') return (v) => checks.some((c) => c(v));
      return (v) => checks.filter((c) => c(v)).length === 1;
    }
    case 'not': {
      const check = subschema(arg, keyword);
      return (v) => !check(v);
    }
    case 'dependencies': {
      if (typeAlias(arg) !== 'object') fail("$jsonSchema keyword 'dependencies' must be an object");
      const rules = Object.entries(arg as Document).map(([field, dep]) => {
        const check: Check = Array.isArray(dep)
          ? (v) => dep.every((f) => Object.hasOwn(v as Document, f as string))
          : subschema(dep, keyword);
        return { field, check };
      });
      return (v) =>
        typeAlias(v) !== 'object' ||
        rules.every(({ field, check }) => !Object.hasOwn(v as Document, field) || check(v));
    }
    case 'additionalProperties':
      // Checked with `properties` and `patternProperties`.
      return schema.properties === undefined && schema.patternProperties === undefined
        ? objectCheck(schema)
        : undefined;
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'additionalItems':
      return undefined;
  }
  if (ANNOTATIONS.has(keyword)) return undefined;
  if (UNSUPPORTED.has(keyword)) fail(`$jsonSchema keyword '${keyword}' is not currently supported`);
  return fail(`Unknown $jsonSchema keyword: ${keyword}`);
}

/** `properties`, `patternProperties` and `additionalProperties` together, as they depend on each other. */
function objectCheck(schema: Document): Check {
  // The types first: Object.entries() of a 4 MB string makes 4 million entries.
  for (const keyword of ['properties', 'patternProperties'] as const) {
    if (schema[keyword] !== undefined && typeAlias(schema[keyword]) !== 'object') {
      fail(`$jsonSchema keyword '${keyword}' must be an object`);
    }
  }
  const properties = Object.entries((schema.properties ?? {}) as Document).map(
    ([field, s]) => [field, subschema(s, 'properties')] as const,
  );
  const patterns = Object.entries((schema.patternProperties ?? {}) as Document).map(([source, s]) => {
    regexTest({ source, flags: '' }, '');
    return [source, subschema(s, 'patternProperties')] as const;
  });
  const extra: unknown = schema.additionalProperties;
  const additional: Check =
    extra === false
      ? () => false
      : typeAlias(extra) === 'object'
        ? subschema(extra, 'additionalProperties')
        : () => true;
  const named = new Set(properties.map(([field]) => field));
  return (v) => {
    if (typeAlias(v) !== 'object') return true;
    const doc = v as Document;
    if (!properties.every(([field, check]) => !Object.hasOwn(doc, field) || check(doc[field]))) return false;
    return Object.keys(doc).every((field) => {
      const matching = patterns.filter(([source]) => regexTest({ source, flags: '' }, field));
      if (!matching.every(([, check]) => check(doc[field]))) return false;
      return named.has(field) || matching.length > 0 || additional(doc[field]);
    });
  };
}

/**
 * Compiles MongoDB's `$jsonSchema` (JSON Schema draft 4 with `bsonType`,
 * without `$ref`, `format` or `default`) into a predicate. Patterns run on
 * the linear-time regex engine. An unknown or unsupported keyword is
 * refused with MongoDB's FailedToParse, when the validator is set.
 */
export function compileSchema(schema: Document): Check {
  const checks = Object.keys(schema)
    .map((keyword) => keywordCheck(schema, keyword))
    .filter((check): check is Check => check !== undefined);
  return (value) => checks.every((check) => check(value));
}
