/**
 * `$fill` as mongod runs it (document_source_fill.cpp): no stage of its own
 * but a rewrite, checked with mongod's codes, into a `$setWindowFields`
 * whose outputs are `$locf` (`method: 'locf'`) or `$linearFill` (`method:
 * 'linear'`) of each field, followed by an `$addFields` setting each
 * `value` field to `{ $ifNull: ['$<field>', <value>] }`, both run by the
 * server's own stages. mingo's stage, which ran before, wanted a `sortBy`
 * for `locf` (mongod does not), left a field `linear` could not fill missing
 * where mongod's `$setWindowFields` writes null, and answered its checks
 * with BadValue.
 */
import type { Document } from 'bson';
import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { CommandError } from '../commands/command-error.js';
import { checkStructFields, unknownField, wrongFieldType } from '../commands/idl-fields.js';
import { typeAlias } from './element-operators.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

/** The stages a `$fill` stands for, in order (either may be absent). */
export interface FillStages {
  readonly setWindowFields?: Document;
  readonly addFields?: Document;
}

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return wrongFieldType(`$fill.${field}`, value, expected);
}

/** FillSpec's IDL checks, field by field in the spec's order, then the required `output` (40414). */
function checkSpecFields(spec: Document): void {
  const fields = { sortBy: false, output: true, partitionBy: false, partitionByFields: false };
  checkStructFields('$fill', spec, fields, (key, value) => {
    if (key === 'sortBy' || key === 'output') {
      if (typeAlias(value) !== 'object') throw wrongType(key, value, "type 'object'");
    } else if (key === 'partitionBy') {
      if (typeAlias(value) !== 'object' && typeof value !== 'string') {
        throw wrongType(key, value, "types '[object, string]'");
      }
    } else {
      if (!Array.isArray(value)) throw wrongType(key, value, "type 'array'");
      (value as unknown[]).forEach((name, i) => {
        if (typeof name !== 'string') throw wrongType(`${key}.${i}`, name, "type 'string'");
      });
    }
  });
}

/** One output field's spec (FillOutputSpec, parsed under the stage's name as mongod does). */
function parseOutput(spec: unknown): { method?: string; value?: { expr: unknown } } {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      'Location6050200',
      'Each fill output specification must be an object with exactly one field',
    );
  }
  let method: string | undefined;
  let value: { expr: unknown } | undefined;
  for (const [key, argument] of Object.entries(spec as Document)) {
    if (key === 'method') {
      if (typeof argument !== 'string') throw wrongType('method', argument, "type 'string'");
      method = argument;
    } else if (key === 'value') {
      value = { expr: argument };
    } else {
      throw unknownField(`$fill.${key}`);
    }
  }
  if (method !== undefined) {
    if (value !== undefined) {
      throw new CommandError(
        'Location6050201',
        "Each fill output specification must have exactly one of 'method' or 'value' fields, not both",
      );
    }
    if (method !== 'locf' && method !== 'linear') {
      throw new CommandError('Location6050202', 'Method must be either locf or linear');
    }
  }
  return { method, value };
}

/** mongod's checks of a `$fill` spec, and the stages it stands for (checked then as those stages are). */
export function parseFill(spec: unknown): FillStages {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      'FailedToParse',
      `The $fill stage specification must be an object, found ${typeAlias(spec)}`,
    );
  }
  const fill = spec as Document;
  checkSpecFields(fill);
  const output = fill.output as Document;
  if (Object.keys(output).length === 0) {
    throw new CommandError(
      'Location6050203',
      "The output field in '$fill' must contain an object with at least one element",
    );
  }
  const windowOutput: Document = {};
  const addFields: Document = {};
  for (const [field, outputSpec] of Object.entries(output)) {
    const { method, value } = parseOutput(outputSpec);
    if (method !== undefined) windowOutput[field] = { [method === 'linear' ? '$linearFill' : '$locf']: `$${field}` };
    if (value !== undefined) addFields[field] = { $ifNull: [`$${field}`, value.expr] };
  }
  const setWindowFields: Document = { output: windowOutput };
  if (fill.sortBy !== undefined) setWindowFields.sortBy = fill.sortBy;
  if (fill.partitionBy !== undefined) {
    if (fill.partitionByFields !== undefined) {
      throw new CommandError(
        'Location6050204',
        "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'",
      );
    }
    setWindowFields.partitionBy = fill.partitionBy;
  }
  if (fill.partitionByFields !== undefined) {
    const partitionBy: Document = {};
    for (const name of fill.partitionByFields as string[]) partitionBy[name] = `$${name}`;
    setWindowFields.partitionBy = partitionBy;
  }
  const hasMethod = Object.keys(windowOutput).length > 0;
  // The rewrite's own checks ($linearFill's one-key sortBy, 605001) are $setWindowFields' (pipeline-check.ts).
  return {
    setWindowFields: hasMethod ? setWindowFields : undefined,
    addFields: Object.keys(addFields).length > 0 ? addFields : undefined,
  };
}

/** `$fill` through the server's `$setWindowFields` and `$addFields` stages. */
export function fillStage(setWindowFields: PipelineOperator, addFields: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const stages = parseFill(expr);
    let out = collection;
    if (stages.setWindowFields) out = setWindowFields(out, stages.setWindowFields, options);
    if (stages.addFields) out = addFields(out, stages.addFields, options);
    return out;
  };
}
