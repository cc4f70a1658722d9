import { createRequire } from 'node:module';

import { BSON as DriverBSON, ObjectId as DriverObjectId } from 'mongodb';

import * as library from './bson-library.cjs';

const requireBson = createRequire(import.meta.url)('bson') as Record<string, unknown>;

describe('bson-library', () => {
  // The namespace of a CommonJS module also names its whole exports (`default`, and in Jest `module.exports`).
  const named = Object.keys(library).filter((name) => !['default', 'module.exports', '__esModule'].includes(name));

  it('should name every value the server takes from bson', () => {
    expect(named.length).toBeGreaterThanOrEqual(15);
  });

  it.each(named)("should give bson's own %s, as require('bson') does", (name) => {
    const value = (library as Record<string, unknown>)[name];
    expect(value).toBeDefined();
    expect(value).toBe(requireBson[name]);
  });

  it('should give the classes of the driver that npm installed beside it, not a second copy', () => {
    expect(library.ObjectId).toBe(DriverObjectId);
    expect(library.BSON.serialize).toBe(DriverBSON.serialize);
    const id = new DriverObjectId();
    expect(id).toBeInstanceOf(library.ObjectId);
  });
});
