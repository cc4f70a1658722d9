/**
 * fast-check generators for the route fuzz specs: path segments, query keys
 * and values, and JSON bodies built from a valid template. Generators that mix
 * in seeded ids take them lazily (the app is seeded in `beforeAll`).
 */
import fc from 'fast-check';
import { anyInput, injectionPayload, nearMissHex, validHex } from '../../../src/core/object-id-arbitraries.fixture.js';
import { asText, json, objectJson } from './request-text.js';

/** Keys that must never be accepted in a body: operators, dotted paths, server-owned fields. */
export const FORBIDDEN_KEYS = [
  '$where',
  '$set',
  '$gt',
  '$inc',
  'a.b',
  'price.$gt',
  'items.$',
  '_id',
  '__v',
  'id',
  'number',
  'total',
  'createdAt',
  'polluted',
];
/**
 * Keys naming a prototype or an inherited method: Fastify's parser refuses
 * `__proto__` (and `constructor.prototype`) with 400; otherwise Nest's
 * ValidationPipe and class-transformer drop them silently instead of refusing
 * them like other unknown keys (see the report).
 */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** A seeded id with each letter in a random case. */
export const anyCase = (ids: () => string[]) =>
  fc
    .tuple(
      fc.nat().map((i) => ids()[i % ids().length]!),
      fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
    )
    .map(([id, upper]) => [...id].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** Path segments: anything, near misses, valid ids, seeded ids in any case, unicode and raw bytes. Never empty (another route). */
export const pathSegment = (stableIdAnyCase: fc.Arbitrary<string>) =>
  fc
    .oneof(
      { weight: 4, arbitrary: anyInput.map(asText) },
      { weight: 2, arbitrary: nearMissHex },
      { weight: 1, arbitrary: validHex },
      { weight: 2, arbitrary: stableIdAnyCase },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 30 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '.',
          '..',
          '%',
          '%zz',
          '?',
          '#',
          '/',
          ';',
          '+',
          ' ',
          'decode',
          'by-slug',
          'generate',
        ),
      },
    )
    .filter((s) => s.length > 0);

/** The query keys GET /products reads. */
export const LIST_KEYS = [
  'limit',
  'sort',
  'after',
  'before',
  'categoryId',
  'ids',
  'createdFrom',
  'createdTo',
  'createdOn',
  'tz',
];

/** Query keys: GET /products' own, with bracket and operator suffixes, prototype names, and anything. */
export const queryKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...LIST_KEYS) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...LIST_KEYS),
        fc.constantFrom('[$gt]', '[$ne]', '[$in][]', '[]', '[0]', '[__proto__]', '.$gt', '[$where]'),
      )
      .map(([key, suffix]) => key + suffix),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('__proto__', 'constructor', '$where', 'hasOwnProperty', '__proto__[after]'),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

const day = fc.date({ min: new Date('1969-01-01'), max: new Date('2107-01-01'), noInvalidDate: true });

/** Query values: anything, ids (seeded ones in any case), numbers, dates, time zones, id lists, operators. */
export const queryValue = (stableIdAnyCase: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: anyInput.map(asText) },
    { weight: 2, arbitrary: fc.oneof(validHex, stableIdAnyCase, nearMissHex) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 150 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('1e1', '0x10', ' 5', '5.0', '', '20', '100', '101', 'NaN', 'Infinity') },
    { weight: 1, arbitrary: fc.constantFrom('price', '-price', '-name', '-_id', 'slug', '-', '__proto__') },
    { weight: 1, arbitrary: day.map((d) => d.toISOString()) },
    { weight: 1, arbitrary: day.map((d) => d.toISOString().slice(0, 10)) },
    { weight: 1, arbitrary: fc.constantFrom('UTC', 'Europe/Prague', 'Etc/GMT+14', 'Mars/Olympus', 'utc', '+01:00') },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.oneof(validHex, stableIdAnyCase, nearMissHex), { minLength: 1, maxLength: 4 })
        .map((a) => a.join(',')),
    },
    { weight: 1, arbitrary: injectionPayload.map(json) },
  );

const extraKey = fc.oneof(fc.constantFrom(...FORBIDDEN_KEYS, ...PROTO_KEYS), fc.string({ maxLength: 8 }));

/** Generators of JSON bodies (as text) whose ids include seeded ones in any case. */
export function bodyArbitraries(stableIdAnyCase: fc.Arbitrary<string>) {
  /** What a field may hold in a fuzzed body (JSON text). */
  const fieldValue = fc.oneof(
    { weight: 4, arbitrary: anyInput.map(json) },
    { weight: 2, arbitrary: injectionPayload.map(json) },
    { weight: 1, arbitrary: stableIdAnyCase.map(json) },
    { weight: 1, arbitrary: fc.array(stableIdAnyCase, { maxLength: 3 }).map(json) },
    { weight: 1, arbitrary: fc.jsonValue().map(json) },
  );

  /** A template object (values as JSON text) with keys dropped, replaced and added. */
  function mutate(template: Record<string, string>, values: fc.Arbitrary<string> = fieldValue): fc.Arbitrary<string> {
    const keys = Object.keys(template);
    return fc
      .record({
        keep: fc.subarray(keys),
        overrides: fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength: 2 }),
        extras: fc.array(fc.tuple(extraKey, values), { maxLength: 2 }),
      })
      .map(({ keep, overrides, extras }) =>
        objectJson([...keep.map((key): [string, string] => [key, template[key]!]), ...overrides, ...extras]),
      );
  }

  /** Any JSON at all (arrays and scalars where an object is expected), random objects, or a mutated valid body. */
  const bodyFrom = (template: Record<string, string>, values?: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.jsonValue().map(json) },
      { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, fieldValue), { maxLength: 4 }).map(objectJson) },
      { weight: 5, arbitrary: mutate(template, values) },
    );

  return { fieldValue, mutate, bodyFrom };
}
