import 'reflect-metadata';
import { Exclude, Expose, instanceToPlain, plainToInstance, Transform, Type } from 'class-transformer';
import { Types } from 'mongoose';
import { isObjectIdLike } from '../core/object-id-like.js';
import { createObjectIdTransformer, objectIdTransformer } from './object-id.transformer.js';
import type { ClassTransformerLike } from './serialize-object-ids.js';

const HEX_A = '64b7f0c2a1b2c3d4e5f60718';
const HEX_B = '0123456789abcdef01234567';
const A = new Types.ObjectId(HEX_A);
const B = new Types.ObjectId(HEX_B);

class Address {
  street!: string;
  @Exclude() internalCode?: string;
  regionId!: Types.ObjectId;
}

class User {
  _id!: Types.ObjectId;
  name!: string;
  @Exclude() password!: string;
  @Expose({ groups: ['admin'] }) email!: string;
  @Transform(({ value }: { value: string }) => value.toUpperCase()) role!: string;
  @Type(() => Address) address!: Address;
  friendIds!: Types.ObjectId[];
  @Expose() get display(): string {
    return `${this.name} <${String(this._id)}>`;
  }
  constructor(init: Partial<User> = {}) {
    Object.assign(this, init);
  }
}

function user(): User {
  return new User({
    _id: A,
    name: 'ann',
    password: 'secret',
    email: 'ann@example.com',
    role: 'editor',
    address: Object.assign(new Address(), { street: 'Main', internalCode: 'x', regionId: B }),
    friendIds: [B, A],
  });
}

const json = (value: unknown, options?: object): string =>
  JSON.stringify(objectIdTransformer.classToPlain(value, options));

describe('objectIdTransformer', () => {
  describe('the bug it fixes', () => {
    it('should show class-transformer copying the fields of an ObjectId (bson 7.3: i0…i3)', () => {
      const broken = JSON.stringify(instanceToPlain({ _id: A }));
      expect(broken).toMatch(/^\{"_id":\{"i0":\d+,"i1":\d+,"i2":\d+,"i3":\d+\}\}$/);
      expect(json({ _id: A })).toBe(`{"_id":"${HEX_A}"}`);
    });

    it('should show class-transformer replacing a bson 4/5 ObjectId with a new random one', () => {
      // bson 4/5 keep the bytes under a symbol: class-transformer calls `new ObjectId()`
      // (a fresh random id) and copies no field over (class-transformer#494).
      const bytes = Symbol('id');
      class LegacyObjectId {
        readonly _bsontype = 'ObjectID';
        [bytes]: string;
        constructor(hex?: string) {
          this[bytes] = hex ?? Math.random().toString(16).slice(2).padEnd(24, '0').slice(0, 24);
        }
        toHexString(): string {
          return this[bytes];
        }
      }
      class Ref {
        @Type(() => LegacyObjectId) ref!: LegacyObjectId;
      }
      const legacy = new LegacyObjectId(HEX_A);
      const rebuilt = plainToInstance(Ref, { ref: legacy });
      expect(rebuilt.ref.toHexString()).not.toBe(HEX_A);
      expect(JSON.stringify(instanceToPlain({ _id: legacy }))).toBe('{"_id":{"_bsontype":"ObjectID"}}');

      expect(json({ _id: legacy })).toBe(`{"_id":"${HEX_A}"}`);
      expect((objectIdTransformer.plainToInstance(Ref, { ref: legacy }) as Ref).ref).toBe(HEX_A);
    });
  });

  describe('classToPlain', () => {
    it('should apply @Exclude, @Expose, @Transform, @Type and getters, with ids as hex', () => {
      expect(json(user())).toBe(
        `{"_id":"${HEX_A}","name":"ann","role":"EDITOR","address":{"street":"Main","regionId":"${HEX_B}"},"friendIds":["${HEX_B}","${HEX_A}"],"display":"ann <${HEX_A}>"}`,
      );
    });

    it('should apply groups', () => {
      expect(json(user(), { groups: ['admin'] })).toBe(
        `{"_id":"${HEX_A}","name":"ann","email":"ann@example.com","role":"EDITOR","address":{"street":"Main","regionId":"${HEX_B}"},"friendIds":["${HEX_B}","${HEX_A}"],"display":"ann <${HEX_A}>"}`,
      );
    });

    it('should apply excludeExtraneousValues', () => {
      expect(json(user(), { excludeExtraneousValues: true })).toBe('{"display":"ann <64b7f0c2a1b2c3d4e5f60718>"}');
    });

    it("should apply strategy 'excludeAll' and excludePrefixes to plain objects as class-transformer does", () => {
      expect(json({ _id: A, name: 'x' }, { strategy: 'excludeAll' })).toBe(
        JSON.stringify(instanceToPlain({ name: 'x' }, { strategy: 'excludeAll' })),
      );
      expect(json({ _id: A, _secret: 1, name: 'x' }, { excludePrefixes: ['_s'] })).toBe(
        `{"_id":"${HEX_A}","name":"x"}`,
      );
    });

    it('should handle class instances inside plain objects and arrays', () => {
      const out = json({ items: [user()], nextCursor: B });
      expect(out).toContain(`"nextCursor":"${HEX_B}"`);
      expect(out).not.toContain('password');
      expect(out).not.toContain('internalCode');
    });

    it('should not call the constructor of a class instance (no side effects, no new ids)', () => {
      let constructed = 0;
      class Counted {
        id = A;
        constructor() {
          constructed++;
        }
      }
      const instance = new Counted();
      expect(json(instance)).toBe(`{"id":"${HEX_A}"}`);
      expect(constructed).toBe(1);
    });

    it('should not walk @Exclude()d properties (an excluded back-reference is no cycle)', () => {
      class Node {
        id = A;
        @Exclude() parent?: Node;
        children: Node[] = [];
      }
      const root = new Node();
      const child = new Node();
      child.parent = root;
      root.children.push(child);
      expect(json(root)).toBe(`{"id":"${HEX_A}","children":[{"id":"${HEX_A}","children":[]}]}`);
    });

    it('should keep the existing @Transform workaround working', () => {
      class Legacy {
        @Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => String(obj[key])) _id = A;
      }
      expect(json(new Legacy())).toBe(`{"_id":"${HEX_A}"}`);
    });

    it('should never hand an ObjectId to class-transformer', () => {
      const seen: unknown[] = [];
      const collect = (value: unknown): void => {
        if (value === null || typeof value !== 'object') return;
        seen.push(value);
        for (const item of Object.values(value)) collect(item);
      };
      const spy: ClassTransformerLike = {
        classToPlain: (object, options) => {
          collect(object);
          return instanceToPlain(object, options);
        },
        plainToInstance: (cls, plain, options) => {
          collect(plain);
          return plainToInstance(cls, plain, options);
        },
      };
      const transformer = createObjectIdTransformer(spy);
      transformer.classToPlain({ users: [user()], cursor: A, byId: new Map([['a', user()]]) });
      transformer.plainToInstance(User, { _id: A, friendIds: [B], address: { regionId: B } });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter(isObjectIdLike)).toEqual([]);
    });
  });

  describe('plainToInstance', () => {
    it('should build instances with hex ids for @SerializeOptions({ type })', () => {
      const instance = objectIdTransformer.plainToInstance(User, {
        _id: A,
        name: 'bob',
        password: 'p',
        role: 'r',
        friendIds: [B],
      }) as User;
      expect(instance).toBeInstanceOf(User);
      expect(instance._id).toBe(HEX_A);
      expect(json(instance)).toBe(
        `{"_id":"${HEX_A}","name":"bob","role":"R","friendIds":["${HEX_B}"],"display":"bob <${HEX_A}>"}`,
      );
    });

    it('should be available as plainToClass too', () => {
      expect(objectIdTransformer.plainToClass).toBe(objectIdTransformer.plainToInstance);
    });
  });
});
