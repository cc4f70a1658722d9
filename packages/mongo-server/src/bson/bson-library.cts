// CommonJS on purpose, in both builds: the driver `require()`s bson, while an
// ES-module `import 'bson'` loads bson's separate ESM build. A server in the
// same process as its client (the tests' usual set-up) then ran two copies of
// bson's encoder and decoder, each less warm in the CPU's caches than one
// shared copy: a find by `_id` through the driver cost about 7% more (see
// BENCHMARKS.md). Through this file the server uses the copy the driver
// uses wherever npm installed one bson for both. Every value the server takes
// from bson comes from here; types may still be imported from 'bson'.
type Bson = typeof import('bson');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the point of this file: CommonJS loading
const bson = require('bson') as Bson;

/** bson's namespace of functions: serialize, deserialize, calculateObjectSize, EJSON. */
export const BSON = bson.BSON;
/** bson's classes, each also a type. */
export const Binary = bson.Binary;
export type Binary = import('bson').Binary;
export const BSONRegExp = bson.BSONRegExp;
export type BSONRegExp = import('bson').BSONRegExp;
export const BSONSymbol = bson.BSONSymbol;
export type BSONSymbol = import('bson').BSONSymbol;
export const Code = bson.Code;
export type Code = import('bson').Code;
export const DBRef = bson.DBRef;
export type DBRef = import('bson').DBRef;
export const Decimal128 = bson.Decimal128;
export type Decimal128 = import('bson').Decimal128;
export const Double = bson.Double;
export type Double = import('bson').Double;
export const Int32 = bson.Int32;
export type Int32 = import('bson').Int32;
export const Long = bson.Long;
export type Long = import('bson').Long;
export const MaxKey = bson.MaxKey;
export type MaxKey = import('bson').MaxKey;
export const MinKey = bson.MinKey;
export type MinKey = import('bson').MinKey;
export const ObjectId = bson.ObjectId;
export type ObjectId = import('bson').ObjectId;
export const Timestamp = bson.Timestamp;
export type Timestamp = import('bson').Timestamp;
export const UUID = bson.UUID;
export type UUID = import('bson').UUID;
