import { BSON, DBRef, Double, ObjectId } from '../bson/bson-library.cjs';
import { decodeDocument } from './bson-codec.js';

/** Keys of `value` and of every document in it, in order, to compare field orders. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).map(([key, v]) => [key, shape(v)]);
  }
  return value instanceof DBRef ? 'DBRef' : value;
}

describe('decodeDocument and DBRefs', () => {
  const id = new ObjectId('4c48d04cd33a5a92628c9af6');

  it.each<[string, Record<string, unknown>]>([
    ['a canonical DBRef', { ref: { $ref: 'users', $id: id } }],
    ['one with $db and another field', { ref: { $ref: 'users', $id: 1, $db: 'app', note: 'x' } }],
    ['$id before $ref', { ref: { $id: 'bar', $ref: 'foo' } }],
    ['a field before $ref', { ref: { other: 1, $ref: 'foo', $id: 'bar' } }],
    ['DBRefs in an array', { refs: [{ $ref: 'a', $id: 1 }, 5, { $ref: 'b', $id: 2 }] }],
    ['a DBRef inside a DBRef', { ref: { $ref: 'a', $id: { $ref: 'b', $id: 2 }, extra: [{ $ref: 'c', $id: 3 }] } }],
    ['an inserted document that is one', { $ref: 'a', $id: 1, x: { $ref: 'b', $id: 2 } }],
  ])('should give %s back as the plain document it was sent as', (_label, sent) => {
    const doc = decodeDocument(BSON.serialize(sent));
    expect(shape(doc)).toEqual(shape(sent));
    // bson's own decoder makes a DBRef of it: the case this pass exists for.
    expect(JSON.stringify(shape(BSON.deserialize(BSON.serialize(sent))))).toContain('DBRef');
  });

  it('should keep a field named "__proto__" of a DBRef an own field', () => {
    const ref: Record<string, unknown> = { $ref: 'a', $id: 1 };
    Object.defineProperty(ref, '__proto__', { value: { polluted: true }, enumerable: true });
    const doc = decodeDocument(BSON.serialize({ ref }));
    const plain = doc.ref as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(plain, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('should mark an integral double inside a DBRef as a double, as anywhere else', () => {
    const doc = decodeDocument(BSON.serialize({ ref: { $ref: 'a', $id: new Double(5) } }));
    expect((doc.ref as Record<string, unknown>).$id).toEqual(new Double(5));
  });

  it('should leave a message without a $ref field as bson decodes it', () => {
    const sent = { a: { $id: 1 }, b: [{ $db: 'x' }], c: 'not a $ref' };
    expect(decodeDocument(BSON.serialize(sent))).toEqual(sent);
  });
});
