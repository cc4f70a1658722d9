import fc from 'fast-check';

/**
 * fast-check generators shared by the fuzz specs. Runs are seeded so a failure
 * reproduces: `FUZZ_SEED` picks the seed, `FUZZ_RUNS` the count (`npm run fuzz`
 * raises it from the modest default used by `npm test`).
 */
export const FUZZ = {
  seed: Number(process.env.FUZZ_SEED ?? 20261202),
  numRuns: Number(process.env.FUZZ_RUNS ?? 300),
};

const HEX = '0123456789abcdefABCDEF'.split('');

/** 24 hex characters in mixed case: always a valid id. */
export const validHex = fc.array(fc.constantFrom(...HEX), { minLength: 24, maxLength: 24 }).map((c) => c.join(''));

/** Characters that look like, or sit next to, hex digits. */
const nearChars = fc.constantFrom(
  'g',
  'G',
  'x',
  'X',
  'z',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '-',
  '.',
  '$',
  '"',
  '\\',
  '\uff10',
  '\uff41',
  '\u0660',
  '\u0430',
  '\u200b',
  '\u202e',
  '\ud800',
  '😀',
  'é',
);

/** A valid id with one edit: a replaced, inserted or deleted character, a prefix or whitespace. */
export const nearMissHex = fc.oneof(
  fc.tuple(validHex, fc.nat(23), nearChars).map(([h, i, c]) => h.slice(0, i) + c + h.slice(i + 1)),
  fc
    .tuple(validHex, fc.nat(24), fc.oneof(nearChars, fc.constantFrom(...HEX)))
    .map(([h, i, c]) => h.slice(0, i) + c + h.slice(i)),
  fc.tuple(validHex, fc.nat(23)).map(([h, i]) => h.slice(0, i) + h.slice(i + 1)),
  validHex.map((h) => `0x${h}`),
  validHex.map((h) => `0x${h.slice(2)}`),
  validHex.map((h) => h.slice(0, 12)),
  fc.tuple(validHex, fc.constantFrom(' ', '\n', '\r\n', '\t', '\u00a0')).map(([h, ws]) => h + ws),
);

/** Operator-injection and prototype payloads, as they arrive in JSON bodies. */
export const injectionPayload = fc.constantFrom<unknown>(
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(100)' },
  { $regex: '.*' },
  { $in: ['507f1f77bcf86cd799439011'] },
  { $oid: '507f1f77bcf86cd799439011' },
  JSON.parse('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
  { 'a.b': '507f1f77bcf86cd799439011' },
  { _bsontype: 'ObjectId', id: '507f1f77bcf86cd799439011' },
  { toHexString: '507f1f77bcf86cd799439011' },
);

/** Anything JSON can carry, plus near misses and injections. */
export const anyInput = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: nearMissHex },
  { weight: 2, arbitrary: validHex },
  { weight: 2, arbitrary: injectionPayload },
  { weight: 2, arbitrary: fc.jsonValue() },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
  },
  { weight: 1, arbitrary: fc.array(validHex, { maxLength: 3 }) },
);

export const HEX24 = /^[0-9a-fA-F]{24}$/;

/** Keys an operator-injection or extended JSON payload may carry. */
const payloadKey = fc.constantFrom(
  '$oid',
  '$OID',
  'oid',
  '$where',
  '$ne',
  '$gt',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  '$oid ',
  '',
);

/**
 * Objects around `{"$oid": "<24 hex>"}`: the real thing, the right key with any
 * value, extra keys, nesting, and arrays of them.
 */
export const extendedJsonInput = fc.oneof(
  { weight: 3, arbitrary: validHex.map(($oid) => ({ $oid })) },
  { weight: 2, arbitrary: fc.oneof(anyInput, nearMissHex).map(($oid) => ({ $oid })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(validHex, payloadKey, fc.jsonValue())
      .map(
        ([$oid, key, extra]) =>
          JSON.parse(JSON.stringify({ $oid, [key === '$oid' ? '$where' : key]: extra })) as object,
      ),
  },
  { weight: 2, arbitrary: fc.dictionary(payloadKey, fc.oneof(validHex, fc.jsonValue()), { maxKeys: 3 }) },
  { weight: 1, arbitrary: validHex.map(($oid) => ({ $oid: { $oid } })) },
  { weight: 1, arbitrary: validHex.map(($oid) => [{ $oid }]) },
  { weight: 1, arbitrary: validHex.map(($oid) => JSON.parse(`{"__proto__":{"$oid":"${$oid}"}}`) as object) },
);
