import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type HttpException,
  type NestInterceptor,
} from '@nestjs/common';
import { catchError, from, mergeMap, throwError, type Observable } from 'rxjs';
import { isObjectIdPipeException } from './object-id-exception.js';

/** `RpcException` and `WsException` share this constructor: the error they carry to the client. */
type TransportExceptionClass = new (error: object) => Error;

/**
 * The transports this interceptor maps, by `ExecutionContext#getType()`, each
 * loading its exception class on first use: neither package is a dependency,
 * and an app that runs a microservice or a gateway has already loaded it.
 */
const TRANSPORT_EXCEPTIONS: Record<string, () => Promise<TransportExceptionClass>> = {
  rpc: async () => (await import('@nestjs/microservices')).RpcException,
  ws: async () => (await import('@nestjs/websockets')).WsException,
};

/**
 * Re-throws the ObjectId pipes' errors in `@MessagePattern`/`@EventPattern`
 * handlers as `RpcException` and in `@SubscribeMessage` handlers as
 * `WsException`, with the pipe's message and status:
 * `{ status: 'error', statusCode: 400, message: 'Validation failed (ObjectId is expected): …', error: 'Bad Request' }`
 * (WebSocket errors also carry Nest's `cause: { pattern, data }`).
 *
 * Why: a pipe sees only the value and its metadata, not the transport, so it
 * throws an `HttpException`, which Nest's RPC and WebSocket exception filters
 * turn into "Internal server error". Interceptors run around the pipes and see
 * the execution context, so this one picks the transport's exception. HTTP
 * requests, other errors and the result of a user's `exceptionFactory` pass
 * through untouched.
 *
 * ```ts
 * providers: [{ provide: APP_INTERCEPTOR, useClass: ObjectIdTransportExceptionInterceptor }] // the whole app
 * // or
 * @UseInterceptors(ObjectIdTransportExceptionInterceptor) // one gateway or controller
 * ```
 */
@Injectable()
export class ObjectIdTransportExceptionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const load = TRANSPORT_EXCEPTIONS[context.getType()];
    if (load === undefined) return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (!isObjectIdPipeException(error)) throw error;
        const body = toTransportError(error, context);
        return from(load()).pipe(mergeMap((TransportException) => throwError(() => new TransportException(body))));
      }),
    );
  }
}

/**
 * What the client receives: the HTTP body with Nest's RPC/WebSocket `status`
 * marker, and for WebSockets the `cause` Nest's filter adds to its own errors,
 * so a client can tell which message failed.
 */
function toTransportError(exception: HttpException, context: ExecutionContext): object {
  const body = { status: 'error', ...(exception.getResponse() as object) };
  if (context.getType() !== 'ws') return body;
  const ws = context.switchToWs();
  return { ...body, cause: { pattern: ws.getPattern(), data: ws.getData() } };
}
