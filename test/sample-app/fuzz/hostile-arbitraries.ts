/**
 * fast-check generators of hostile input for the route fuzz specs (#15):
 * nesting hundreds to 10,000 levels deep, arrays of 10,000 to 100,000 items,
 * thousands of keys, objects with own `toString`/`valueOf`/`toJSON`/`__proto__`
 * keys, numbers at every edge, text up to the body limit and broken unicode.
 * Everything is JSON text (or query/path text), built with `repeat` so that a
 * 100 KB value costs the test well under a millisecond to make. Some bodies
 * pass the body limit on purpose: their answer is the platform's 413.
 */
import fc from 'fast-check';
import { BODY_LIMIT_BYTES } from '../../../sample-app/create-catalog-app.js';
import { encode, json, objectJson } from './request-text.js';

/** Longer request lines than this get Node's 431 (its 16 KiB header limit counts the URL). */
const SURE_TOO_LONG_URL = 17_000;
/** Shorter ones never do (the rest of the request head is well under a kilobyte). */
const SURE_SHORT_URL = 15_000;

/** Bodies past this many bytes are all alike (413 before parsing): nothing is built bigger. */
const MAX_TEXT_BYTES = Math.round(BODY_LIMIT_BYTES * 1.25);

/** Whether a request line of `url` gets 431 (over Node's header limit); `undefined` in between, where it may. */
export function urlTooLong(url: string): boolean | undefined {
  if (url.length > SURE_TOO_LONG_URL) return true;
  return url.length < SURE_SHORT_URL ? false : undefined;
}

/** Number literals at the edges of what a double holds, as JSON text (`1e400` parses to Infinity). */
export const edgeNumberJson = fc.constantFrom(
  '-0',
  '-0.0',
  '0e-5',
  '1e308',
  '1.7976931348623157e308',
  '1e400',
  '-1e400',
  '1e-324',
  '5e-324',
  '2.2250738585072014e-308',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  '0.30000000000000004',
  '0.1',
  '1.005',
  '4.35',
  '999999.99',
  '1000000.01',
  '1e21',
  '1E2',
  '1e+2',
  '1e-7',
  '50',
  '51',
  '1000',
  '1001',
);

/** Strings a lenient parser would read as numbers (`+'0x10'` is 16, `+' 5'` is 5). */
export const numberLikeText = fc.constantFrom(
  '-0',
  '0x10',
  '1e2',
  ' 5',
  '5 ',
  '+5',
  '05',
  '.5',
  '5.',
  '0b11',
  '0o7',
  '1_000',
  '1,5',
  'Infinity',
  '-Infinity',
  'NaN',
  '\u0665',
  '\uff15',
  '',
  ' ',
);

/** Text that breaks naive code: lone surrogates, bidi overrides, NUL, BOM, separators, case-folding traps. */
export const edgeText = fc.oneof(
  fc.constantFrom(
    '\ud800',
    '\udc00',
    'a\ud83c',
    '\udf55a',
    '\ud83c\udf55',
    '\u202eexe.fdp',
    '\u200f\u200e',
    '\u2066x\u2069',
    '\u0000',
    'a\u0000b',
    '\ufeffBOM',
    '\u2028\u2029',
    '\u0085',
    'e\u0301\u0301\u0301',
    '\uff21\uff22\uff23',
    '\u0130stanbul',
    'stra\u00dfe',
    '\u{10ffff}',
    '\uffff\ufffe',
    '\u00a0',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
);

/** Text of `unit` repeated to about `bytes` bytes of JSON (a lone surrogate is 6 bytes escaped). */
function textOfSize(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.floor(bytes / (json(unit).length - 2))));
}

const TEXT_UNITS = ['x', 'é', '\u202e', '\ud800', '\ud835\udfd8', 'a-', ' ', '\u0000', '%'];

/** Strings from a kilobyte to just past the body limit. */
export const longText = fc
  .tuple(fc.constantFrom(...TEXT_UNITS), fc.integer({ min: 1_000, max: BODY_LIMIT_BYTES + 1_000 }))
  .map(([unit, bytes]) => textOfSize(unit, bytes));

/** What a prototype-named key may hold: JSON has no functions, so strings, numbers and objects. */
const protoValue = fc.constantFrom(
  '"x"',
  '""',
  '1',
  '0',
  'null',
  'true',
  '{}',
  '[]',
  '{"polluted":true}',
  '{"prototype":{"polluted":true}}',
  '{"toString":"x","valueOf":1}',
  '["toString"]',
);

/** Keys an object inherits, or that JSON.stringify and prototype chains read. */
export const PROTOTYPE_KEYS = [
  'toString',
  'valueOf',
  'toJSON',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'isPrototypeOf',
  'toLocaleString',
  '__defineGetter__',
];

/** An object with own prototype-named keys (kept as written: `__proto__` stays a key in the text). */
export const prototypeObject = fc
  .array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), protoValue), { minLength: 1, maxLength: 4 })
  .map(objectJson);

/** One level of nesting: its opening and closing text. */
const NESTING = [
  ['{"a":', '}'],
  ['[', ']'],
  ['[1,', ']'],
  ['{"toJSON":', '}'],
  ['{"constructor":{"prototype":', '}}'],
  ['{"items":[', ']}'],
  ['{"__proto__":', '}'],
] as const;

/** A value nested hundreds to 10,000 levels deep, cut to MAX_TEXT_BYTES (the longest get 413). */
export const deepValue = fc
  .record({
    level: fc.constantFrom(...NESTING),
    levels: fc.oneof(fc.integer({ min: 100, max: 1_000 }), fc.integer({ min: 1_000, max: 10_000 })),
    leaf: fc.constantFrom('1', '"x"', '{}', '[]', 'null', '{"toString":"x"}'),
  })
  .map(({ level: [open, close], levels, leaf }) => {
    const n = Math.max(100, Math.min(levels, Math.floor(MAX_TEXT_BYTES / (open.length + close.length))));
    return open.repeat(n) + leaf + close.repeat(n);
  });

/**
 * An array of 10,000 to 100,000 items, cut to MAX_TEXT_BYTES (about 50,000
 * one-digit items fit in the body limit; longer ones get 413).
 */
export const hugeArray = fc
  .record({
    item: fc.constantFrom('0', '1', '-0', 'null', '{}', '[]', '"x"', '"507f1f77bcf86cd799439011"', '1e308'),
    count: fc.integer({ min: 10_000, max: 100_000 }),
  })
  .map(({ item, count }) => {
    const n = Math.max(10_000, Math.min(count, Math.floor(MAX_TEXT_BYTES / (item.length + 1))));
    return `[${`${item},`.repeat(n - 1)}${item}]`;
  });

/** An object of 100 to 20,000 distinct keys, of 1 to 100 characters (at most MAX_TEXT_BYTES). */
export const manyKeys = fc
  .record({ count: fc.integer({ min: 100, max: 20_000 }), length: fc.integer({ min: 1, max: 100 }) })
  .map(({ count, length }) => {
    const fitting = Math.max(1, Math.min(length, Math.floor(MAX_TEXT_BYTES / count) - 5));
    const pad = 'k'.repeat(Math.max(0, fitting - String(count).length));
    return `{${Array.from({ length: count }, (_, i) => `"${pad}${i}":1`).join(',')}}`;
  });

/** A field value that is small to send: edge numbers, number-like and broken text, prototype-keyed objects. */
export const smallHostileValue = fc.oneof(
  { weight: 3, arbitrary: edgeNumberJson },
  { weight: 2, arbitrary: numberLikeText.map(json) },
  { weight: 3, arbitrary: edgeText.map(json) },
  { weight: 3, arbitrary: prototypeObject },
);

/** Any hostile JSON value, big ones included (four in ten). */
export const hostileValue = fc.oneof(
  { weight: 6, arbitrary: smallHostileValue },
  { weight: 1, arbitrary: longText.map(json) },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: hugeArray },
  { weight: 1, arbitrary: manyKeys },
);

/** Query pairs GET routes read: the keys they know, numbers at the edge, broken text, floods and deep brackets. */
export function hostileQueryPairs(keys: string[]): fc.Arbitrary<[string, string][]> {
  const key = fc.constantFrom(...keys);
  const value = fc.oneof(numberLikeText, edgeNumberJson, edgeText);
  return fc.oneof(
    // `ids[a][a]…`: neither platform's query parser (Express 5: node:querystring; Fastify: fast-querystring) nests.
    fc
      .record({
        key,
        bracket: fc.constantFrom('[a]', '[]', '[0]', '[__proto__]', '[constructor][prototype]', '[$gt]'),
        levels: fc.integer({ min: 100, max: 10_000 }),
        value,
      })
      .map(({ key, bracket, levels, value }): [string, string][] => [[key + bracket.repeat(levels), value]]),
    // A key repeated hundreds or thousands of times (Express keeps the first 1,000 pairs; Fastify all of them).
    fc
      .record({ key, value, count: fc.integer({ min: 100, max: 5_000 }) })
      .map(({ key, value, count }) => Array.from({ length: count }, (): [string, string] => [key, value])),
    fc
      .tuple(key, fc.constantFrom(...TEXT_UNITS), fc.integer({ min: 1_000, max: 20_000 }))
      .map(([k, unit, n]): [string, string][] => [[k, unit.repeat(Math.ceil(n / encode(unit).length))]]),
    fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 4 }),
  );
}

/** Path segments: long ones (some past the URL limit), number-like and broken text. Never empty. */
export const hostileSegment = fc
  .oneof(
    fc
      .tuple(fc.constantFrom(...TEXT_UNITS), fc.integer({ min: 100, max: 30_000 }))
      .map(([unit, n]) => unit.repeat(Math.ceil(n / encode(unit).length))),
    numberLikeText,
    edgeNumberJson,
    edgeText,
  )
  .filter((s) => s.length > 0 && urlTooLong(encode(s)) !== undefined);

/**
 * Form bodies (`application/x-www-form-urlencoded`), which Express parses with
 * qs's brackets (`items[0][productId]=…`, depth 32) and Fastify flat: keys the
 * DTOs know with deep brackets, floods of pairs, huge indexes, prototype paths.
 */
export function hostileFormBody(keys: string[]): fc.Arbitrary<string> {
  const key = fc.constantFrom(...keys);
  const value = fc.oneof(fc.constantFrom('x', '1', ''), numberLikeText, edgeText).map(encode);
  const pairs = fc.oneof(
    fc
      .record({ key, bracket: fc.constantFrom('[a]', '[]', '[0]'), levels: fc.integer({ min: 2, max: 10_000 }), value })
      .map(({ key, bracket, levels, value }) => [`${key}${bracket.repeat(levels)}=${value}`]),
    fc
      .record({ key, bracket: fc.constantFrom('', '[]', '[a]'), value, count: fc.integer({ min: 100, max: 5_000 }) })
      .map(({ key, bracket, value, count }) => Array.from({ length: count }, () => `${key}${bracket}=${value}`)),
    fc
      .array(
        fc.tuple(
          fc.oneof(
            key,
            key.map((k) => `${k}[99999999]`),
            key.map((k) => `${k}[0][productId]`),
            fc.constantFrom('__proto__[polluted]', 'constructor[prototype][polluted]', 'toString', 'valueOf[a]'),
          ),
          value,
        ),
        { minLength: 1, maxLength: 5 },
      )
      .map((list) => list.map(([k, v]) => `${k}=${v}`)),
  );
  return pairs.map((list) => list.join('&'));
}
