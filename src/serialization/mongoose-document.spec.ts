import mongoose, { Schema, Types } from 'mongoose';
import { serializeObjectIds } from './serialize-object-ids.js';

const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const HEX_B = '0123456789abcdef01234567';
const HEX_C = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const HEX_D = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const id = (hex: string) => new Types.ObjectId(hex);

// A connection that never connects: documents are built in memory.
const connection = mongoose.createConnection();

const LineSchema = new Schema({ sku: String, productId: Schema.Types.ObjectId });
const UserSchema = new Schema({ name: String, friends: [{ type: Schema.Types.ObjectId, ref: 'User' }] });
const OrderSchema = new Schema({
  name: String,
  ownerId: { type: Schema.Types.ObjectId, ref: 'User' },
  lines: [LineSchema],
  tags: [String],
  meta: { note: String },
  extras: Schema.Types.Mixed,
  at: Date,
});
const VirtualsSchema = new Schema(
  { name: String, lines: [new Schema({ sku: String })] },
  { toJSON: { virtuals: true } },
);
const NamedVirtualSchema = new Schema({ first: String, last: String }, { toJSON: { virtuals: true } });
NamedVirtualSchema.virtual('full').get(function (this: { first: string; last: string }) {
  return `${this.first} ${this.last}`;
});
const TransformSchema = new Schema(
  { name: String, secret: String, ownerId: Schema.Types.ObjectId },
  {
    toJSON: {
      transform: (_doc: unknown, ret: Record<string, unknown>) => {
        delete ret.secret;
        return ret;
      },
    },
  },
);
const PathTransformSchema = new Schema({ name: { type: String, transform: (v: string) => v.toUpperCase() } });
const PriceSchema = new Schema({ price: Schema.Types.Decimal128, counts: { type: Map, of: Number } });

const User = connection.model('User', UserSchema);
const Order = connection.model('Order', OrderSchema);
const WithVirtuals = connection.model('WithVirtuals', VirtualsSchema);
const NamedVirtual = connection.model('NamedVirtual', NamedVirtualSchema);
const WithTransform = connection.model('WithTransform', TransformSchema);
const PathTransform = connection.model('PathTransform', PathTransformSchema);
const Price = connection.model('Price', PriceSchema);

const json = (value: unknown, options?: Parameters<typeof serializeObjectIds>[1]): string =>
  JSON.stringify(serializeObjectIds(value, options));

function order(): InstanceType<typeof Order> {
  return Order.hydrate({
    _id: id(HEX_A),
    name: 'first',
    ownerId: id(HEX_B),
    lines: [
      { _id: id(HEX_C), sku: 'a', productId: id(HEX_D) },
      { _id: id(HEX_D), sku: 'b', productId: id(HEX_C) },
    ],
    tags: ['x'],
    at: new Date(0),
    __v: 3,
  });
}

const ORDER = `{"_id":"${HEX_A}","name":"first","ownerId":"${HEX_B}","lines":[{"_id":"${HEX_C}","sku":"a","productId":"${HEX_D}"},{"_id":"${HEX_D}","sku":"b","productId":"${HEX_C}"}],"tags":["x"],"at":"1970-01-01T00:00:00.000Z"}`;

describe('serializeObjectIds with hydrated mongoose documents', () => {
  it('should serialize a document without internals or __v', () => {
    const out = json(order());
    expect(out).toBe(ORDER);
    expect(out).not.toMatch(/\$__|_doc|__v|"buffer"|"i0"/);
  });

  it('should keep __v with versionKey: true', () => {
    expect(json(order(), { versionKey: true })).toBe(ORDER.slice(0, -1) + ',"__v":3}');
  });

  it('should serialize an array of documents and an envelope of them', () => {
    expect(json([order(), order()])).toBe(`[${ORDER},${ORDER}]`);
    expect(json({ items: [order()], nextCursor: id(HEX_D) })).toBe(`{"items":[${ORDER}],"nextCursor":"${HEX_D}"}`);
  });

  it('should serialize a document built with new Model()', () => {
    const doc = new Order({ _id: id(HEX_A), name: 'n', lines: [{ _id: id(HEX_B), sku: 's' }] });
    // mongoose's own key order: paths in the order given, `_id` set last by `new`.
    expect(json(doc)).toBe(`{"name":"n","lines":[{"sku":"s","_id":"${HEX_B}"}],"tags":[],"_id":"${HEX_A}"}`);
  });

  it('should serialize populated references (hydratedPopulatedDocs)', () => {
    const doc = Order.hydrate(
      { _id: id(HEX_A), name: 'p', ownerId: { _id: id(HEX_B), name: 'ann', friends: [id(HEX_C)], __v: 0 } },
      null,
      { hydratedPopulatedDocs: true },
    );
    expect(doc.populated('ownerId')).toBeDefined();
    expect(json(doc)).toBe(
      `{"tags":[],"_id":"${HEX_A}","name":"p","ownerId":{"friends":["${HEX_C}"],"_id":"${HEX_B}","name":"ann"},"lines":[]}`,
    );
  });

  it('should report documents that populate each other as a circular structure, not overflow the stack', () => {
    const ann = User.hydrate({ _id: id(HEX_A), name: 'ann', friends: [] });
    const bob = User.hydrate({ _id: id(HEX_B), name: 'bob', friends: [] });
    ann.friends = [bob] as unknown as Types.ObjectId[];
    bob.friends = [ann] as unknown as Types.ObjectId[];
    expect(ann.populated('friends')).toBeDefined();
    expect(() => serializeObjectIds(ann)).toThrow(
      'Converting circular structure at $.friends[0].friends[0]: it refers back to $.',
    );
    expect(json(ann, { enableCircularCheck: true })).toBe(
      `{"_id":"${HEX_A}","name":"ann","friends":[{"_id":"${HEX_B}","name":"bob","friends":[]}]}`,
    );
  });

  it('should add the id virtual when the schema enables virtuals', () => {
    const doc = WithVirtuals.hydrate({ _id: id(HEX_A), name: 'v', lines: [{ _id: id(HEX_B), sku: 's' }], __v: 0 });
    // The subdocument schema was created on its own, without `toJSON.virtuals`: no `id` there (as in mongoose).
    expect(json(doc)).toBe(`{"_id":"${HEX_A}","name":"v","lines":[{"_id":"${HEX_B}","sku":"s"}],"id":"${HEX_A}"}`);
  });

  it('should add the id virtual to subdocuments whose schema inherits virtuals', () => {
    const Inline = connection.model('Inline', new Schema({ lines: [{ sku: String }] }, { toJSON: { virtuals: true } }));
    const doc = Inline.hydrate({ _id: id(HEX_A), lines: [{ _id: id(HEX_B), sku: 's' }] });
    expect(json(doc)).toBe(`{"_id":"${HEX_A}","lines":[{"_id":"${HEX_B}","sku":"s","id":"${HEX_B}"}],"id":"${HEX_A}"}`);
  });

  it('should include other virtuals (computed by mongoose)', () => {
    const doc = NamedVirtual.hydrate({ _id: id(HEX_A), first: 'Ada', last: 'Lovelace' });
    expect(json(doc)).toBe(`{"_id":"${HEX_A}","first":"Ada","last":"Lovelace","full":"Ada Lovelace","id":"${HEX_A}"}`);
  });

  it('should respect a schema toJSON transform', () => {
    const doc = WithTransform.hydrate({ _id: id(HEX_A), name: 't', secret: 's', ownerId: id(HEX_B) });
    expect(json(doc)).toBe(`{"_id":"${HEX_A}","name":"t","ownerId":"${HEX_B}"}`);
  });

  it('should respect a path transform', () => {
    expect(json(PathTransform.hydrate({ _id: id(HEX_A), name: 'low' }))).toBe(`{"_id":"${HEX_A}","name":"LOW"}`);
  });

  it('should serialize Decimal128 paths as strings and Maps as objects', () => {
    const doc = Price.hydrate({ _id: id(HEX_A), price: Types.Decimal128.fromString('9.99'), counts: { a: 1 } });
    expect(json(doc)).toBe(`{"_id":"${HEX_A}","price":"9.99","counts":{"a":1}}`);
  });

  it('should expose _id as id with exposeId', () => {
    const doc = WithVirtuals.hydrate({ _id: id(HEX_A), name: 'v', lines: [{ _id: id(HEX_B), sku: 's' }] });
    expect(json(doc, { exposeId: true })).toBe(`{"id":"${HEX_A}","name":"v","lines":[{"id":"${HEX_B}","sku":"s"}]}`);
  });

  it('should never hand a document to class-transformer (no stack overflow with subdocument arrays)', () => {
    const doc = order();
    expect(() => serializeObjectIds(doc, { groups: ['x'] })).not.toThrow();
    expect(json(doc, { groups: ['x'] })).toBe(ORDER);
  });

  describe('equals toJSON({ flattenObjectIds: true, versionKey: false })', () => {
    // The fast read of `_doc` must give what mongoose gives.
    it.each<[string, () => { toJSON(options: object): unknown }]>([
      ['a document with subdocuments', order],
      [
        'empty nested objects (minimize)',
        () => Order.hydrate({ _id: id(HEX_A), meta: {}, extras: { a: {}, b: [{}] } }),
      ],
      ['a nested path', () => Order.hydrate({ _id: id(HEX_A), meta: { note: 'n' } })],
      ['Mixed with ids', () => Order.hydrate({ _id: id(HEX_A), extras: { ref: id(HEX_B), list: [id(HEX_C)] } })],
      ['virtuals on subdocuments', () => WithVirtuals.hydrate({ _id: id(HEX_A), lines: [{ _id: id(HEX_B) }] })],
      ['a new document', () => new Order({ name: 'x', lines: [{ sku: 'y' }] })],
      ['a missing _id with virtuals', () => WithVirtuals.hydrate({ name: 'no id' })],
    ])('for %s', (_name, make) => {
      const doc = make();
      expect(json(doc)).toBe(JSON.stringify(doc.toJSON({ flattenObjectIds: true, versionKey: false })));
    });
  });
});
