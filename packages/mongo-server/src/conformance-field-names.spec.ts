/**
 * Conformance: field names JavaScript treats specially (`__proto__`) are
 * ordinary field names to MongoDB, through updates too. Passes against
 * MONGO_URL too.
 */
import { useDriverFixture } from './conformance.fixture.js';

const fx = useDriverFixture();

/** A document with `__proto__` as an own field, as the driver decodes one. */
function withProto(): Record<string, unknown> {
  return JSON.parse('{"_id":1,"__proto__":{"p":1},"o":{"__proto__":2}}') as Record<string, unknown>;
}

describe('a field named __proto__', () => {
  it.each([
    ['$set inside it', { $set: { '__proto__.q': 1 } }, { p: 1, q: 1 }, 2],
    ['$inc of a nested one', { $inc: { 'o.__proto__': 1 } }, { p: 1 }, 3],
    ['$set of another field', { $set: { x: 1 } }, { p: 1 }, 2],
  ])('should be kept as a field by %s', async (_label, update, proto, nested) => {
    const c = await fx.fresh('proto');
    await c.insertOne(withProto() as never);
    await c.updateOne({ _id: 1 } as never, update as never);
    const doc = (await c.findOne({ _id: 1 } as never))!;
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual(proto);
    expect(Object.getOwnPropertyDescriptor(doc.o, '__proto__')?.value).toBe(nested);
  });
});
