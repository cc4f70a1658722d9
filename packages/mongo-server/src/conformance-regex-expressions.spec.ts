/**
 * `$regexFind` and `$regexFindAll`: MongoDB's result shapes (`idx` in code
 * points, null for a group that took no part, how matches are walked) and
 * errors, and no pattern can hold the server (the embedded server matches
 * in linear time). Runs against MONGO_URL too, except the embedded server's
 * own limits (timing, lookaround refusal).
 */
import { MongoServerError } from 'mongodb';
import { useDriverFixture } from './conformance.fixture.js';

const fixture = useDriverFixture();
const embedded = !process.env.MONGO_URL;

/** Evaluates `expression` against `{ s: input }` in an aggregation and returns the result. */
async function evaluate(input: unknown, expression: object): Promise<unknown> {
  const [doc] = await fixture.db
    .collection('strings')
    .aggregate([{ $match: { _id: 1 } }, { $set: { s: { $literal: input } } }, { $project: { _id: 0, r: expression } }])
    .toArray();
  return doc?.r;
}

const find = (regex: unknown, options?: string) => ({
  $regexFind: { input: '$s', regex, ...(options === undefined ? {} : { options }) },
});
const findAll = (regex: unknown, options?: string) => ({
  $regexFindAll: { input: '$s', regex, ...(options === undefined ? {} : { options }) },
});

describe('$regexFind and $regexFindAll', () => {
  beforeAll(async () => {
    const strings = await fixture.fresh('strings');
    await strings.insertOne({ _id: 1 } as never);
  });

  it.each([
    ['a capture', 'cafébar café', find('caf(é)'), { match: 'café', idx: 0, captures: ['é'] }],
    ['idx in code points', '😀😀xy', find('x'), { match: 'x', idx: 2, captures: [] }],
    ['null for a group that took no part', 'a', find('(x)?(a)'), { match: 'a', idx: 0, captures: [null, 'a'] }],
    ['an empty capture', 'ab', find('a(x*)b'), { match: 'ab', idx: 0, captures: [''] }],
    ['the options', 'xAPPLE', find('apple', 'i'), { match: 'APPLE', idx: 1, captures: [] }],
    ['a BSON regex with its flags', 'xAPPLE', find(/apple/i), { match: 'APPLE', idx: 1, captures: [] }],
    ['no match', 'abc', find('z'), null],
    ['a null input', null, find('a'), null],
    ['a null regex', 'abc', find(null), null],
  ])('should find %s', async (_, input, expression, expected) => {
    expect(await evaluate(input, expression)).toEqual(expected);
  });

  it.each([
    [
      'every match, idx in code points',
      '😀a😀ba',
      findAll('(b)?a'),
      [
        { match: 'a', idx: 1, captures: [null] },
        { match: 'ba', idx: 3, captures: ['b'] },
      ],
    ],
    [
      'empty matches at each position but not at the end',
      'ab',
      findAll(''),
      [
        { match: '', idx: 0, captures: [] },
        { match: '', idx: 1, captures: [] },
      ],
    ],
    ['one empty match in an empty string', '', findAll('x*'), [{ match: '', idx: 0, captures: [] }]],
    ['^ only at the start of the text', 'aaa', findAll('^a'), [{ match: 'a', idx: 0, captures: [] }]],
    [
      '^ at each line with m',
      'a\na',
      findAll('^a', 'm'),
      [
        { match: 'a', idx: 0, captures: [] },
        { match: 'a', idx: 2, captures: [] },
      ],
    ],
    [
      'non-overlapping matches',
      'aaaa',
      findAll('aa'),
      [
        { match: 'aa', idx: 0, captures: [] },
        { match: 'aa', idx: 2, captures: [] },
      ],
    ],
    ['no match', 'abc', findAll('z'), []],
    ['a null input', null, findAll('a'), []],
  ])('should find all: %s', async (_, input, expression, expected) => {
    expect(await evaluate(input, expression)).toEqual(expected);
  });

  it.each([
    ['a number as input', find('a'), 42, 51104, "$regexFind needs 'input' to be of type string"],
    ['a number as input', findAll('a'), 42, 51104, "$regexFindAll needs 'input' to be of type string"],
    ['a number as regex', find(42), 'a', 51105, "$regexFind needs 'regex' to be of type string or regex"],
    [
      'a number as options',
      { $regexFind: { input: '$s', regex: 'a', options: 1 } },
      'a',
      51106,
      "$regexFind needs 'options' to be of type string",
    ],
    [
      'options both in the regex and beside it',
      { $regexFindAll: { input: '$s', regex: /a/i, options: 'm' } },
      'a',
      51107,
      "$regexFindAll: found regex option(s) specified in both 'regex' and 'option' fields",
    ],
  ])('should refuse %s with code %#', async (_, expression, input, code, message) => {
    const error = await evaluate(input, expression).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(code);
    expect((error as MongoServerError).message).toBe(message);
  });

  // With mingo's JavaScript RegExp, each of these held the event loop, and every client, for tens of seconds.
  it('should answer a catastrophic-backtracking pattern at once', async () => {
    const input = 'a'.repeat(34) + 'b';
    const started = Date.now();
    expect(await evaluate(input, find('(a+)+$'))).toBeNull();
    expect(await evaluate(input, findAll('(a+)+$'))).toEqual([]);
    if (embedded) expect(Date.now() - started).toBeLessThan(5000);
  });

  (embedded ? it : it.skip)(
    'should refuse lookaround, which it cannot match in linear time, with BadValue',
    async () => {
      const error = await evaluate('ab', findAll('a(?=b)')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).codeName).toBe('BadValue');
      expect((error as MongoServerError).message).toMatch(/^Regular expression is invalid: .*no lookaround/);
    },
  );
});
