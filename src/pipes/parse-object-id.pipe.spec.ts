import { jest } from '@jest/globals';
import { HttpException, HttpStatus, UnprocessableEntityException } from '@nestjs/common';
import { Types } from 'mongoose';
import { INVALID_EXTENDED_JSON, VALID_EXTENDED_JSON } from '../core/extended-json-object-ids.fixture.js';
import { INVALID_OBJECT_IDS, VALID_OBJECT_ID_STRINGS } from '../core/invalid-object-ids.fixture.js';
import { ObjectIdParseError } from '../core/object-id-parse.error.js';
import { ParseObjectIdPipe } from './parse-object-id.pipe.js';

function rejection(run: () => unknown): HttpException {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpException) return error;
    throw error;
  }
  throw new Error('expected the pipe to throw');
}

describe('ParseObjectIdPipe', () => {
  describe('transform', () => {
    describe('when validation passes', () => {
      const pipe = new ParseObjectIdPipe();

      it.each(VALID_OBJECT_ID_STRINGS)('should return a Types.ObjectId for %j', async (input, hex) => {
        const id = pipe.transform(input);
        expect(id).toBeInstanceOf(Types.ObjectId);
        expect(id?.toHexString()).toBe(hex);
      });

      it('should pass an ObjectId instance through unchanged', async () => {
        const id = new Types.ObjectId();
        expect(pipe.transform(id)).toBe(id);
      });

      it.each([undefined, null, ''])('should return undefined for %j when optional', async (value) => {
        expect(new ParseObjectIdPipe({ optional: true }).transform(value)).toBeUndefined();
      });
    });

    describe('when validation fails', () => {
      const pipe = new ParseObjectIdPipe();

      it.each(INVALID_OBJECT_IDS)('should answer 400 for %s', async (_label, value, detail) => {
        const error = rejection(() => pipe.transform(value));
        expect(error.getStatus()).toBe(400);
        expect(error.getResponse()).toEqual({
          statusCode: 400,
          message: `Validation failed (ObjectId is expected): ${detail}`,
          error: 'Bad Request',
        });
      });

      it.each([undefined, null, ''])('should refuse %j when not optional, never inventing an id', async (value) => {
        const error = rejection(() => pipe.transform(value));
        expect(error.getResponse()).toEqual({
          statusCode: 400,
          message: 'Validation failed (ObjectId is expected): no value was given, expected 24 hex characters',
          error: 'Bad Request',
        });
      });

      it('should still refuse invalid values when optional', async () => {
        const error = rejection(() => new ParseObjectIdPipe({ optional: true }).transform('abc'));
        expect(error.getStatus()).toBe(400);
      });

      it('should use errorHttpStatusCode', async () => {
        const error = rejection(() =>
          new ParseObjectIdPipe({ errorHttpStatusCode: HttpStatus.UNPROCESSABLE_ENTITY }).transform('abc'),
        );
        expect(error.getResponse()).toEqual({
          statusCode: 422,
          message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
          error: 'Unprocessable Entity',
        });
      });

      it('should call exceptionFactory with the message and the structured error', async () => {
        const factory = jest.fn(
          (message: string, error: ObjectIdParseError) =>
            new UnprocessableEntityException({ message, reason: error.reason }),
        );
        const error = rejection(() => new ParseObjectIdPipe({ exceptionFactory: factory }).transform('abc'));
        expect(factory).toHaveBeenCalledTimes(1);
        expect(factory.mock.calls[0][1]).toBeInstanceOf(ObjectIdParseError);
        expect(error.getResponse()).toEqual({
          message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
          reason: 'length',
        });
      });

      it('should build its 400 without stack frames and leave Error.stackTraceLimit as it was', async () => {
        const before = Error.stackTraceLimit;
        const error = rejection(() => pipe.transform('abc'));
        expect(error).toBeInstanceOf(Error);
        expect(error.stack).toBe(
          'HttpException: Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
        );
        expect(Error.stackTraceLimit).toBe(before);
        expect(new Error('after').stack).toContain('\n    at ');
      });

      it('should refuse 24 characters that are not hex with the reason, leaving Error.stackTraceLimit as it was', async () => {
        const before = Error.stackTraceLimit;
        const error = rejection(() => pipe.transform('zzzzzzzzzzzzzzzzzzzzzzzz'));
        expect(error.getStatus()).toBe(400);
        expect(error.getResponse()).toMatchObject({
          message:
            'Validation failed (ObjectId is expected): "zzzzzzzzzzzzzzzzzzzzzzzz" has a non-hex character "z" at position 0, expected 24 hex characters (0-9, a-f)',
        });
        expect(Error.stackTraceLimit).toBe(before);
        // The valid path shares that code: it too leaves the limit as it was.
        expect(pipe.transform('507f1f77bcf86cd799439011')).toBeInstanceOf(Types.ObjectId);
        expect(Error.stackTraceLimit).toBe(before);
        expect(new Error('after').stack).toContain('\n    at ');
      });

      it('should refuse instances when allowInstance is false', async () => {
        const error = rejection(() => new ParseObjectIdPipe({ allowInstance: false }).transform(new Types.ObjectId()));
        expect(error.getStatus()).toBe(400);
      });
    });
  });

  describe('module defaults', () => {
    it('should take errorHttpStatusCode from the module options, overridable per pipe', async () => {
      const withDefaults = new ParseObjectIdPipe(undefined, { errorHttpStatusCode: HttpStatus.NOT_FOUND });
      expect(rejection(() => withDefaults.transform('x')).getStatus()).toBe(404);
      const overridden = new ParseObjectIdPipe({ errorHttpStatusCode: 422 }, { errorHttpStatusCode: 404 });
      expect(rejection(() => overridden.transform('x')).getStatus()).toBe(422);
    });

    it('should build configured subclasses with with()', async () => {
      const Configured = ParseObjectIdPipe.with({ optional: true });
      const pipe = new Configured({ errorHttpStatusCode: HttpStatus.CONFLICT });
      expect(pipe.transform(undefined)).toBeUndefined();
      expect(rejection(() => pipe.transform('x')).getStatus()).toBe(409);
    });
  });

  describe('subclassing', () => {
    it('should let a subclass narrow the check', async () => {
      class LowercaseOnlyPipe extends ParseObjectIdPipe {
        protected override isObjectId(value: unknown): boolean {
          return super.isObjectId(value) && typeof value === 'string' && value === value.toLowerCase();
        }
      }
      const pipe = new LowercaseOnlyPipe();
      expect(pipe.transform('507f1f77bcf86cd799439011')).toBeInstanceOf(Types.ObjectId);
      expect(rejection(() => pipe.transform('507F1F77BCF86CD799439011')).getStatus()).toBe(400);
    });
  });
});

describe('ParseObjectIdPipe options for the nil id and extended JSON', () => {
  const NIL = '000000000000000000000000';
  const ID = '507f1f77bcf86cd799439011';
  const NIL_DETAIL =
    'received the nil ObjectId 000000000000000000000000 (all zeros), which names no document; expected the id of a real one';

  describe('allowNil', () => {
    it.each([
      ['the hex', NIL],
      ['an instance', new Types.ObjectId(NIL)],
    ])('should accept %s by default, as before', async (_label, value) => {
      expect(new ParseObjectIdPipe().transform(value)?.toHexString()).toBe(NIL);
    });

    it.each([
      ['the hex', NIL],
      ['an instance', new Types.ObjectId(NIL)],
    ])('should refuse %s with allowNil: false, with the reason in the factory', async (_label, value) => {
      const error = rejection(() => new ParseObjectIdPipe({ allowNil: false }).transform(value));
      expect(error.getResponse()).toEqual({
        statusCode: 400,
        message: `Validation failed (ObjectId is expected): ${NIL_DETAIL}`,
        error: 'Bad Request',
      });
      const factory = jest.fn(
        (_message: string, parseError: ObjectIdParseError) => new HttpException(parseError.reason, 400),
      );
      rejection(() => new ParseObjectIdPipe({ allowNil: false, exceptionFactory: factory }).transform(value));
      expect(factory.mock.calls[0][1].reason).toBe('nil');
    });

    it('should pass every other id with allowNil: false, and still refuse the rest as before', async () => {
      const pipe = new ParseObjectIdPipe({ allowNil: false });
      expect(pipe.transform(ID)?.toHexString()).toBe(ID);
      expect(pipe.transform('000000000000000000000001')?.toHexString()).toBe('000000000000000000000001');
      for (const [, value, detail] of INVALID_OBJECT_IDS) {
        expect(rejection(() => pipe.transform(value)).message).toBe(
          `Validation failed (ObjectId is expected): ${detail}`,
        );
      }
    });

    it('should take allowNil from the module options, overridable per pipe', async () => {
      expect(rejection(() => new ParseObjectIdPipe(undefined, { allowNil: false }).transform(NIL)).getStatus()).toBe(
        400,
      );
      expect(new ParseObjectIdPipe({ allowNil: true }, { allowNil: false }).transform(NIL)?.toHexString()).toBe(NIL);
      const Configured = ParseObjectIdPipe.with({ optional: true });
      expect(rejection(() => new Configured(undefined, { allowNil: false }).transform(NIL)).getStatus()).toBe(400);
    });

    it('should still ask a subclass check for the nil id', async () => {
      class NilOnlyPipe extends ParseObjectIdPipe {
        protected override isObjectId(value: unknown): boolean {
          return value === NIL;
        }
      }
      expect(new NilOnlyPipe().transform(NIL)?.toHexString()).toBe(NIL);
      expect(rejection(() => new NilOnlyPipe().transform(ID)).getStatus()).toBe(400);
    });
  });

  describe('allowExtendedJson', () => {
    const pipe = new ParseObjectIdPipe({ allowExtendedJson: true });

    it.each(VALID_EXTENDED_JSON)('should turn %s into a Types.ObjectId', async (_label, value, hex) => {
      const id = pipe.transform(value);
      expect(id).toBeInstanceOf(Types.ObjectId);
      expect(id?.toHexString()).toBe(hex);
    });

    it.each(VALID_EXTENDED_JSON)('should refuse %s without the option, with the old message', async (_label, value) => {
      expect(rejection(() => new ParseObjectIdPipe().transform(value)).message).toBe(
        'Validation failed (ObjectId is expected): received an object, expected a string of 24 hex characters',
      );
    });

    it.each(INVALID_EXTENDED_JSON)('should answer 400 for %s', async (_label, value, detail) => {
      expect(rejection(() => pipe.transform(value)).getResponse()).toEqual({
        statusCode: 400,
        message: `Validation failed (ObjectId is expected): ${detail}`,
        error: 'Bad Request',
      });
    });

    it('should refuse {"$oid": nil} when allowNil is false too', async () => {
      const strict = new ParseObjectIdPipe({ allowExtendedJson: true, allowNil: false });
      expect(rejection(() => strict.transform({ $oid: NIL })).message).toBe(
        `Validation failed (ObjectId is expected): ${NIL_DETAIL}`,
      );
      expect(strict.transform({ $oid: ID })?.toHexString()).toBe(ID);
    });
  });
});
