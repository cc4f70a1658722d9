import { BadRequestException, type CallHandler, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { WsException } from '@nestjs/websockets';
import { firstValueFrom, of, throwError, toArray } from 'rxjs';
import { ObjectIdTransportExceptionInterceptor } from './object-id-transport-exception.interceptor.js';
import { ParseObjectIdArrayPipe } from './parse-object-id-array.pipe.js';
import { ParseObjectIdPipe } from './parse-object-id.pipe.js';
import { ValidateObjectIdPipe } from './validate-object-id.pipe.js';

const PATTERN = 'order.find';

/** The context Nest gives an interceptor, as far as this one reads it. */
function contextOf(type: string, data: unknown = { id: 'nope' }): ExecutionContext {
  return {
    getType: () => type,
    switchToWs: () => ({ getPattern: () => PATTERN, getData: () => data }),
  } as unknown as ExecutionContext;
}

/** What `pipe` throws for `value`, the way Nest's pipes consumer would meet it. */
function errorOf(pipe: PipeTransform, value: unknown): unknown {
  try {
    pipe.transform(value, { type: 'custom' });
  } catch (error) {
    return error;
  }
  throw new Error(`expected the pipe to refuse ${JSON.stringify(value)}`);
}

/** Runs the interceptor around a handler whose pipes threw `error`, and returns what reaches Nest's filter. */
async function rethrown(type: string, error: unknown): Promise<unknown> {
  const next: CallHandler = { handle: () => throwError(() => error) };
  try {
    await firstValueFrom(new ObjectIdTransportExceptionInterceptor().intercept(contextOf(type), next));
  } catch (thrown) {
    return thrown;
  }
  throw new Error('expected the error to reach the filter');
}

const INVALID = 'Validation failed (ObjectId is expected): "nope" is 4 characters long, expected 24 hex characters';

describe('ObjectIdTransportExceptionInterceptor', () => {
  describe('intercept', () => {
    describe('when an ObjectId pipe refuses a microservice payload', () => {
      it.each([
        ['ParseObjectIdPipe', new ParseObjectIdPipe(), 'nope', 400, 'Bad Request', INVALID],
        [
          'ParseObjectIdPipe with errorHttpStatusCode',
          new ParseObjectIdPipe({ errorHttpStatusCode: 422 }),
          'nope',
          422,
          'Unprocessable Entity',
          INVALID,
        ],
        ['ValidateObjectIdPipe', new ValidateObjectIdPipe(), 'nope', 400, 'Bad Request', INVALID],
        [
          'ParseObjectIdArrayPipe',
          new ParseObjectIdArrayPipe(),
          ['64b7f0c2a1b2c3d4e5f60718', 'x'],
          400,
          'Bad Request',
          'Validation failed (ObjectId array is expected): item 1 "x" is 1 character long, expected 24 hex characters',
        ],
      ])('should throw an RpcException for %s', async (_name, pipe, value, statusCode, error, message) => {
        const thrown = await rethrown('rpc', errorOf(pipe, value));
        expect(thrown).toBeInstanceOf(RpcException);
        expect((thrown as RpcException).getError()).toEqual({ status: 'error', statusCode, message, error });
        expect((thrown as RpcException).message).toBe(message);
      });
    });

    describe('when an ObjectId pipe refuses a WebSocket message', () => {
      it("should throw a WsException with Nest's cause, so the client knows which message failed", async () => {
        const thrown = await rethrown('ws', errorOf(new ParseObjectIdPipe(), 'nope'));
        expect(thrown).toBeInstanceOf(WsException);
        expect((thrown as WsException).getError()).toEqual({
          status: 'error',
          statusCode: 400,
          message: INVALID,
          error: 'Bad Request',
          cause: { pattern: PATTERN, data: { id: 'nope' } },
        });
      });
    });

    describe('when the error is not for a transport to translate', () => {
      const pipeError = errorOf(new ParseObjectIdPipe(), 'nope');
      const factoryError = errorOf(new ParseObjectIdPipe({ exceptionFactory: (m) => new BadRequestException(m) }), 'x');

      it.each([
        ['an HTTP request (the 400 stays as it is)', 'http', pipeError],
        ['a context this interceptor does not know', 'graphql', pipeError],
        ["the result of the user's exceptionFactory", 'rpc', factoryError],
        ["an HttpException the library's pipes did not build", 'ws', new BadRequestException('other')],
        ['any other error', 'rpc', new TypeError('boom')],
      ])('should rethrow the same error for %s', async (_case, type, error) => {
        expect(await rethrown(type, error)).toBe(error);
      });
    });

    describe('when the handler succeeds', () => {
      it.each(['rpc', 'ws', 'http'])('should pass every value of a %s reply through', async (type) => {
        const next: CallHandler = { handle: () => of(1, 2, 3) };
        const reply = new ObjectIdTransportExceptionInterceptor().intercept(contextOf(type), next);
        expect(await firstValueFrom(reply.pipe(toArray()))).toEqual([1, 2, 3]);
      });
    });
  });
});
