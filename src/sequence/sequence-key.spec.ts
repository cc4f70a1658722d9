import { Types } from 'mongoose';
import { SequenceConfigError } from './sequence-config.error.js';
import { assertKeyPart, buildSequenceKey, normalizeScope, periodKey } from './sequence-key.js';

const date = { year: '2026', month: '03', day: '05' };

describe('sequence keys', () => {
  describe('buildSequenceKey with periodKey', () => {
    it.each([
      ['orders', undefined, 'never', 'orders'],
      ['orders', undefined, 'year', 'orders:2026'],
      ['orders', undefined, 'month', 'orders:2026-03'],
      ['orders', undefined, 'day', 'orders:2026-03-05'],
      ['invoices', 'tenant-42', 'year', 'invoices:tenant-42:2026'],
      ['invoices', 'tenant-42', 'never', 'invoices:tenant-42'],
    ] as const)('should build %s + scope %s + %s as %s', (name, scope, reset, expected) => {
      expect(buildSequenceKey(name, scope, periodKey(reset, date))).toBe(expected);
    });
  });

  describe('normalizeScope', () => {
    it.each([
      [undefined, undefined],
      ['tenant-42', 'tenant-42'],
      [42, '42'],
      [-7, '-7'],
      [2n ** 70n, '1180591620717411303424'],
      [new Types.ObjectId('64b7f0c2a1b2c3d4e5f60718'), '64b7f0c2a1b2c3d4e5f60718'],
    ])('should turn %p into %p', (scope, expected) => {
      expect(normalizeScope(scope)).toBe(expected);
    });

    it.each([[1.5], [Number.MAX_SAFE_INTEGER + 1], [NaN]])('should reject the number %p', (scope) => {
      expect(() => normalizeScope(scope)).toThrow(SequenceConfigError);
    });

    it.each([[true], [null], [Symbol('s')], [() => 'x']])('should reject the scalar %p', (scope) => {
      expect(() => normalizeScope(scope as never)).toThrow(
        /^Sequence scope must be a string, number, bigint or ObjectId, got (boolean|null|symbol|function)\.$/,
      );
    });

    describe('with several fields', () => {
      const id = new Types.ObjectId('64b7f0c2a1b2c3d4e5f60718');
      it.each([
        [{ storeId: 7, region: 'eu' }, 'region=eu,storeId=7'],
        [{ region: 'eu', storeId: 7 }, 'region=eu,storeId=7'],
        [{ storeId: '7', region: 'eu' }, 'region=eu,storeId=7'],
        [{ b: 2n ** 70n, a: id }, 'a=64b7f0c2a1b2c3d4e5f60718,b=1180591620717411303424'],
        [{ tenant: 'ACME_1' }, 'tenant=ACME_1'],
        [Object.assign(Object.create(null) as object, { z: 1, y: 2 }), 'y=2,z=1'],
      ])('should turn %p into %p whatever the order of the fields', (scope, expected) => {
        expect(normalizeScope(scope as never)).toBe(expected);
      });

      it.each([
        [{ a: { $gt: '' } }, 'Sequence scope field "a" must be a string, number, bigint or ObjectId, got an object'],
        [{ a: { toString: () => 'x' } }, 'got an object'],
        [{ $gt: 1 }, 'Sequence scope field "$gt" is not allowed'],
        [JSON.parse('{"__proto__":{"a":1}}'), 'field "__proto__" is not allowed'],
        [{ prototype: 1 }, 'field "prototype" is not allowed'],
        [{ '1a': 1 }, 'field "1a" is not allowed'],
        [{ ['x'.repeat(41)]: 1 }, 'is not allowed'],
        [{ a: 'x:y' }, 'Sequence scope field "a" "x:y" contains ":" at index 1'],
        [{ a: 'x\u0000' }, 'contains "\\u0000" at index 1'],
        [{ a: Number.MAX_SAFE_INTEGER + 1 }, 'Sequence scope field "a" 9007199254740992 must be a safe integer'],
        [{ a: undefined }, 'Sequence scope field "a" must be a string, number, bigint or ObjectId, got undefined.'],
      ])('should reject %p', (scope, message) => {
        expect(() => normalizeScope(scope as never)).toThrow(SequenceConfigError);
        expect(() => normalizeScope(scope as never)).toThrow(message);
      });

      it('should not run getters or look at inherited fields', () => {
        const inherited = Object.create({ inherited: 'x' }) as object;
        expect(() => normalizeScope(inherited as never)).toThrow('got Object');
        let ran = false;
        const getter = Object.defineProperty({}, 'a', {
          enumerable: true,
          get: () => {
            ran = true;
            return 'x';
          },
        });
        expect(() => normalizeScope(getter as never)).toThrow('not an accessor');
        expect(ran).toBe(false);
      });
    });
  });

  describe('assertKeyPart', () => {
    it.each([
      ['', 'must not be empty'],
      ['x'.repeat(121), 'is 121 characters long; the limit is 120'],
      ['a$b', 'contains "$" at index 1'],
      ['a.b', 'contains "." at index 1'],
      ['a:b', 'contains ":" at index 1'],
      ['a\u0000b', 'contains "\\u0000" at index 1'],
      ['a\nb', 'contains "\\u000a" at index 1'],
      ['\u007f', 'contains "\\u007f" at index 0'],
    ])('should reject %j with %j', (value, message) => {
      expect(() => assertKeyPart('name', value)).toThrow(SequenceConfigError);
      expect(() => assertKeyPart('name', value)).toThrow(message);
    });

    it.each([['orders'], ['x'.repeat(120)], ['tenant-42_ü'], ['ORD/2026']])('should accept %j', (value) => {
      expect(() => assertKeyPart('name', value)).not.toThrow();
    });

    it.each([[null], [undefined], [42]])('should reject the non-string %p', (value) => {
      expect(() => assertKeyPart('name', value)).toThrow(/^Sequence name must be a string/);
    });
  });
});
