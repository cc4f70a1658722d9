/**
 * Cost of hex serialization of ObjectIds in responses, as Nest's
 * `ClassSerializerInterceptor` calls the transformer (once per item of a
 * top-level array), followed by the `JSON.stringify` the HTTP adapter does.
 *
 * Targets (#14): on POJOs our hook + stringify costs ≤ 1.5× stringify alone
 * of the same data with hex strings already in place, and is ≥ 3× faster than
 * class-transformer `instanceToPlain` with `@Transform` on each id field;
 * on hydrated documents, conversion only, it is ≥ 5× faster than
 * `toJSON({ flattenObjectIds: true })` and no slower than `toJSON()` alone,
 * for two shapes: an entity with id arrays and a subdocument array (3 ids,
 * `relatedIds[2]`, `lines[2]{productId}`, a Date, 3 strings) and an order with
 * 3 subdocuments.
 */
import 'reflect-metadata';
import { instanceToPlain, Transform } from 'class-transformer';
import mongoose, { Types } from 'mongoose';
import { objectIdTransformer } from '../src/serialization/index.js';
import { measureInterleaved, type BenchTable } from './harness.js';

const ENTITIES = 10_000;
const DOCUMENTS = 1_000;
const HYDRATED_ENTITIES = 10_000;
const MS = 400;

const toHex = ({ obj, key }: { obj: Record<string, Types.ObjectId>; key: string }): string => obj[key].toString();

class EntityDto {
  @Transform(toHex) _id!: Types.ObjectId;
  @Transform(toHex) ownerId!: Types.ObjectId;
  @Transform(toHex) groupId!: Types.ObjectId;
  name!: string;
  email!: string;
  status!: string;
}

/** Deterministic ids, so runs are comparable. */
function objectId(n: number): Types.ObjectId {
  return new Types.ObjectId(n.toString(16).padStart(24, '0'));
}

function entity(i: number): Record<string, unknown> {
  return {
    _id: objectId(i * 3),
    ownerId: objectId(i * 3 + 1),
    groupId: objectId(i * 3 + 2),
    name: `user ${i}`,
    email: `user${i}@example.com`,
    status: i % 2 === 0 ? 'active' : 'disabled',
  };
}

function withHex(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = v instanceof Types.ObjectId ? v.toHexString() : v;
  return out;
}

function rowRatio(table: BenchTable, a: string, b: string): number {
  const find = (name: string): number => table.rows.find((r) => r.name === name)!.opsPerSec;
  return find(a) / find(b);
}

export async function run(): Promise<BenchTable> {
  const pojos = Array.from({ length: ENTITIES }, (_, i) => entity(i));
  // Through JSON so that the floor's strings are flat, as a driver or JSON.parse gives them
  // (bson's toHexString() returns a rope, which is slower to stringify and would flatter us).
  const floor = JSON.parse(JSON.stringify(pojos.map(withHex))) as Record<string, unknown>[];
  const dtos = pojos.map((p) => Object.assign(new EntityDto(), p));
  const plain = {};

  const connection = mongoose.createConnection();
  const schema = new mongoose.Schema({
    name: String,
    ownerId: mongoose.Schema.Types.ObjectId,
    createdAt: Date,
    lines: [new mongoose.Schema({ sku: String, qty: Number, productId: mongoose.Schema.Types.ObjectId })],
  });
  const Order = connection.model('BenchOrder', schema);
  const docs = Array.from({ length: DOCUMENTS }, (_, i) =>
    Order.hydrate({
      _id: objectId(i),
      name: `order ${i}`,
      ownerId: objectId(i + 1_000_000),
      createdAt: new Date(1_700_000_000_000 + i),
      lines: [0, 1, 2].map((j) => ({
        _id: objectId(i * 10 + j + 2_000_000),
        sku: `sku-${j}`,
        qty: j,
        productId: objectId(j),
      })),
      __v: 0,
    }),
  );

  const entitySchema = new mongoose.Schema({
    ownerId: mongoose.Schema.Types.ObjectId,
    groupId: mongoose.Schema.Types.ObjectId,
    relatedIds: [mongoose.Schema.Types.ObjectId],
    lines: [new mongoose.Schema({ productId: mongoose.Schema.Types.ObjectId, qty: Number })],
    createdAt: Date,
    name: String,
    email: String,
    status: String,
  });
  const Entity = connection.model('BenchEntity', entitySchema);
  const entities = Array.from({ length: HYDRATED_ENTITIES }, (_, i) =>
    Entity.hydrate({
      ...entity(i),
      relatedIds: [objectId(i + 3_000_000), objectId(i + 4_000_000)],
      lines: [0, 1].map((j) => ({ _id: objectId(i * 10 + j + 5_000_000), productId: objectId(j), qty: j })),
      createdAt: new Date(1_700_000_000_000 + i),
      __v: 0,
    }),
  );

  // Every contender must produce the same bytes, or the comparison is meaningless.
  const expectedEntities = JSON.stringify(floor);
  const ours = JSON.stringify(pojos.map((p) => objectIdTransformer.classToPlain(p, plain)));
  const theirs = JSON.stringify(dtos.map((d) => instanceToPlain(d)));
  if (ours !== expectedEntities || theirs !== expectedEntities) {
    throw new Error('bench: serializer outputs differ from the hex floor');
  }
  const flattened = JSON.stringify(docs.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false })));
  if (JSON.stringify(docs.map((d) => objectIdTransformer.classToPlain(d, plain))) !== flattened) {
    throw new Error('bench: document outputs differ from toJSON({ flattenObjectIds: true })');
  }
  const flattenedEntities = JSON.stringify(
    entities.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false })),
  );
  if (JSON.stringify(entities.map((d) => objectIdTransformer.classToPlain(d, plain))) !== flattenedEntities) {
    throw new Error('bench: entity outputs differ from toJSON({ flattenObjectIds: true })');
  }

  const rows = [
    { name: 'JSON.stringify, hex already in place (floor)', fn: () => JSON.stringify(floor).length && ENTITIES },
    {
      name: 'objectIdTransformer on POJOs + JSON.stringify',
      fn: () => JSON.stringify(pojos.map((p) => objectIdTransformer.classToPlain(p, plain))).length && ENTITIES,
    },
    {
      name: 'instanceToPlain with @Transform + JSON.stringify',
      fn: () => JSON.stringify(dtos.map((d) => instanceToPlain(d))).length && ENTITIES,
    },
    {
      name: 'objectIdTransformer on the same class instances + JSON.stringify',
      fn: () => JSON.stringify(dtos.map((d) => objectIdTransformer.classToPlain(d, plain))).length && ENTITIES,
    },
    {
      name: 'hydrated docs: toJSON({ flattenObjectIds: true })',
      fn: () => docs.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false })).length,
    },
    {
      name: 'hydrated docs: objectIdTransformer',
      fn: () => docs.map((d) => objectIdTransformer.classToPlain(d, plain)).length,
    },
    {
      name: 'hydrated entities: toJSON({ flattenObjectIds: true })',
      fn: () => entities.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false })).length,
    },
    {
      name: 'hydrated entities: toJSON() (ids left as ObjectIds)',
      fn: () => entities.map((d) => d.toJSON()).length,
    },
    {
      name: 'hydrated entities: objectIdTransformer',
      fn: () => entities.map((d) => objectIdTransformer.classToPlain(d, plain)).length,
    },
    {
      name: 'hydrated docs: toJSON() (ids left as ObjectIds)',
      fn: () => docs.map((d) => d.toJSON()).length,
    },
    {
      name: 'hydrated docs: toJSON({ flattenObjectIds: true }) + JSON.stringify',
      fn: () =>
        JSON.stringify(docs.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false }))).length && DOCUMENTS,
    },
    {
      name: 'hydrated docs: objectIdTransformer + JSON.stringify',
      fn: () => JSON.stringify(docs.map((d) => objectIdTransformer.classToPlain(d, plain))).length && DOCUMENTS,
    },
  ];

  const table: BenchTable = {
    title: `ObjectId hex serialization (${ENTITIES} POJO entities with 3 ObjectIds + 3 strings; ${HYDRATED_ENTITIES} hydrated entities with 3 ObjectIds, relatedIds[2], lines[2]{productId}, a Date and 3 strings; ${DOCUMENTS} hydrated orders with 3 subdocuments)`,
    baseline: rows[0].name,
    rows: [],
  };
  // Alternating rounds, median of each: the rows allocate a lot, and measured one
  // after the other each would pay for the garbage of the one before.
  const results = await measureInterleaved(Object.fromEntries(rows.map((row) => [row.name, row.fn])), { ms: MS });
  for (const row of rows) {
    table.rows.push({ name: row.name, opsPerSec: results[row.name] });
  }

  const find = (name: string): string => rows.find((r) => r.name.startsWith(name))!.name;
  const costVsFloor = rowRatio(table, rows[0].name, find('objectIdTransformer on POJOs')); // time(ours) / time(floor)
  const vsTransform = rowRatio(table, find('objectIdTransformer on POJOs'), find('instanceToPlain'));
  const classesVsTransform = rowRatio(table, find('objectIdTransformer on the same class'), find('instanceToPlain'));
  const docsVsFlatten = rowRatio(table, find('hydrated docs: objectIdTransformer'), find('hydrated docs: toJSON({'));
  const docsVsToJson = rowRatio(table, find('hydrated docs: objectIdTransformer'), find('hydrated docs: toJSON()'));
  const entitiesVsFlatten = rowRatio(
    table,
    find('hydrated entities: objectIdTransformer'),
    find('hydrated entities: toJSON({'),
  );
  const entitiesVsToJson = rowRatio(
    table,
    find('hydrated entities: objectIdTransformer'),
    find('hydrated entities: toJSON()'),
  );
  const vsFlattenJson = rowRatio(
    table,
    find('hydrated docs: objectIdTransformer + JSON'),
    find('hydrated docs: toJSON({ flattenObjectIds: true }) + JSON'),
  );
  for (const row of table.rows) {
    row.note = `${(row.opsPerSec / table.rows[0].opsPerSec).toFixed(2)}× the floor's ops/s`;
  }
  table.rows.find((r) => r.name === find('objectIdTransformer on the same class'))!.note +=
    `; ${classesVsTransform.toFixed(2)}× instanceToPlain with @Transform (no target: class-transformer still runs)`;
  table.rows.find((r) => r.name === find('hydrated docs: objectIdTransformer + JSON'))!.note +=
    `; ${vsFlattenJson.toFixed(2)}× toJSON + stringify (no target: stringify is the same work on both sides)`;
  table.targets = [
    {
      description: `POJOs: our hook + stringify costs ≤ 1.5× stringify alone (measured ${costVsFloor.toFixed(2)}×)`,
      met: costVsFloor <= 1.5,
    },
    {
      description: `POJOs: our hook ≥ 3× faster than instanceToPlain with @Transform (measured ${vsTransform.toFixed(2)}×)`,
      met: vsTransform >= 3,
    },
    {
      description: `hydrated entities (id arrays, subdocument array): our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only (measured ${entitiesVsFlatten.toFixed(2)}×)`,
      met: entitiesVsFlatten >= 5,
    },
    {
      description: `hydrated entities: our hook no slower than toJSON() alone (measured ${entitiesVsToJson.toFixed(2)}×)`,
      met: entitiesVsToJson >= 1,
    },
    {
      description: `hydrated orders (3 subdocuments): our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only (measured ${docsVsFlatten.toFixed(2)}×)`,
      met: docsVsFlatten >= 5,
    },
    {
      description: `hydrated orders: our hook no slower than toJSON() alone (measured ${docsVsToJson.toFixed(2)}×)`,
      met: docsVsToJson >= 1,
    },
  ];
  return table;
}
