import { Binary, Decimal128, Double, Int32, Long, ObjectId, Timestamp, UUID, DBRef } from 'bson';
import { Exclude, Expose } from 'class-transformer';
import { Types } from 'mongoose';
import { ObjectIdSerializationError } from './object-id-serialization.error.js';
import { serializeObjectIds } from './serialize-object-ids.js';

const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const HEX_B = '0123456789abcdef01234567';
const A = new Types.ObjectId(HEX_A);
const B = new ObjectId(HEX_B);

const json = (value: unknown, options?: Parameters<typeof serializeObjectIds>[1]): string =>
  JSON.stringify(serializeObjectIds(value, options));

describe('serializeObjectIds', () => {
  it("should convert ids of both of bson's builds (mongoose requires bson.cjs, ESM imports bson.mjs)", () => {
    // One installed bson 7.3.4, two classes: the dual-package case that `instanceof` gets wrong.
    expect(A).not.toBeInstanceOf(ObjectId);
    expect(json({ a: A, b: B })).toBe(`{"a":"${HEX_A}","b":"${HEX_B}"}`);
  });

  describe('plain data', () => {
    it.each<[string, unknown, string]>([
      ['an ObjectId', A, `"${HEX_A}"`],
      ['a flat object', { _id: A, name: 'x' }, `{"_id":"${HEX_A}","name":"x"}`],
      ['nested objects', { a: { b: { c: B } } }, `{"a":{"b":{"c":"${HEX_B}"}}}`],
      ['an array of ids', { ids: [A, B] }, `{"ids":["${HEX_A}","${HEX_B}"]}`],
      ['a top-level array', [A, { id: B }], `["${HEX_A}",{"id":"${HEX_B}"}]`],
      [
        'arrays of subdocuments',
        {
          lines: [
            { _id: A, q: 1 },
            { _id: B, q: 2 },
          ],
        },
        `{"lines":[{"_id":"${HEX_A}","q":1},{"_id":"${HEX_B}","q":2}]}`,
      ],
      ['nested arrays', { m: [[A], [B, [A]]] }, `{"m":[["${HEX_A}"],["${HEX_B}",["${HEX_A}"]]]}`],
      [
        'a Map',
        new Map<unknown, unknown>([
          ['owner', A],
          [B, 1],
        ]),
        `{"owner":"${HEX_A}","${HEX_B}":1}`,
      ],
      ['a Set', { s: new Set([A, B]) }, `{"s":["${HEX_A}","${HEX_B}"]}`],
      ['null and undefined', { a: null, b: undefined, c: [null, undefined] }, '{"a":null,"c":[null,null]}'],
      ['a Date', { at: new Date(0) }, '{"at":"1970-01-01T00:00:00.000Z"}'],
      ['strings and numbers', { s: 'x', n: 1.5, t: true }, '{"s":"x","n":1.5,"t":true}'],
      ['a null-prototype object', Object.assign(Object.create(null) as object, { id: A }), `{"id":"${HEX_A}"}`],
      [
        'a paginated envelope',
        { items: [{ _id: A }, { _id: B }], nextCursor: B, total: 2 },
        `{"items":[{"_id":"${HEX_A}"},{"_id":"${HEX_B}"}],"nextCursor":"${HEX_B}","total":2}`,
      ],
      ['an envelope at the last page', { items: [], nextCursor: null }, '{"items":[],"nextCursor":null}'],
    ])('should serialize %s', (_name, input, expected) => {
      expect(json(input)).toBe(expected);
    });

    it.each<[string, unknown]>([
      ['a string', 'abc'],
      ['a number', 42],
      ['null', null],
      ['undefined', undefined],
      ['a boolean', false],
    ])('should pass %s through', (_name, input) => {
      expect(serializeObjectIds(input)).toBe(input);
    });

    it('should not modify its input', () => {
      const input = { _id: A, list: [B], nested: { id: A } };
      serializeObjectIds(input);
      expect(input._id).toBe(A);
      expect(input.list[0]).toBe(B);
      expect(input.nested.id).toBe(A);
    });

    it('should keep shared (non-circular) references', () => {
      const shared = { id: A };
      expect(json({ x: shared, y: shared, z: [shared, shared] })).toBe(
        `{"x":{"id":"${HEX_A}"},"y":{"id":"${HEX_A}"},"z":[{"id":"${HEX_A}"},{"id":"${HEX_A}"}]}`,
      );
    });
  });

  describe('ObjectIds', () => {
    it('should return the same id, never a new one (class-transformer#494)', () => {
      for (let i = 0; i < 200; i++) {
        const id = new Types.ObjectId();
        const out = serializeObjectIds({ id, list: [id], map: new Map([['k', id]]) }) as {
          id: string;
          list: string[];
          map: Record<string, string>;
        };
        expect(out.id).toBe(id.toHexString());
        expect(out.list[0]).toBe(id.toHexString());
        expect(out.map.k).toBe(id.toHexString());
        expect(new Types.ObjectId(out.id).equals(id)).toBe(true);
      }
    });

    it('should produce 24 lowercase hex characters', () => {
      expect(serializeObjectIds(new ObjectId('64B7F0C2A1B2C3D4E5F60718'))).toBe(HEX_A);
    });

    it.each<[string, object]>([
      ['bson 4/5 shape (_bsontype "ObjectID")', { _bsontype: 'ObjectID', toHexString: () => HEX_A }],
      [
        'older shape with an id Buffer',
        { _bsontype: 'ObjectId', id: Buffer.from(HEX_A, 'hex'), toHexString: () => HEX_A },
      ],
      ['uppercase output of another copy', { _bsontype: 'ObjectId', toHexString: () => HEX_A.toUpperCase() }],
      [
        'a class from another copy',
        new (class ObjectId {
          readonly _bsontype = 'ObjectId';
          toHexString(): string {
            return HEX_B;
          }
        })(),
      ],
    ])('should convert an ObjectId from another bson copy: %s', (_name, foreign) => {
      const expected = (foreign as { toHexString(): string }).toHexString().toLowerCase();
      expect(json({ id: foreign, list: [foreign] })).toBe(`{"id":"${expected}","list":["${expected}"]}`);
    });

    it('should leave an object that only claims to be an ObjectId alone', () => {
      expect(json({ v: { _bsontype: 'ObjectId', toHexString: () => 'nope' } })).toBe('{"v":{"_bsontype":"ObjectId"}}');
      expect(json({ v: { _bsontype: 'ObjectId' } })).toBe('{"v":{"_bsontype":"ObjectId"}}');
    });

    it('should leave plain objects with other BSON tags alone', () => {
      expect(json({ v: { _bsontype: 'Decimal128', bytes: 1 } })).toBe('{"v":{"_bsontype":"Decimal128","bytes":1}}');
    });

    it('should not use an instance without id bytes', () => {
      const empty = Object.create(ObjectId.prototype) as object;
      expect(() => serializeObjectIds({ v: empty })).not.toThrow();
      expect(json({ v: empty })).not.toContain('undefined');
    });
  });

  describe('other BSON values', () => {
    it.each<[string, unknown, string]>([
      ['Decimal128 → string', Decimal128.fromString('12.50'), '"12.50"'],
      ['Long (safe) → number', Long.fromNumber(42), '42'],
      ['Long (unsafe) → string', Long.fromString('9223372036854775807'), '"9223372036854775807"'],
      ['Long at 2^53 → string', Long.fromString('9007199254740992'), '"9007199254740992"'],
      ['negative unsafe Long → string', Long.fromString('-9007199254740993'), '"-9007199254740993"'],
      ['bigint (safe) → number', 7n, '7'],
      ['bigint (unsafe) → string', 2n ** 64n, '"18446744073709551616"'],
      ['Double → number', new Double(1.5), '1.5'],
      ['Int32 → number', new Int32(3), '3'],
      ['Buffer → base64', Buffer.from('hello'), '"aGVsbG8="'],
      ['Binary → base64', new Binary(Buffer.from('hello')), '"aGVsbG8="'],
      [
        'UUID → dashed string',
        new UUID('0f8fad5b-d9cb-469f-a165-70867728950e'),
        '"0f8fad5b-d9cb-469f-a165-70867728950e"',
      ],
      [
        'Binary subtype 4 → dashed string',
        new Binary(Buffer.from('0f8fad5bd9cb469fa16570867728950e', 'hex'), 4),
        '"0f8fad5b-d9cb-469f-a165-70867728950e"',
      ],
      ['Timestamp → its toJSON()', new Timestamp({ t: 1, i: 2 }), '{"$timestamp":"4294967298"}'],
      ['DBRef → its toJSON() with a hex $id', new DBRef('users', A), `{"$ref":"users","$id":"${HEX_A}"}`],
    ])('should serialize %s', (_name, input, expected) => {
      expect(json(input)).toBe(expected);
      expect(json({ v: input })).toBe(`{"v":${expected}}`);
    });
  });

  describe('cycles', () => {
    it('should name the path of a circular structure', () => {
      const root: Record<string, any> = { a: { b: {} } };
      root.a.b.back = root.a;
      expect(() => serializeObjectIds(root)).toThrow(ObjectIdSerializationError);
      expect(() => serializeObjectIds(root)).toThrow(
        'Converting circular structure at $.a.b.back: it refers back to $.a.',
      );
    });

    it('should name array indexes and odd keys in the path', () => {
      const root: Record<string, any> = { items: [{}, { 'a-b': {} }] };
      root.items[1]['a-b'].self = root.items[1];
      let error: unknown;
      try {
        serializeObjectIds(root);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ObjectIdSerializationError);
      expect((error as ObjectIdSerializationError).path).toBe('$.items[1]["a-b"].self');
    });

    it('should detect a cycle deeper than the fast path', () => {
      const root: Record<string, any> = {};
      let node = root;
      for (let i = 0; i < 100; i++) node = node.next = {};
      node.next = root;
      expect(() => serializeObjectIds(root)).toThrow(
        /Converting circular structure at \$(\.next){101}: it refers back to \$\./,
      );
    });

    it('should omit circular references with enableCircularCheck, as class-transformer does', () => {
      const root: Record<string, any> = { id: A, list: [] };
      root.self = root;
      root.list.push(root, B);
      expect(json(root, { enableCircularCheck: true })).toBe(`{"id":"${HEX_A}","list":["${HEX_B}"]}`);
    });
  });

  describe('size', () => {
    it('should write an unawaited Promise as {} and leave it alone, as JSON.stringify does', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const pending = Promise.resolve(42);
        const out = serializeObjectIds({ id: 1, total: pending, nested: [{ later: new Promise(() => undefined) }] });
        expect(JSON.stringify(out)).toBe('{"id":1,"total":{},"nested":[{"later":{}}]}');
        await expect(pending).resolves.toBe(42);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(rejections).toEqual([]);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    });

    it('should walk 5,000 levels deep without overflowing the stack', () => {
      const root: Record<string, any> = {};
      let node = root;
      for (let i = 0; i < 5000; i++) node = node.child = {};
      node.id = A;
      let out = serializeObjectIds(root) as Record<string, any>;
      let depth = 0;
      while (out.child !== undefined) {
        out = out.child;
        depth++;
      }
      expect(depth).toBe(5000);
      expect(out).toEqual({ id: HEX_A });
    });

    it('should walk 5,000 nested arrays', () => {
      const root: unknown[] = [];
      let node = root;
      for (let i = 0; i < 5000; i++) {
        const next: unknown[] = [];
        node.push(next);
        node = next;
      }
      node.push(B);
      let out = serializeObjectIds(root) as unknown[];
      for (let i = 0; i < 5000; i++) out = out[0] as unknown[];
      expect(out).toEqual([HEX_B]);
    });

    describe('class instances nested deep (class-transformer copies them one call per level)', () => {
      class Level {
        _id: unknown = A;
        @Exclude() secret = 'hidden';
        child?: Level;
      }

      /** A level that class-transformer changes more: a group-only field, a getter that refers back to it. */
      class TaggedLevel extends Level {
        @Expose({ groups: ['admin'] }) note = 'admins only';
        @Expose() get self(): this {
          return this;
        }
      }

      /** `levels` instances, each the `child` of the one before; the last one's id is B. */
      function chain(levels: number, make: () => Level = () => new Level()): Level {
        const root = make();
        let node = root;
        for (let i = 1; i < levels; i++) node = node.child = make();
        node._id = B;
        return root;
      }

      /** Depth of `out`, and how many levels differ from `{ _id: HEX_A, ...extra, child }` (a loop: `toEqual` would recurse). */
      function inspect(out: unknown, extra: Record<string, unknown> = {}) {
        const keys = ['_id', ...Object.keys(extra), 'child'].join();
        let node = out as Record<string, unknown>;
        let depth = 1;
        let wrong = 0;
        for (; node.child !== undefined; depth++) {
          if (
            Object.keys(node).join() !== keys ||
            node._id !== HEX_A ||
            Object.keys(extra).some((key) => node[key] !== extra[key]) ||
            Object.getPrototypeOf(node) !== Object.prototype
          ) {
            wrong++;
          }
          node = node.child as Record<string, unknown>;
        }
        if (Object.getPrototypeOf(node) !== Object.prototype) wrong++;
        return { depth, wrong, leaf: node };
      }

      it.each([5_000, 20_000])('should serialize %i levels, @Exclude applied and ids in hex at every one', (levels) => {
        const { depth, wrong, leaf } = inspect(serializeObjectIds(chain(levels)));
        expect([depth, wrong]).toEqual([levels, 0]);
        expect(leaf).toEqual({ _id: HEX_B });
      });

      it('should apply groups and enableCircularCheck at every level', () => {
        const out = serializeObjectIds(
          chain(5_000, () => new TaggedLevel()),
          {
            groups: ['admin'],
            enableCircularCheck: true,
          },
        );
        const { depth, wrong, leaf } = inspect(out, { note: 'admins only' });
        expect([depth, wrong]).toEqual([5_000, 0]);
        expect(leaf).toEqual({ _id: HEX_B, note: 'admins only' });
      });

      it('should give no level a foreign prototype when each has an own "__proto__" key', () => {
        const hostile = () =>
          Object.defineProperty(new Level(), '__proto__', {
            value: { isAdmin: true },
            enumerable: true,
            configurable: true,
            writable: true,
          });
        const out = serializeObjectIds(chain(5_000, hostile));
        // class-transformer leaves "__proto__" keys out of the objects it copies, at any depth.
        const { depth, wrong, leaf } = inspect(out);
        expect([depth, wrong]).toEqual([5_000, 0]);
        expect(leaf).toEqual({ _id: HEX_B });
        expect(leaf.isAdmin).toBeUndefined();
      });
    });

    it('should serialize an object with 100,000 keys', () => {
      const wide: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (let i = 0; i < 100_000; i++) {
        wide[`k${i}`] = i % 2 === 0 ? A : i;
        expected[`k${i}`] = i % 2 === 0 ? HEX_A : i;
      }
      expect(json(wide)).toBe(JSON.stringify(expected));
    });

    it('should serialize an array of 100,000 ids', () => {
      const ids = Array.from({ length: 100_000 }, () => B);
      expect(json(ids)).toBe(JSON.stringify(ids.map(() => HEX_B)));
    });
  });

  describe('untrusted keys', () => {
    // JSON.parse makes "__proto__" an own key; assigned to a new object it would become its prototype.
    const hostile = () => JSON.parse('{"__proto__":{"isAdmin":true},"name":"x"}') as Record<string, unknown>;

    function expectOwnOnly(out: Record<string, unknown>, keys: string[]) {
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(out.isAdmin).toBeUndefined();
      expect(Object.keys(out)).toEqual(keys);
      expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ isAdmin: true });
    }

    it.each([
      [
        'a plain object with exposeId',
        () => serializeObjectIds({ ...hostile(), _id: A }, { exposeId: true }),
        ['id', '__proto__', 'name'],
      ],
      ['a plain object', () => serializeObjectIds({ ...hostile(), _id: A }), ['__proto__', 'name', '_id']],
      [
        'a Map with exposeId (Maps are not renamed)',
        () =>
          serializeObjectIds(
            new Map<string, unknown>([
              ['__proto__', { isAdmin: true }],
              ['_id', A],
            ]),
            { exposeId: true },
          ),
        ['__proto__', '_id'],
      ],
      [
        'a Map',
        () =>
          serializeObjectIds(
            new Map<string, unknown>([
              ['__proto__', { isAdmin: true }],
              ['_id', A],
            ]),
          ),
        ['__proto__', '_id'],
      ],
    ])('should keep "__proto__" of %s an own key, never the output\'s prototype', (_name, serialize, keys) => {
      expectOwnOnly(serialize() as Record<string, unknown>, keys);
    });

    it('should keep the prototype of a class instance with an own "__proto__" key', () => {
      class Entity {
        _id = A;
        name = 'x';
      }
      const entity = new Entity();
      Object.defineProperty(entity, '__proto__', {
        value: { isAdmin: true },
        enumerable: true,
        configurable: true,
        writable: true,
      });
      const out = serializeObjectIds(entity, { exposeId: true }) as Record<string, unknown>;
      expect(out.isAdmin).toBeUndefined();
      expect(out.id).toBe(HEX_A);
    });
  });

  describe('exposeId option', () => {
    it.each<[string, unknown, Parameters<typeof serializeObjectIds>[1], string]>([
      ['write _id as id and drop _id', { _id: A, name: 'x' }, { exposeId: true }, `{"id":"${HEX_A}","name":"x"}`],
      [
        'keep _id',
        { name: 'x', _id: A },
        { exposeId: { keepUnderscoreId: true } },
        `{"id":"${HEX_A}","name":"x","_id":"${HEX_A}"}`,
      ],
      ['use the name given in as', { _id: A }, { exposeId: { as: 'uid' } }, `{"uid":"${HEX_A}"}`],
      [
        'nested and in arrays',
        { _id: A, lines: [{ _id: B }] },
        { exposeId: true },
        `{"id":"${HEX_A}","lines":[{"id":"${HEX_B}"}]}`,
      ],
      ['replace an existing id', { id: 'old', _id: A }, { exposeId: true }, `{"id":"${HEX_A}"}`],
      ['leave objects without _id alone', { name: 'x' }, { exposeId: true }, '{"name":"x"}'],
    ])('should %s', (_name, input, options, expected) => {
      expect(json(input, options)).toBe(expected);
    });
  });
});
