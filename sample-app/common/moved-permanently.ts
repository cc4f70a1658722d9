/**
 * A `301 Moved Permanently` to `location`, returned by a handler in place of
 * its body. Nest sends a returned web `Response` as it is, status and headers
 * included, on Express and Fastify alike, and the serializer lets it pass, so
 * one handler can answer either the resource or the way to its canonical URL.
 */
export function movedPermanently(location: string): Response {
  return new Response(null, { status: 301, headers: { location } });
}
