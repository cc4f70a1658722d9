/**
 * How the route fuzz specs turn fuzzed values into request text (path
 * segments, query strings, JSON bodies), and what a request counts as having
 * sent when a response is searched for ids the test did not create.
 */
import { slugify } from '../../../sample-app/common/slugify.js';

/** Whether every surrogate is paired: only then does a string have a UTF-8 form a server can decode. */
export const isWellFormed = (value: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/**
 * Percent-encodes everything but `A-Za-z0-9_~-`, so `.`, `..`, `/`, `?`, `#`
 * and `%` arrive as data. A lone surrogate becomes its WTF-8 bytes, which no
 * server can decode (both platforms must answer 400).
 */
export function encode(value: string): string {
  let out = '';
  for (const char of value) {
    if (/^[A-Za-z0-9_~-]$/.test(char)) {
      out += char;
      continue;
    }
    const code = char.codePointAt(0)!;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        : [...Buffer.from(char, 'utf8')];
    out += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** JSON text of any fuzzed value (`undefined` → `null`, as JSON has no undefined). */
export const json = (value: unknown) => JSON.stringify(value) ?? 'null';

/** An object's JSON text from raw entries: keeps `__proto__` and duplicate keys exactly as generated. */
export const objectJson = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/**
 * What a body sent, as text to look ids up in: the JSON, and the slug the app
 * derives from each string in it (a 409 names that slug; NFKC and dropped
 * letters can turn `０…` or `a中b…` into 24 hex characters).
 */
export function sentBody(body: string): string {
  const strings = new Set<string>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body; // not JSON: nothing is derived from it
  }
  // A loop, not recursion: fuzzed bodies nest 10,000 levels deep.
  const stack = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') strings.add(value);
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stack.push(item);
  }
  return [body, ...[...strings].map(slugify)].join(' ');
}

/** A fuzzed value as text for a path segment or a query value. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : json(value));

/** What a segment was sent as: the text and its percent-encoding (which platform errors echo). */
export const sentSegment = (raw: string) => `${raw} ${encode(raw)}`;

/** A query string (with its `?`, empty for no pairs), every key and value percent-encoded. */
export const queryString = (pairs: [string, string][]) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
