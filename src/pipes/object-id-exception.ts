import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ObjectIdParseError, type ObjectIdProblem } from '../core/index.js';
import type { ObjectIdPipeOptions } from './object-id-pipe-options.interface.js';

/** The prefix of every message, in the voice of Nest's own pipes. */
export const OBJECT_ID_EXPECTED = 'Validation failed (ObjectId is expected)';

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
  // One Error per rejected request: the problem travels as plain data, not as
  // a second Error with its own stack trace in `cause`.
  return new HttpException(HttpException.createBody(message, STATUS_CODES[status] ?? 'Error', status), status);
}
