import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { checkArgument, checkExpression, checkProjection, knownOperator, notSupported } from './expression-check.js';
import { checkVariables, defineVariables, NO_VARIABLES, type Scope, withVariables } from './expression-variables.js';
import { refuseProtoPipeline } from './proto-paths.js';
import { compileFilter, MONGO_CONTEXT } from './query-context.js';
import { checkCount, checkFacet, checkLookup, checkUnwind } from './stage-arguments.js';

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

function checkGroup(spec: unknown, stage: string, scope: Scope): void {
  if (typeAlias(spec) !== 'object') return;
  for (const [field, value] of Object.entries(spec as Document)) {
    if (field === '_id' || field === 'groupBy' || field === 'boundaries' || field === 'default') {
      checkExpression(value, MONGO_CONTEXT, stage);
      // `boundaries` and `default` are constants, not expressions.
      if (field === '_id' || field === 'groupBy') checkVariables(value, scope);
      continue;
    }
    const accumulators = field === 'output' && stage !== '$group' ? Object.values(value as Document) : [value];
    for (const accumulator of accumulators) {
      if (typeAlias(accumulator) !== 'object') continue;
      const [name] = Object.keys(accumulator as Document);
      if (name !== undefined && !knownOperator(MONGO_CONTEXT, 'accumulator', name)) {
        throw new CommandError('Location15952', `unknown group operator '${name}'`);
      }
      if (name !== undefined) {
        checkArgument(name, (accumulator as Document)[name]);
        checkExpression((accumulator as Document)[name], MONGO_CONTEXT, stage);
        checkVariables((accumulator as Document)[name], scope);
      }
    }
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
const DOCUMENT_SPECS = new Map<string, (type: string) => CommandError>([
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
    '$replaceRoot',
    (type) =>
      new CommandError('Location40228', `expected an object as specification for $replaceRoot stage, got ${type}`),
  ],
  [
    '$lookup',
    (type) => new CommandError('FailedToParse', `the $lookup specification must be an Object, but found ${type}`),
  ],
  [
    '$graphLookup',
    (type) => new CommandError('FailedToParse', `the $graphLookup specification must be an Object, but found ${type}`),
  ],
  [
    '$setWindowFields',
    (type) =>
      new CommandError(
        'TypeMismatch',
        `BSON field '$setWindowFields' is the wrong type '${type}', expected type 'object'`,
      ),
  ],
  [
    '$collStats',
    (type) =>
      new CommandError('TypeMismatch', `BSON field '$collStats' is the wrong type '${type}', expected type 'object'`),
  ],
]);

/** A find-only positional projection (`'a.$': 1`) in a `$project`, which mingo answered with `[null]`. */
function refusePositional(spec: unknown): void {
  if (typeAlias(spec) !== 'object') return;
  for (const [key, value] of Object.entries(spec as Document)) {
    if (key === '$' || key.endsWith('.$')) {
      throw new CommandError('Location31324', 'Cannot use positional projection in aggregation projection');
    }
    if (!key.startsWith('$')) refusePositional(value);
  }
}

/** Checks one stage; `scope` holds the variables a `$lookup` defines for its sub-pipeline. */
function checkStage(name: string, spec: unknown, scope: Scope): void {
  const wrongType = DOCUMENT_SPECS.get(name);
  if (wrongType && typeAlias(spec) !== 'object') throw wrongType(typeAlias(spec));
  const sub = (value: unknown, inner = scope): void => {
    if (Array.isArray(value)) checkStages(value, inner);
  };
  switch (name) {
    case '$match':
      compileFilter(spec as Document, scope);
      break;
    case '$project':
      if (Object.keys(spec as Document).length === 0) {
        throw new CommandError(
          'Location51272',
          'Invalid $project :: caused by :: projection specification must have at least one field',
        );
      }
      refusePositional(spec);
      checkProjection(spec as Document, { context: MONGO_CONTEXT, scope, stage: name });
      break;
    case '$addFields':
    case '$set':
    case '$replaceRoot':
    case '$replaceWith':
    case '$sortByCount':
    case '$redact':
      checkExpression(spec, MONGO_CONTEXT, name);
      checkVariables(spec, scope);
      break;
    case '$group':
    case '$bucket':
    case '$bucketAuto':
      checkGroup(spec, name, scope);
      break;
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
      if (typeAlias(spec) === 'object') sub((spec as Document).pipeline);
      break;
  }
}
