import { Duplex } from 'node:stream';
import { answerClientError } from './client-error-answer.js';

/** A socket that records what is written to it and whether it was destroyed. */
function fakeSocket(bytesWritten = 0) {
  const written: string[] = [];
  const socket = new Duplex({ read() {}, write: (chunk, _encoding, done) => (written.push(String(chunk)), done()) });
  Object.assign(socket, { bytesWritten });
  return { socket, written };
}

const parserError = (code: string) => Object.assign(new Error(code), { code });

describe('answerClientError', () => {
  it.each([
    [
      'HPE_HEADER_OVERFLOW',
      431,
      'Request Header Fields Too Large',
      'the request line and headers exceed 16 KB; send long lists in a request body, or fewer of them at once',
    ],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'the request did not arrive in time; send it again'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'Payload Too Large', 'the chunk extensions of the body exceed 16 KB'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'the request is not valid HTTP/1.1'],
  ])(
    'should answer %s with %i in the shape { statusCode, message, error }, then close',
    (code, status, error, message) => {
      const { socket, written } = fakeSocket();
      answerClientError(parserError(code), socket);
      const [head, body] = written.join('').split('\r\n\r\n');
      expect(head!.split('\r\n')).toEqual([
        `HTTP/1.1 ${status} ${error}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body!)}`,
        'Connection: close',
      ]);
      expect(JSON.parse(body!)).toEqual({ statusCode: status, message, error });
      expect(socket.destroyed).toBe(true);
    },
  );

  it.each([
    ['a reset connection', parserError('ECONNRESET'), 0],
    ['a socket that already answered', parserError('HPE_HEADER_OVERFLOW'), 120],
  ])('should write nothing on %s, only close it', (_label, error, bytesWritten) => {
    const { socket, written } = fakeSocket(bytesWritten);
    answerClientError(error, socket);
    expect([written, socket.destroyed]).toEqual([[], true]);
  });
});
