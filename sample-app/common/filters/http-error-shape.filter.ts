import { Catch, HttpException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';
import { boundErrorMessage } from './bounded-error-message.js';

/**
 * Gives every HTTP error Nest's body shape `{ statusCode, message, error }`
 * with a bounded message. The errors of the HTTP platform itself (413 body
 * too large, 400 malformed JSON on Fastify, 415) arrive as
 * `new HttpException(message, status)`, whose body lacks `error`; validation
 * errors list one message per problem, and there can be 2,000 of them (#15),
 * so the message is cut to ERROR_MESSAGE_LIMITS. Bodies of their own keep
 * their other fields.
 */
@Catch(HttpException)
export class HttpErrorShapeFilter extends BaseExceptionFilter {
  override catch(exception: HttpException, host: ArgumentsHost): void | HttpException {
    // No HTTP response to write in a GraphQL resolver: hand the exception back, Apollo puts it in `errors`.
    if (host.getType<string>() === 'graphql') return exception;
    const response = exception.getResponse();
    const status = exception.getStatus();
    let body: object;
    if (typeof response === 'string') {
      body = HttpException.createBody(boundErrorMessage(response) as string, STATUS_CODES[status] ?? 'Error', status);
    } else {
      const { message } = response as { message?: unknown };
      const bounded = boundErrorMessage(message);
      if (bounded === message) {
        super.catch(exception, host);
        return;
      }
      body = { ...response, message: bounded };
    }
    const adapter = this.httpAdapterHost!.httpAdapter;
    const reply = host.switchToHttp().getResponse();
    if (adapter.isHeadersSent(reply)) adapter.end(reply);
    else adapter.reply(reply, body, status);
  }
}
