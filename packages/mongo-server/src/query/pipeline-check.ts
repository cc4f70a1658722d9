import type { Document } from 'bson';

import { CommandError } from '../commands/command-error.js';
import { typeAlias } from './element-operators.js';
import { compileFilter, MONGO_CONTEXT } from './query-context.js';

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

/** MongoDB 7 expression operators mingo lacks: refused by name rather than as unknown. */
const MONGOD_ONLY_EXPRESSIONS = new Set([
  '$function',
  '$accumulator',
  '$meta',
  '$toHashedIndexKey',
  '$tsSecond',
  '$tsIncrement',
]);

function known(type: 'expression' | 'accumulator' | 'pipeline', name: string): boolean {
  return MONGO_CONTEXT.getOperator(type as never, name) !== null;
}

function notSupported(what: string): CommandError {
  return new CommandError(
    'CommandNotSupported',
    `${what} is not supported by the embedded server: use a real MongoDB (MONGO_URL) for it`,
  );
}

/** Walks an aggregation expression, refusing operators mongod would not parse. */
function checkExpression(expr: unknown, stage: string): void {
  if (Array.isArray(expr)) {
    for (const item of expr) checkExpression(item, stage);
    return;
  }
  if (typeAlias(expr) !== 'object') return;
  const keys = Object.keys(expr as Document);
  const operator = keys[0];
  if (operator?.startsWith('$')) {
    if (keys.length > 1) {
      throw new CommandError(
        'Location15983',
        `An object representing an expression must have exactly one field: ${JSON.stringify(keys)}`,
      );
    }
    if (!known('expression', operator) && !known('accumulator', operator)) {
      if (MONGOD_ONLY_EXPRESSIONS.has(operator)) throw notSupported(`The ${operator} expression`);
      throw new CommandError(
        'InvalidPipelineOperator',
        `Invalid ${stage} :: caused by :: Unrecognized expression '${operator}'`,
      );
    }
    if (operator === '$literal') return;
    checkExpression((expr as Document)[operator], stage);
    return;
  }
  for (const value of Object.values(expr as Document)) checkExpression(value, stage);
}

function checkGroup(spec: unknown, stage: string): void {
  if (typeAlias(spec) !== 'object') return;
  for (const [field, value] of Object.entries(spec as Document)) {
    if (field === '_id' || field === 'groupBy' || field === 'boundaries' || field === 'default') {
      checkExpression(value, stage);
      continue;
    }
    const accumulators = field === 'output' && stage !== '$group' ? Object.values(value as Document) : [value];
    for (const accumulator of accumulators) {
      if (typeAlias(accumulator) !== 'object') continue;
      const [name] = Object.keys(accumulator as Document);
      if (name !== undefined && !known('accumulator', name)) {
        throw new CommandError('Location15952', `unknown group operator '${name}'`);
      }
      if (name !== undefined) checkExpression((accumulator as Document)[name], stage);
    }
  }
}

/**
 * Checks a pipeline as mongod parses it before running it: one field per
 * stage, known stages, known query, expression and accumulator operators
 * (also in `$lookup`, `$facet` and `$unionWith` sub-pipelines). So a bad
 * pipeline fails on an empty collection too, as on mongod.
 */
export function checkPipeline(pipeline: unknown[]): void {
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
    if (!known('pipeline', name) && !OWN_STAGES.has(name)) {
      if (MONGOD_STAGES.has(name)) throw notSupported(`The ${name} stage`);
      throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
    }
    checkStage(name, spec);
  }
}

function checkStage(name: string, spec: unknown): void {
  const sub = (value: unknown): void => {
    if (Array.isArray(value)) checkPipeline(value);
  };
  switch (name) {
    case '$match':
      compileFilter(spec as Document);
      break;
    case '$project':
    case '$addFields':
    case '$set':
    case '$replaceRoot':
    case '$replaceWith':
    case '$sortByCount':
    case '$redact':
      checkExpression(spec, name);
      break;
    case '$group':
    case '$bucket':
    case '$bucketAuto':
      checkGroup(spec, name);
      break;
    case '$facet':
      if (typeAlias(spec) === 'object') for (const value of Object.values(spec as Document)) sub(value);
      break;
    case '$lookup':
    case '$unionWith':
      if (typeAlias(spec) === 'object') sub((spec as Document).pipeline);
      break;
  }
}
