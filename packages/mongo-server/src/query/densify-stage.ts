/**
 * `$densify` as mongod 7 runs it (document_source_densify.cpp): its spec
 * checked with mongod's codes before any document is read, a `$sort` on the
 * partition fields (unless the bounds are `full`) and the field, then
 * mongod's own state machine over the sorted documents, which this file
 * follows step by step (the order of the documents it emits, where generated
 * ones go, which value each partition resumes from, and the values past the
 * last document are mongod's). Numbers step with the server's `$add` (an
 * Int64 stays an Int64, a Decimal128 a Decimal128), dates with its
 * `$dateAdd` in UTC (2021-01-31 plus a month is 2021-02-28, and the next
 * step goes on from there).
 *
 * mingo's stage, which ran before, stepped months with JavaScript's
 * `setMonth` (2021-01-31 plus a month was 2021-03-03), refused an Int64
 * field, looped on a negative step until the command's allocation budget
 * stopped it, and took a `$`-prefixed field name.
 */
import type { Document } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Iterator } from 'mingo/lazy';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';

import { bsonTypeRank, compareBson, isSubDocument, NUMBER_RANK } from '../bson/bson-compare.js';
import { stringClasses } from '../bson/collation.js';
import { defineField } from '../bson/define-field.js';
import { activeStringOrder } from '../bson/string-order.js';
import { CommandError } from '../commands/command-error.js';
import { checkStructFields, wrongFieldType } from '../commands/idl-fields.js';
import { ARITHMETIC_OPERATORS } from './arithmetic-expressions.js';
import { dateAdd, type TimeUnit } from './date-arithmetic.js';
import { TimeZone } from './date-time-zones.js';
import { typeAlias } from './element-operators.js';
import { nestedField } from './document-paths.js';
import { checkFieldPath } from './field-path.js';
import { joinKey } from './lookup-fields.js';
import { numericType, storedDouble, toDouble } from './numeric-types.js';
import { OperationBudget } from './operation-budget.js';
import { cloneValue } from './update-paths.js';

type PipelineOperator = (collection: Iterator, expr: unknown, options: Options) => Iterator;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const TIME_UNITS: ReadonlySet<string> = new Set([
  ...['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond'],
]);

/** A range's bounds: `'full'`, `'partition'`, or two numbers or two dates. */
type Bounds = 'full' | 'partition' | readonly [unknown, unknown];

/** A checked `$densify` spec. */
export interface DensifySpec {
  readonly field: string;
  readonly partitionByFields: readonly string[];
  readonly step: unknown;
  readonly unit: TimeUnit | undefined;
  readonly bounds: Bounds;
}

/** Whether a numeric value is a whole number that fits an Int64 (`Value::integral64Bit`). */
function isIntegral64(value: unknown): boolean {
  const type = numericType(value);
  if (type === 'int' || type === 'long') return true;
  const n = toDouble(value);
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/** The range statement's checks (`RangeStatement::parse`), in mongod's order. */
function parseRange(
  step: unknown,
  unit: string | undefined,
  bounds: unknown,
): Pick<DensifySpec, 'step' | 'unit' | 'bounds'> {
  // NaN sorts below every number, so it fails this too.
  if (compareBson(step, 0) <= 0) {
    throw new CommandError(
      'Location5733401',
      'The step parameter in a range statement must be a strictly positive numeric value',
    );
  }
  if (unit !== undefined) {
    if (!isIntegral64(step)) {
      throw new CommandError(
        'Location6586400',
        'The step parameter in a range statement must be a whole number when densifying a date range',
      );
    }
    if (!TIME_UNITS.has(unit)) throw new CommandError('FailedToParse', `unknown time unit value: ${unit}`);
  }
  const timeUnit = unit as TimeUnit | undefined;
  if (Array.isArray(bounds)) {
    const pair = bounds as unknown[];
    if (pair.length !== 2) {
      throw new CommandError('Location5733403', 'A bounding array in a range statement must have exactly two elements');
    }
    const [lower, upper] = pair as [unknown, unknown];
    if (compareBson(lower, upper) > 0) {
      throw new CommandError(
        'Location5733402',
        'A bounding array must be an ascending array of either two dates or two numbers',
      );
    }
    if (bsonTypeRank(lower) === NUMBER_RANK) {
      if (timeUnit !== undefined)
        throw new CommandError('Location5733409', 'Numeric bounds may not have unit parameter');
      if (bsonTypeRank(upper) !== NUMBER_RANK) {
        throw new CommandError(
          'Location5733406',
          'A bounding array must contain either both dates or both numeric types',
        );
      }
      if (numericType(lower) !== numericType(upper) || numericType(lower) !== numericType(step)) {
        throw new CommandError('Location5876900', 'Upper bound, lower bound, and step must all have the same type');
      }
      return { step, unit: timeUnit, bounds: [lower, upper] };
    }
    if (lower instanceof Date) {
      if (!(upper instanceof Date)) {
        throw new CommandError(
          'Location5733405',
          'A bounding array must contain either both dates or both numeric types',
        );
      }
      if (timeUnit === undefined)
        throw new CommandError('Location5733410', 'A bounding array of dates must specify a unit');
      return { step, unit: timeUnit, bounds: [lower, upper] };
    }
    throw new CommandError('Location5946800', 'Explicit bounds must be numeric or dates');
  }
  if (typeof bounds === 'string') {
    if (bounds === 'full' || bounds === 'partition') return { step, unit: timeUnit, bounds };
    throw new CommandError('Location5946802', "Bounds string must either be 'full' or 'partition'");
  }
  throw new CommandError(
    'Location5733404',
    "The bounds in a range statement must be the string 'full', 'partition', or an ascending array of two numbers or two dates",
  );
}

/** mongod's checks of a `$densify` spec, in its order: the IDL parse, the range, the paths. */
export function parseDensify(spec: unknown): DensifySpec {
  if (typeAlias(spec) !== 'object') {
    throw new CommandError(
      'FailedToParse',
      `The $densify stage specification must be an object, found ${typeAlias(spec)}`,
    );
  }
  let field: string | undefined;
  let partitionByFields: string[] = [];
  let range: { step: unknown; unit: string | undefined; bounds: unknown } | undefined;
  checkStructFields(
    '$densify',
    spec as Document,
    { field: true, partitionByFields: false, range: true },
    (key, value) => {
      if (key === 'field') {
        if (typeof value !== 'string') throw wrongFieldType('$densify.field', value, "type 'string'");
        field = value;
      } else if (key === 'partitionByFields') {
        if (!Array.isArray(value)) throw wrongFieldType('$densify.partitionByFields', value, "type 'array'");
        (value as unknown[]).forEach((name, i) => {
          if (typeof name !== 'string') throw wrongFieldType(`$densify.partitionByFields.${i}`, name, "type 'string'");
        });
        partitionByFields = value as string[];
      } else {
        if (typeAlias(value) !== 'object') throw wrongFieldType('$densify.range', value, "type 'object'");
        let step: unknown;
        let unit: string | undefined;
        let bounds: unknown;
        checkStructFields(
          '$densify.range',
          value as Document,
          { step: true, unit: false, bounds: true },
          (name, argument) => {
            if (name === 'step') {
              if (numericType(argument) === undefined) {
                throw wrongFieldType('$densify.range.step', argument, "types '[long, int, decimal, double]'");
              }
              step = argument;
            } else if (name === 'unit') {
              if (typeof argument !== 'string') throw wrongFieldType('$densify.range.unit', argument, "type 'string'");
              unit = argument;
            } else {
              bounds = argument;
            }
          },
        );
        range = { step, unit, bounds };
      }
    },
  );
  const checked = parseRange(range!.step, range!.unit, range!.bounds);
  for (const partition of partitionByFields) checkFieldPath(partition);
  checkFieldPath(field!);
  // 7.0 failed an internal assertion (5733306) on the first generated document; 8.0 refuses the spec.
  for (const partition of partitionByFields) {
    if (partition === field || partition.startsWith(`${field!}.`)) {
      throw new CommandError(
        'Location8993000',
        "BSON field '$densify.partitionByFields' contains the field that is being densified",
      );
    }
    if (field!.startsWith(`${partition}.`)) {
      throw new CommandError(
        'Location9554500',
        "The field that is being densified contains the BSON field '$densify.partitionByFields'",
      );
    }
  }
  if (checked.bounds === 'partition' && partitionByFields.length === 0) {
    throw new CommandError(
      'Location5733408',
      "One cannot specify the bounds as 'partition' without specifying a non-empty array of partitionByFields. You may have meant to specify 'full' bounds.",
    );
  }
  return { field: field!, partitionByFields, ...checked };
}

/** The `$sort` mongod puts before the stage: the partition fields (not for `full` bounds), then the field. */
export function densifySort(spec: DensifySpec): Document {
  const sort: Document = {};
  if (spec.bounds !== 'full') for (const partition of spec.partitionByFields) sort[partition] = 1;
  sort[spec.field] = 1;
  return sort;
}

const END = Symbol('end');
type Next = Document | typeof END;

/** A value of the densified field: a number (any numeric BSON type) or a date. */
type DensifyValue = unknown;

/** mongod's DocumentSourceInternalDensify over `docs`, already sorted as {@link densifySort} says. */
class Densifier {
  private readonly path: readonly string[];
  private readonly partitioned: boolean;
  private readonly partitionExpr: Document;
  private readonly table = new Map<string, { key: Document; value: DensifyValue }>();
  private state: 'uninitialized' | 'needGen' | 'haveGenerator' | 'finishing' | 'done' = 'uninitialized';
  private current: DensifyValue | undefined;
  private globalMin: DensifyValue | undefined;
  private globalMax: DensifyValue | undefined;
  private generator: Generator | undefined;
  private eof = false;
  /** Set by the first document with a value (mongod's `initializePartitionState`). */
  private partitionInitialized = false;
  private position = 0;
  private readonly maxGenerated = OperationBudget.maxDensifyDocuments();
  generated = 0;

  constructor(
    private readonly spec: DensifySpec,
    private readonly docs: readonly Document[],
    private readonly options: Options,
  ) {
    this.path = spec.field.split('.');
    this.partitioned = spec.partitionByFields.length > 0;
    // {a: '$a', x: {y: '$x.y'}} for partitionByFields ['a', 'x.y'], as mongod builds it.
    const expr: Document = {};
    for (const partition of spec.partitionByFields) {
      const names = partition.split('.');
      let target = expr;
      for (const name of names.slice(0, -1)) {
        if (!isSubDocument(target[name])) defineField(target, name, {});
        target = target[name] as Document;
      }
      defineField(target, names[names.length - 1]!, `$${partition}`);
    }
    this.partitionExpr = expr;
  }

  private add(value: DensifyValue, sign: 1 | -1): DensifyValue {
    if (value instanceof Date) {
      const amount = Number(String(this.spec.step)) * sign;
      return new Date(dateAdd(value.getTime(), this.spec.unit!, amount, TimeZone.UTC));
    }
    const step = this.spec.step;
    if (typeof value === 'number' && typeof step === 'number') {
      // The common case without the expression engine: the server keeps an int32 as an integral
      // JavaScript number and a double as a fractional one (an integral double is a Double object).
      const sum = value + sign * step;
      if (!Number.isInteger(value) || !Number.isInteger(step)) return storedDouble(sum);
      if (sum >= INT32_MIN && sum <= INT32_MAX) return sum;
    }
    const operator = sign === 1 ? ARITHMETIC_OPERATORS.$add! : ARITHMETIC_OPERATORS.$subtract!;
    return operator({}, [{ $literal: value }, { $literal: this.spec.step }], this.options);
  }

  increment(value: DensifyValue): DensifyValue {
    return this.add(value, 1);
  }

  private decrement(value: DensifyValue): DensifyValue {
    return this.add(value, -1);
  }

  /** `DensifyValue::isOnStepRelativeTo`. */
  private isOnStep(value: DensifyValue, base: DensifyValue): boolean {
    if (value instanceof Date && base instanceof Date) {
      const unit = this.spec.unit!;
      if (unit === 'month' || unit === 'quarter' || unit === 'year') {
        let stepped = base;
        while (compareBson(stepped, value) < 0) {
          OperationBudget.tick();
          stepped = this.increment(stepped) as Date;
        }
        return stepped.getTime() === value.getTime();
      }
      const stepMs = dateAdd(0, unit, Number(String(this.spec.step)), TimeZone.UTC);
      return (value.getTime() - base.getTime()) % stepMs === 0;
    }
    const literal = (expr: unknown): Document => ({ $literal: expr });
    const diff = ARITHMETIC_OPERATORS.$subtract!({}, [literal(value), literal(base)], this.options);
    if (numericType(diff) !== 'decimal' && numericType(this.spec.step) !== 'decimal') {
      const remainder = ARITHMETIC_OPERATORS.$mod!({}, [literal(diff), literal(this.spec.step)], this.options);
      return Number(String(remainder)) === 0;
    }
    // The server refuses $mod of a Decimal128; a whole quotient is the same test, in decimal.
    const quotient = ARITHMETIC_OPERATORS.$divide!({}, [literal(diff), literal(this.spec.step)], this.options);
    return compareBson(quotient, evalExpr({}, { $trunc: literal(quotient) }, this.options)) === 0;
  }

  private cmp(a: DensifyValue, b: DensifyValue): number {
    return compareBson(a, b);
  }

  /** The document's value of the field, checked (5733201, 6053600). */
  private valueOf(doc: Document): DensifyValue {
    const value = nestedField(doc, this.path);
    const isNumber = numericType(value) !== undefined;
    if (!isNumber && !(value instanceof Date)) {
      throw new CommandError('Location5733201', 'Densify field type must be numeric or a date');
    }
    if (isNumber === (this.spec.unit !== undefined)) {
      throw new CommandError(
        'Location6053600',
        isNumber
          ? 'Encountered numeric densify value in collection when step has a date unit.'
          : 'Encountered date densify value in collection when step does not have a date unit.',
      );
    }
    return value;
  }

  private isNullish(doc: Document): boolean {
    const value = nestedField(doc, this.path);
    return value === undefined || value === null || typeAlias(value) === 'undefined';
  }

  private partitionOf(doc: Document): { id: string; key: Document } {
    const key = evalExpr(doc, this.partitionExpr, this.options) as Document;
    const order = activeStringOrder();
    return { id: joinKey(key, order && stringClasses(order)), key };
  }

  private setPartitionValue(doc: Document): void {
    if (!this.partitioned) return;
    const { id, key } = this.partitionOf(doc);
    this.table.set(id, { key, value: this.valueOf(doc) });
  }

  private lastOfPartition(doc: Document): DensifyValue | undefined {
    return this.table.get(this.partitionOf(doc).id)?.value;
  }

  private createGenerator(
    min: DensifyValue,
    max: DensifyValue,
    include: Document | undefined,
    finalDoc?: Document,
  ): void {
    this.generator = new Generator(this, min, max, this.path, include, finalDoc);
  }

  private pull(): Next {
    return this.position < this.docs.length ? this.docs[this.position++]! : END;
  }

  private explicit(): readonly [DensifyValue, DensifyValue] {
    return this.spec.bounds as readonly [DensifyValue, DensifyValue];
  }

  /** One step of `doGetNext`. */
  next(): Next {
    if (this.generated > this.maxGenerated) {
      throw new CommandError(
        'Location5897900',
        `Generated ${this.generated} documents in $densify, which is over the limit of ${this.maxGenerated}. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents`,
      );
    }
    OperationBudget.tick();
    const bounds = this.spec.bounds;
    switch (this.state) {
      case 'uninitialized': {
        const doc = this.pull();
        if (doc === END) return this.handleSourceExhausted();
        if (this.isNullish(doc)) return doc;
        const value = this.valueOf(doc);
        if (this.partitioned && !this.partitionInitialized) {
          this.partitionInitialized = true;
          this.setPartitionValue(doc);
        }
        if (bounds === 'full') {
          this.current = value;
          this.globalMin = value;
          this.globalMax = value;
          this.state = 'needGen';
          return doc;
        }
        if (bounds === 'partition') {
          this.state = 'needGen';
          return doc;
        }
        return this.processFirstDocForExplicitRange(doc);
      }
      case 'needGen': {
        const doc = this.pull();
        if (doc === END) return this.handleSourceExhausted();
        if (this.isNullish(doc)) return doc;
        const value = this.valueOf(doc);
        if (bounds === 'full') {
          if (this.partitioned) {
            this.globalMax = value;
            const last = this.lastOfPartition(doc);
            if (last === undefined) {
              this.current = this.decrement(this.globalMin);
              this.setPartitionValue(doc);
              return this.handleNeedGen(doc);
            }
            this.current = last;
          }
          return this.handleNeedGen(doc);
        }
        if (bounds === 'partition') {
          const last = this.lastOfPartition(doc);
          if (last === undefined) {
            this.setPartitionValue(doc);
            return doc;
          }
          this.current = last;
          return this.handleNeedGen(doc);
        }
        if (this.partitioned) {
          const last = this.lastOfPartition(doc);
          if (last === undefined) {
            this.setPartitionValue(doc);
            this.current = undefined;
            return this.processFirstDocForExplicitRange(doc);
          }
          this.current = last;
        }
        return this.handleNeedGenExplicit(doc);
      }
      case 'haveGenerator': {
        const generated = this.generator!.next();
        if (bounds === 'full' || bounds === 'partition') {
          if (this.generator!.done) {
            this.generator = undefined;
            this.state = bounds === 'full' && this.eof && this.partitioned ? 'finishing' : 'needGen';
          }
          // The generator's final document may not be on the step.
          const value = this.valueOf(generated);
          if (this.cmp(value, this.increment(this.current)) === 0) {
            this.current = value;
            this.setPartitionValue(generated);
          }
          return generated;
        }
        const value = this.valueOf(generated);
        if (this.isOnStep(value, this.current)) {
          this.current = value;
          this.setPartitionValue(generated);
        }
        this.resetGenerator();
        return generated;
      }
      case 'finishing':
        return this.finishPartitionedInput();
      case 'done':
        // With explicit bounds the documents left pass unchanged.
        return this.pull();
    }
  }

  private handleNeedGen(doc: Document): Next {
    const value = this.valueOf(doc);
    const next = this.increment(this.current);
    if (this.cmp(value, next) === 0) {
      this.setPartitionValue(doc);
      this.current = value;
    }
    if (this.cmp(value, next) <= 0) return doc;
    this.createGenerator(next, value, this.partitioned ? this.partitionOf(doc).key : undefined, doc);
    this.state = 'haveGenerator';
    const generated = this.generator!.next();
    if (this.generator!.done) {
      this.generator = undefined;
      this.state = 'needGen';
    }
    this.current = this.valueOf(generated);
    this.setPartitionValue(generated);
    return generated;
  }

  private placeOf(value: DensifyValue): 'below' | 'min' | 'inside' | 'above' {
    const [lower, upper] = this.explicit();
    const c = this.cmp(value, lower);
    if (c < 0) return 'below';
    if (c === 0) return 'min';
    return this.cmp(value, upper) < 0 ? 'inside' : 'above';
  }

  private handleNeedGenExplicit(doc: Document): Next {
    const [, upper] = this.explicit();
    const value = this.valueOf(doc);
    switch (this.placeOf(value)) {
      case 'inside': {
        const nextStep = this.increment(this.current);
        const c = this.cmp(value, nextStep);
        if (c === 0) {
          this.current = value;
          this.setPartitionValue(doc);
          return doc;
        }
        if (c < 0) return doc;
        return this.processDocAboveExplicitMinBound(doc);
      }
      case 'above': {
        const nextStep = this.increment(this.current);
        if (this.cmp(nextStep, upper) >= 0) {
          this.current = nextStep;
          this.setPartitionValue(doc);
          if (!this.partitioned) this.state = 'done';
          return doc;
        }
        return this.processDocAboveExplicitMinBound(doc);
      }
      case 'min':
        this.setPartitionValue(doc);
        this.current = value;
        return doc;
      case 'below':
        this.setPartitionValue(doc);
        this.state = 'uninitialized';
        return doc;
    }
  }

  private processDocAboveExplicitMinBound(doc: Document): Next {
    const [, upper] = this.explicit();
    const value = this.valueOf(doc);
    const lowerBound = this.increment(this.current);
    if (this.cmp(value, lowerBound) === 0) {
      this.setPartitionValue(doc);
      this.current = lowerBound;
      return doc;
    }
    const upperBound = this.cmp(value, upper) < 0 ? value : upper;
    this.createGenerator(lowerBound, upperBound, this.partitioned ? this.partitionOf(doc).key : undefined, doc);
    const generated = this.generator!.next();
    this.current = this.valueOf(generated);
    this.state = 'haveGenerator';
    this.resetGenerator();
    this.setPartitionValue(generated);
    return generated;
  }

  private processFirstDocForExplicitRange(doc: Document): Next {
    const [lower] = this.explicit();
    const value = this.valueOf(doc);
    // For the first document of a partition, the last value seen is the minimum minus a step.
    if (this.current === undefined) this.current = this.decrement(lower);
    switch (this.placeOf(value)) {
      case 'inside':
      case 'above':
        return this.processDocAboveExplicitMinBound(doc);
      case 'min':
        this.state = 'needGen';
        this.current = value;
        return doc;
      case 'below':
        this.state = 'uninitialized';
        return doc;
    }
  }

  private resetGenerator(): void {
    if (!this.generator!.done) return;
    const [, upper] = this.explicit();
    if (this.cmp(this.current, upper) >= 0 && !this.partitioned) this.state = 'done';
    else if (this.partitioned && this.eof) this.state = 'finishing';
    else this.state = 'needGen';
    this.generator = undefined;
  }

  private finishPartitionedInputWith(max: DensifyValue, minOverride?: DensifyValue): Next {
    for (const [id, { key, value }] of this.table) {
      this.table.delete(id);
      let toGenerate = this.increment(value);
      // A partition whose next value reaches the maximum is done.
      if (this.cmp(toGenerate, max) >= 0) continue;
      if (minOverride !== undefined && this.cmp(toGenerate, minOverride) < 0) toGenerate = minOverride;
      this.createGenerator(toGenerate, max, key);
      this.state = 'haveGenerator';
      const generated = this.generator!.next();
      if (this.generator!.done) {
        this.generator = undefined;
        this.state = 'finishing';
      }
      return generated;
    }
    this.state = 'done';
    return END;
  }

  private finishPartitionedInput(): Next {
    if (this.table.size === 0) {
      this.state = 'done';
      return END;
    }
    const bounds = this.spec.bounds;
    if (bounds === 'full') {
      const max = this.isOnStep(this.globalMax, this.current) ? this.increment(this.globalMax) : this.globalMax;
      return this.finishPartitionedInputWith(max);
    }
    const [lower, upper] = this.explicit();
    return this.finishPartitionedInputWith(upper, lower);
  }

  private handleSourceExhausted(): Next {
    this.eof = true;
    const bounds = this.spec.bounds;
    if (bounds === 'partition' || (bounds === 'full' && !this.partitioned)) {
      this.state = 'done';
      return END;
    }
    if (this.partitioned) return this.finishPartitionedInput();
    return this.densifyExplicitRangeAfterEnd();
  }

  private densifyExplicitRangeAfterEnd(): Next {
    const [lower, upper] = this.explicit();
    if (this.current === undefined) {
      this.current = lower;
      this.createGenerator(lower, upper, undefined);
    } else if (this.cmp(this.increment(this.current), upper) >= 0) {
      this.state = 'done';
      return END;
    } else {
      this.createGenerator(this.increment(this.current), upper, undefined);
    }
    this.state = 'haveGenerator';
    const generated = this.generator!.next();
    if (this.generator!.done) {
      this.state = 'done';
      this.generator = undefined;
    }
    return generated;
  }
}

/** mongod's DocGenerator: documents from `min` on by steps, below `max`, then `finalDoc` if any. */
class Generator {
  done = false;
  private returningFinal = false;

  constructor(
    private readonly owner: Densifier,
    private min: DensifyValue,
    private readonly max: DensifyValue,
    private readonly path: readonly string[],
    private readonly include: Document | undefined,
    private readonly finalDoc: Document | undefined,
  ) {}

  next(): Document {
    if (this.returningFinal) {
      this.done = true;
      return this.finalDoc!;
    }
    const value = this.min;
    const nextValue = this.owner.increment(this.min);
    if (compareBson(this.max, nextValue) <= 0) {
      if (this.finalDoc) this.returningFinal = true;
      else this.done = true;
    }
    this.min = nextValue;
    const doc = cloneValue(this.include ?? {});
    let target = doc;
    for (const name of this.path.slice(0, -1)) {
      if (!isSubDocument(target[name])) defineField(target, name, {});
      target = target[name] as Document;
    }
    defineField(target, this.path[this.path.length - 1]!, value);
    this.owner.generated++;
    return doc;
  }
}

/** `$densify` through the server's `$sort` stage and mongod's algorithm. */
export function densifyStage(sort: PipelineOperator): PipelineOperator {
  return (collection, expr, options) => {
    const spec = parseDensify(expr);
    return sort(collection, densifySort(spec), options).transform((docs: Document[]) => {
      const densifier = new Densifier(spec, docs, options);
      const out: Document[] = [];
      for (let doc = densifier.next(); doc !== END; doc = densifier.next()) out.push(doc);
      return Lazy(out);
    });
  };
}
