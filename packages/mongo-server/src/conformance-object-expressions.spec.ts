/**
 * Conformance: `$arrayToObject` and `$mergeObjects`, with the answers and
 * errors the MongoDB manual and mongod 7 give: both forms of `$arrayToObject`
 * (`[k, v]` pairs and `{ k, v }` documents), a repeated key keeping its place
 * and its last value, a value that is itself an array kept whole; both forms
 * of `$mergeObjects` (expression and `$group` accumulator), null and missing
 * skipped, anything else but a document refused with 40400; `$setField`
 * replacing a field in place, adding one last, removing one for a missing
 * value. Through the
 * driver only, so it passes unchanged against a real MongoDB (MONGO_URL).
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/arrayToObject/
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/mergeObjects/
 * @see https://www.mongodb.com/docs/manual/reference/operator/aggregation/setField/
 */
import type { Collection } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();
let c: Collection<{ _id: number }>;

beforeAll(async () => {
  c = (await fx.fresh('object_expressions')) as unknown as Collection<{ _id: number }>;
  await c.insertMany([
    { _id: 1, item: 'abc', price: { usd: 10 }, extra: { qty: 5, price: { eur: 9 } }, list: [{ a: 1 }, { b: 2 }], n: 5 },
    { _id: 2, item: 'def', price: null, extra: { qty: 2 } },
  ] as never[]);
});

/** The value `expression` computes on document 1. */
async function evaluated(expression: unknown): Promise<unknown> {
  const [doc] = await c.aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, out: expression } }]).toArray();
  return (doc as { out?: unknown }).out;
}

describe('$arrayToObject', () => {
  it.each<[string, unknown, unknown]>([
    [
      '[k, v] pairs',
      [
        ['item', 'abc123'],
        ['qty', 25],
      ],
      { item: 'abc123', qty: 25 },
    ],
    [
      '{ k, v } documents',
      [
        { k: 'item', v: 'abc123' },
        { k: 'qty', v: 25 },
      ],
      { item: 'abc123', qty: 25 },
    ],
    ['a value that is an array, kept whole', [['sizes', [1, 2]]], { sizes: [1, 2] }],
    [
      'a repeated key: its first place, its last value',
      [
        ['b', 1],
        ['a', 2],
        ['b', 3],
      ],
      { b: 3, a: 2 },
    ],
    ['an empty array', [], {}],
    ['{ k, v } with v first', [{ v: 1, k: 'x' }], { x: 1 }],
    ['null', null, null],
  ])('should build a document from %s', async (_label, input, expected) => {
    expect(await evaluated({ $arrayToObject: { $literal: input } })).toEqual(expected);
  });

  it('should read its one argument from a one-element list', async () => {
    expect(await evaluated({ $arrayToObject: [{ $literal: [['a', 1]] }] })).toEqual({ a: 1 });
  });

  it('should give null for a missing field', async () => {
    expect(await evaluated({ $arrayToObject: '$nothing' })).toBeNull();
  });

  it.each<[string, unknown, number, string]>([
    ['a string', 'str', 40386, '$arrayToObject requires an array input, found: string'],
    ['an array of numbers', [1], 40398, 'Unrecognised input type format for $arrayToObject: int'],
    [
      'a pair of three',
      [['a', 1, 2]],
      40397,
      '$arrayToObject requires an array of size 2 arrays,found array of size: 3',
    ],
    [
      'a pair whose key is a number',
      [[1, 'a']],
      40395,
      '$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: int',
    ],
    [
      'pairs, then a document',
      [['a', 1], { k: 'b', v: 2 }],
      40396,
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: object',
    ],
    [
      'documents, then a pair',
      [{ k: 'b', v: 2 }, ['a', 1]],
      40391,
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: array',
    ],
    [
      'a document of three fields',
      [{ k: 'a', v: 1, x: 2 }],
      40392,
      "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:3",
    ],
    [
      'a document without v',
      [{ k: 'a', x: 1 }],
      40393,
      "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: {k: \"a\", x: 1}",
    ],
    [
      'a document whose k is a number',
      [{ k: 1, v: 1 }],
      40394,
      "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: int",
    ],
    ['a pair whose key holds a NUL byte', [['a\0b', 1]], 4940400, 'Key field cannot contain an embedded null byte'],
    [
      'a document whose k holds a NUL byte',
      [{ k: 'a\0b', v: 1 }],
      4940401,
      'Key field cannot contain an embedded null byte',
    ],
  ])('should refuse %s', async (_label, input, code, message) => {
    const error = await rejection(evaluated({ $arrayToObject: { $literal: input } }));
    expect(error).toMatchObject({ code, message });
  });
});

describe('$mergeObjects', () => {
  it.each<[string, unknown, unknown]>([
    ['one document operand', '$price', { usd: 10 }],
    ['a list of one', ['$price'], { usd: 10 }],
    ['later fields over earlier ones, in first place', ['$price', '$extra'], { usd: 10, qty: 5, price: { eur: 9 } }],
    ['null and missing skipped', ['$nothing', null, '$price'], { usd: 10 }],
    ['an empty list', [], {}],
    ['a field computed missing, skipped', [{ a: 1, b: 2 }, { a: '$nothing' }], { a: 1, b: 2 }],
    ['a null field, kept', [{ a: 1 }, { a: null }], { a: null }],
  ])('should merge %s', async (_label, operand, expected) => {
    expect(await evaluated({ $mergeObjects: operand })).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['an array', '$list', '$mergeObjects requires object inputs, but input [{a: 1}, {b: 2}] is of type array'],
    [
      'an array in a list',
      ['$list'],
      '$mergeObjects requires object inputs, but input [{a: 1}, {b: 2}] is of type array',
    ],
    ['a number', ['$n'], '$mergeObjects requires object inputs, but input 5 is of type int'],
    ['a string', ['$item'], '$mergeObjects requires object inputs, but input "abc" is of type string'],
  ])('should refuse %s with 40400', async (_label, operand, message) => {
    const error = await rejection(evaluated({ $mergeObjects: operand }));
    expect(error).toMatchObject({ code: 40400, message });
  });

  it('should merge a group’s documents as an accumulator, skipping null', async () => {
    const grouped = await c
      .aggregate([
        { $sort: { _id: 1 } },
        { $group: { _id: null, price: { $mergeObjects: '$price' }, extra: { $mergeObjects: '$extra' } } },
      ])
      .toArray();
    expect(grouped).toEqual([{ _id: null, price: { usd: 10 }, extra: { qty: 2, price: { eur: 9 } } }]);
  });

  it('should refuse a group’s value that is not a document', async () => {
    const error = await rejection(
      c.aggregate([{ $group: { _id: null, merged: { $mergeObjects: '$item' } } }]).toArray(),
    );
    expect(error).toMatchObject({
      code: 40400,
      message: expect.stringMatching(
        /^\$mergeObjects requires object inputs, but input "(abc|def)" is of type string$/,
      ),
    });
  });
});

describe('$setField', () => {
  it.each<[string, object, unknown]>([
    ['replace a field in place', { field: 'qty', input: '$extra', value: 7 }, { qty: 7, price: { eur: 9 } }],
    ['add a field last', { field: 'new', input: '$price', value: 'x' }, { usd: 10, new: 'x' }],
    ['name a field with a dot', { field: 'a.b', input: {}, value: 1 }, { 'a.b': 1 }],
    ['remove a field for $$REMOVE', { field: 'qty', input: '$extra', value: '$$REMOVE' }, { price: { eur: 9 } }],
    [
      'remove a field for a path to nothing',
      { field: 'qty', input: '$extra', value: '$nothing' },
      { price: { eur: 9 } },
    ],
    ['set null', { field: 'qty', input: '$extra', value: null }, { qty: null, price: { eur: 9 } }],
    ['give null for a missing input', { field: 'x', input: '$nothing', value: 1 }, null],
  ])('should %s', async (_label, spec, expected) => {
    expect(await evaluated({ $setField: spec })).toEqual(expected);
  });

  it('should refuse an input that is not a document (4161105)', async () => {
    const error = await rejection(evaluated({ $setField: { field: 'x', input: '$n', value: 1 } }));
    expect(error).toMatchObject({ code: 4161105, message: "$setField requires 'input' to evaluate to type Object" });
  });
});

describe('$setField and $unsetField arguments', () => {
  // Checked while the pipeline is parsed: an empty collection fails the same way.
  it.each<[string, object, number | undefined, string]>([
    [
      '$setField without field',
      { $setField: { input: { a: 'b' } } },
      4161102,
      "$setField requires 'field' to be specified",
    ],
    ['$unsetField without field', { $unsetField: {} }, 4161102, "$unsetField requires 'field' to be specified"],
    [
      '$setField without value',
      { $setField: { field: 'a', input: { a: 'b' } } },
      4161103,
      "$setField requires 'value' to be specified",
    ],
    [
      '$setField without input',
      { $setField: { field: 'foo', value: 0 } },
      4161109,
      "$setField requires 'input' to be specified",
    ],
    [
      '$unsetField without input',
      { $unsetField: { field: 'foo' } },
      4161109,
      "$unsetField requires 'input' to be specified",
    ],
    [
      '$unsetField with a value',
      { $unsetField: { field: 'a', value: 'foo' } },
      undefined,
      '$unsetField found an unknown argument: value',
    ],
    [
      '$setField with a boolean field',
      { $setField: { field: true, input: { a: 'b' }, value: 24 } },
      4161107,
      "$setField requires 'field' to evaluate to type String, but got bool",
    ],
    [
      '$setField with a null field',
      { $setField: { field: null, input: {}, value: 0 } },
      4161107,
      "$setField requires 'field' to evaluate to type String, but got null",
    ],
    [
      '$setField with a document field',
      { $setField: { field: { a: 1 }, input: { a: 1 }, value: 24 } },
      4161106,
      "$setField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ],
    [
      '$unsetField with a computed field',
      { $unsetField: { field: { $concat: ['a.b', '.', 'c'] }, input: { $const: { 'a.b.c': 5 } } } },
      4161106,
      "$unsetField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ],
    [
      '$setField with a field path',
      { $setField: { field: '$field_path', input: {}, value: 0 } },
      4161108,
      "'$CURRENT.field_path' is a field path reference which is not allowed in this context. Did you mean {$literal: '$CURRENT.field_path'}?",
    ],
  ])('should refuse %s', async (_label, expression, code, message) => {
    const empty = await fx.fresh('set_field_empty');
    const error = await rejection(empty.aggregate([{ $project: { out: expression } }]).toArray());
    expect(error.message).toBe(`Invalid $project :: caused by :: ${message}`);
    if (code !== undefined) expect(error.code).toBe(code);
  });

  it.each<[string, object, unknown]>([
    ['a $literal field', { $setField: { field: { $literal: '$price' }, input: {}, value: 1 } }, { $price: 1 }],
    ['a $const field', { $setField: { field: { $const: 'new' }, input: '$price', value: 2 } }, { usd: 10, new: 2 }],
    ["$const, $literal's other name", { $const: '$not.a.path' }, '$not.a.path'],
    ['$unsetField', { $unsetField: { field: 'qty', input: '$extra' } }, { price: { eur: 9 } }],
    [
      '$unsetField of a $literal field',
      { $unsetField: { field: { $literal: 'qty' }, input: '$extra' } },
      { price: { eur: 9 } },
    ],
  ])('should accept %s', async (_label, expression, expected) => {
    expect(await evaluated(expression)).toEqual(expected);
  });
});
