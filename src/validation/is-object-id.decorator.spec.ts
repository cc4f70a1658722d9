import { plainToInstance } from 'class-transformer';
import { IsArray, IsMongoId, IsOptional, validateSync } from 'class-validator';
import { Types } from 'mongoose';
import { INVALID_EXTENDED_JSON, VALID_EXTENDED_JSON } from '../core/extended-json-object-ids.fixture.js';
import { INVALID_OBJECT_IDS, VALID_OBJECT_ID_STRINGS } from '../core/invalid-object-ids.fixture.js';
import { IS_OBJECT_ID, IsObjectId, isObjectId } from './is-object-id.decorator.js';
import { ToObjectId } from './to-object-id.decorator.js';

class Single {
  @IsObjectId()
  id: unknown;
}

class Each {
  @IsObjectId(undefined, { each: true })
  ids: unknown;
}

class StringsOnly {
  @IsObjectId({ allowInstance: false })
  id: unknown;
}

class ClassValidatorMongoId {
  @IsMongoId()
  id: unknown;
}

function errorsOf<T extends object>(type: new () => T, plain: Record<string, unknown>) {
  return validateSync(Object.assign(new type(), plain)).map((error) => error.constraints);
}

describe('isObjectId', () => {
  it.each(VALID_OBJECT_ID_STRINGS)('should accept %j', (input) => {
    expect(isObjectId(input)).toBe(true);
  });

  it('should accept ObjectId instances unless allowInstance is false', () => {
    expect(isObjectId(new Types.ObjectId())).toBe(true);
    expect(isObjectId(new Types.ObjectId(), { allowInstance: false })).toBe(false);
  });

  it.each(INVALID_OBJECT_IDS)('should refuse %s', (_label, value) => {
    expect(isObjectId(value)).toBe(false);
  });
});

describe('@IsObjectId()', () => {
  describe('when validation passes', () => {
    it.each([...VALID_OBJECT_ID_STRINGS.map(([input]) => input), new Types.ObjectId()])('should accept %p', (id) => {
      expect(errorsOf(Single, { id })).toEqual([]);
    });

    it.each([
      ['an array', [new Types.ObjectId().toHexString(), new Types.ObjectId()]],
      ['a Set', new Set([new Types.ObjectId().toHexString()])],
      ['a Map', new Map([['a', new Types.ObjectId().toHexString()]])],
      ['an empty array', []],
    ])('should accept %s with each', (_label, ids) => {
      expect(errorsOf(Each, { ids })).toEqual([]);
    });
  });

  describe('when validation fails', () => {
    it.each(INVALID_OBJECT_IDS)('should refuse %s with the exact message', (_label, id) => {
      expect(errorsOf(Single, { id })).toEqual([{ [IS_OBJECT_ID]: 'id must be a 24-character hex ObjectId' }]);
    });

    it.each([undefined, null, ''])('should refuse %j (combine with @IsOptional() to allow it)', (id) => {
      expect(errorsOf(Single, { id })).toEqual([{ isObjectId: 'id must be a 24-character hex ObjectId' }]);
    });

    it('should prefix the message for each', () => {
      expect(errorsOf(Each, { ids: [new Types.ObjectId().toHexString(), 'abc'] })).toEqual([
        { isObjectId: 'each value in ids must be a 24-character hex ObjectId' },
      ]);
    });

    it('should refuse instances with allowInstance: false', () => {
      expect(errorsOf(StringsOnly, { id: new Types.ObjectId() })).toEqual([
        { isObjectId: 'id must be a 24-character hex ObjectId' },
      ]);
    });

    it('should be stricter than class-validator @IsMongoId() on 0x-prefixed values', () => {
      const sneaky = '0x507f1f77bcf86cd7994390';
      expect(errorsOf(ClassValidatorMongoId, { id: sneaky })).toEqual([]);
      expect(errorsOf(Single, { id: sneaky })).toHaveLength(1);
    });

    it('should accept real ObjectIds where class-validator @IsMongoId() refuses them', () => {
      const id = new Types.ObjectId();
      expect(errorsOf(ClassValidatorMongoId, { id })).toHaveLength(1);
      expect(errorsOf(Single, { id })).toEqual([]);
    });
  });

  it('should work after plainToInstance', () => {
    const dto = plainToInstance(Single, { id: 'nope' });
    expect(validateSync(dto)).toHaveLength(1);
  });
});

describe("the README's array DTO", () => {
  // `{ each: true }` validates a lone value as if it were the only element, so
  // without @IsArray() a single id passes and the handler gets one ObjectId.
  class ReadmeDto {
    @IsOptional()
    @IsArray()
    @IsObjectId(undefined, { each: true })
    @ToObjectId()
    productIds?: Types.ObjectId[];
  }

  const HEX = '507f1f77bcf86cd799439011';
  const build = (plain: object) => plainToInstance(ReadmeDto, plain);

  it('should refuse a single id where a list is expected', () => {
    expect(validateSync(build({ productIds: HEX })).map((e) => e.constraints)).toEqual([
      { isArray: 'productIds must be an array' },
    ]);
  });

  it('should convert a list of ids into ObjectIds', () => {
    const dto = build({ productIds: [HEX] });
    expect(validateSync(dto)).toEqual([]);
    expect(dto.productIds).toEqual([new Types.ObjectId(HEX)]);
    expect(dto.productIds![0]).toBeInstanceOf(Types.ObjectId);
  });
});

describe('@IsObjectId() with allowNil and allowExtendedJson', () => {
  const NIL = '000000000000000000000000';
  const ID = '507f1f77bcf86cd799439011';

  class NotNil {
    @IsObjectId({ allowNil: false })
    id: unknown;
  }

  class NotNilEach {
    @IsObjectId({ allowNil: false }, { each: true })
    ids: unknown;
  }

  class Extended {
    @IsObjectId({ allowExtendedJson: true })
    id: unknown;
  }

  class ExtendedNotNil {
    @IsObjectId({ allowExtendedJson: true, allowNil: false })
    id: unknown;
  }

  it('should accept the nil id by default, as before', () => {
    expect(errorsOf(Single, { id: NIL })).toEqual([]);
    expect(isObjectId(new Types.ObjectId(NIL))).toBe(true);
  });

  it.each([
    ['the hex', NIL],
    ['an instance', new Types.ObjectId(NIL)],
  ])('should refuse %s with allowNil: false, saying so', (_label, id) => {
    expect(isObjectId(id, { allowNil: false })).toBe(false);
    expect(errorsOf(NotNil, { id })).toEqual([
      {
        [IS_OBJECT_ID]: 'id must not be the nil ObjectId 000000000000000000000000, expected the id of a real document',
      },
    ]);
  });

  it('should keep the usual message for other bad values with allowNil: false', () => {
    expect(errorsOf(NotNil, { id: ID })).toEqual([]);
    expect(errorsOf(NotNil, { id: 'abc' })).toEqual([{ [IS_OBJECT_ID]: 'id must be a 24-character hex ObjectId' }]);
  });

  it('should name the nil item with each', () => {
    expect(errorsOf(NotNilEach, { ids: [ID, NIL] })).toEqual([
      {
        [IS_OBJECT_ID]:
          'each value in ids must not be the nil ObjectId 000000000000000000000000, expected the id of a real document',
      },
    ]);
    expect(errorsOf(NotNilEach, { ids: new Set([ID]) })).toEqual([]);
  });

  it.each(VALID_EXTENDED_JSON)('should accept %s with allowExtendedJson only', (_label, id) => {
    expect(errorsOf(Extended, { id })).toEqual([]);
    expect(errorsOf(Single, { id })).toEqual([{ [IS_OBJECT_ID]: 'id must be a 24-character hex ObjectId' }]);
  });

  it.each(INVALID_EXTENDED_JSON)('should refuse %s with allowExtendedJson', (_label, id) => {
    expect(isObjectId(id, { allowExtendedJson: true })).toBe(false);
    expect(errorsOf(Extended, { id })).toEqual([
      { [IS_OBJECT_ID]: 'id must be a 24-character hex ObjectId or {"$oid": "<24 hex characters>"}' },
    ]);
  });

  it('should refuse {"$oid": nil} with both options', () => {
    expect(errorsOf(ExtendedNotNil, { id: { $oid: NIL } })).toEqual([
      {
        [IS_OBJECT_ID]: 'id must not be the nil ObjectId 000000000000000000000000, expected the id of a real document',
      },
    ]);
    expect(errorsOf(NotNil, { id: { $oid: NIL } })).toEqual([
      { [IS_OBJECT_ID]: 'id must be a 24-character hex ObjectId' },
    ]);
  });
});
