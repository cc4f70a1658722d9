import { BSON, ObjectId } from '../bson/bson-library.cjs';
import { bsonSize, checkStorable, MAX_STORAGE_DEPTH } from './document-limits.js';

function nested(depth: number): Record<string, unknown> {
  let doc: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) doc = { a: doc };
  return doc;
}

describe('bsonSize', () => {
  it.each([
    ['an empty document', {}],
    ['a product', { _id: new ObjectId(), slug: 'mug', name: 'Mug ☕', price: 12.5, tags: ['a', 'b'] }],
    ['a nested document', { a: { b: { c: [1, 2, { d: 'x'.repeat(300) }] } } }],
  ])('should measure %s never checked as bson does', (_, doc) => {
    expect(bsonSize(doc)).toBe(BSON.calculateObjectSize(doc));
  });

  it('should remember the size checkStorable measured (a stored document is never changed in place)', () => {
    const doc: Record<string, unknown> = { _id: 1, name: 'mug' };
    const size = BSON.calculateObjectSize(doc);
    expect(checkStorable(doc, 'insert')).toBe(doc);
    // Changed after the check only to show where the size comes from.
    doc.name = 'a much longer name than before';
    expect(bsonSize(doc)).toBe(size);
    expect(bsonSize({ ...doc })).toBe(BSON.calculateObjectSize(doc));
  });

  it('should not remember a document checkStorable refused', () => {
    const doc = nested(MAX_STORAGE_DEPTH + 1);
    expect(() => checkStorable(doc, 'insert')).toThrow(/levels of nesting/);
    const size = BSON.calculateObjectSize(doc);
    expect(bsonSize(doc)).toBe(size);
    (doc as { extra?: string }).extra = 'x';
    expect(bsonSize(doc)).toBe(size + BSON.calculateObjectSize({ extra: 'x' }) - 5);
  });
});
