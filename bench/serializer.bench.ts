/**
 * Cost of hex serialization of ObjectIds in responses, as Nest's
 * `ClassSerializerInterceptor` calls the transformer (once per item of a
 * top-level array), followed by the `JSON.stringify` the HTTP adapter does.
 *
 * Targets: on POJOs our hook + stringify costs ≤ 2× stringify alone of the
 * same data with hex strings already in place, and is ≥ 3× faster than
 * class-transformer `instanceToPlain` with `@Transform` on each id field;
 * on hydrated documents it is ≥ 5× faster than `toJSON({ flattenObjectIds })`.
 */
import 'reflect-metadata';
import { instanceToPlain, Transform } from 'class-transformer';
import mongoose, { Types } from 'mongoose';
import { objectIdTransformer } from '../src/serialization/index.js';
import { measureInterleaved, type BenchTable } from './harness.js';

const ENTITIES = 10_000;
const DOCUMENTS = 1_000;
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
    title: `ObjectId hex serialization (${ENTITIES} entities with 3 ObjectIds + 3 strings; ${DOCUMENTS} hydrated documents with 3 subdocuments)`,
    baseline: rows[0].name,
    rows: [],
  };
  // Alternating rounds, median of each: the rows allocate a lot, and measured one
  // after the other each would pay for the garbage of the one before.
  const results = await measureInterleaved(Object.fromEntries(rows.map((row) => [row.name, row.fn])), { ms: MS });
  for (const row of rows) {
    table.rows.push({ name: row.name, opsPerSec: results[row.name] });
  }

  const [floorRow, oursRow, transformRow, oursOnClassesRow, flattenRow, oursDocsRow, flattenJsonRow, oursDocsJsonRow] =
    rows.map((r) => r.name);
  const costVsFloor = rowRatio(table, floorRow, oursRow); // time(ours) / time(floor)
  const vsTransform = rowRatio(table, oursRow, transformRow);
  const classesVsTransform = rowRatio(table, oursOnClassesRow, transformRow);
  const vsFlatten = rowRatio(table, oursDocsRow, flattenRow);
  const vsFlattenJson = rowRatio(table, oursDocsJsonRow, flattenJsonRow);
  for (const row of table.rows) {
    row.note = `${(row.opsPerSec / table.rows[0].opsPerSec).toFixed(2)}× the floor's ops/s`;
  }
  table.rows[3].note += `; ${classesVsTransform.toFixed(2)}× instanceToPlain with @Transform (no target: class-transformer still runs)`;
  table.rows[7].note += `; ${vsFlattenJson.toFixed(2)}× toJSON + stringify (no target: stringify is the same work on both sides)`;
  table.targets = [
    {
      description: `POJOs: our hook + stringify costs ≤ 2× stringify alone (measured ${costVsFloor.toFixed(2)}×)`,
      met: costVsFloor <= 2,
    },
    {
      description: `POJOs: our hook ≥ 3× faster than instanceToPlain with @Transform (measured ${vsTransform.toFixed(2)}×)`,
      met: vsTransform >= 3,
    },
    {
      description: `hydrated documents: our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only (measured ${vsFlatten.toFixed(2)}×)`,
      met: vsFlatten >= 5,
    },
  ];
  return table;
}
