/**
 * The arguments of `$unwind`, `$lookup`, `$graphLookup`, `$count`, `$facet`,
 * `$skip`, `$limit`, `$replaceRoot`, `$unionWith` and `$sortByCount`, checked
 * as mongod 7 parses them (document_source_unwind.cpp,
 * document_source_lookup.cpp, document_source_graph_lookup.cpp,
 * document_source_count.cpp, document_source_facet.cpp, and the others' own
 * files), before any document is read. mingo took what it was given: a `$lookup` without `as` wrote its
 * matches to a field named "undefined", `$unwind: 'a'` unwound nothing, an
 * unknown option passed silently, and a field name holding a NUL byte broke
 * the reply carrying it.
 */
import type { Document } from 'bson';

import { formatKeyValue } from '../bson/format-key-value.js';
import { CommandError } from '../commands/command-error.js';
import { checkStructFields, wrongFieldType } from '../commands/idl-fields.js';
import { typeAlias } from './element-operators.js';
import { checkFieldName, checkFieldPath } from './field-path.js';

/** `$unwind`: a `$`-path, or `{ path, includeArrayIndex, preserveNullAndEmptyArrays }`. */
export function checkUnwind(spec: unknown): void {
  let path = '';
  if (typeAlias(spec) === 'object') {
    for (const [option, value] of Object.entries(spec as Document)) {
      if (option === 'path') {
        if (typeof value !== 'string') {
          throw new CommandError(
            'Location28808',
            `expected a string as the path for $unwind stage, got ${typeAlias(value)}`,
          );
        }
        path = value;
      } else if (option === 'preserveNullAndEmptyArrays') {
        if (typeof value !== 'boolean') {
          throw new CommandError(
            'Location28809',
            `expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got ${typeAlias(value)}`,
          );
        }
      } else if (option === 'includeArrayIndex') {
        if (typeof value !== 'string' || value.length === 0) {
          // mongod's message has the two spaces.
          throw new CommandError(
            'Location28810',
            `expected a non-empty string for the includeArrayIndex  option to $unwind stage, got ${typeAlias(value)}`,
          );
        }
        if (value.startsWith('$')) {
          throw new CommandError(
            'Location28822',
            `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${value}`,
          );
        }
        checkFieldPath(value);
      } else {
        throw new CommandError('Location28811', `unrecognized option to $unwind stage: ${option}`);
      }
    }
  } else if (typeof spec === 'string') {
    path = spec;
  } else {
    throw new CommandError(
      'Location15981',
      `expected either a string or an object as specification for $unwind stage, got ${typeAlias(spec)}`,
    );
  }
  if (path.length === 0) throw new CommandError('Location28812', 'no path specified to $unwind stage');
  if (!path.startsWith('$')) {
    throw new CommandError('Location28818', `path option to $unwind stage should be prefixed with a '$': ${path}`);
  }
  // `Expression::removeFieldPrefix`, whose other check (15982, the `$`) 28818 has made.
  if (path.includes('\0')) {
    throw new CommandError('Location16419', 'field path must not contain embedded null characters');
  }
  checkFieldPath(path.slice(1));
}

/** The arguments of `$lookup` that are strings, each a field path once parsed. */
const LOOKUP_STRINGS = new Set(['as', 'localField', 'foreignField']);
/** The arguments of `$lookup` read otherwise (`from` and `pipeline` by pipeline-check.ts and the stage). */
const LOOKUP_OTHERS = new Set(['from', 'pipeline', 'let', '_internalCollation']);

/** `$lookup`: argument types, unknown arguments, `as`, and the field paths of `as`, `localField` and `foreignField`. */
export function checkLookup(spec: Document): void {
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'let' && typeAlias(value) !== 'object') {
      throw new CommandError(
        'FailedToParse',
        `$lookup argument 'let: ${formatKeyValue(value)}' must be an object, is type ${typeAlias(value)}`,
      );
    }
    if (LOOKUP_OTHERS.has(name)) continue;
    if (typeof value !== 'string') {
      throw new CommandError(
        'FailedToParse',
        `$lookup argument '${name}' must be a string, found ${name}: ${formatKeyValue(value)}: ${typeAlias(value)}`,
      );
    }
    if (!LOOKUP_STRINGS.has(name)) throw new CommandError('FailedToParse', `unknown argument to $lookup: ${name}`);
  }
  const as = typeof spec.as === 'string' ? spec.as : '';
  const local = typeof spec.localField === 'string' ? spec.localField : '';
  const foreign = typeof spec.foreignField === 'string' ? spec.foreignField : '';
  if (as.length === 0) throw new CommandError('FailedToParse', "must specify 'as' field for a $lookup");
  const hasPipeline = Object.hasOwn(spec, 'pipeline');
  if (!hasPipeline || local.length > 0 || foreign.length > 0) {
    if (local.length === 0 || foreign.length === 0) {
      throw new CommandError(
        'FailedToParse',
        hasPipeline
          ? "$lookup requires both or neither of 'localField' and 'foreignField' to be specified"
          : "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
      );
    }
  }
  if (!hasPipeline && Object.hasOwn(spec, 'let')) {
    throw new CommandError('FailedToParse', "$lookup with a 'let' argument must also specify 'pipeline'");
  }
  checkFieldPath(as);
  if (local.length > 0) checkFieldPath(local);
  if (foreign.length > 0) checkFieldPath(foreign);
}

/**
 * A numeric argument's value (an integral double arrives as a `Double`, an
 * Int64 as a bigint), or `undefined` when it is no number.
 */
export function numericArgument(value: unknown): number | undefined {
  switch (typeAlias(value)) {
    case 'int':
    case 'double':
      return typeof value === 'number' ? value : Number((value as { valueOf(): unknown }).valueOf());
    case 'long':
      return Number(value as bigint);
    case 'decimal':
      return Number(String(value));
    default:
      return undefined;
  }
}

/** The string arguments of `$graphLookup` besides `from`, each a field path. */
const GRAPH_LOOKUP_PATHS = new Set(['as', 'connectFromField', 'connectToField', 'depthField']);

/**
 * `$graphLookup`'s arguments, in mongod's order: `from` first (FailedToParse,
 * InvalidNamespace), then each argument as it comes (40100–40104, 40185), then
 * the required ones (40105) and the field paths (16410, …). `startWith` and
 * `restrictSearchWithMatch` are the caller's to check as an expression and a filter.
 */
export function checkGraphLookup(spec: Document): void {
  if (!Object.hasOwn(spec, 'from')) {
    throw new CommandError(
      'FailedToParse',
      `missing 'from' option to $graphLookup stage specification: ${formatKeyValue(spec)}`,
    );
  }
  if (typeof spec.from !== 'string') {
    throw new CommandError(
      'FailedToParse',
      `$graphLookup 'from' field must be a string, but found ${typeAlias(spec.from)}`,
    );
  }
  // mongod names the database too ("invalid $graphLookup namespace: <db>."), which the pipeline check does not know.
  if (spec.from.length === 0) {
    throw new CommandError('InvalidNamespace', 'invalid $graphLookup namespace: an empty collection name');
  }
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'from' || name === 'startWith') continue;
    if (name === 'maxDepth') {
      const depth = numericArgument(value);
      if (depth === undefined) {
        throw new CommandError('Location40100', `maxDepth must be numeric, found type: ${typeAlias(value)}`);
      }
      if (Math.trunc(depth) < 0) {
        throw new CommandError(
          'Location40101',
          `maxDepth requires a nonnegative argument, found: ${Math.trunc(depth)}`,
        );
      }
      if (!Number.isInteger(depth)) {
        throw new CommandError('Location40102', `maxDepth could not be represented as a long long: ${depth}`);
      }
      continue;
    }
    if (name === 'restrictSearchWithMatch') {
      if (typeAlias(value) !== 'object') {
        throw new CommandError('Location40185', `restrictSearchWithMatch must be an object, found ${typeAlias(value)}`);
      }
      continue;
    }
    if (!GRAPH_LOOKUP_PATHS.has(name)) {
      throw new CommandError('Location40104', `Unknown argument to $graphLookup: ${name}`);
    }
    if (typeof value !== 'string') {
      throw new CommandError(
        'Location40103',
        `expected string as argument for ${name}, found: ${formatKeyValue(value)}`,
      );
    }
    // mongod makes depthField a FieldPath as it reads it, the other paths only once all are read.
    if (name === 'depthField') checkFieldPath(value);
  }
  const missing = (name: string) => spec[name] === undefined || (name !== 'startWith' && spec[name] === '');
  if (['as', 'startWith', 'connectFromField', 'connectToField'].some(missing)) {
    throw new CommandError(
      'Location40105',
      "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified.",
    );
  }
  for (const name of ['as', 'connectFromField', 'connectToField']) checkFieldPath(spec[name] as string);
}

/** `$count`: a non-empty field name, without `$`, NUL or `.` (40156–40160). */
export function checkCount(spec: unknown): void {
  if (typeof spec !== 'string') throw new CommandError('Location40156', 'the count field must be a non-empty string');
  if (spec.length === 0) throw new CommandError('Location40157', 'the count field must be a non-empty string');
  if (spec.startsWith('$')) throw new CommandError('Location40158', 'the count field cannot be a $-prefixed path');
  if (spec.includes('\0')) throw new CommandError('Location40159', 'the count field cannot contain a null byte');
  if (spec.includes('.')) throw new CommandError('Location40160', "the count field cannot contain '.'");
}

/** Stages a `$facet` sub-pipeline may not hold (40600). */
const NOT_IN_FACET = new Set([
  ...['$out', '$merge', '$facet', '$collStats', '$indexStats', '$geoNear', '$changeStream'],
  ...['$listLocalSessions', '$listSessions', '$currentOp', '$planCacheStats'],
]);

/**
 * `$facet`: a non-empty document (the type is checked with the other
 * stages' specifications) of valid names, each an array of stage documents,
 * none of them one that must come first or last. mingo ran a `$out` inside
 * a facet as a no-op and failed on a facet that was not an array with its
 * own TypeError.
 */
export function checkFacet(spec: Document): void {
  if (Object.keys(spec).length === 0) {
    throw new CommandError(
      'Location40169',
      'the $facet specification must be a non-empty object, but found: $facet: {}',
    );
  }
  for (const [name, pipeline] of Object.entries(spec)) {
    checkFieldName(name);
    if (!Array.isArray(pipeline)) {
      throw new CommandError(
        'Location40170',
        `arguments to $facet must be arrays, ${name} is type ${typeAlias(pipeline)}`,
      );
    }
    for (const [index, stage] of (pipeline as unknown[]).entries()) {
      if (typeAlias(stage) !== 'object') {
        throw new CommandError(
          'Location40171',
          `elements of arrays in $facet spec must be non-empty objects, ${name} argument contained an element of type ${typeAlias(stage)}: ${index}: ${formatKeyValue(stage)}`,
        );
      }
      const [stageName] = Object.keys(stage as Document);
      if (stageName !== undefined && NOT_IN_FACET.has(stageName)) {
        throw new CommandError('Location40600', `${stageName} is not allowed to be used within a $facet stage`);
      }
    }
  }
}

/**
 * `$skip` and `$limit` (BSONElement::parseIntegerElementToNonNegativeLong):
 * a whole number of any numeric type that fits an Int64 and is not
 * negative, else 5107200 (`$skip`) or 5107201 (`$limit`) with the element as
 * mongod prints it; a limit of 0 is 15958. mingo took `$skip: 1.5` and
 * skipped two documents, and `$limit: 1.5` returned two.
 */
export function checkSkipOrLimit(name: '$skip' | '$limit', spec: unknown): void {
  const code = name === '$skip' ? 'Location5107200' : 'Location5107201';
  const element = `${name}: ${formatKeyValue(spec)}`;
  const fail = (reason: string): CommandError =>
    new CommandError(code, `invalid argument to ${name} stage: ${reason}${element}`);
  const type = typeAlias(spec);
  let value: number;
  if (type === 'int' || type === 'long') {
    value = Number(typeof spec === 'bigint' ? spec : (spec as { valueOf(): number }).valueOf());
  } else if (type === 'double') {
    value = numericArgument(spec)!;
    if (Number.isNaN(value)) throw fail('Expected an integer, but found NaN in: ');
    if (!(value >= -(2 ** 63) && value < 2 ** 63)) throw fail('Cannot represent as a 64-bit integer: ');
    if (!Number.isInteger(value)) throw fail('Expected an integer: ');
  } else if (type === 'decimal') {
    value = numericArgument(spec)!;
    if (!Number.isInteger(value) || Math.abs(value) >= 2 ** 63) throw fail('Cannot represent as a 64-bit integer: ');
  } else {
    throw fail('Expected a number in: ');
  }
  if (value < 0) throw fail('Expected a non-negative number in: ');
  if (name === '$limit' && value === 0) throw new CommandError('Location15958', 'the limit must be positive');
}

/**
 * `$replaceRoot`: an object (40229) of exactly `newRoot` (its IDL: 40415
 * for another field, 40414 without it). `$replaceWith` takes any expression.
 */
export function checkReplaceRoot(spec: unknown): void {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      'Location40229',
      `expected an object as specification for $replaceRoot stage, got ${typeAlias(spec)}`,
    );
  }
  checkStructFields('$replaceRoot', spec as Document, { newRoot: true });
}

/**
 * `$unionWith`: a collection name, or `{ coll, pipeline }` (its IDL: `coll`
 * a string, `pipeline` an array of objects, nothing else); without `coll`
 * the pipeline must start with `$documents`. mingo ignored an unknown
 * field and answered BadValue for the rest.
 */
export function checkUnionWith(spec: unknown): void {
  const type = typeAlias(spec);
  if (type === 'string') return;
  if (type !== 'object') {
    throw new CommandError(
      'FailedToParse',
      `the $unionWith stage specification must be an object or string, but found ${type}`,
    );
  }
  const union = spec as Document;
  checkStructFields('$unionWith', union, { coll: false, pipeline: false }, (key, value) => {
    if (key === 'coll') {
      if (typeof value !== 'string') {
        throw wrongFieldType('$unionWith.coll', value, "type 'string'");
      }
    } else {
      if (!Array.isArray(value)) {
        throw wrongFieldType('$unionWith.pipeline', value, "type 'array'");
      }
      (value as unknown[]).forEach((stage, i) => {
        if (typeAlias(stage) !== 'object') {
          throw wrongFieldType(`$unionWith.pipeline.${i}`, stage, "type 'object'");
        }
      });
    }
  });
  if (union.coll === undefined) {
    const first = (union.pipeline as Document[] | undefined)?.[0];
    if (first === undefined || !Object.hasOwn(first, '$documents')) {
      throw new CommandError(
        'FailedToParse',
        '$unionWith stage without explicit collection must have a pipeline with $documents as first stage',
      );
    }
  }
}

/** `$sortByCount`: a `$`-path of at least one character (40148) or an expression object (40147); else 40149. */
export function checkSortByCount(spec: unknown): void {
  const message = 'the sortByCount field must be defined as a $-prefixed path or an expression inside an object';
  if (typeAlias(spec) === 'object') {
    if (!(Object.keys(spec as Document)[0] ?? '').startsWith('$')) throw new CommandError('Location40147', message);
  } else if (typeof spec === 'string') {
    if (spec.length < 2 || !spec.startsWith('$')) throw new CommandError('Location40148', message);
  } else {
    throw new CommandError('Location40149', 'the sortByCount field must be specified as a string or as an object');
  }
}
