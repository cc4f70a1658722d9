import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What a refused request head gets, by the error code of Node's HTTP parser (the statuses Node's default answer uses). */
const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'the request line and headers exceed 16 KB; send long lists in a request body, or fewer of them at once',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'the chunk extensions of the body exceed 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request did not arrive in time; send it again'],
};
const MALFORMED: [number, string] = [400, 'the request is not valid HTTP/1.1'];

/**
 * Answers a request that Node's HTTP parser refused before any framework saw
 * it (a request line or headers over Node's 16 KB limit, malformed HTTP, a
 * timeout) in the app's error shape `{ statusCode, message, error }`. Node's
 * own answer has no body at all, Fastify's has its own words; this one is the
 * same on both platforms. Install it as the `clientError` listener of the
 * HTTP server (Express) or as Fastify's `clientErrorHandler`.
 * @see https://nodejs.org/api/http.html#event-clienterror
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node's default: nothing is written on a reset connection or one that already answered something.
  if (error.code !== 'ECONNRESET' && socket.writable && (socket as { bytesWritten?: number }).bytesWritten === 0) {
    const [status, message] = ANSWERS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ statusCode: status, message, error: STATUS_CODES[status] });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
