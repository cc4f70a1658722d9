/**
 * Conformance: `$toHashedIndexKey` answers the key a hashed index stores, as
 * mongod's BSONElementHasher computes it: an Int64, the same for numbers of
 * equal truncated value whatever their type. The expected keys are the
 * hard-coded ones of mongod's hasher unit test ("determined experimentally
 * ... consistent across platforms and server versions"), and that of
 * "hello" another MongoDB-compatible server's suite asserts. Written to hold
 * against a real MongoDB 7 (MONGO_URL) too.
 */
import { Binary, BSONRegExp, BSONSymbol, Code, type Document, Double, Long, MaxKey, MinKey, ObjectId } from 'mongodb';

import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

const CASES: [label: string, value: unknown, key: string][] = [
  ['int 42', 42, '-944302157085130861'],
  ['double 42.123', 42.123, '-944302157085130861'],
  ['Int64 42', Long.fromNumber(42), '-944302157085130861'],
  ['int 0', 0, '4854801880128277513'],
  ['double 0.456', 0.456, '4854801880128277513'],
  ['NaN', Number.NaN, '4854801880128277513'],
  ['int 1', 1, '5902408780260971510'],
  ['double 1.987', 1.987, '5902408780260971510'],
  ['double 1.0', new Double(1), '5902408780260971510'],
  ['int -1', -1, '1140205862565771219'],
  ['double -1.789', -1.789, '1140205862565771219'],
  ['the least int32', -2147483648, '6165898260261354870'],
  ['the greatest int32', 2147483647, '1143184177162245883'],
  ['the greatest double', Number.MAX_VALUE, '921523596458303250'],
  ['the greatest Int64', Long.MAX_VALUE, '921523596458303250'],
  ['the least double', -Number.MAX_VALUE, '4532067210535695462'],
  ['the least Int64', Long.MIN_VALUE, '4532067210535695462'],
  ['MinKey', new MinKey(), '7961148599568647290'],
  ['MaxKey', new MaxKey(), '5504842513779440750'],
  ['null', null, '2338878944348059895'],
  ['a string', 'abc', '8478485326885698097'],
  ['a symbol', new BSONSymbol('abc'), '8478485326885698097'],
  ['the empty string', '', '2049396243249673340'],
  ['"hello"', 'hello', '5347277839332858538'],
  ['a document', { a: 'abc', b: Long.fromNumber(123) }, '4771603801758380216'],
  ['the empty document', {}, '7980500913326740417'],
  ['an array', ['bar', 'baz', 'qux'], '-2938911267422831539'],
  ['the empty array', [], '8849948234993459283'],
  ['generic binary', new Binary(Buffer.from([0, 1, 2, 3, 4, 6]), 0), '7252465090394235301'],
  ['user-defined binary', new Binary(Buffer.from([0, 1, 2, 3, 4, 6]), 128), '5736670452907618262'],
  ['a UUID', new Binary(Buffer.from([...Array(16).keys()]), 4), '6084661258071355978'],
  ['an ObjectId', new ObjectId('010203040506070809101112'), '-5588663249627035708'],
  ['the zero ObjectId', new ObjectId('000000000000000000000000'), '-4293118519463489418'],
  ['true', true, '6405873908747105701'],
  ['false', false, '6289544573401934092'],
  ['the epoch', new Date(0), '-1178696894582842035'],
  ['a regex', new BSONRegExp('mongodb'), '-7275792090268217043'],
  ['a regex with options', new BSONRegExp('.*', 'i'), '7095855029187981886'],
  ['JavaScript code', new Code('func f() { return 1; }'), '6861638109178014270'],
];

describe('conformance: $toHashedIndexKey', () => {
  it.each(CASES)('should hash %s as mongod does', async (_label, value, key) => {
    const collection = await fx.fresh('hashed_index_key');
    await collection.insertOne({ _id: 1, v: value } as Document);
    const [doc] = await collection
      .aggregate([{ $project: { _id: 0, h: { $toHashedIndexKey: '$v' } } }], { promoteLongs: false })
      .toArray();
    expect(doc!.h).toBeInstanceOf(Long);
    expect(String(doc!.h)).toBe(key);
  });

  it('should hash a missing value as null', async () => {
    const collection = await fx.fresh('hashed_index_key');
    await collection.insertOne({ _id: 1 } as Document);
    const [doc] = await collection
      .aggregate([{ $project: { _id: 0, h: { $toHashedIndexKey: '$nothing' } } }], { promoteLongs: false })
      .toArray();
    expect(String(doc!.h)).toBe('2338878944348059895');
  });
});
