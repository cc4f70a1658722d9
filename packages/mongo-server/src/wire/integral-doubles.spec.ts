import type { Document } from 'bson';

import { BSON, Code, DBRef, Double, Int32, ObjectId } from '../bson/bson-library.cjs';
import { decodeDocument } from './bson-codec.js';

/** The document decoded by the server and encoded again, decoded by bson without promotion (Double/Int32 visible). */
function roundTrip(doc: Document): Document {
  const decoded = decodeDocument(BSON.serialize(doc));
  return BSON.deserialize(BSON.serialize(decoded), { promoteValues: false });
}

describe('decodeDocument and integral doubles', () => {
  describe('when the document is not a command body', () => {
    it.each<[string, Document]>([
      ['a top-level double', { a: new Double(5) }],
      ['zero and negatives', { a: new Double(0), b: new Double(-7), c: new Double(2 ** 31 - 1) }],
      ['doubles in sub-documents and arrays', { a: { b: [new Double(1), [new Double(2)], { c: new Double(3) }] } }],
      ['a non-ASCII field name', { é: { ü: new Double(3) } }],
    ])('keeps %s as it was sent', (_name, doc) => {
      const sent = BSON.serialize(doc);
      expect(Buffer.from(BSON.serialize(decodeDocument(sent))).equals(Buffer.from(sent))).toBe(true);
    });

    it('marks a __proto__ field as an own field, leaving the prototype alone', () => {
      const sent = {};
      Object.defineProperty(sent, '__proto__', { value: new Double(1), enumerable: true });
      const withDouble = decodeDocument(BSON.serialize(sent));
      expect(Object.getPrototypeOf(withDouble)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(withDouble, '__proto__')?.value).toBeInstanceOf(Double);
    });

    it.each<[string, Document, Document]>([
      [
        'int32 and fractional doubles as numbers',
        { i: 5, f: 5.5, big: 2 ** 40 },
        { i: new Int32(5), f: new Double(5.5), big: new Double(2 ** 40) },
      ],
    ])('returns %s', (_name, doc, expected) => {
      expect(roundTrip(doc)).toStrictEqual(expected);
    });

    it('marks a double inside a DBRef, which is decoded as its plain document (db-ref-documents.ts)', () => {
      const id = new ObjectId();
      const decoded = decodeDocument(
        BSON.serialize({ r: new DBRef('c', id, undefined, { n: new Double(2) }), d: new Double(1) }),
      );
      expect(decoded.r).toStrictEqual({ $ref: 'c', $id: id, n: new Double(2) });
      expect(decoded.d).toBeInstanceOf(Double);
    });

    it('leaves a double inside a code-with-scope scope as the decoder gives it', () => {
      const decoded = decodeDocument(BSON.serialize({ c: new Code('x', { s: new Double(4) }), d: new Double(1) }));
      expect(decoded.d).toBeInstanceOf(Double);
      expect((decoded.c as Code).scope).toEqual({ s: 4 });
    });
  });

  describe('when the document is a command body ($db)', () => {
    it.each<[string, Document, string, 'double' | 'number']>([
      ['an argument such as limit as a plain number', { find: 'c', limit: new Double(5), $db: 'x' }, 'limit', 'number'],
      ['a sort direction as a plain number', { find: 'c', sort: { a: new Double(-1) }, $db: 'x' }, 'sort.a', 'number'],
      [
        'an inserted value as a Double',
        { insert: 'c', documents: [{ a: new Double(5) }], $db: 'x' },
        'documents.0.a',
        'double',
      ],
      [
        'an update value as a Double',
        { update: 'c', updates: [{ q: {}, u: { $set: { a: new Double(5) } } }], $db: 'x' },
        'updates.0.u.$set.a',
        'double',
      ],
      [
        'an update statement option as a plain number',
        { delete: 'c', deletes: [{ q: {}, limit: new Double(1) }], $db: 'x' },
        'deletes.0.limit',
        'number',
      ],
      [
        'a $pop direction as a plain number',
        { update: 'c', updates: [{ q: {}, u: { $pop: { a: new Double(1) } } }], $db: 'x' },
        'updates.0.u.$pop.a',
        'number',
      ],
      [
        'a pipeline literal as a Double',
        { aggregate: 'c', pipeline: [{ $addFields: { a: new Double(5) } }], $db: 'x' },
        'pipeline.0.$addFields.a',
        'double',
      ],
      [
        'a $limit as a plain number',
        { aggregate: 'c', pipeline: [{ $limit: new Double(5) }], $db: 'x' },
        'pipeline.0.$limit',
        'number',
      ],
      [
        'a $project flag as a plain number',
        { aggregate: 'c', pipeline: [{ $project: { a: new Double(1) } }], $db: 'x' },
        'pipeline.0.$project.a',
        'number',
      ],
      [
        'a $project expression operand as a Double',
        { aggregate: 'c', pipeline: [{ $project: { a: { $add: ['$b', new Double(1)] } } }], $db: 'x' },
        'pipeline.0.$project.a.$add.1',
        'double',
      ],
    ])('reads %s', (_name, cmd, path, expected) => {
      const decoded = decodeDocument(BSON.serialize(cmd));
      const value: unknown = path.split('.').reduce<unknown>((v, k) => (v as Document)[k], decoded);
      expect(value instanceof Double ? 'double' : typeof value).toBe(expected);
    });
  });
});
