import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ObjectIdParseError, type ObjectIdProblem } from '../core/index.js';
import type { ObjectIdPipeOptions } from './object-id-pipe-options.interface.js';

/** The prefix of every message, in the voice of Nest's own pipes. */
export const OBJECT_ID_EXPECTED = 'Validation failed (ObjectId is expected)';

/**
 * The exceptions the pipes built themselves (not a user's `exceptionFactory`),
 * which `ObjectIdTransportExceptionInterceptor` may re-throw in the form of a
 * microservice or WebSocket transport. A WeakSet, so the exception a client
 * sees carries no extra property.
 */
const pipeExceptions = new WeakSet<HttpException>();

/** Whether `error` is an exception an ObjectId pipe built with its default factory. */
export function isObjectIdPipeException(error: unknown): error is HttpException {
  return error instanceof HttpException && pipeExceptions.has(error);
}

/**
 * Builds the exception for an invalid id: the user's `exceptionFactory`, or an
 * `HttpException` with Nest's body shape `{ statusCode, message, error }`.
 */
export function createObjectIdException(
  options: Pick<ObjectIdPipeOptions, 'errorHttpStatusCode' | 'exceptionFactory'>,
  problem: ObjectIdProblem,
  prefix = OBJECT_ID_EXPECTED,
): unknown {
  const message = `${prefix}: ${problem.message}`;
  if (options.exceptionFactory) {
    return options.exceptionFactory(message, new ObjectIdParseError(problem.reason, problem.message, problem.position));
  }
  const status = options.errorHttpStatusCode ?? HttpStatus.BAD_REQUEST;
  const body = HttpException.createBody(message, STATUS_CODES[status] ?? 'Error', status);
  // One Error per rejected request, and without stack frames: the problem
  // travels as plain data (no second Error in `cause`), and the frames would
  // show only this pipe and Nest's router. Capturing them was over half the
  // cost of refusing an id (bench/pipe.bench.ts), the client's input decides
  // how often that happens, and Nest does not log 4xx exceptions.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let exception: HttpException;
  try {
    exception = new HttpException(body, status);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  pipeExceptions.add(exception);
  return exception;
}
