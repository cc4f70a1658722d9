import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { isDatabaseUnavailableError } from 'nestjs-objectid';
import { catchError, type Observable, throwError } from 'rxjs';
import { databaseUnavailable } from './database-unavailable.filter.js';

/**
 * Turns every "database unreachable" error a handler throws into the app's
 * 503, including the ones no driver class marks: the driver can let a raw
 * socket error (`EPIPE` on a write to a connection the server just closed)
 * through unwrapped, which `DatabaseUnavailableFilter`'s class list cannot
 * catch. The filter stays for the errors thrown outside handlers.
 */
@Injectable()
export class DatabaseUnavailableInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(
        catchError((error: unknown) =>
          throwError(() => (isDatabaseUnavailableError(error) ? databaseUnavailable(error) : error)),
        ),
      );
  }
}
