import { HttpException } from '@nestjs/common';
import fc from 'fast-check';
import { Types } from 'mongoose';
import { ObjectIdValidationPipe } from '../pipes/object-id-validation.pipe.js';
import { ParseObjectIdArrayPipe } from '../pipes/parse-object-id-array.pipe.js';
import { ParseObjectIdPipe } from '../pipes/parse-object-id.pipe.js';
import { ValidateObjectIdPipe } from '../pipes/validate-object-id.pipe.js';
import { IsObjectId, isObjectId } from '../validation/is-object-id.decorator.js';
import { ToObjectId } from '../validation/to-object-id.decorator.js';
import { anyInput, extendedJsonInput, FUZZ, HEX24, nearMissHex, validHex } from './object-id-arbitraries.fixture.js';
import { ObjectIdParseError } from './object-id-parse.error.js';
import { isObjectIdHex, parseObjectId } from './parse-object-id.js';

class Dto {
  @IsObjectId()
  @ToObjectId()
  id!: unknown;
}

/** Runs the pipe and classifies the outcome; anything but a 400 HttpException fails the property. */
function outcome(run: () => unknown): { ok: true; value: unknown } | { ok: false; status: number } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof HttpException) return { ok: false, status: error.getStatus() };
    throw error;
  }
}

const accepted = (value: unknown) => typeof value === 'string' && HEX24.test(value);

describe('fuzz: ObjectId parsing (seeded)', () => {
  const pipe = new ParseObjectIdPipe();
  const arrayPipe = new ParseObjectIdArrayPipe();

  it('should accept exactly the 24-hex strings, with the lowercase input as output', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const result = outcome(() => pipe.transform(input));
        if (accepted(input)) {
          expect(result.ok).toBe(true);
          expect(result.ok && (result.value as Types.ObjectId).toHexString()).toBe((input as string).toLowerCase());
        } else {
          expect(result).toEqual({ ok: false, status: 400 });
        }
        expect(isObjectIdHex(input)).toBe(accepted(input));
        expect(isObjectId(input)).toBe(accepted(input));
      }),
      FUZZ,
    );
  });

  it('should refuse every near miss unless the edit left 24 hex characters', () => {
    fc.assert(
      fc.property(nearMissHex, (input) => {
        if (accepted(input)) {
          expect(parseObjectId(input).toHexString()).toBe(input.toLowerCase());
        } else {
          expect(() => parseObjectId(input)).toThrow(ObjectIdParseError);
        }
      }),
      FUZZ,
    );
  });

  it('should round-trip every valid id unchanged, never inventing another', () => {
    fc.assert(
      fc.property(validHex, (hex) => {
        const id = parseObjectId(hex);
        expect(id.toHexString()).toBe(hex.toLowerCase());
        expect(parseObjectId(id)).toBe(id);
        expect(parseObjectId(id.toHexString()).equals(id)).toBe(true);
      }),
      FUZZ,
    );
  });

  it('should accept a list only when every item is a valid id and there are 1..100', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(validHex, anyInput), { maxLength: 6 }), fc.boolean(), (items, asString) => {
        const input = asString && items.every((i) => typeof i === 'string') ? items.join(',') : items;
        const flat = typeof input === 'string' ? input.split(',') : items;
        const expectOk = flat.length > 0 && flat.length <= 100 && flat.every(accepted);
        const result = outcome(() => arrayPipe.transform(input));
        if (expectOk) {
          expect(result.ok && (result.value as Types.ObjectId[]).map(String)).toEqual(
            flat.map((s) => (s as string).toLowerCase()),
          );
        } else {
          expect(result).toEqual({ ok: false, status: 400 });
        }
      }),
      FUZZ,
    );
  });

  it('should let @ToObjectId convert only valid ids and @IsObjectId refuse the rest (through ValidationPipe)', async () => {
    // Through Nest's pipe, as in an app: it strips prototype keys that would
    // make class-transformer itself throw before any decorator runs.
    const validation = new ObjectIdValidationPipe({ transform: true });
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        const result = await validation.transform({ id: input }, { type: 'body', metatype: Dto }).then(
          (dto: Dto) => ({ ok: true as const, dto }),
          (error: unknown) => {
            if (error instanceof HttpException) return { ok: false as const, status: error.getStatus() };
            throw error;
          },
        );
        if (accepted(input)) {
          expect(result.ok && result.dto.id).toBeInstanceOf(Types.ObjectId);
          expect(result.ok && (result.dto.id as Types.ObjectId).toHexString()).toBe((input as string).toLowerCase());
        } else {
          expect(result).toEqual({ ok: false, status: 400 });
        }
      }),
      FUZZ,
    );
  });

  it.each([
    ['default', {}],
    ['allowNil: false', { allowNil: false }],
    ['allowExtendedJson', { allowExtendedJson: true }],
    ['both', { allowNil: false, allowExtendedJson: true }],
  ])('should let both pipes, parseObjectId and isObjectId agree on every input (%s)', (_label, options) => {
    const parsing = new ParseObjectIdPipe(options);
    const validating = new ValidateObjectIdPipe(options);
    fc.assert(
      fc.property(fc.oneof(anyInput, extendedJsonInput, fc.constant('000000000000000000000000')), (input) => {
        const parsed = outcome(() => parsing.transform(input));
        const validated = outcome(() => validating.transform(input));
        expect(validated.ok).toBe(parsed.ok);
        expect(isObjectId(input, options)).toBe(parsed.ok);
        if (parsed.ok && validated.ok) {
          const hex = (parsed.value as Types.ObjectId).toHexString();
          expect(String(validated.value).toLowerCase()).toBe(hex);
          expect(parseObjectId(input, options).toHexString()).toBe(hex);
        } else {
          expect([parsed, validated]).toEqual([
            { ok: false, status: 400 },
            { ok: false, status: 400 },
          ]);
          expect(() => parseObjectId(input, options)).toThrow(ObjectIdParseError);
        }
      }),
      FUZZ,
    );
  });
});
