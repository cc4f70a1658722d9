import { STATUS_CODES } from 'node:http';
import { boundErrorMessage } from '../filters/bounded-error-message.js';

/** The part of a Fastify router error this answer reads. */
interface RouterError {
  message: string;
  statusCode?: number;
}

/** The part of a Fastify reply this answer uses: Node's response, as Fastify's own answer here writes it. */
interface RouterReply {
  raw: {
    writeHead(statusCode: number, headers: Record<string, string | number>): unknown;
    end(body: string): unknown;
  };
}

/**
 * Fastify's `frameworkErrors`: answers what its router refuses before any
 * hook or Nest filter runs (a path that is not valid percent-encoded UTF-8:
 * 400; a path parameter over `maxParamLength`: 414) in the app's error shape.
 * Fastify's own answer adds a `code` and echoes the whole path. This replaces
 * the handler `FastifyAdapter` installs, whose only other work is Nest's
 * security hook, which the catalog does not use (helmet runs as a Fastify
 * plugin, and not for these answers either way).
 */
export function answerRouterError(error: RouterError, _request: unknown, reply: RouterReply): void {
  const status = error.statusCode ?? 400;
  const body = JSON.stringify({
    statusCode: status,
    message: boundErrorMessage(error.message),
    error: STATUS_CODES[status] ?? 'Error',
  });
  reply.raw.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  reply.raw.end(body);
}
