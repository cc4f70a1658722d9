import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { formatKeyValue } from '../bson/format-key-value.js';
import {
  asParsedIn,
  checkArgument,
  checkExpression,
  checkProjection,
  knownOperator,
  notSupported,
} from './expression-check.js';
import { checkVariables, defineVariables, NO_VARIABLES, type Scope, withVariables } from './expression-variables.js';
import { checkFieldPath } from './field-path.js';
import { checkProjectionShape, checkUnsetSpec } from './projection-shape.js';
import { refuseProtoPipeline } from './proto-paths.js';
import { parseSortSpec, type SortSpec } from './sort-documents.js';
import { compileFilter, MONGO_CONTEXT, preparedMingoOptions } from './query-context.js';
import { parseBucket } from './bucket-stage.js';
import { parseBucketAuto } from './bucket-auto-stage.js';
import { parseDensify } from './densify-stage.js';
import { parseFill } from './fill-stage.js';
import { checkSetWindowFields } from './window-fields-spec.js';
import {
  checkCount,
  checkFacet,
  checkGraphLookup,
  checkLookup,
  checkReplaceRoot,
  checkSkipOrLimit,
  checkSortByCount,
  checkUnionWith,
  checkUnwind,
} from './stage-arguments.js';

/** Every aggregation stage MongoDB 7 knows; those the embedded server lacks are refused by name. */
const MONGOD_STAGES = new Set([
  ...['$addFields', '$bucket', '$bucketAuto', '$changeStream', '$changeStreamSplitLargeEvent', '$collStats'],
  ...['$count', '$currentOp', '$densify', '$documents', '$facet', '$fill', '$geoNear', '$graphLookup', '$group'],
  ...['$indexStats', '$limit', '$listLocalSessions', '$listSampledQueries', '$listSearchIndexes', '$listSessions'],
  ...['$lookup', '$match', '$merge', '$out', '$planCacheStats', '$project', '$redact', '$replaceRoot'],
  ...['$replaceWith', '$sample', '$search', '$searchMeta', '$set', '$setWindowFields', '$skip', '$sort'],
  ...['$sortByCount', '$unionWith', '$unset', '$unwind', '$vectorSearch', '$shardedDataDistribution'],
]);

/** Stages the command handlers run themselves rather than mingo. */
const OWN_STAGES = new Set<string>();

/** Stages a handler outside mingo runs (so the check lets them through). */
export function allowStage(name: string): void {
  OWN_STAGES.add(name);
}

/**
 * One accumulator of `$group` or of `$bucket`'s `output`, checked in the
 * order of mongod's `parseAccumulationStatement`: an object whose first
 * field is an operator (40234), a field name without `.` (40235) or a
 * leading `$` (40236), one accumulator (40238), not given an array (40237),
 * a known accumulator (15952), then its own argument checks.
 */
function checkAccumulator(field: string, accumulator: unknown, scope: Scope): void {
  const keys = typeAlias(accumulator) === 'object' ? Object.keys(accumulator as Document) : [];
  if (!keys[0]?.startsWith('$')) {
    throw new CommandError('Location40234', `The field '${field}' must be an accumulator object`);
  }
  if (field.includes('.')) throw new CommandError('Location40235', `The field name '${field}' cannot contain '.'`);
  if (field.startsWith('$')) {
    throw new CommandError('Location40236', `The field name '${field}' cannot be an operator name`);
  }
  if (keys.length !== 1) throw new CommandError('Location40238', `The field '${field}' must specify one accumulator`);
  const name = keys[0];
  const argument: unknown = (accumulator as Document)[name];
  if (Array.isArray(argument)) throw new CommandError('Location40237', `The ${name} accumulator is a unary operator`);
  if (!knownOperator(MONGO_CONTEXT, 'accumulator', name)) {
    throw new CommandError('Location15952', `unknown group operator '${name}'`);
  }
  // parseCountAccumulator: `$count` is `$sum: 1` and takes `{}` only (mingo took any argument).
  if (name === '$count' && !(typeAlias(argument) === 'object' && Object.keys(argument as Document).length === 0)) {
    throw new CommandError('TypeMismatch', '$count takes no arguments, i.e. $count:{}');
  }
  checkArgument(name, argument);
  checkExpression(argument, MONGO_CONTEXT);
  checkVariables(argument, scope);
}

/**
 * `$group` (its fields in order, then 15955 without `_id`), `$bucket` and
 * `$bucketAuto` (their expressions and `output` accumulators).
 */
function checkGroup(spec: unknown, stage: string, scope: Scope): void {
  if (typeAlias(spec) !== 'object') return;
  for (const [field, value] of Object.entries(spec as Document)) {
    if (field === '_id' || field === 'groupBy' || field === 'boundaries' || field === 'default') {
      checkExpression(value, MONGO_CONTEXT);
      // `boundaries` and `default` are constants, not expressions.
      if (field === '_id' || field === 'groupBy') checkVariables(value, scope);
    } else if (stage === '$group') {
      checkAccumulator(field, value, scope);
    } else if (field === 'output' && typeAlias(value) === 'object') {
      for (const [name, accumulator] of Object.entries(value as Document)) checkAccumulator(name, accumulator, scope);
    }
  }
  if (stage === '$group' && !Object.hasOwn(spec as Document, '_id')) {
    throw new CommandError('Location15955', 'a group specification must include an _id');
  }
}

/**
 * Checks a pipeline as mongod parses it before running it: one field per
 * stage, known stages, known query, expression and accumulator operators
 * (also in `$lookup`, `$facet` and `$unionWith` sub-pipelines). So a bad
 * pipeline fails on an empty collection too, as on mongod. A pipeline naming
 * a field `__proto__` is refused here, for every command that runs one
 * (see proto-paths.ts).
 */
export function checkPipeline(pipeline: unknown[]): void {
  checkStages(pipeline);
  refuseProtoPipeline(pipeline as Document[]);
}

/** mongod's `internalPipelineLengthLimit`, for a pipeline and each sub-pipeline (`$lookup`, `$facet`, `$unionWith`). */
const MAX_PIPELINE_LENGTH = 1000;

function checkStages(pipeline: unknown[], scope: Scope = NO_VARIABLES): void {
  // Before anything else, as mongod: every document goes through every stage.
  if (pipeline.length > MAX_PIPELINE_LENGTH) {
    throw new CommandError('Location7749501', `Pipeline length must be no longer than ${MAX_PIPELINE_LENGTH} stages.`);
  }
  for (const raw of pipeline) {
    if (typeAlias(raw) !== 'object') {
      throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
    }
    const keys = Object.keys(raw as Document);
    if (keys.length !== 1) {
      throw new CommandError('Location40323', 'A pipeline stage specification object must contain exactly one field.');
    }
    const name = keys[0]!;
    const spec: unknown = (raw as Document)[name];
    if (!knownOperator(MONGO_CONTEXT, 'pipeline', name) && !OWN_STAGES.has(name)) {
      if (MONGOD_STAGES.has(name)) throw notSupported(`The ${name} stage`);
      throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
    }
    checkStage(name, spec, scope);
  }
}

/**
 * Stages whose specification must be a document, with what mongod answers for another type.
 * Checked first: mingo enumerated a string there as an object, one key per character (a 4 MB
 * string cost 2.5–40 s of the server's only thread).
 */
const DOCUMENT_SPECS = new Map<string, (type: string, spec: unknown) => CommandError>([
  [
    '$addFields',
    (type) => new CommandError('Location40272', `$addFields specification stage must be an object, got ${type}`),
  ],
  ['$set', (type) => new CommandError('Location40272', `$set specification stage must be an object, got ${type}`)],
  ['$project', () => new CommandError('Location15969', '$project specification must be an object')],
  ['$group', () => new CommandError('Location15947', "a group's fields must be specified in an object")],
  ['$match', () => new CommandError('Location15959', 'the match filter must be an expression in an object')],
  ['$sort', () => new CommandError('Location15973', 'the $sort key specification must be an object')],
  ['$sample', () => new CommandError('Location28745', 'the $sample stage specification must be an object')],
  [
    '$facet',
    (type) =>
      new CommandError('Location40169', `the $facet specification must be a non-empty object, but found: ${type}`),
  ],
  [
    '$bucket',
    (type) =>
      new CommandError('Location40201', `Argument to $bucket stage must be an object, but found type: ${type}.`),
  ],
  [
    '$bucketAuto',
    (type) =>
      new CommandError('Location40240', `The argument to $bucketAuto must be an object, but found type: ${type}.`),
  ],
  [
    '$lookup',
    (type) => new CommandError('FailedToParse', `the $lookup specification must be an Object, but found ${type}`),
  ],
  [
    '$graphLookup',
    (type) => new CommandError('FailedToParse', `the $graphLookup specification must be an Object, but found ${type}`),
  ],
  // createFromBson checks this before its IDL parser could (document_source_set_window_fields.cpp).
  [
    '$setWindowFields',
    (type) =>
      new CommandError('FailedToParse', `the $setWindowFields stage specification must be an object, found ${type}`),
  ],
  [
    '$collStats',
    (_type, spec) =>
      new CommandError(
        'Location5447000',
        `$collStats must take a nested object but found: $collStats: ${formatKeyValue(spec)}`,
      ),
  ],
]);

/**
 * `$addFields`/`$set`: the top level names fields (dotted paths, never an
 * expression: `{ $add: … }` there is a field named `$add`, 16410), each
 * value an expression or an object of more fields to set.
 */
function checkAddFields(spec: Document, scope: Scope): void {
  for (const [field, value] of Object.entries(spec)) {
    checkFieldPath(field);
    const keys = typeAlias(value) === 'object' ? Object.keys(value as Document) : [];
    if (keys.length > 0 && !(keys.length === 1 && keys[0]!.startsWith('$'))) {
      checkAddFields(value as Document, scope);
      continue;
    }
    checkExpression(value, MONGO_CONTEXT);
    checkVariables(value, scope);
  }
}

/** Checks one stage; `scope` holds the variables a `$lookup` defines for its sub-pipeline. */
function checkStage(name: string, spec: unknown, scope: Scope): void {
  const wrongType = DOCUMENT_SPECS.get(name);
  if (wrongType && typeAlias(spec) !== 'object') throw wrongType(typeAlias(spec), spec);
  const sub = (value: unknown, inner = scope): void => {
    if (Array.isArray(value)) checkStages(value, inner);
  };
  switch (name) {
    case '$match':
      compileFilter(spec as Document, scope);
      break;
    case '$project':
      asParsedIn(name, () => {
        if (Object.keys(spec as Document).length === 0) {
          throw new CommandError('Location51272', 'projection specification must have at least one field');
        }
        checkProjectionShape(spec as Document);
        checkProjection(spec as Document, { context: MONGO_CONTEXT, scope });
      });
      break;
    case '$sort':
      if (Object.keys(spec as Document).length === 0) {
        throw new CommandError('Location15976', '$sort stage must have at least one sort key');
      }
      // Its keys are paths (SortPattern makes each a FieldPath), its directions ±1 unless a $meta.
      for (const [key, direction] of Object.entries(spec as Document)) {
        checkFieldPath(key);
        if (typeAlias(direction) !== 'object' || !Object.hasOwn(direction as Document, '$meta')) {
          parseSortSpec({ [key]: direction } as SortSpec);
        }
      }
      break;
    case '$unset':
      checkUnsetSpec(spec, (check) => asParsedIn(name, check));
      break;
    case '$addFields':
    case '$set':
      asParsedIn(name, () => checkAddFields(spec as Document, scope));
      break;
    case '$replaceRoot':
      checkReplaceRoot(spec);
      checkExpression((spec as Document).newRoot, MONGO_CONTEXT);
      checkVariables((spec as Document).newRoot, scope);
      break;
    case '$skip':
    case '$limit':
      checkSkipOrLimit(name, spec);
      break;
    case '$sortByCount':
      checkSortByCount(spec);
      checkExpression(spec, MONGO_CONTEXT);
      checkVariables(spec, scope);
      break;
    case '$replaceWith':
    case '$redact':
      checkExpression(spec, MONGO_CONTEXT);
      checkVariables(spec, scope);
      break;
    case '$bucket':
      checkGroup(spec, name, scope);
      // Its boundaries and default, as mongod checks them while parsing.
      if (typeAlias(spec) === 'object')
        parseBucket(spec as Document, (constant) => evalExpr({}, constant, preparedMingoOptions()));
      break;
    case '$bucketAuto':
      checkGroup(spec, name, scope);
      if (typeAlias(spec) === 'object') parseBucketAuto(spec as Document);
      break;
    case '$group':
      checkGroup(spec, name, scope);
      break;
    case '$setWindowFields':
      // Each expression (partitionBy, function arguments, bounds) checked where mongod parses it.
      checkSetWindowFields(spec, (expr) => {
        checkExpression(expr, MONGO_CONTEXT);
        checkVariables(expr, scope);
      });
      break;
    case '$densify':
      parseDensify(spec);
      break;
    case '$fill': {
      // The stages it stands for, checked as they are.
      const stages = parseFill(spec);
      if (stages.setWindowFields) checkStage('$setWindowFields', stages.setWindowFields, scope);
      if (stages.addFields) checkStage('$addFields', stages.addFields, scope);
      break;
    }
    case '$facet':
      checkFacet(spec as Document);
      for (const value of Object.values(spec as Document)) sub(value);
      break;
    case '$unwind':
      checkUnwind(spec);
      break;
    case '$count':
      checkCount(spec);
      break;
    case '$lookup':
      // `let` is read where the $lookup is; its names are defined in the sub-pipeline.
      if (typeAlias(spec) === 'object') {
        checkLookup(spec as Document);
        const names = defineVariables((spec as Document).let, scope);
        sub((spec as Document).pipeline, withVariables(scope, ...names));
      }
      break;
    case '$unionWith':
      checkUnionWith(spec);
      if (typeAlias(spec) === 'object') sub((spec as Document).pipeline);
      break;
    case '$graphLookup': {
      const graph = spec as Document;
      checkGraphLookup(graph);
      checkExpression(graph.startWith, MONGO_CONTEXT);
      checkVariables(graph.startWith, scope);
      if (graph.restrictSearchWithMatch !== undefined) compileFilter(graph.restrictSearchWithMatch as Document, scope);
      break;
    }
  }
}
