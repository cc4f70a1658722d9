import { Catch, HttpException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';

/**
 * Gives the errors of the HTTP platform itself (413 body too large, 400
 * malformed JSON on Fastify, 415) Nest's body shape `{ statusCode, message, error }`.
 * The adapters turn them into `new HttpException(message, status)`, whose
 * body lacks `error`; exceptions with a body of their own are left alone.
 */
@Catch(HttpException)
export class HttpErrorShapeFilter extends BaseExceptionFilter {
  override catch(exception: HttpException, host: ArgumentsHost): void {
    const response = exception.getResponse();
    if (typeof response !== 'string') {
      super.catch(exception, host);
      return;
    }
    const status = exception.getStatus();
    const body = HttpException.createBody(response, STATUS_CODES[status] ?? 'Error', status);
    this.httpAdapterHost!.httpAdapter.reply(host.switchToHttp().getResponse(), body, status);
  }
}
