// CommonJS on purpose, in both builds, so that the library makes ObjectIds of
// the very class mongoose uses (`id instanceof Types.ObjectId`):
// - mongoose and the driver `require()` bson, while an ES-module `import 'bson'`
//   would load bson's separate ESM build, a different class;
// - mongoose takes ObjectId from the driver (`require('mongodb/lib/bson')`),
//   whose bson may be another version than the top-level one (mongoose 8 has
//   bson 6 under mongodb 6 while npm installs bson 7 for a `^6 || ^7` peer).
// So: the driver's bson where a driver is installed, else bson itself.
type Bson = typeof import('bson');

function loadBson(): Bson {
  /* eslint-disable @typescript-eslint/no-require-imports -- the point of this file: CommonJS loading */
  try {
    return require('mongodb/lib/bson') as Bson;
  } catch {
    return require('bson') as Bson;
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

const bson = loadBson();

/** The `ObjectId` class of mongoose's bson (or of bson itself when there is no driver). */
export const ObjectId = bson.ObjectId;
/** An ObjectId instance. */
export type ObjectId = import('bson').ObjectId;
/** The `Decimal128` class of the same bson (keyset cursors rebuild sort values with it). */
export const Decimal128 = bson.Decimal128;
/** A Decimal128 instance. */
export type Decimal128 = import('bson').Decimal128;
/** The `Long` class of the same bson. */
export const Long = bson.Long;
/** A Long instance. */
export type Long = import('bson').Long;
