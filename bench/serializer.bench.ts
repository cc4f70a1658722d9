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
 * for three shapes: an entity with id arrays and a subdocument array (3 ids,
 * `relatedIds[2]`, `lines[2]{productId}`, a Date, 3 strings), the flat
 * entity (3 ids, 3 strings) and an order with 3 subdocuments.
 *
 * Each comparison is its own group of contenders, interleaved with the order
 * rotated every round (bench/harness.ts), each sample after a full garbage
 * collection (a contender that leaves tens of megabytes behind, such as
 * `toJSON({ flattenObjectIds: true })`, would otherwise have the next one pay
 * for collecting them); its targets are judged on the median ratio over the
 * rounds by wall time and by CPU time.
 */
import 'reflect-metadata';
import { instanceToPlain, Transform } from 'class-transformer';
import mongoose, { Types } from 'mongoose';
import { objectIdTransformer } from '../src/serialization/index.js';
import { measureRounds, ratioTarget, type BenchRow, type BenchTable, type Rounds } from './harness.js';

const ENTITIES = 10_000;
const DOCUMENTS = 1_000;
const HYDRATED_ENTITIES = 10_000;
const MS = 300;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

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

/**
 * A flat copy of `text`. A template literal of 13 characters or more is a
 * rope in V8, which `JSON.stringify` has to flatten; the driver and
 * `JSON.parse` give flat strings, and so does the floor below.
 */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function entity(i: number): Record<string, unknown> {
  return {
    _id: objectId(i * 3),
    ownerId: objectId(i * 3 + 1),
    groupId: objectId(i * 3 + 2),
    name: `user ${i}`,
    email: flat(`user${i}@example.com`),
    status: i % 2 === 0 ? 'active' : 'disabled',
  };
}

function withHex(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = v instanceof Types.ObjectId ? v.toHexString() : v;
  return out;
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

  const FlatEntity = connection.model(
    'BenchFlatEntity',
    new mongoose.Schema({
      ownerId: mongoose.Schema.Types.ObjectId,
      groupId: mongoose.Schema.Types.ObjectId,
      name: String,
      email: String,
      status: String,
    }),
  );
  const flatEntities = Array.from({ length: HYDRATED_ENTITIES }, (_, i) =>
    FlatEntity.hydrate({ ...entity(i), __v: 0 }),
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
  if (
    JSON.stringify(flatEntities.map((d) => objectIdTransformer.classToPlain(d, plain))) !==
    JSON.stringify(flatEntities.map((d) => d.toJSON({ flattenObjectIds: true, versionKey: false })))
  ) {
    throw new Error('bench: flat entity outputs differ from toJSON({ flattenObjectIds: true })');
  }

  const names = {
    floor: 'JSON.stringify, hex already in place (floor)',
    pojos: 'objectIdTransformer on POJOs + JSON.stringify',
    pojosBeside: 'objectIdTransformer on POJOs + JSON.stringify, in the rounds of the two below',
    transform: 'instanceToPlain with @Transform + JSON.stringify',
    classes: 'objectIdTransformer on the same class instances + JSON.stringify',
    entitiesFlatten: 'hydrated entities: toJSON({ flattenObjectIds: true })',
    entitiesToJson: 'hydrated entities: toJSON() (ids left as ObjectIds)',
    entitiesOurs: 'hydrated entities: objectIdTransformer',
    flatFlatten: 'hydrated flat entities: toJSON({ flattenObjectIds: true })',
    flatToJson: 'hydrated flat entities: toJSON() (ids left as ObjectIds)',
    flatOurs: 'hydrated flat entities: objectIdTransformer',
    docsFlatten: 'hydrated orders: toJSON({ flattenObjectIds: true })',
    docsToJson: 'hydrated orders: toJSON() (ids left as ObjectIds)',
    docsOurs: 'hydrated orders: objectIdTransformer',
    docsFlattenJson: 'hydrated orders: toJSON({ flattenObjectIds: true }) + JSON.stringify',
    docsOursJson: 'hydrated orders: objectIdTransformer + JSON.stringify',
  };
  const flatten = { flattenObjectIds: true, versionKey: false };
  const pojosHook = () =>
    JSON.stringify(pojos.map((p) => objectIdTransformer.classToPlain(p, plain))).length && ENTITIES;
  // One group per comparison: a contender shares its rounds only with those it is compared to
  // (the garbage class-transformer leaves moves the POJO ratio by a third).
  const groups: Record<string, () => number>[] = [
    {
      [names.floor]: () => JSON.stringify(floor).length && ENTITIES,
      [names.pojos]: pojosHook,
    },
    {
      [names.pojosBeside]: pojosHook,
      [names.transform]: () => JSON.stringify(dtos.map((d) => instanceToPlain(d))).length && ENTITIES,
      [names.classes]: () =>
        JSON.stringify(dtos.map((d) => objectIdTransformer.classToPlain(d, plain))).length && ENTITIES,
    },
    {
      [names.entitiesFlatten]: () => entities.map((d) => d.toJSON(flatten)).length,
      [names.entitiesToJson]: () => entities.map((d) => d.toJSON()).length,
      [names.entitiesOurs]: () => entities.map((d) => objectIdTransformer.classToPlain(d, plain)).length,
    },
    {
      [names.flatFlatten]: () => flatEntities.map((d) => d.toJSON(flatten)).length,
      [names.flatToJson]: () => flatEntities.map((d) => d.toJSON()).length,
      [names.flatOurs]: () => flatEntities.map((d) => objectIdTransformer.classToPlain(d, plain)).length,
    },
    {
      [names.docsFlatten]: () => docs.map((d) => d.toJSON(flatten)).length,
      [names.docsToJson]: () => docs.map((d) => d.toJSON()).length,
      [names.docsOurs]: () => docs.map((d) => objectIdTransformer.classToPlain(d, plain)).length,
      [names.docsFlattenJson]: () => JSON.stringify(docs.map((d) => d.toJSON(flatten))).length && DOCUMENTS,
      [names.docsOursJson]: () =>
        JSON.stringify(docs.map((d) => objectIdTransformer.classToPlain(d, plain))).length && DOCUMENTS,
    },
  ];
  const measured: Rounds[] = [];
  for (const group of groups) measured.push(await measureRounds(group, { rounds: ROUNDS, ms: MS, gc: true }));
  const rows: BenchRow[] = measured.flatMap((rounds) => rounds.rows());
  const speedRatio = (a: string, b: string) =>
    measured.find((r) => r.names.includes(a) && r.names.includes(b))!.speedRatio(a, b);

  const floorRow = rows[0];
  for (const row of rows) {
    row.note = `${(row.opsPerSec / floorRow.opsPerSec).toFixed(2)}× the floor's ops/s`;
  }
  const note = (name: string, text: string) => {
    rows.find((r) => r.name === name)!.note += `; ${text}`;
  };
  const median = (a: string, b: string) => speedRatio(a, b).cpu.median.toFixed(2);
  note(
    names.classes,
    `${median(names.classes, names.transform)}× instanceToPlain with @Transform (CPU; no target: class-transformer still runs)`,
  );
  note(
    names.docsOursJson,
    `${median(names.docsOursJson, names.docsFlattenJson)}× toJSON + stringify (CPU; no target: stringify is the same work on both sides)`,
  );
  return {
    title: `ObjectId hex serialization (${ENTITIES.toLocaleString('en-US')} POJO entities with 3 ObjectIds + 3 strings; ${HYDRATED_ENTITIES.toLocaleString('en-US')} hydrated entities with 3 ObjectIds, relatedIds[2], lines[2]{productId}, a Date and 3 strings; ${HYDRATED_ENTITIES.toLocaleString('en-US')} hydrated flat entities with 3 ObjectIds + 3 strings; ${DOCUMENTS.toLocaleString('en-US')} hydrated orders with 3 subdocuments)`,
    baseline: names.floor,
    rows,
    targets: [
      // Cost ratio: time(ours) / time(floor), i.e. the floor's speed over ours.
      ratioTarget('POJOs: our hook + stringify costs ≤ 1.5× stringify alone', speedRatio(names.floor, names.pojos), {
        atMost: 1.5,
      }),
      ratioTarget(
        'POJOs: our hook ≥ 3× faster than instanceToPlain with @Transform',
        speedRatio(names.pojosBeside, names.transform),
        { atLeast: 3 },
      ),
      ratioTarget(
        'hydrated entities (id arrays, subdocument array): our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only',
        speedRatio(names.entitiesOurs, names.entitiesFlatten),
        { atLeast: 5 },
      ),
      ratioTarget(
        'hydrated entities: our hook no slower than toJSON() alone',
        speedRatio(names.entitiesOurs, names.entitiesToJson),
        { atLeast: 1 },
      ),
      ratioTarget(
        'hydrated flat entities: our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only',
        speedRatio(names.flatOurs, names.flatFlatten),
        { atLeast: 5 },
      ),
      ratioTarget(
        'hydrated flat entities: our hook no slower than toJSON() alone',
        speedRatio(names.flatOurs, names.flatToJson),
        { atLeast: 1 },
      ),
      ratioTarget(
        'hydrated orders (3 subdocuments): our hook ≥ 5× faster than toJSON({ flattenObjectIds: true }), conversion only',
        speedRatio(names.docsOurs, names.docsFlatten),
        { atLeast: 5 },
      ),
      ratioTarget(
        'hydrated orders: our hook no slower than toJSON() alone',
        speedRatio(names.docsOurs, names.docsToJson),
        {
          atLeast: 1,
        },
      ),
    ],
  };
}
