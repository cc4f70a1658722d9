import {
  Catch,
  HttpStatus,
  Logger,
  ServiceUnavailableException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import mongoose from 'mongoose';
import { SequenceUnavailableError } from 'nestjs-objectid/sequence';

/** The message of every 503 caused by the database, whatever the driver said. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'database unavailable, try again';

/** The exception (and body) the app answers with while MongoDB cannot be reached. */
export function databaseUnavailable(cause?: unknown): ServiceUnavailableException {
  return new ServiceUnavailableException(DATABASE_UNAVAILABLE_MESSAGE, { cause });
}

const { MongoNetworkError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError } =
  mongoose.mongo;

/**
 * Answers `503 { statusCode, message: 'database unavailable, try again', error }`
 * for the errors that mean "MongoDB cannot be reached right now" instead of
 * Nest's generic 500: the client may retry, and nothing about the
 * infrastructure leaks into the body. With `bufferCommands: false` and a short
 * `serverSelectionTimeoutMS` these arrive within seconds, so requests fail
 * fast during an outage and succeed again as soon as the driver reconnects.
 *
 * `MongoNetworkError` covers timeouts and cleared pools too; `SequenceUnavailableError`
 * is what `SequenceService` throws for the same situation.
 */
@Catch(
  MongoNetworkError,
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  mongoose.Error.MongooseServerSelectionError,
  SequenceUnavailableError,
)
export class DatabaseUnavailableFilter implements ExceptionFilter {
  private readonly logger = new Logger('Database');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: Error, host: ArgumentsHost): void | ServiceUnavailableException {
    const cause = error instanceof SequenceUnavailableError ? error.cause : error;
    this.logger.warn(`${(cause as Error)?.name ?? 'Error'}: ${(cause as Error)?.message ?? String(cause)}`);
    // In a GraphQL resolver: the same 503 exception, which Apollo puts in `errors`.
    if (host.getType<string>() === 'graphql') return databaseUnavailable(error);
    const { httpAdapter } = this.adapterHost;
    const response = host.switchToHttp().getResponse<unknown>();
    httpAdapter.reply(response, databaseUnavailable().getResponse(), HttpStatus.SERVICE_UNAVAILABLE);
  }
}
