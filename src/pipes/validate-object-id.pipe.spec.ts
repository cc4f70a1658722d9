import { HttpException, HttpStatus, UnprocessableEntityException } from '@nestjs/common';
import { Types } from 'mongoose';
import { INVALID_EXTENDED_JSON, VALID_EXTENDED_JSON } from '../core/extended-json-object-ids.fixture.js';
import { INVALID_OBJECT_IDS, VALID_OBJECT_ID_STRINGS } from '../core/invalid-object-ids.fixture.js';
import { ParseObjectIdPipe } from './parse-object-id.pipe.js';
import { ValidateObjectIdPipe } from './validate-object-id.pipe.js';

const NIL = '000000000000000000000000';
const ID = '507f1f77bcf86cd799439011';

function rejection(run: () => unknown): HttpException {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpException) return error;
    throw error;
  }
  throw new Error('expected the pipe to throw');
}

describe('ValidateObjectIdPipe', () => {
  describe('transform', () => {
    describe('when validation passes', () => {
      const pipe = new ValidateObjectIdPipe();

      it.each(VALID_OBJECT_ID_STRINGS)('should return %j as the very string it got', async (input) => {
        expect(pipe.transform(input)).toBe(input);
      });

      it('should return the hex of an ObjectId instance', async () => {
        const id = new Types.ObjectId();
        expect(pipe.transform(id)).toBe(id.toHexString());
      });

      it.each(VALID_EXTENDED_JSON)(
        'should return the lowercase hex of %s with allowExtendedJson',
        async (_l, value, hex) => {
          expect(new ValidateObjectIdPipe({ allowExtendedJson: true }).transform(value)).toBe(hex);
        },
      );

      it.each([undefined, null, ''])('should return undefined for %j when optional', async (value) => {
        expect(new ValidateObjectIdPipe({ optional: true }).transform(value)).toBeUndefined();
      });
    });

    describe('when validation fails', () => {
      const pipe = new ValidateObjectIdPipe();

      it.each(INVALID_OBJECT_IDS)(
        'should answer 400 for %s with the message of ParseObjectIdPipe',
        async (_l, value, detail) => {
          const error = rejection(() => pipe.transform(value));
          expect(error.getResponse()).toEqual({
            statusCode: 400,
            message: `Validation failed (ObjectId is expected): ${detail}`,
            error: 'Bad Request',
          });
          expect(error.getResponse()).toEqual(rejection(() => new ParseObjectIdPipe().transform(value)).getResponse());
        },
      );

      it.each(INVALID_EXTENDED_JSON)('should answer 400 for %s with allowExtendedJson', async (_l, value, detail) => {
        const error = rejection(() => new ValidateObjectIdPipe({ allowExtendedJson: true }).transform(value));
        expect(error.message).toBe(`Validation failed (ObjectId is expected): ${detail}`);
      });

      it.each([undefined, null, ''])('should refuse %j when not optional', async (value) => {
        expect(rejection(() => pipe.transform(value)).message).toBe(
          'Validation failed (ObjectId is expected): no value was given, expected 24 hex characters',
        );
      });

      it.each([
        ['the hex', NIL, {}],
        ['an instance', new Types.ObjectId(NIL), {}],
        ['extended JSON', { $oid: NIL }, { allowExtendedJson: true }],
      ])('should refuse the nil id as %s with allowNil: false', async (_l, value, extra) => {
        expect(pipe.transform(NIL)).toBe(NIL);
        const error = rejection(() => new ValidateObjectIdPipe({ allowNil: false, ...extra }).transform(value));
        expect(error.message).toBe(
          'Validation failed (ObjectId is expected): received the nil ObjectId 000000000000000000000000 (all zeros), which names no document; expected the id of a real one',
        );
      });

      it('should refuse instances when allowInstance is false', async () => {
        expect(
          rejection(() =>
            new ValidateObjectIdPipe({ allowInstance: false }).transform(new Types.ObjectId()),
          ).getStatus(),
        ).toBe(400);
      });

      it('should use errorHttpStatusCode and exceptionFactory', async () => {
        expect(
          rejection(() =>
            new ValidateObjectIdPipe({ errorHttpStatusCode: HttpStatus.NOT_FOUND }).transform('x'),
          ).getStatus(),
        ).toBe(404);
        const pipeWithFactory = new ValidateObjectIdPipe({
          exceptionFactory: (message, error) => new UnprocessableEntityException({ message, reason: error.reason }),
        });
        expect(rejection(() => pipeWithFactory.transform('abc')).getResponse()).toEqual({
          message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
          reason: 'length',
        });
      });
    });
  });

  describe('module defaults', () => {
    it('should take errorHttpStatusCode and allowNil from the module options, overridable per pipe', async () => {
      const withDefaults = new ValidateObjectIdPipe(undefined, {
        errorHttpStatusCode: HttpStatus.CONFLICT,
        allowNil: false,
      });
      expect(rejection(() => withDefaults.transform(NIL)).getStatus()).toBe(409);
      expect(new ValidateObjectIdPipe({ allowNil: true }, { allowNil: false }).transform(NIL)).toBe(NIL);
    });

    it('should build configured subclasses with with()', async () => {
      const Configured = ValidateObjectIdPipe.with({ optional: true });
      const pipe = new Configured({ errorHttpStatusCode: HttpStatus.CONFLICT });
      expect(pipe).toBeInstanceOf(ValidateObjectIdPipe);
      expect(pipe.transform(undefined)).toBeUndefined();
      expect(pipe.transform(ID)).toBe(ID);
      expect(rejection(() => pipe.transform('x')).getStatus()).toBe(409);
    });
  });

  describe('subclassing', () => {
    it('should let a subclass narrow the check', async () => {
      class LowercaseOnlyPipe extends ValidateObjectIdPipe {
        protected override isObjectId(value: unknown): boolean {
          return super.isObjectId(value) && typeof value === 'string' && value === value.toLowerCase();
        }
      }
      expect(new LowercaseOnlyPipe().transform(ID)).toBe(ID);
      expect(rejection(() => new LowercaseOnlyPipe().transform(ID.toUpperCase())).getStatus()).toBe(400);
    });
  });
});
