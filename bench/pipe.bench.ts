/**
 * Validate + construct per call, on the same 10,000 inputs, for:
 * our ParseObjectIdPipe, @nestjs/mongoose's ParseObjectIdPipe (isValid + new
 * ObjectId) and class-validator's isMongoId (+ new ObjectId, to be comparable).
 * Three input sets: all valid (the common path), 10% and 100% invalid (errors built).
 * Each set's contenders are interleaved with the order rotated every round;
 * the targets (#14: ours no slower than @nestjs/mongoose's on each set) are
 * judged on the median ratio over the rounds by wall time and by CPU time.
 */
import { ParseObjectIdPipe as MongooseParseObjectIdPipe } from '@nestjs/mongoose';
import { isMongoId } from 'class-validator';
import { Types } from 'mongoose';
import { ParseObjectIdPipe } from '../src/index.js';
import { measureRounds, ratioTarget, type BenchRow, type BenchTable, type BenchTarget } from './harness.js';

const COUNT = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

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
  const rows: BenchRow[] = [];
  const targets: BenchTarget[] = [];
  for (const [label, share] of [
    ['all valid', 0],
    ['10% invalid', 0.1],
    ['100% invalid', 1],
  ] as const) {
    const values = inputs(share);
    const theirsName = `@nestjs/mongoose ParseObjectIdPipe (${label})`;
    const oursName = `nestjs-objectid ParseObjectIdPipe (${label})`;
    const theirsLoop = loopFor((v) => theirs.transform(v));
    const oursLoop = loopFor((v) => ours.transform(v));
    const validatorLoop = loopFor(validatorThenConstruct);
    const rounds = await measureRounds(
      {
        [theirsName]: () => theirsLoop(values),
        [oursName]: () => oursLoop(values),
        [`class-validator isMongoId + new ObjectId (${label})`]: () => validatorLoop(values),
      },
      { rounds: ROUNDS, ms: 300 },
    );
    rows.push(...rounds.rows());
    // "No slower" = our time per call ≤ theirs, i.e. our speed ≥ theirs (no allowance for noise).
    targets.push(
      ratioTarget(`ours no slower than @nestjs/mongoose (${label})`, rounds.speedRatio(oursName, theirsName), {
        atLeast: 1,
      }),
    );
  }
  return {
    title: 'ParseObjectIdPipe: validate + construct, 10,000 inputs',
    baseline: '@nestjs/mongoose ParseObjectIdPipe (all valid)',
    rows,
    targets,
  };
}
