/**
 * Validate + construct per call, on the same 10,000 inputs, for:
 * our ParseObjectIdPipe, @nestjs/mongoose's ParseObjectIdPipe (isValid + new
 * ObjectId) and class-validator's isMongoId (+ new ObjectId, to be comparable).
 * Three input sets: all valid (the common path), 10% and 100% invalid (errors built).
 */
import { ParseObjectIdPipe as MongooseParseObjectIdPipe } from '@nestjs/mongoose';
import { isMongoId } from 'class-validator';
import { Types } from 'mongoose';
import { ParseObjectIdPipe } from '../src/index.js';
import { type BenchTable, measureInterleaved } from './harness.js';

const COUNT = 10_000;

function inputs(invalidShare: number): string[] {
  const bad = ['abc', 'aaaaaaaaaaaa', `0x${'a'.repeat(22)}`, `${'f'.repeat(23)}g`, ' '.repeat(24)];
  return Array.from({ length: COUNT }, (_, i) =>
    i % Math.round(1 / invalidShare || COUNT + 1) === 0 && invalidShare > 0
      ? bad[i % bad.length]
      : new Types.ObjectId().toHexString(),
  );
}

/**
 * A fresh copy of the measuring loop for each contender: one shared loop would
 * see every contender's `parse` at one call site, turn megamorphic, and favour
 * whichever ran first while it was still monomorphic.
 */
function loopFor(parse: (value: string) => unknown): (values: string[]) => number {
  const loop = new Function(
    'parse',
    'values',
    'for (const value of values) { try { parse(value); } catch { /* the error is part of the cost */ } } return values.length;',
  ) as (parse: (value: string) => unknown, values: string[]) => number;
  return (values) => loop(parse, values);
}

export async function run(): Promise<BenchTable> {
  const ours = new ParseObjectIdPipe();
  const theirs = new MongooseParseObjectIdPipe();
  const validatorThenConstruct = (value: string) => {
    if (!isMongoId(value)) throw new Error('invalid');
    return new Types.ObjectId(value);
  };
  const rows: { name: string; opsPerSec: number }[] = [];
  for (const [label, share] of [
    ['all valid', 0],
    ['10% invalid', 0.1],
    ['100% invalid', 1],
  ] as const) {
    const values = inputs(share);
    const results = await measureInterleaved({
      [`@nestjs/mongoose ParseObjectIdPipe (${label})`]: (
        (loop) => () =>
          loop(values)
      )(loopFor((v) => theirs.transform(v))),
      [`nestjs-objectid ParseObjectIdPipe (${label})`]: (
        (loop) => () =>
          loop(values)
      )(loopFor((v) => ours.transform(v))),
      [`class-validator isMongoId + new ObjectId (${label})`]: (
        (loop) => () =>
          loop(values)
      )(loopFor(validatorThenConstruct)),
    });
    rows.push(...Object.entries(results).map(([name, opsPerSec]) => ({ name, opsPerSec })));
  }
  const ratio = (label: string) =>
    rows.find((r) => r.name === `nestjs-objectid ParseObjectIdPipe (${label})`)!.opsPerSec /
    rows.find((r) => r.name === `@nestjs/mongoose ParseObjectIdPipe (${label})`)!.opsPerSec;
  // "No slower" = our time per call ≤ theirs, i.e. our ops/s ≥ theirs (no allowance for noise).
  return {
    title: 'ParseObjectIdPipe: validate + construct, 10,000 inputs',
    baseline: '@nestjs/mongoose ParseObjectIdPipe (all valid)',
    rows,
    targets: [
      {
        description: `ours no slower than @nestjs/mongoose on valid ids (speed ratio ${ratio('all valid').toFixed(2)} ≥ 1.00)`,
        met: ratio('all valid') >= 1,
      },
      {
        description: `ours no slower than @nestjs/mongoose with 10% invalid (speed ratio ${ratio('10% invalid').toFixed(2)} ≥ 1.00)`,
        met: ratio('10% invalid') >= 1,
      },
      {
        description: `ours no slower than @nestjs/mongoose with 100% invalid (speed ratio ${ratio('100% invalid').toFixed(2)} ≥ 1.00)`,
        met: ratio('100% invalid') >= 1,
      },
    ],
  };
}
