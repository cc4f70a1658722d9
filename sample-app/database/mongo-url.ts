const SCHEME = /^(mongodb(?:\+srv)?:\/\/)/;
const SECRET_PARAMETER = /pass(word)?|secret|token|key/i;

/**
 * A MongoDB connection string fit for a log line: credentials and secret-looking
 * query parameters removed, hosts, database and other options kept. Works on
 * multi-host and `mongodb+srv` strings, which `URL` cannot parse.
 */
export function redactMongoUrl(uri: string): string {
  const scheme = SCHEME.exec(uri)?.[1];
  if (scheme === undefined) return '(not a mongodb:// URL)';
  let rest = uri.slice(scheme.length);
  const at = rest.lastIndexOf('@', rest.search(/[/?]|$/));
  if (at >= 0) rest = rest.slice(at + 1);
  const queryStart = rest.indexOf('?');
  if (queryStart < 0) return scheme + rest;
  const kept = rest
    .slice(queryStart + 1)
    .split('&')
    .filter((pair) => pair !== '' && !SECRET_PARAMETER.test(pair.split('=')[0]!));
  return scheme + rest.slice(0, queryStart) + (kept.length > 0 ? `?${kept.join('&')}` : '');
}

/** The database named in the path of a connection string, or `undefined` when it names none. */
export function mongoUrlDatabase(uri: string): string | undefined {
  const scheme = SCHEME.exec(uri)?.[1];
  if (scheme === undefined) return undefined;
  const rest = uri.slice(scheme.length).split('?')[0]!;
  const slash = rest.indexOf('/', rest.lastIndexOf('@') + 1);
  const name = slash >= 0 ? decodeURIComponent(rest.slice(slash + 1)) : '';
  return name === '' ? undefined : name;
}
