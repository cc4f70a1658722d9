/**
 * Conformance: the numeric update operators `$inc`, `$mul`, `$min`, `$max`
 * and `$bit` on int32, Int64, double and Decimal128 stored values and
 * operands — the value and BSON type they leave, int32 overflow spilling to
 * Int64, Int64 overflow refused, missing fields created, and the refusals of
 * non-numeric values and operands with their codes and messages.
 *
 * Ported from mongod's own tests; every case and every expected answer is
 * theirs, none is made up here:
 * - jstests/core/inc1.js, jstests/core/inc-SERVER-7446.js
 * - jstests/core/write/update/update_mul_examples.js,
 *   update_min_max_examples.js, update_bit_examples.js
 * - jstests/decimal/decimal_update.js
 * - the update-modifiers jstest's `$bit` upserts (SERVER-3223)
 * - src/mongo/db/update/arithmetic_node_test.cpp, bit_node_test.cpp and
 *   compare_node_test.cpp (mongod's unit tests of the same operators)
 *
 * The shell's bare numbers are doubles (sent as `Double`), `NumberInt` is an
 * `Int32`, `NumberLong` a `Long`, `NumberDecimal` a `Decimal128`; in the C++
 * tests `fromjson`'s whole numbers are int32. Values are read back with
 * `promoteValues: false` as typed text (`int 5`, `long 5`, `double 2.5`,
 * `decimal 2.50`). Where the source checks only the value (the shell's
 * `assert.eq` of a number, a comparison that ignores the type), the
 * expectation is `= <number>`, and `decimal = <number>` where it checks the
 * type but not the exact decimal digits. Written to hold against a real
 * MongoDB 7 (MONGO_URL) too.
 */
import { type Collection, Decimal128, type Document, Double, Int32, Long } from 'mongodb';

import { rejection, useDriverFixture } from './conformance.fixture.js';
import { bsonText } from './raw-replies.fixture.js';

const fx = useDriverFixture();

const dbl = (value: number) => new Double(value);
const int = (value: number) => new Int32(value);
const long = (text: string) => Long.fromString(text);
const dec = (text: string) => Decimal128.fromString(text);

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;
const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';
/** update_min_max_examples.js: "Slightly bigger than 1e-15". */
const BIGGER_VAL = 0.000000000000001000000000000001;

/** A number's value whatever its BSON type. */
function numeric(value: unknown): number {
  if (value instanceof Double || value instanceof Int32) return value.value;
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Decimal128) return Number(value.toString());
  return Number.NaN;
}

/**
 * The stored value as the expectation reads it: `= 20` checks only the
 * value, `decimal = 11.5` the type and the value, anything else the typed text.
 */
function asExpected(value: unknown, expected: unknown): unknown {
  if (typeof expected === 'string' && expected.startsWith('= ')) return `= ${numeric(value)}`;
  const typeAndValue = typeof expected === 'string' ? /^(\w+) = /.exec(expected) : null;
  if (typeAndValue) {
    const type = String(bsonText(value)).split(' ')[0];
    return `${type} = ${numeric(value)}`;
  }
  return bsonText(value);
}

const ID = 'test_object';

describe('numeric update operators: the value and type they leave', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('numeric_updates');
  });

  // [label, stored document (null: none, so the update upserts), update, expected value of `a`]
  it.each<[string, Document | null, Document, unknown]>([
    // jstests/core/inc1.js
    ['inc1.js B: $inc a double by 1', { a: dbl(1) }, { $inc: { a: dbl(1) } }, '= 2'],
    ['inc1.js E: $inc a double by 2', { a: dbl(3) }, { $inc: { a: dbl(2) } }, '= 5'],
    ['inc1.js F: $inc a double by -1', { a: dbl(5) }, { $inc: { a: dbl(-1) } }, '= 4'],
    // jstests/core/inc-SERVER-7446.js
    [
      'inc-SERVER-7446.js: $inc past the int32 maximum spills to an Int64',
      { a: int(INT32_MAX) },
      { $inc: { a: int(1) } },
      'long 2147483648',
    ],
    [
      'inc-SERVER-7446.js: $inc past the int32 minimum spills to an Int64',
      { a: int(INT32_MIN) },
      { $inc: { a: int(-1) } },
      'long -2147483649',
    ],
    // jstests/core/write/update/update_mul_examples.js
    ['update_mul_examples.js: $mul positive', { a: dbl(2) }, { $mul: { a: dbl(10) } }, '= 20'],
    ['update_mul_examples.js: $mul negative', { a: dbl(2) }, { $mul: { a: dbl(-10) } }, '= -20'],
    ['update_mul_examples.js: $mul zero', { a: dbl(2) }, { $mul: { a: dbl(0) } }, '= 0'],
    ['update_mul_examples.js: $mul decimal', { a: dbl(2) }, { $mul: { a: dbl(1.1) } }, '= 2.2'],
    ['update_mul_examples.js: $mul negative decimal', { a: dbl(2) }, { $mul: { a: dbl(-0.1) } }, '= -0.2'],
    // jstests/core/write/update/update_min_max_examples.js
    ['update_min_max_examples.js: $min for number', { a: dbl(2) }, { $min: { a: dbl(1) } }, '= 1'],
    ['update_min_max_examples.js: $max for number', { a: dbl(2) }, { $max: { a: dbl(1) } }, '= 2'],
    [
      'update_min_max_examples.js: $max for small number',
      { a: dbl(1e-15) },
      { $max: { a: dbl(BIGGER_VAL) } },
      `= ${BIGGER_VAL}`,
    ],
    [
      'update_min_max_examples.js: $min for a small number',
      { a: dbl(BIGGER_VAL) },
      { $min: { a: dbl(1e-15) } },
      `= ${1e-15}`,
    ],
    // jstests/core/write/update/update_bit_examples.js
    ['update_bit_examples.js: $bit and', { a: int(2) }, { $bit: { a: { and: int(4) } } }, '= 0'],
    ['update_bit_examples.js: $bit or', { a: int(2) }, { $bit: { a: { or: int(4) } } }, '= 6'],
    ['update_bit_examples.js: $bit xor', { a: int(0) }, { $bit: { a: { xor: int(4) } } }, '= 4'],
    // the update-modifiers jstest (SERVER-3223: $bit can do an upsert)
    ['update modifiers: $bit and of an Int64', { a: long('2') }, { $bit: { a: { and: long('1') } } }, '= 0'],
    ['update modifiers: $bit upsert with and', null, { $bit: { a: { and: long('3') } } }, '= 0'],
    ['update modifiers: $bit upsert with or (long)', null, { $bit: { a: { or: long('3') } } }, '= 3'],
    // src/mongo/db/update/arithmetic_node_test.cpp
    ['ArithmeticNodeTest ApplyIncNoOp', { a: int(5) }, { $inc: { a: int(0) } }, 'int 5'],
    ['ArithmeticNodeTest ApplyMulNoOp', { a: int(5) }, { $mul: { a: int(1) } }, 'int 5'],
    ['ArithmeticNodeTest ApplyRoundingNoOp', { a: dbl(6.022e23) }, { $inc: { a: dbl(1.0) } }, `double ${6.022e23}`],
    ['ArithmeticNodeTest ApplyEmptyPathToCreate', { a: int(5) }, { $inc: { a: int(6) } }, 'int 11'],
    ['ArithmeticNodeTest IncTypePromotionIsNotANoOp', { a: int(2) }, { $inc: { a: long('0') } }, 'long 2'],
    ['ArithmeticNodeTest MulTypePromotionIsNotANoOp', { a: int(2) }, { $mul: { a: long('1') } }, 'long 2'],
    [
      'ArithmeticNodeTest TypePromotionFromIntToDecimalIsNotANoOp',
      { a: int(5) },
      { $inc: { a: dec('0.0') } },
      'decimal 5.0',
    ],
    [
      'ArithmeticNodeTest TypePromotionFromLongToDecimalIsNotANoOp',
      { a: long('5') },
      { $inc: { a: dec('0.0') } },
      'decimal 5.0',
    ],
    [
      'ArithmeticNodeTest TypePromotionFromDoubleToDecimalIsNotANoOp',
      { a: dbl(5.25) },
      { $inc: { a: dec('0.0') } },
      'decimal = 5.25',
    ],
    ['ArithmeticNodeTest ApplyPromoteToFloatingPoint', { a: long('1') }, { $inc: { a: dbl(0.2) } }, 'double 1.2'],
    [
      'ArithmeticNodeTest IncrementedDecimalStaysDecimal',
      { a: dec('6.25') },
      { $inc: { a: dbl(5.25) } },
      'decimal = 11.5',
    ],
    ['ArithmeticNodeTest OverflowIntToLong', { a: int(INT32_MAX) }, { $inc: { a: int(1) } }, 'long 2147483648'],
    ['ArithmeticNodeTest UnderflowIntToLong', { a: int(INT32_MIN) }, { $inc: { a: int(-1) } }, 'long -2147483649'],
    ['ArithmeticNodeTest CreatedNumberHasSameTypeAsInc', { b: int(6) }, { $inc: { a: long('5') } }, 'long 5'],
    ['ArithmeticNodeTest CreatedNumberHasSameTypeAsMul', { b: int(6) }, { $mul: { a: long('5') } }, 'long 0'],
    ['ArithmeticNodeTest ApplyDeserializedDocNotNoOp', { b: int(1) }, { $mul: { a: int(1) } }, 'int 0'],
    ['ArithmeticNodeTest ApplyEmptyDocument', {}, { $inc: { a: int(2) } }, '= 2'],
    // src/mongo/db/update/bit_node_test.cpp
    ['BitNodeTest ApplyAndLogEmptyDocumentAnd', {}, { $bit: { a: { and: int(1) } } }, 'int 0'],
    ['BitNodeTest ApplyAndLogEmptyDocumentOr', {}, { $bit: { a: { or: int(1) } } }, 'int 1'],
    ['BitNodeTest ApplyAndLogEmptyDocumentXor', {}, { $bit: { a: { xor: int(1) } } }, 'int 1'],
    [
      'BitNodeTest ApplyAndLogSimpleDocumentAnd',
      { a: int(0b0101) },
      { $bit: { a: { and: int(0b0110) } } },
      `int ${0b0100}`,
    ],
    [
      'BitNodeTest ApplyAndLogSimpleDocumentOr',
      { a: int(0b0101) },
      { $bit: { a: { or: int(0b0110) } } },
      `int ${0b0111}`,
    ],
    [
      'BitNodeTest ApplyAndLogSimpleDocumentXor',
      { a: int(0b0101) },
      { $bit: { a: { xor: int(0b0110) } } },
      `int ${0b0011}`,
    ],
    ['BitNodeTest ApplyShouldReportNoOp', { a: int(1) }, { $bit: { a: { and: int(1) } } }, 'int 1'],
    [
      'BitNodeTest ApplyMultipleBitOps',
      { a: int(0b1111111100000000) },
      { $bit: { a: { and: int(0b1111000011110000), or: int(0b1100110011001100), xor: int(0b1010101010101010) } } },
      `int ${0b0101011001100110}`,
    ],
    // src/mongo/db/update/compare_node_test.cpp
    ['CompareNodeTest ApplyMaxSameNumber', { a: int(1) }, { $max: { a: int(1) } }, 'int 1'],
    ['CompareNodeTest ApplyMinSameNumber', { a: int(1) }, { $min: { a: int(1) } }, 'int 1'],
    ['CompareNodeTest ApplyMaxNumberIsLess', { a: int(1) }, { $max: { a: int(0) } }, 'int 1'],
    ['CompareNodeTest ApplyMinNumberIsMore', { a: int(1) }, { $min: { a: int(2) } }, 'int 1'],
    ['CompareNodeTest ApplyMaxSameValInt', { a: dbl(1.0) }, { $max: { a: long('1') } }, 'double 1'],
    ['CompareNodeTest ApplyMaxSameValIntZero', { a: dbl(0.0) }, { $max: { a: long('0') } }, 'double 0'],
    ['CompareNodeTest ApplyMinSameValIntZero', { a: dbl(0.0) }, { $min: { a: long('0') } }, 'double 0'],
    ['CompareNodeTest ApplyMissingFieldMinNumber', {}, { $min: { a: int(0) } }, 'int 0'],
    ['CompareNodeTest ApplyExistingNumberMinNumber', { a: int(1) }, { $min: { a: int(0) } }, 'int 0'],
    ['CompareNodeTest ApplyMissingFieldMaxNumber', {}, { $max: { a: int(0) } }, 'int 0'],
    ['CompareNodeTest ApplyExistingNumberMaxNumber', { a: int(1) }, { $max: { a: int(2) } }, 'int 2'],
    [
      'CompareNodeTest ApplyExistingEmbeddedDocMaxNumber',
      { a: { b: int(2) } },
      { $max: { a: int(3) } },
      { b: 'int 2' },
    ],
    ['CompareNodeTest ApplyIndexesNotAffected', { a: int(0) }, { $max: { a: int(1) } }, 'int 1'],
  ])('%s', async (_label, stored, update, expected) => {
    await c.deleteMany({});
    if (stored) await c.insertOne({ _id: ID as never, ...stored });
    await c.updateOne({ _id: ID as never }, update, { upsert: stored === null });
    const doc = await c.findOne({ _id: ID as never }, { promoteValues: false, promoteLongs: false });
    expect(asExpected(doc?.a, expected)).toEqual(expected);
  });
});

describe('numeric update operators: refusals with their code', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('numeric_update_errors');
  });

  // [label, stored document, update, expected error code, message fragment]
  it.each<[string, Document, Document, number, string]>([
    // src/mongo/db/update/arithmetic_node_test.cpp
    [
      'ArithmeticNodeTest InitFailsForNonNumericElement',
      { a: int(5) },
      { $inc: { a: 'foo' } },
      14,
      'Cannot increment with non-numeric argument: {a: "foo"}',
    ],
    [
      'ArithmeticNodeTest InitFailsForObjectElement',
      { a: int(5) },
      { $mul: { a: { b: int(6) } } },
      14,
      'Cannot multiply with non-numeric argument: {a: { b: 6 }}',
    ],
    [
      'ArithmeticNodeTest InitFailsForArrayElement',
      { a: int(5) },
      { $mul: { a: [] } },
      14,
      'Cannot multiply with non-numeric argument: {a: []}',
    ],
    [
      'ArithmeticNodeTest ApplyIncToObjectFails',
      { a: { b: int(1) } },
      { $inc: { a: int(2) } },
      14,
      'Cannot apply $inc to a value of non-numeric type. {_id: "test_object"} has the field \'a\' of non-numeric type object',
    ],
    [
      'ArithmeticNodeTest ApplyIncToArrayFails',
      { a: [] },
      { $inc: { a: int(2) } },
      14,
      'Cannot apply $inc to a value of non-numeric type. {_id: "test_object"} has the field \'a\' of non-numeric type array',
    ],
    [
      'ArithmeticNodeTest ApplyIncToStringFails',
      { a: 'foo' },
      { $inc: { a: int(2) } },
      14,
      'Cannot apply $inc to a value of non-numeric type. {_id: "test_object"} has the field \'a\' of non-numeric type string',
    ],
    [
      'ArithmeticNodeTest OverflowingOperationFails',
      { a: long(INT64_MAX) },
      { $mul: { a: int(2) } },
      2,
      'Failed to apply $mul operations to current value ((NumberLong)9223372036854775807) for document {_id: "test_object"}',
    ],
    [
      'ArithmeticNodeTest ApplyNonViablePathToInc',
      { a: int(5) },
      { $inc: { 'a.b': int(5) } },
      28,
      "Cannot create field 'b' in element {a: 5}",
    ],
  ])('%s', async (_label, stored, update, code, message) => {
    await c.deleteMany({});
    await c.insertOne({ _id: ID as never, ...stored });
    const error = await rejection(c.updateOne({ _id: ID as never }, update));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});

describe('numeric update operators: refusals whose code the source leaves open', () => {
  let c: Collection;
  beforeAll(async () => {
    c = await fx.fresh('numeric_update_refusals');
  });

  // [label, stored document, update]; the source checks only that the write fails.
  it.each<[string, Document, Document]>([
    // jstests/core/inc-SERVER-7446.js
    ['inc-SERVER-7446.js: $inc past the Int64 maximum', { a: long(INT64_MAX) }, { $inc: { a: int(1) } }],
    ['inc-SERVER-7446.js: $inc past the Int64 minimum', { a: long(INT64_MIN) }, { $inc: { a: int(-1) } }],
    // jstests/core/write/update/update_bit_examples.js (SERVER-19706)
    ['update_bit_examples.js: empty $bit operation', { a: int(4) }, { $bit: { a: {} } }],
    // src/mongo/db/update/bit_node_test.cpp
    ['BitNodeTest InitWithDoubleFails', { a: int(5) }, { $bit: { a: int(0) } }],
    ['BitNodeTest InitWithStringFails', { a: int(5) }, { $bit: { a: '' } }],
    ['BitNodeTest InitWithArrayFails', { a: int(5) }, { $bit: { a: [] } }],
    ['BitNodeTest InitWithUnknownOperatorFails', { a: int(5) }, { $bit: { a: { foo: int(4) } } }],
    ['BitNodeTest InitWithArrayArgumentToOperatorFails', { a: int(5) }, { $bit: { a: { or: [] } } }],
    ['BitNodeTest InitWithStringArgumentToOperatorFails', { a: int(5) }, { $bit: { a: { or: 'foo' } } }],
    ['BitNodeTest InitWithDoubleArgumentToOperatorFails', { a: int(5) }, { $bit: { a: { or: dbl(1.0) } } }],
    ['BitNodeTest InitWithDecimalArgumentToOperatorFails', { a: int(5) }, { $bit: { a: { or: dec('1.0') } } }],
  ])('%s', async (_label, stored, update) => {
    await c.deleteMany({});
    await c.insertOne({ _id: ID as never, ...stored });
    await rejection(c.updateOne({ _id: ID as never }, update));
  });
});

describe('jstests/decimal/decimal_update.js', () => {
  it('runs $inc and $mul by Decimal128 over int, Int64, double and Decimal128 values, and refuses $bit', async () => {
    const col = await fx.fresh('decimal_updates_jstest');
    const docs = () => [{ a: dec('1.0') }, { a: dec('0.0') }, { a: dec('1.00') }, { a: long('1') }, { a: dbl(1) }];

    await col.insertMany(docs());
    await col.updateMany({}, { $inc: { a: dec('10') } });
    expect(await col.countDocuments({ a: dbl(11) })).toBe(4);
    await col.updateMany({}, { $inc: { a: dec('0') } });
    expect(await col.countDocuments({ a: dbl(11) })).toBe(4);

    await col.drop();
    await col.insertMany(docs());
    await col.updateMany({}, { $mul: { a: dec('1') } });
    expect(await col.countDocuments({ a: dbl(1) })).toBe(4);
    await col.updateMany({}, { $mul: { a: dec('2') } });
    expect(await col.countDocuments({ a: dbl(2) })).toBe(4);
    await col.updateMany({}, { $mul: { a: dec('0') } });
    expect(await col.countDocuments({ a: dbl(0) })).toBe(5);

    // The shell's `{and: 1}` is a double, as sent here.
    const bitByDouble: Document = { $bit: { a: { and: dbl(1) } } };
    await rejection(col.updateMany({}, bitByDouble));
  });
});
